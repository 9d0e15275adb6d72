// Compiles every inputSchema and outputSchema of a tools/list result (a
// JSON file: [{name, inputSchema, outputSchema}]) the way the official
// TypeScript SDK does: Ajv 2020 with unicode regular expressions and
// ajv-formats, strict off (Ajv 8.18.0 and ajv-formats 3.0.1, the versions
// @modelcontextprotocol/client 2.4.0 bundles; pinned in package.json).
// Prints one line per failure and exits 1 if any.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

const addFormats = addFormatsModule.default ?? addFormatsModule;
const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
let failed = 0;
for (const t of tools) {
  for (const key of ["inputSchema", "outputSchema"]) {
    if (!t[key]) continue;
    const ajv = new Ajv2020({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
    addFormats(ajv);
    try {
      ajv.compile(t[key]);
    } catch (e) {
      failed++;
      console.log(`${t.name} ${key}: ${e.message}`);
    }
  }
}
console.log(`compiled ${tools.length} tools, ${failed} failures`);
process.exit(failed ? 1 : 0);
