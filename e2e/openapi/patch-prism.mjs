// Patches Prism so that it judges requests it would otherwise misjudge or
// crash on (run by npm ci as the postinstall script; see docs/openapi.md,
// "Prism's pinned patch").
//
// Prism 5.14.2 (@stoplight/prism-http 5.12.0, @stoplight/http-spec 7.1.0):
//
// Form arrays (dist/validator/validators/body.js). Prism keeps one value
// per key of an application/x-www-form-urlencoded body (splitUriParams:
// the last one) and one part per name of a multipart/form-data body
// (parseMultipartFormDataParams), and builds an array only for a property
// whose `encoding` declares a `style` (deserializeFormBody). An array
// property without `encoding` is therefore always a string to it, and
// refused ("must be array"), whatever the request: it cannot judge such a
// body. OpenAPI's default for a form property is style form, explode true:
// an array is one key=value pair (or part) per item. The patch makes the
// decoder read that: a repeated key or part is the list of its values, and
// an array property without a declared style is decoded with style form,
// explode true.
//
// Multipart bodies (the same file, deserializeAndValidate). OpenAPI
// ignores `style`, `explode` and `allowReserved` for any media type but
// application/x-www-form-urlencoded, and gives an object property of a
// multipart body the content type application/json. Prism applied the
// form styles and the reserved-character check to multipart parts too
// ("Reserved characters used in request body" for a JSON part's `,`) and
// kept every part as text ("must be object"). The patch reads a multipart
// array property as its parts (one per item) and an object or array part
// (an item of an array of objects too) as JSON, and skips the
// reserved-character check there.
//
// Path parameters (dist/validator/index.js, getPathParams). Prism matches
// the path with uri-template-lite, which splits a segment at each `,` and
// returns an array; the style deserializers then call string methods on
// it and Prism dies ("value.split is not a function",
// "parameters[name].startsWith is not a function") on any array or object
// path parameter of the simple, label or matrix style. The patch joins
// the pieces again, so the deserializer reads the segment as sent.
// (uri-template-lite has already decoded the segment, so an item holding
// an escaped `,` is still split there; OpenAPI's styles cannot tell such
// an item from two anyway.)
//
// Label objects (dist/validator/deserializers/style/label.js). Exploded,
// a label object is `.k=v.k=v` (OpenAPI's style examples); Prism split it
// at `,`. The patch splits it at `.`.
//
// Absent headers (dist/validator/deserializers/style/simple.js). An
// optional array or object header that the request leaves out is
// undefined, and Prism dies ("Cannot read properties of undefined
// (reading 'split')"). The patch leaves it out of the values it judges, as
// Prism does for every other absent parameter.
//
// Delimited queries (dist/validator/deserializers/style/delimited.js and
// dist/validator/deserializers/index.js). Prism throws ("Space/pipe/
// comma.. delimited style is only applicable to array parameter") on an
// object, which OpenAPI 3.1 allows for spaceDelimited and pipeDelimited
// (3.0.3's examples show it too: `R%20100%20G%20200%20B%20150`); and it
// splits spaceDelimited values at the text `%20`, while its server has
// already decoded the query (URLSearchParams), so an array was one item.
// The patch splits at a space, decodes a non-exploded object as its
// key,value list joined by the style's delimiter, and an exploded one
// (which OpenAPI does not define for these styles) as style form,
// explode true: one key=value pair per property, what mcpgen sends.
//
// Swagger 2.0 bodies without `consumes` (@stoplight/http-spec
// oas2/transformers/params.js, translateToBodyParameter). A body
// parameter's media types are the operation's `consumes`, or the
// document's; when neither is given Prism lists none and refuses every
// body ("No supported content types, but request included a non-empty
// body"). Swagger 2.0 gives no default, but its body parameter is a JSON
// Schema and mcpgen sends application/json there; the patch reads a
// missing `consumes` as application/json.
//
// Every value is still validated against its schema; nothing else
// changes. The patch is pinned: it applies to those versions only and
// fails (so npm ci fails) on any other version or when a text it replaces
// is not found exactly once. It is idempotent: a file that carries the
// marker is left alone. `node patch-prism.mjs -check` exits 1 unless
// every file carries it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const marker = '/* mcpgen patch (e2e/openapi/patch-prism.mjs) */';

const modules = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', '@stoplight');
const prismHTTP = { dir: join(modules, 'prism-http'), version: '5.12.0' };
const httpSpec = { dir: join(modules, 'http-spec'), version: '7.1.0' };

// Each file: its package, its path there, and each replacement: the text
// as published, and what it becomes.
const files = [
	{
		pkg: prismHTTP,
		file: 'dist/validator/validators/body.js',
		replacements: [
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
				why: 'a multipart body is judged without the styles and reserved characters OpenAPI ignores there',
				from: `E.chain(encodedUriParams => validateAgainstReservedCharacters(encodedUriParams, encodings, prefix)), E.map(target => decodeUriEntities(target, content.mediaType)), E.chain(decodedUriEntities => deserializeFormBody(schema, encodings, decodedUriEntities))`,
				to: `E.chain(encodedUriParams => content.mediaType === 'multipart/form-data' ? E.right(encodedUriParams) : validateAgainstReservedCharacters(encodedUriParams, encodings, prefix)), E.map(target => decodeUriEntities(target, content.mediaType)), E.chain(decodedUriEntities => content.mediaType === 'multipart/form-data' ? deserializeMultipartBody(schema, decodedUriEntities) : deserializeFormBody(schema, encodings, decodedUriEntities))`,
			},
			{
				why: 'an array property of a multipart body is its parts, and an object or array part is JSON',
				from: `exports.deserializeFormBody = deserializeFormBody;`,
				to: `exports.deserializeFormBody = deserializeFormBody;
function deserializeMultipartBody(schema, parts) {
    const json = v => { try { return JSON.parse(v); } catch (_) { return v; } };
    const structured = s => !!s && typeof s === 'object' && (s.type === 'object' || s.type === 'array');
    const deserialized = {};
    for (const [property, declared] of Object.entries(schema.properties || {})) {
        const value = parts[property];
        if (value === undefined || !declared || typeof declared === 'boolean') {
            deserialized[property] = value;
        }
        else if (declared.type === 'array') {
            deserialized[property] = [].concat(value).map(v => structured(declared.items) ? json(v) : v);
        }
        else {
            deserialized[property] = structured(declared) ? json(value) : value;
        }
    }
    return E.right(deserialized);
}`,
			},
			{
				why: 'each value of a list is checked for reserved characters',
				from: `        if (!allowReserved && /[/?#[\\]@!$&'()*+,;=]/.test(value)) {`,
				to: `        if (!allowReserved && [].concat(value).some(v => /[/?#[\\]@!$&'()*+,;=]/.test(v))) {`,
			},
		],
	},
	{
		pkg: prismHTTP,
		file: 'dist/validator/index.js',
		replacements: [
			{
				why: 'a path segment that uri-template-lite split at its commas is one value again',
				from: `    return new uri_template_lite_1.URI.Template(template).match(path);`,
				to: `    const params = new uri_template_lite_1.URI.Template(template).match(path);
    return params && Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));`,
			},
		],
	},
	{
		pkg: prismHTTP,
		file: 'dist/validator/deserializers/style/label.js',
		replacements: [
			{
				why: 'an exploded label object is .k=v.k=v',
				from: `function deserializeImplodeObject(value) {
    return value.split(',').reduce(`,
				to: `function deserializeImplodeObject(value) {
    return value.split('.').reduce(`,
			},
		],
	},
	{
		pkg: prismHTTP,
		file: 'dist/validator/deserializers/style/simple.js',
		replacements: [
			{
				why: 'an absent header is left out',
				from: `    const value = parameters[name];
    if (type === 'array') {`,
				to: `    const value = parameters[name];
    if (value === undefined) {
        return undefined;
    }
    if (type === 'array') {`,
			},
		],
	},
	{
		pkg: prismHTTP,
		file: 'dist/validator/deserializers/style/delimited.js',
		replacements: [
			{
				why: 'a space- or pipe-delimited object is its key,value list, or style form when exploded',
				from: `        else {
            throw new Error('Space/pipe/comma.. delimited style is only applicable to array parameter');`,
				to: `        else if (type === 'object' && explode) {
            return require('./form').deserializeFormStyle(name, parameters, schema, true);
        }
        else if (type === 'object') {
            const list = deserializeArray(values);
            return list === '' ? undefined : require('./utils').createObjectFromKeyValList(list);
        }
        else {
            throw new Error('Space/pipe/comma.. delimited style is only applicable to array parameter');`,
			},
		],
	},
	{
		pkg: prismHTTP,
		file: 'dist/validator/deserializers/index.js',
		replacements: [
			{
				why: 'a decoded spaceDelimited value is split at its spaces',
				from: `spaceDelimited: (0, delimited_1.createDelimitedDeserializerStyle)('%20'),`,
				to: `spaceDelimited: (0, delimited_1.createDelimitedDeserializerStyle)(' '),`,
			},
		],
	},
	{
		pkg: httpSpec,
		file: 'oas2/transformers/params.js',
		replacements: [
			{
				why: 'a 2.0 body without consumes is application/json',
				from: `    const nonFormDataConsumes = consumes.filter(c => !FORM_DATA_CONSUMES.includes(c));`,
				to: `    const nonFormDataConsumes = consumes.length === 0 ? ['application/json'] : consumes.filter(c => !FORM_DATA_CONSUMES.includes(c));`,
			},
		],
	},
];

const check = process.argv.includes('-check');
const todo = [];
for (const f of files) {
	const path = join(f.pkg.dir, f.file);
	const src = readFileSync(path, 'utf8');
	if (src.includes(marker)) {
		continue;
	}
	if (check) {
		console.error(`patch-prism: ${path} is not patched (run npm ci in e2e/openapi)`);
		process.exit(1);
	}
	const installed = JSON.parse(readFileSync(join(f.pkg.dir, 'package.json'), 'utf8')).version;
	if (installed !== f.pkg.version) {
		console.error(`patch-prism: ${f.pkg.dir} is ${installed}, the patch is for ${f.pkg.version}: review the patch for the new version`);
		process.exit(1);
	}
	let out = src;
	for (const r of f.replacements) {
		const n = out.split(r.from).length - 1;
		if (n !== 1) {
			console.error(`patch-prism: ${path}: the text to replace (${r.why}) occurs ${n} times, want 1`);
			process.exit(1);
		}
		out = out.replace(r.from, () => r.to);
	}
	todo.push([path, marker + '\n' + out, f.replacements.length]);
}
// Written only once every file has been checked, so that a failure
// leaves none patched.
for (const [path, out, n] of todo) {
	writeFileSync(path, out);
	console.log(`patch-prism: patched ${path} (${n} changes)`);
}
