// Patches Prism's form-body decoder so that it judges form arrays at all
// (run by npm ci as the postinstall script; see docs/openapi.md, "Prism's
// form arrays: a pinned patch").
//
// Prism 5.14.2 (@stoplight/prism-http 5.12.0,
// dist/validator/validators/body.js) keeps one value per key of an
// application/x-www-form-urlencoded body (splitUriParams: the last one)
// and one part per name of a multipart/form-data body
// (parseMultipartFormDataParams), and builds an array only for a property
// whose `encoding` declares a `style` (deserializeFormBody). An array
// property without `encoding` is therefore always a string to it, and
// refused ("must be array"), whatever the request: it cannot judge such a
// body. OpenAPI's default for a form property is style form, explode true:
// an array is one key=value pair (or part) per item. The patch makes the
// decoder read that: a repeated key or part is the list of its values, and
// an array property without a declared style is decoded with style form,
// explode true. Every value is still validated against the property's
// schema; nothing else changes.
//
// The patch is pinned: it applies to @stoplight/prism-http 5.12.0 only
// and fails (so npm ci fails) on any other version or when a line it
// replaces is not found exactly once. It is idempotent: a file that
// carries the marker is left alone. `node patch-prism.mjs -check` exits 1
// unless the installed file carries it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const version = '5.12.0';
export const marker = '/* mcpgen patch: form arrays (e2e/openapi/patch-prism.mjs) */';

const pkg = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', '@stoplight', 'prism-http');
const file = join(pkg, 'dist', 'validator', 'validators', 'body.js');

// Each replacement: the text of body.js as published, and what it becomes.
const replacements = [
	{
		why: 'a repeated key of a form body is the list of its values',
		from: `        const [key, ...rest] = pair.split('=');
        result[key] = rest.join('=');
        return result;`,
		to: `        const [key, ...rest] = pair.split('=');
        const value = rest.join('=');
        result[key] = Object.prototype.hasOwnProperty.call(result, key) ? [].concat(result[key], value) : value;
        return result;`,
	},
	{
		why: 'a repeated part of a multipart body is the list of its values',
		from: `        result[pair['name']] = pair['data'].toString();`,
		to: `        const value = pair['data'].toString();
        result[pair['name']] = Object.prototype.hasOwnProperty.call(result, pair['name']) ? [].concat(result[pair['name']], value) : value;`,
	},
	{
		why: 'each value of a list is decoded',
		from: `    return Object.entries(target).reduce((result, [k, v]) => {
        try {`,
		to: `    return Object.entries(target).reduce((result, [k, v]) => {
        if (Array.isArray(v)) {
            result[decodeURIComponent(k)] = v.map(x => decodeUriEntities({ x }, mediaType).x);
            return result;
        }
        try {`,
	},
	{
		why: 'an array property without a declared style is style form, explode true',
		from: `            const encoding = encodings.find(enc => enc.property === property);
            if (encoding && encoding.style) {`,
		to: `            let encoding = encodings.find(enc => enc.property === property);
            const declared = schema.properties[property];
            if (!(encoding && encoding.style) && declared && typeof declared !== 'boolean' && declared.type === 'array') {
                encoding = { ...encoding, property, style: 'form', explode: !(encoding && encoding.explode === false) };
            }
            if (encoding && encoding.style) {`,
	},
	{
		why: 'each value of a list is checked for reserved characters',
		from: `        if (!allowReserved && /[/?#[\\]@!$&'()*+,;=]/.test(value)) {`,
		to: `        if (!allowReserved && [].concat(value).some(v => /[/?#[\\]@!$&'()*+,;=]/.test(v))) {`,
	},
];

const check = process.argv.includes('-check');
const installed = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;
let src = readFileSync(file, 'utf8');
if (src.includes(marker)) {
	process.exit(0);
}
if (check) {
	console.error(`patch-prism: ${file} is not patched (run npm ci in e2e/openapi)`);
	process.exit(1);
}
if (installed !== version) {
	console.error(`patch-prism: @stoplight/prism-http is ${installed}, the patch is for ${version}: review the patch for the new version`);
	process.exit(1);
}
for (const r of replacements) {
	const n = src.split(r.from).length - 1;
	if (n !== 1) {
		console.error(`patch-prism: ${file}: the text to replace (${r.why}) occurs ${n} times, want 1`);
		process.exit(1);
	}
	src = src.replace(r.from, () => r.to);
}
writeFileSync(file, marker + '\n' + src);
console.log(`patch-prism: patched ${file} (${replacements.length} changes)`);
