// The JSON Schema validator of the official TypeScript client, set up as
// its AjvJsonSchemaValidator does (@modelcontextprotocol/client 2.4.0,
// core-internal/src/validators/ajvProvider.ts): Ajv 2020 (8.18.0) with
// ajv-formats (3.0.1), strict off, formats validated, schemas not checked
// against the meta-schema, all errors; regular expressions are unicode
// (Ajv's default). The versions are pinned in package.json. Every check
// here of what that client accepts builds its validator with clientAjv,
// so the client profile is defined once.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule.default ?? addFormatsModule;

/**
 * Returns a new Ajv instance configured as the TypeScript client's.
 * @param {object} [extra] options for this use that do not change what
 *   validates (a logger, say).
 */
export function clientAjv(extra = {}) {
  const ajv = new Ajv2020({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, ...extra });
  addFormats(ajv);
  return ajv;
}
