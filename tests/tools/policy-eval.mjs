// policy-eval.mjs - run a RENDERED placement policy on one Pod, the way
// admission would, and print the Pod that comes out (JSON on stdout).
//
//   node tests/tools/policy-eval.mjs STREAM POLICY POD [NS_LABELS_JSON]
//   node tests/tools/policy-eval.mjs --batch OUTDIR STREAM POLICY POD...
//
// STREAM is gpusite's rendered YAML stream, POLICY the metadata.name of a
// Kyverno MutatingPolicy, a kyverno.io ClusterPolicy or a
// MutatingAdmissionPolicy in it (with its bindings) - or several, comma
// separated, or ALL (every such policy of the stream), run one after the
// other on the Pod each leaves, as admission chains them - POD a Pod as the API
// server holds it when mutating admission starts (DefaultTolerationSeconds
// has already run).  The namespace object's labels default to
// {kubernetes.io/metadata.name: <namespace>}.  stderr says which
// mutations produced how many patches.  Exit 0, or 2 when admission would
// reject the Pod (an expression error or a patch that cannot apply, under
// failurePolicy Fail), 3 on bad input.
//
// How close this is to the real thing (the tools: @marcbachmann/cel-js,
// fast-json-patch, jmespath, all pinned in mk/deps.sh):
//  - CEL: a JavaScript CEL, not cel-go with Kubernetes' libraries.  Typed
//    object constructors (JSONPatch{...}, Object.spec.x{...}) are rewritten
//    to plain maps before evaluation, as both evaluate to the same JSON
//    value; lists.range() is supplied; optional types are on.
//  - JSON patches (MutatingPolicy, MutatingAdmissionPolicy): plain RFC 6902
//    (an add needs its parent; a failed test makes that patch a no-op), as
//    the API server and Kyverno (evanphx/json-patch) apply them.
//  - ClusterPolicy: match (kinds, namespaces, operations, selector),
//    preconditions (JMESPath inside {{ }} and Kyverno's operators), foreach
//    over a list, patchesJson6902 with Kyverno's EnsurePathExistsOnAdd.
//    Kyverno's own JMESPath functions beyond the standard ones are absent.
//  - variables are evaluated on first use and cached for the request.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Environment } from '@marcbachmann/cel-js';
import jsonpatch from 'fast-json-patch';
import jmespath from 'jmespath';
import YAML from 'yaml';

const args = process.argv.slice(2);
// --batch OUTDIR STREAM POLICY POD...: each POD as above (default namespace
// labels), one process for all: OUTDIR/NAME.json is the Pod that comes out
// (absent when rejected), OUTDIR/NAME.log what stderr would say, with NAME
// the POD's file name without .yaml or .json.  Exit 0 unless the input is bad.
const batchDir = args[0] === '--batch' ? args.splice(0, 2)[1] : null;
const [streamFile, policyArg, podFile, nsLabelsJson] = args;
let policyName = policyArg;
if (!streamFile || !policyArg || !podFile || (batchDir && !existsSync(batchDir))) {
	process.stderr.write('usage: policy-eval.mjs [--batch OUTDIR] STREAM POLICY POD [NS_LABELS_JSON | POD...]\n');
	process.exit(3);
}
const docs = YAML.parseAllDocuments(readFileSync(streamFile, 'utf8')).map((d) => d.toJS()).filter(Boolean);
let pod, ns, nsLabels;
let logLines = null;	// batch: the lines of the Pod being evaluated
const log = (s) => logLines ? logLines.push(s) : process.stderr.write(s + '\n');
// a rejection ends the evaluation of the Pod (the process, unless --batch)
class Rejected extends Error {
	constructor(code) { super('rejected'); this.code = code; }
}
const reject = (why) => { log('rejected: ' + why); throw new Rejected(2); };

// ---- label selectors (metav1.LabelSelector) -------------------------------
function selects(sel, labels) {
	if (!sel) return true;
	labels = labels ?? {};
	for (const [k, v] of Object.entries(sel.matchLabels ?? {}))
		if (labels[k] !== v) return false;
	for (const e of sel.matchExpressions ?? []) {
		const has = Object.prototype.hasOwnProperty.call(labels, e.key);
		const vals = e.values ?? [];
		switch (e.operator) {
		case 'In': if (!has || !vals.includes(labels[e.key])) return false; break;
		case 'NotIn': if (has && vals.includes(labels[e.key])) return false; break;
		case 'Exists': if (!has) return false; break;
		case 'DoesNotExist': if (has) return false; break;
		default: return false;
		}
	}
	return true;
}

// ---- CEL ---------------------------------------------------------------------
// Typed constructors -> maps: `JSONPatch{op: "add"}` and `Object.a.b{k: v}`
// become `{"op": "add"}` / `{"k": v}`; strings are copied untouched.
export function untype(src) {
	let out = '', i = 0;
	const stack = [];	// 'struct' | 'map'
	let expectField = false;
	const ident = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/y;
	while (i < src.length) {
		const c = src[i];
		if (c === '"' || c === "'") {
			const triple = src.startsWith(c.repeat(3), i);
			const q = triple ? c.repeat(3) : c;
			let j = i + q.length;
			while (j < src.length && !src.startsWith(q, j)) j += src[j] === '\\' ? 2 : 1;
			out += src.slice(i, j + q.length);
			i = j + q.length;
			continue;
		}
		ident.lastIndex = i;
		const m = ident.exec(src);
		if (m && (i === 0 || !/[A-Za-z0-9_.]/.test(src[i - 1]))) {
			let j = i + m[0].length;
			while (/\s/.test(src[j] ?? '')) j++;
			if (expectField && stack.at(-1) === 'struct' && src[j] === ':') {
				out += JSON.stringify(m[0]);
			} else if (src[j] === '{' && (m[0] === 'JSONPatch' || m[0] === 'Object' || m[0].startsWith('Object.'))) {
				out += '{';
				stack.push('struct');
				i = j + 1;
				expectField = true;
				continue;
			} else {
				out += m[0];
			}
			expectField = false;
			i += m[0].length;
			continue;
		}
		if (c === '{') { stack.push('map'); expectField = false; }
		else if (c === '}') { stack.pop(); expectField = false; }
		else if (c === ',' && stack.at(-1) === 'struct') expectField = true;
		else if (!/\s/.test(c)) expectField = false;
		out += c;
		i++;
	}
	return out;
}

class Lists {}
const env = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false });
env.registerType('Lists', Lists);
env.registerFunction({
	signature: 'range(int): list<int>', receiverType: 'Lists',
	handler: (_self, n) => Array.from({ length: Number(n) }, (_, k) => BigInt(k)),
});

// JSON -> CEL values (integers as BigInt) and back.
const toCel = (v) => Array.isArray(v) ? v.map(toCel)
	: v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCel(x)]))
	: Number.isInteger(v) ? BigInt(v) : v;
const fromCel = (v) => typeof v === 'bigint' ? Number(v)
	: v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, fromCel(x)]))
	: Array.isArray(v) ? v.map(fromCel)
	: v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromCel(x)]))
	: v;

function celEval(expr, vars) {
	try {
		return env.evaluate(untype(expr), vars);
	} catch (e) {
		reject(`CEL error in ${JSON.stringify(expr.slice(0, 60))}: ${e.message.split('\n')[0]}`);
	}
}

// variables: evaluated on first use, then cached for the whole request.
function lazyVariables(defs, state) {
	const cache = new Map(), vars = {};
	for (const v of defs ?? [])
		Object.defineProperty(vars, v.name, {
			enumerable: true,
			get() {
				if (!cache.has(v.name))
					cache.set(v.name, celEval(v.expression, { object: toCel(state.object), variables: vars, lists: new Lists() }));
				return cache.get(v.name);
			},
		});
	return vars;
}

// RFC 6902, as the API server applies JSONPatch mutations.
function applyJsonPatch(doc, ops, where) {
	try {
		return jsonpatch.applyPatch(jsonpatch.deepClone(doc), ops, true, false).newDocument;
	} catch (e) {
		if (e.name === 'TEST_OPERATION_FAILED') return doc;	// a failed test: a silent no-op
		reject(`${where}: patch ${JSON.stringify(ops)} does not apply: ${e.message.split('\n')[0]}`);
	}
}

function runCelPolicy(spec, kind) {
	const rules = spec.matchConstraints?.resourceRules ?? [];
	const hit = rules.some((r) => (r.apiGroups ?? []).some((g) => g === '' || g === '*') &&
		(r.resources ?? []).some((x) => x === 'pods' || x === '*') &&
		(r.operations ?? []).some((o) => o === 'CREATE' || o === '*'));
	if (!hit || !selects(spec.matchConstraints?.namespaceSelector, nsLabels) ||
	    !selects(spec.matchConstraints?.objectSelector, pod.metadata?.labels)) {
		log(`${kind} ${policyName}: does not match this Pod`);
		return pod;
	}
	const state = { object: pod };
	const variables = lazyVariables(spec.variables, state);
	for (const mc of spec.matchConditions ?? []) {
		const ok = celEval(mc.expression, { object: toCel(pod), variables, lists: new Lists() });
		if (ok !== true) {
			log(`${kind} ${policyName}: matchCondition ${mc.name} is false`);
			return pod;
		}
	}
	(spec.mutations ?? []).forEach((m, k) => {
		if (m.patchType !== 'JSONPatch') reject(`mutation ${k}: patchType ${m.patchType} is not evaluated here`);
		const ops = fromCel(celEval(m.jsonPatch.expression, { object: toCel(state.object), variables, lists: new Lists() }));
		log(`${kind} ${policyName}: mutation ${k}: ${ops.length} patch${ops.length === 1 ? '' : 'es'}`);
		state.object = applyJsonPatch(state.object, ops, `mutation ${k}`);
	});
	return state.object;
}

// ---- Kyverno ClusterPolicy -----------------------------------------------------
const wildcard = (pat, s) => new RegExp('^' + pat.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$').test(s);

function substitute(s, ctx) {
	if (typeof s !== 'string') return s;
	const whole = s.match(/^\s*\{\{(.*)\}\}\s*$/s);
	if (whole && !whole[1].includes('{{')) return jmespath.search(ctx, whole[1].trim());
	return s.replace(/\{\{(.*?)\}\}/g, (_, e) => {
		const v = jmespath.search(ctx, e.trim());
		return typeof v === 'string' ? v : JSON.stringify(v);
	});
}

const num = (v) => typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !isNaN(Number(v)) ? Number(v) : NaN;
function same(a, b) {
	if (!isNaN(num(a)) && !isNaN(num(b))) return num(a) === num(b);
	return JSON.stringify(a) === JSON.stringify(b);
}
const asList = (v) => Array.isArray(v) ? v : [v];

function condition(c, ctx) {
	const key = substitute(c.key, ctx), value = substitute(c.value, ctx);
	switch (c.operator) {
	case 'Equals': return same(key, value);
	case 'NotEquals': return !same(key, value);
	case 'GreaterThan': return num(key) > num(value);
	case 'GreaterThanOrEquals': return num(key) >= num(value);
	case 'LessThan': return num(key) < num(value);
	case 'LessThanOrEquals': return num(key) <= num(value);
	case 'AnyIn': return asList(key).some((k) => asList(value).some((v) => same(k, v)));
	case 'AllIn': return asList(key).every((k) => asList(value).some((v) => same(k, v)));
	case 'AnyNotIn': return asList(key).some((k) => !asList(value).some((v) => same(k, v)));
	case 'AllNotIn': return asList(key).every((k) => !asList(value).some((v) => same(k, v)));
	default: reject(`precondition operator ${c.operator} is not evaluated here`);
	}
}

function preconditions(p, ctx) {
	if (!p) return true;
	if (Array.isArray(p)) return p.every((c) => condition(c, ctx));
	return (p.all ?? []).every((c) => condition(c, ctx)) &&
		(!p.any || p.any.some((c) => condition(c, ctx)));
}

function resourceMatches(res) {
	if (!res) return false;
	if (res.kinds && !res.kinds.some((k) => k === 'Pod' || k === 'v1/Pod' || k === '*')) return false;
	if (res.namespaces && !res.namespaces.some((n) => wildcard(n, ns))) return false;
	if (res.operations && !res.operations.includes('CREATE')) return false;
	if (res.selector && !selects(res.selector, pod.metadata?.labels)) return false;
	if (res.namespaceSelector && !selects(res.namespaceSelector, nsLabels)) return false;
	return true;
}

function ruleMatches(block) {
	if (!block) return false;
	if (block.any) return block.any.some((f) => resourceMatches(f.resources));
	if (block.all) return block.all.every((f) => resourceMatches(f.resources));
	return resourceMatches(block.resources);
}

// patchesJson6902 with EnsurePathExistsOnAdd: missing parents of an add appear.
function kyvernoPatch(doc, text, ctx, where) {
	const ops = YAML.parse(substitute(text, ctx).toString());
	doc = jsonpatch.deepClone(doc);
	for (const op of ops) {
		if (op.op === 'add') {
			const parts = op.path.split('/').slice(1, -1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
			let cur = doc;
			parts.forEach((p, k) => {
				if (cur[p] === undefined) cur[p] = /^(\d+|-)$/.test(op.path.split('/')[k + 2] ?? '') ? [] : {};
				cur = cur[p];
			});
		}
	}
	return applyJsonPatch(doc, ops, where);
}

function runClusterPolicy(spec) {
	let obj = pod;
	for (const rule of spec.rules ?? []) {
		if (!ruleMatches(rule.match) || (rule.exclude && ruleMatches(rule.exclude))) {
			log(`ClusterPolicy ${policyName}: rule ${rule.name} does not match`);
			continue;
		}
		const ctx = () => ({ request: { object: obj, operation: 'CREATE', namespace: ns } });
		if (!preconditions(rule.preconditions, ctx())) {
			log(`ClusterPolicy ${policyName}: rule ${rule.name}: preconditions not met`);
			continue;
		}
		const m = rule.mutate ?? {};
		if (m.patchStrategicMerge) reject(`rule ${rule.name}: patchStrategicMerge is not evaluated here`);
		if (m.patchesJson6902) {
			obj = kyvernoPatch(obj, m.patchesJson6902, ctx(), `rule ${rule.name}`);
			log(`ClusterPolicy ${policyName}: rule ${rule.name}: applied`);
		}
		for (const fe of m.foreach ?? []) {
			const list = jmespath.search(ctx(), fe.list) ?? [];
			list.forEach((element, elementIndex) => {
				const c = { ...ctx(), element, elementIndex };
				if (!preconditions(fe.preconditions, c) || !fe.patchesJson6902) return;
				obj = kyvernoPatch(obj, fe.patchesJson6902, c, `rule ${rule.name} foreach[${elementIndex}]`);
				log(`ClusterPolicy ${policyName}: rule ${rule.name}: element ${elementIndex} patched`);
			});
		}
	}
	return obj;
}

// ---- main ------------------------------------------------------------------------
const kinds = ['MutatingPolicy', 'ClusterPolicy', 'MutatingAdmissionPolicy'];
const names = policyArg === 'ALL'
	? docs.filter((d) => kinds.includes(d.kind)).map((d) => d.metadata.name)
	: policyArg.split(',');
// evalPod(): the Pod that comes out of admission for the global pod
function evalPod() {
let out = pod;
for (const name of names) {
	policyName = name;
	const policy = docs.find((d) => d.metadata?.name === policyName &&
		['MutatingPolicy', 'ClusterPolicy', 'MutatingAdmissionPolicy'].includes(d.kind));
	if (!policy) { log(`no policy ${policyName} in ${streamFile}`); throw new Rejected(3); }
	if (policy.kind === 'ClusterPolicy') {
		out = runClusterPolicy(policy.spec);
	} else if (policy.kind === 'MutatingPolicy') {
		out = runCelPolicy(policy.spec, 'MutatingPolicy');
	} else {
		// the bindings narrow what the policy matches; without one it never runs
		const bindings = docs.filter((d) => d.kind === 'MutatingAdmissionPolicyBinding' && d.spec?.policyName === policyName);
		const bound = bindings.some((b) => selects(b.spec?.matchResources?.namespaceSelector, nsLabels) &&
			selects(b.spec?.matchResources?.objectSelector, pod.metadata?.labels));
		if (!bound) {
			log(`MutatingAdmissionPolicy ${policyName}: no binding matches this Pod`);
			out = pod;
		} else {
			out = runCelPolicy(policy.spec, 'MutatingAdmissionPolicy');
		}
	}
	pod = out;
}
return out;
}

// load(FILE): the Pod of FILE and its namespace's labels become the globals
function load(file, labelsJson) {
	pod = YAML.parse(readFileSync(file, 'utf8'));
	ns = pod.metadata?.namespace ?? 'default';
	nsLabels = labelsJson ? JSON.parse(labelsJson) : { 'kubernetes.io/metadata.name': ns };
}

if (batchDir) {
	for (const file of args.slice(2)) {
		const base = `${batchDir}/${file.replace(/^.*\//, '').replace(/\.(yaml|json)$/, '')}`;
		logLines = [];
		try {
			load(file);
			writeFileSync(`${base}.json`, JSON.stringify(evalPod(), null, 2) + '\n');
		} catch (e) {
			if (!(e instanceof Rejected)) logLines.push(`error: ${e.message}`);
		}
		writeFileSync(`${base}.log`, logLines.map((l) => l + '\n').join(''));
	}
} else {
	try {
		load(podFile, nsLabelsJson);
		process.stdout.write(JSON.stringify(evalPod(), null, 2) + '\n');
	} catch (e) {
		if (e instanceof Rejected) process.exit(e.code);
		throw e;
	}
}
