#!/bin/sh
# t2221: the rendered EC2NodeClass (and the NodePools, the burst pool
# included) against the upstream CRD
# (karpenter.k8s.aws_ec2nodeclasses.yaml, provider v1.14.1): its
# openAPIV3Schema through validate --rendered, and every CEL rule
# (x-kubernetes-validations) evaluated with a real CEL engine
# (@marcbachmann/cel-js from .tools), not gpusite's own reading of them.
# The evaluator walks the CRD schema beside the object, applies the
# schema's defaults first (as the API server does), and runs each rule
# where its field is present; transition rules (oldSelf) only run on
# update and are counted apart.  Objects that break rules show that the
# evaluator rejects what the API server would.
. "$TEST_TOP/tests/lib.sh"

tools="$TEST_TOP/.tools/node_modules"
cases="$TEST_TOP/testdata/render"

if ! need_upstream; then
	test_skip "the EC2NodeClass against its upstream CRD" "../shared/upstream not found"
	test_done
	exit
fi
if ! [ -d "$tools/@marcbachmann/cel-js" ] || ! [ -d "$tools/yaml" ]; then
	test_skip "the EC2NodeClass against its upstream CRD" "npm test tools missing in .tools (run make deps)"
	test_done
	exit
fi
CRD="$UPSTREAM/karpenter/karpenter.k8s.aws_ec2nodeclasses.yaml"
mkdir -p "$SCRATCH/eval"
ln -s "$tools" "$SCRATCH/eval/node_modules"
cat >"$SCRATCH/eval/crd-cel.mjs" <<'JS'
// crd-cel.mjs CRD STREAM KIND: evaluate every x-kubernetes-validations rule
// of the CRD's served version on each object of KIND in STREAM.  Prints
// "<name>: <n> rules passed" per object and a summary line; exit 1 with
// "<name>: <path>: <message>" lines when a rule fails or errors.
import { readFileSync } from 'node:fs';
import { Environment } from '@marcbachmann/cel-js';
import YAML from 'yaml';

const [crdFile, streamFile, kind] = process.argv.slice(2);
const crd = YAML.parse(readFileSync(crdFile, 'utf8'));
const docs = YAML.parseAllDocuments(readFileSync(streamFile, 'utf8')).map((d) => d.toJS()).filter(Boolean);
const env = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false });
// Kubernetes' regex library (k8s.io/apiserver/pkg/cel/library/regex.go):
// find returns the first match, or "" when there is none.
env.registerFunction('string.find(string): string', (s, re) => {
	const m = s.match(new RegExp(re));
	return m ? m[0] : '';
});
const toCel = (v) => Array.isArray(v) ? v.map(toCel)
	: v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCel(x)]))
	: Number.isInteger(v) ? BigInt(v) : v;

// the API server defaults before validating: object defaults, recursively
function applyDefaults(schema, v) {
	if (!schema || v === undefined || v === null) return v;
	if (schema.type === 'object' && typeof v === 'object' && !Array.isArray(v)) {
		for (const [k, s] of Object.entries(schema.properties ?? {})) {
			if (v[k] === undefined && s.default !== undefined) v[k] = structuredClone(s.default);
			if (v[k] !== undefined) v[k] = applyDefaults(s, v[k]);
		}
		if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
			for (const k of Object.keys(v)) if (!(schema.properties ?? {})[k]) v[k] = applyDefaults(schema.additionalProperties, v[k]);
	} else if (schema.type === 'array' && Array.isArray(v)) {
		return v.map((x) => applyDefaults(schema.items, x));
	}
	return v;
}

let total = 0;
(function count(s) {
	if (!s || typeof s !== 'object') return;
	total += (s['x-kubernetes-validations'] ?? []).length;
	for (const x of Object.values(s.properties ?? {})) count(x);
	if (s.items) count(s.items);
	if (s.additionalProperties && typeof s.additionalProperties === 'object') count(s.additionalProperties);
})(crd.spec.versions[0].schema.openAPIV3Schema);

const version = crd.spec.versions.find((v) => v.served && v.storage);
const root = version.schema.openAPIV3Schema;
const reached = new Set();
let failed = false, transitions = 0;
for (const obj of docs.filter((d) => d.kind === kind)) {
	const name = obj.metadata?.name;
	const o = applyDefaults(root, structuredClone(obj));
	let passed = 0;
	(function walk(s, v, path) {
		if (!s || v === undefined || v === null) return;
		for (const [i, r] of (s['x-kubernetes-validations'] ?? []).entries()) {
			if (/\boldSelf\b/.test(r.rule)) { transitions++; continue; }
			reached.add(path.replace(/\[\d+\]/g, '[]').replace(/\.\{[^}]*\}/g, '.*') + '#' + i);
			let ok;
			try {
				ok = env.evaluate(r.rule, { self: toCel(v) });
			} catch (e) {
				console.log(`${name}: ${path}: CEL error in ${r.rule}: ${e.message.split('\n')[0]}`);
				failed = true;
				continue;
			}
			if (ok !== true) {
				console.log(`${name}: ${path}: ${r.message ?? r.rule}`);
				failed = true;
			} else passed++;
		}
		if (s.type === 'object' && typeof v === 'object' && !Array.isArray(v)) {
			for (const [k, x] of Object.entries(s.properties ?? {})) walk(x, v[k], `${path}.${k}`);
			if (s.additionalProperties && typeof s.additionalProperties === 'object')
				for (const k of Object.keys(v)) if (!(s.properties ?? {})[k]) walk(s.additionalProperties, v[k], `${path}.{${k}}`);
		} else if (s.type === 'array' && Array.isArray(v)) {
			v.forEach((x, i) => walk(s.items, x, `${path}[${i}]`));
		}
	})(root, o, '');
	console.log(`${name}: ${passed} rules passed`);
}
console.log(`rules in the CRD: ${total}; reached: ${reached.size}; transition rules skipped: ${transitions}`);
process.exit(failed ? 1 : 0);
JS
cel() { node "$SCRATCH/eval/crd-cel.mjs" "$CRD" "$1" EC2NodeClass; }

test_expect_success "render both EC2NodeClass cases into one stream" '
	"$GPUSITE" render "$cases/fallback-nodeclass-bottlerocket/sites" >"$SCRATCH/br.yaml" &&
	"$GPUSITE" render "$cases/fallback-nodeclass-al2023/sites" >"$SCRATCH/al.yaml" &&
	grep -c "^kind: EC2NodeClass$" "$SCRATCH/br.yaml" "$SCRATCH/al.yaml" >"$SCRATCH/n" &&
	grep -q "br.yaml:1" "$SCRATCH/n" && grep -q "al.yaml:1" "$SCRATCH/n"
'
test_expect_success "the image volume on both images, and RAID0 where the types have local NVMe" '
	grep -q "^      volumeSize: 300Gi$" "$SCRATCH/br.yaml" &&
	! grep -q "instanceStorePolicy" "$SCRATCH/br.yaml" &&
	grep -q "^      throughput: 500$" "$SCRATCH/al.yaml" &&
	grep -q "^    rootVolume: true$" "$SCRATCH/al.yaml" &&
	grep -q "^  instanceStorePolicy: RAID0$" "$SCRATCH/al.yaml"
'
test_expect_success "validate --rendered: both pass the EC2NodeClass CRD schema (exit 0, no finding)" '
	"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/br.yaml" "$SCRATCH/al.yaml" \
		>"$SCRATCH/v.out" 2>"$SCRATCH/v.err" &&
	! grep -q "GS1[3-7][0-9]" "$SCRATCH/v.err" &&
	grep -q "0 errors, 0 warnings" "$SCRATCH/v.err" ||
	{ cat "$SCRATCH/v.err"; false; }
'
test_expect_success "validate --rendered refuses a field the CRD does not have" '
	sed "s/^  amiSelectorTerms:\$/  amiSelectorTerm:/" "$SCRATCH/br.yaml" >"$SCRATCH/bad.yaml" &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/bad.yaml" \
		>/dev/null 2>"$SCRATCH/bad.err" &&
	grep -q "error: unknown field .amiSelectorTerm. in spec (did you mean .amiSelectorTerms.?) \[GS130\]" "$SCRATCH/bad.err" ||
	{ cat "$SCRATCH/bad.err"; false; }
'
test_expect_success "every CEL rule of the CRD holds on the Bottlerocket EC2NodeClass (image cache, role, tags)" '
	cel "$SCRATCH/br.yaml" >"$SCRATCH/br.cel" &&
	cat "$SCRATCH/br.cel" &&
	grep -q "^gpu-fallback: [1-9][0-9]* rules passed$" "$SCRATCH/br.cel"
'
test_expect_success "every CEL rule of the CRD holds on the AL2023 EC2NodeClass (instance profile, ids, IMDS options)" '
	cel "$SCRATCH/al.yaml" >"$SCRATCH/al.cel" &&
	cat "$SCRATCH/al.cel" &&
	grep -q "^gpu-fallback: [1-9][0-9]* rules passed$" "$SCRATCH/al.cel"
'
test_expect_success "the rules on role, tags, AMI alias, block devices and selector terms were reached" '
	python3 - "$SCRATCH/br.cel" "$SCRATCH/al.cel" <<-\EOF
	import re, sys
	for f in sys.argv[1:]:
	    last = open(f).read().strip().splitlines()[-1]
	    m = re.match(r"rules in the CRD: (\d+); reached: (\d+);", last)
	    assert m and int(m.group(2)) >= 12, last
	print("ok")
	EOF
'
# broken objects: the evaluator must reject what the API server rejects
break_it() {	# break_it NAME SED: the Bottlerocket object edited by SED
	sed "$2" "$SCRATCH/br.yaml" >"$SCRATCH/$1.yaml"
}
test_expect_success "CEL rejects role together with instanceProfile" '
	break_it both "s/^  role: \(.*\)\$/  role: \1\n  instanceProfile: p/" &&
	expect_exit 1 cel "$SCRATCH/both.yaml" >"$SCRATCH/both.out" &&
	grep -q "must specify exactly one of \[.role., .instanceProfile.\]" "$SCRATCH/both.out"
'
test_expect_success "CEL rejects a tag Karpenter reserves" '
	break_it tag "s/^    team: inference\$/    team: inference\n    karpenter.sh\/nodepool: x/" &&
	expect_exit 1 cel "$SCRATCH/tag.yaml" >"$SCRATCH/tag.out" &&
	grep -q "tag contains a restricted tag matching karpenter.sh/nodepool" "$SCRATCH/tag.out"
'
test_expect_success "CEL rejects an alias of an unknown family and a data volume with neither snapshot nor size" '
	break_it alias "s/alias: bottlerocket@/alias: flatcar@/" &&
	expect_exit 1 cel "$SCRATCH/alias.yaml" >"$SCRATCH/alias.out" &&
	grep -q "family is not supported" "$SCRATCH/alias.out" &&
	break_it vol "/snapshotID: snap-/d; /volumeSize: 300Gi/d" &&
	expect_exit 1 cel "$SCRATCH/vol.yaml" >"$SCRATCH/vol.out" &&
	grep -q "snapshotID or volumeSize must be defined" "$SCRATCH/vol.out"
'

# reserved capacity and disruption budgets: the EC2NodeClass selects the
# reservations, the NodePool lists the capacity types and budgets
NODEPOOL_CRD="$UPSTREAM/karpenter/aws-provider/karpenter.sh_nodepools.yaml"
test_expect_success "reservations and budgets: rendered as the CRDs take them, validate --rendered clean" '
	"$GPUSITE" render "$cases/fallback-reserved-al2023/sites" >"$SCRATCH/rs.yaml" &&
	grep -q "^  - id: cr-0123456789abcdef0$" "$SCRATCH/rs.yaml" &&
	grep -q "^    ownerID: \"111122223333\"$" "$SCRATCH/rs.yaml" &&
	! grep -q "capacity-reservation-type" "$SCRATCH/rs.yaml" &&
	grep -q "^      duration: 8h$" "$SCRATCH/rs.yaml" &&
	mkdir -p "$SCRATCH/rd" &&
	sed "s/^    capacityReservationType: .*/    capacityReservationType: default/" \
		"$cases/fallback-reserved-al2023/sites/lab.yaml" >"$SCRATCH/rd/lab.yaml" &&
	"$GPUSITE" render "$SCRATCH/rd" >"$SCRATCH/rd.yaml" &&
	grep -A1 "^      - key: karpenter.k8s.aws/capacity-reservation-type$" "$SCRATCH/rd.yaml" |
		grep -q "^        operator: NotIn$" &&
	"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/rs.yaml" "$SCRATCH/rd.yaml" \
		2>"$SCRATCH/rs.err" &&
	grep -q "0 errors, 0 warnings" "$SCRATCH/rs.err" ||
	{ cat "$SCRATCH/rs.err"; false; }
'
test_expect_success "every CEL rule holds on the reserved EC2NodeClass and NodePool" '
	cel "$SCRATCH/rs.yaml" >"$SCRATCH/rs.cel" &&
	grep -q "^gpu-fallback: [1-9][0-9]* rules passed$" "$SCRATCH/rs.cel" &&
	node "$SCRATCH/eval/crd-cel.mjs" "$NODEPOOL_CRD" "$SCRATCH/rs.yaml" NodePool >"$SCRATCH/rs-np.cel" &&
	grep -q "^lab-gpu-fallback: [1-9][0-9]* rules passed$" "$SCRATCH/rs-np.cel" &&
	node "$SCRATCH/eval/crd-cel.mjs" "$NODEPOOL_CRD" "$SCRATCH/rd.yaml" NodePool >"$SCRATCH/rd-np.cel" &&
	grep -q "^lab-gpu-fallback: [1-9][0-9]* rules passed$" "$SCRATCH/rd-np.cel" ||
	{ cat "$SCRATCH/rs.cel" "$SCRATCH/rs-np.cel" "$SCRATCH/rd-np.cel"; false; }
'
test_expect_success "CEL rejects a lone reservation term of id and ownerID, and a budget schedule without duration" '
	sed -e "/^  - tags:$/,/^    ownerID:/d" -e "s/^  - id: cr-0123456789abcdef0$/  - id: cr-0123456789abcdef0\n    ownerID: \"111122223333\"/" \
		"$SCRATCH/rs.yaml" >"$SCRATCH/rs-id.yaml" &&
	expect_exit 1 cel "$SCRATCH/rs-id.yaml" >"$SCRATCH/rs-id.out" &&
	grep -q "mutually exclusive" "$SCRATCH/rs-id.out" &&
	sed "/^      duration: 8h$/d" "$SCRATCH/rs.yaml" >"$SCRATCH/rs-dur.yaml" &&
	expect_exit 1 node "$SCRATCH/eval/crd-cel.mjs" "$NODEPOOL_CRD" "$SCRATCH/rs-dur.yaml" NodePool \
		>"$SCRATCH/rs-dur.out" &&
	grep -q "schedule" "$SCRATCH/rs-dur.out" ||
	{ cat "$SCRATCH/rs-id.out" "$SCRATCH/rs-dur.out"; false; }
'

# the burst pool: a NodePool of its own (its taint, its capacity types,
# its budgets), under the same CRD and CEL rules as the fallback's
test_expect_success "burst NodePools: rendered as the CRD takes them, validate --rendered clean, both provisioners" '
	mkdir -p "$SCRATCH/bu" &&
	sed -e "s/^    gpuLimit: 16$/    gpuLimit: 16\n    capacityType: [spot, on-demand]\n    disruptionBudgets:\n      - {nodes: \"10%\", reasons: [Underutilized], schedule: \"0 9 * * mon-fri\", duration: 8h}/" \
		"$cases/burst-al2023/sites/lab.yaml" >"$SCRATCH/bu/lab.yaml" &&
	"$GPUSITE" render "$SCRATCH/bu" >"$SCRATCH/bu.yaml" &&
	"$GPUSITE" render "$cases/two-site-burst-auto-mode/sites" >"$SCRATCH/bu-auto.yaml" &&
	grep -q "^  name: lab-gpu-burst$" "$SCRATCH/bu.yaml" &&
	grep -q "^      - key: gpusite.io/burst$" "$SCRATCH/bu.yaml" &&
	grep -q "^        - on-demand$" "$SCRATCH/bu.yaml" &&
	for f in bu bu-auto; do
		"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/$f.yaml" 2>"$SCRATCH/$f.err" &&
		grep -q "0 errors, 0 warnings" "$SCRATCH/$f.err" || { cat "$SCRATCH/$f.err"; exit 1; }
	done
'
test_expect_success "every CEL rule of the NodePool CRD holds on the burst NodePools" '
	node "$SCRATCH/eval/crd-cel.mjs" "$NODEPOOL_CRD" "$SCRATCH/bu.yaml" NodePool >"$SCRATCH/bu.cel" &&
	grep -q "^lab-gpu-burst: [1-9][0-9]* rules passed$" "$SCRATCH/bu.cel" &&
	node "$SCRATCH/eval/crd-cel.mjs" "$NODEPOOL_CRD" "$SCRATCH/bu-auto.yaml" NodePool >"$SCRATCH/bu-auto.cel" &&
	grep -q "^seoul-dc1-gpu-burst: [1-9][0-9]* rules passed$" "$SCRATCH/bu-auto.cel" &&
	grep -q "^seoul-dc2-gpu-burst: [1-9][0-9]* rules passed$" "$SCRATCH/bu-auto.cel" ||
	{ cat "$SCRATCH/bu.cel" "$SCRATCH/bu-auto.cel"; false; }
'
test_expect_success "CEL rejects a burst taint with an effect the CRD does not know" '
	sed "/^      - key: gpusite.io\/burst$/,/effect:/ s/effect: NoSchedule/effect: Sometimes/" "$SCRATCH/bu.yaml" >"$SCRATCH/bu-bad.yaml" &&
	! cmp -s "$SCRATCH/bu.yaml" "$SCRATCH/bu-bad.yaml" &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/bu-bad.yaml" 2>"$SCRATCH/bu-bad.err" &&
	grep -q "Sometimes" "$SCRATCH/bu-bad.err" || { cat "$SCRATCH/bu-bad.err"; false; }
'

test_done
