#!/usr/bin/env node
// ajv-check.js - ajv's verdict on GPUSite documents, for the cross-check
// against the C validator (tests/e2e/t1101-schema-ajv.sh).
//
//   node ajv-check.js TOOLS_DIR SCHEMA FILE...
//
// TOOLS_DIR holds node_modules with ajv@8, ajv-formats@3 and yaml@2
// (make deps puts them in .tools/).  YAML is read as the C loader reads it:
// YAML 1.2 core schema, merge keys, duplicate keys refused, empty documents
// skipped.  For each file it prints, one line each:
//   FILE<TAB>INDEX<TAB>valid|invalid     a GPUSite document (see isSite)
//   FILE<TAB>-<TAB>unparsed<TAB>WHY      yaml refuses the file
//   FILE<TAB>-<TAB>no-site               no document is a GPUSite
// and on stderr, for invalid documents, ajv's first errors (for humans).
'use strict';
const fs = require('fs');
const path = require('path');

const [tools, schemaFile, ...files] = process.argv.slice(2);
if (!tools || !schemaFile) {
	process.stderr.write('usage: node ajv-check.js TOOLS_DIR SCHEMA FILE...\n');
	process.exit(2);
}
const req = (m) => require(path.join(path.resolve(tools), 'node_modules', m));
const Ajv = req('ajv');
const addFormats = req('ajv-formats');
const YAML = req('yaml');

// draft-07 makes `format` an annotation, and so does the C validator:
// the formats are known to ajv (no "unknown format" error) but not asserted.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));

// A document the cross-check looks at: it says it is a GPUSite, or it is
// a mapping that names no other kind (a broken site spec is still a site).
function isSite(v) {
	if (v === null || typeof v !== 'object' || Array.isArray(v))
		return false;
	if (v.kind === 'GPUSite')
		return true;
	if (typeof v.apiVersion === 'string' && v.apiVersion.startsWith('gpusite.io/'))
		return true;
	return !('apiVersion' in v) && !('kind' in v);
}

for (const file of files) {
	let docs, values;
	try {
		const text = fs.readFileSync(file, 'utf8');
		docs = YAML.parseAllDocuments(text, {
			version: '1.2', schema: 'core', merge: true, uniqueKeys: true,
			maxAliasCount: 1000, prettyErrors: false,
		});
		if (!Array.isArray(docs))	// an empty stream
			docs = [];
		for (const d of docs)
			if (d.errors.length)
				throw new Error(d.errors[0].message.split('\n')[0]);
		// The C loader skips documents with no content at all.
		values = docs.filter((d) => d.contents !== null)
			.map((d) => d.toJS({ maxAliasCount: 1000 }));
	} catch (e) {
		console.log(`${file}\t-\tunparsed\t${e.message}`);
		continue;
	}
	let sites = 0;
	values.forEach((v, i) => {
		if (!isSite(v))
			return;
		sites++;
		const ok = validate(v);
		console.log(`${file}\t${i}\t${ok ? 'valid' : 'invalid'}`);
		if (!ok)
			for (const e of validate.errors.slice(0, 3))
				process.stderr.write(`${file}[${i}]: ${e.instancePath || '/'} ${e.message}\n`);
	});
	if (!sites)
		console.log(`${file}\t-\tno-site`);
}
