// Validates a value against a schema of an OpenAPI 3.1 document with the
// validator the official TypeScript SDK uses (client-ajv.mjs), to tell
// whether a request the sweep sent, or the server refused, is valid by the
// document itself:
//
//	node ajv-validate.mjs DOC.json OPERATION_ID|POINTER VALUE_JSON
//
// OPERATION_ID names an operation whose application/json request body
// schema is used; POINTER is a JSON pointer into the document
// ("#/components/schemas/Pet"). A YAML document can be turned into JSON
// first with the pruner (go run ./internal/oaprune/cmd/oaprune -o
// doc.json DOC OPERATION…). Prints "valid", or each error; for a oneOf,
// which variants the value matched. Exits 1 when the value is invalid.
import { readFileSync } from "node:fs";
import { clientAjv } from "./client-ajv.mjs";

const [docFile, what, valueJSON] = process.argv.slice(2);
if (!valueJSON) {
  console.error("usage: node ajv-validate.mjs DOC.json OPERATION_ID|POINTER VALUE_JSON");
  process.exit(2);
}
const doc = JSON.parse(readFileSync(docFile, "utf8"));
let pointer = what;
if (!what.startsWith("#")) {
  pointer = undefined;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (op?.operationId === what) {
        const esc = (s) => s.replaceAll("~", "~0").replaceAll("/", "~1");
        pointer = `#/paths/${esc(path)}/${method}/requestBody/content/application~1json/schema`;
      }
    }
  }
  if (!pointer) {
    console.error(`no operation ${what}`);
    process.exit(2);
  }
}
// The document is one schema resource: its $refs (#/components/…) resolve
// inside it. OpenAPI's own keywords are not JSON Schema's: strict off.
const id = "https://mcpgen.invalid/doc.json";
// Formats Ajv does not know (Discord's "snowflake") are not checked, as in
// the SDK, without a warning per use.
const quiet = { log() {}, warn() {}, error: console.error };
const ajv = clientAjv({ logger: quiet });
ajv.addSchema({ ...doc, $id: id });
const validate = ajv.compile({ $ref: id + pointer });
if (validate(JSON.parse(valueJSON))) {
  console.log("valid");
  process.exit(0);
}
for (const e of validate.errors) {
  const extra = e.keyword === "oneOf" ? ` (matches ${JSON.stringify(e.params.passingSchemas)})` : "";
  console.log(`${e.instancePath || "/"} ${e.message}${extra} [${e.schemaPath}]`);
}
process.exit(1);
