// crd-validate.js TOOLS crd|k8s SCHEMA REF DOCS.json [DOCS.json...]: every
// document of DOCS against a CRD's openAPIV3Schema (crd) or a Kubernetes
// OpenAPI v3 schema (k8s, REF its name), strict about unknown fields as the
// API server is with fieldValidation=Strict (x-kubernetes-preserve-unknown-
// fields stays open).  ajv from TOOLS/node_modules (make deps).  Prints one
// line per document; given several files (the schema compiled once, which
// is most of a run's time), each line starts with "FILE: ".  Exits 1 when a
// document of any file is invalid or a file holds none.
'use strict';
const fs = require('fs');
const path = require('path');
const [tools, mode, schemaFile, ref, ...docsFiles] = process.argv.slice(2);
const Ajv = require(path.join(path.resolve(tools), 'node_modules', 'ajv'));
function strict(s) {
	if (Array.isArray(s)) return s.forEach(strict);
	if (!s || typeof s !== 'object') return;
	if (s.properties && s.additionalProperties === undefined &&
	    !s['x-kubernetes-preserve-unknown-fields'])
		s.additionalProperties = false;
	for (const k of Object.keys(s)) strict(s[k]);
}
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
let validate;
if (mode === 'k8s') {
	strict(schema.components.schemas);
	ajv.addSchema(schema, 'k8s');
	validate = ajv.compile({ $ref: 'k8s#/components/schemas/' + ref });
} else {
	strict(schema);
	validate = ajv.compile(schema);
}
let bad = 0;
for (const docsFile of docsFiles) {
	const tag = docsFiles.length > 1 ? `${docsFile}: ` : '';
	const docs = JSON.parse(fs.readFileSync(docsFile, 'utf8'));
	docs.forEach((doc, i) => {
		if (validate(doc)) return console.log(`${tag}${i} ${doc.kind}/${doc.metadata && doc.metadata.name}: valid`);
		bad++;
		for (const e of validate.errors)
			console.log(`${tag}${i} ${doc.kind}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
	});
	if (!docs.length) { console.log(`${tag}no document`); bad++; }
}
if (!docsFiles.length) { console.log('no document'); bad = 1; }
process.exit(bad ? 1 : 0);
