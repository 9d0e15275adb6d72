// Compiles every inputSchema and outputSchema of a tools/list result (a
// JSON file: [{name, inputSchema, outputSchema}]) the way the official
// TypeScript SDK does (client-ajv.mjs).
// Prints one line per failure and exits 1 if any.
import { readFileSync } from "node:fs";
import { clientAjv } from "./client-ajv.mjs";

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
let failed = 0;
for (const t of tools) {
  for (const key of ["inputSchema", "outputSchema"]) {
    if (!t[key]) continue;
    const ajv = clientAjv();
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
