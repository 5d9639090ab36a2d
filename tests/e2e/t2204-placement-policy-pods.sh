#!/bin/sh
# t2204: the RENDERED placement policies, run on real Pod objects, with
# every siteBinding (required, the default; preferred; none).
# tests/tools/policy-eval.mjs evaluates each engine's policy as admission
# would (CEL JSON patches for the Kyverno MutatingPolicy and the
# MutatingAdmissionPolicy, JMESPath preconditions and patchesJson6902 for
# the legacy ClusterPolicy); tests/tools/policy-expect.py computes from the
# Pod and the site's settings what docs/design/artifacts.md, "Placement", demands (nothing lost or
# duplicated, the GPU toleration once, 300 s defaults replaced, the user's
# own seconds kept, node affinity appended to the Pod's own, preferred or
# required) and compares.  t2212 holds the exact expected Pods per engine
# and mode.  A second pass must change nothing, and every
# mutated Pod must validate against the Kubernetes 1.35 Pod schema.
. "$TEST_TOP/tests/lib.sh"

tools="$TEST_TOP/.tools/node_modules"
pods="$TEST_TOP/testdata/pods"
fleet="$TEST_TOP/testdata/fleet"

if ! [ -d "$tools/@marcbachmann/cel-js" ] || ! [ -d "$tools/fast-json-patch" ] ||
   ! [ -d "$tools/jmespath" ] || ! [ -d "$tools/yaml" ]; then
	test_skip "rendered placement policies on sample Pods" "npm test tools missing in .tools (run make deps)"
	test_done
	exit
fi
# the evaluator resolves its packages from .tools/node_modules
mkdir -p "$SCRATCH/eval"
cp "$TEST_TOP/tests/tools/policy-eval.mjs" "$SCRATCH/eval/"
ln -s "$tools" "$SCRATCH/eval/node_modules"
eval_policy() { node "$SCRATCH/eval/policy-eval.mjs" "$@"; }
# to_json YAML JSON: the expectations read JSON (no YAML library needed)
cat >"$SCRATCH/eval/to-json.cjs" <<'JS'
const fs = require('fs'), YAML = require('yaml');
fs.writeFileSync(process.argv[3], JSON.stringify(YAML.parse(fs.readFileSync(process.argv[2], 'utf8'))));
JS
to_json() { node "$SCRATCH/eval/to-json.cjs" "$1" "$2"; }

# variant NAME SED_SCRIPT [render options]: the fleet with seoul-dc1 edited
variant() {
	name=$1 script=$2
	shift 2
	rm -rf "$SCRATCH/$name" && cp -R "$fleet" "$SCRATCH/$name" &&
	awk "$script" "$fleet/sites/seoul-dc1.yaml" >"$SCRATCH/$name/sites/seoul-dc1.yaml" &&
	"$GPUSITE" render "$SCRATCH/$name" "$@" >"$SCRATCH/$name.yaml"
}

# run_case CASE STREAM POLICY NAMESPACES SELECTOR MODE WEIGHT NR UR SITE [BINDING [POOL [SHARED]]]
# POOL: exclusive (the scope's pool carries the site taint) or shared (no pool)
# SHARED: the site's shared GPU resource names, comma-separated (none by default)
# One test per sample Pod, then the second pass and the schema check.
run_case() {
	case=$1 stream=$2 policy=$3 nss=$4 sel=$5 mode=$6 weight=$7 nr=$8 ur=$9
	shift 9
	site=$1 binding=${2:-required} pool=${3:-exclusive} shared=${4:-}
	mkdir -p "$SCRATCH/$case"
	# every Pod in one evaluator process (its start is most of the time):
	# $case/POD.json comes out, $case/POD.log says what applied or why not
	eval_policy --batch "$SCRATCH/$case" "$stream" "$policy" "$pods"/*.yaml "$SCRATCH"/extra-pods/*.yaml \
		2>"$SCRATCH/$case.batch.err"
	# and every Pod that came out against the expectation, one process too:
	# $case/POD.expect starts with "ok" or says what differs
	python3 "$TEST_TOP/tests/tools/policy-expect.py" --batch "$SCRATCH/orig" "$SCRATCH/$case" \
		"$nss" "$sel" "$mode" "$weight" "$nr" "$ur" "$site" "$binding" "$pool" "$shared" 2>"$SCRATCH/$case.expect.err"
	for pod in "$pods"/*.yaml "$SCRATCH"/extra-pods/*.yaml; do
		[ -f "$pod" ] || continue
		p=$(basename "$pod" .yaml)
		test_expect_success "$case: $p comes out as docs/design/artifacts.md, "Placement", says" "
			{ test -s '$SCRATCH/$case/$p.json' ||
			  { cat '$SCRATCH/$case/$p.log' '$SCRATCH/$case.batch.err'; false; }; } &&
			{ head -n 1 '$SCRATCH/$case/$p.expect' | grep -qx ok ||
			  { cat '$SCRATCH/$case/$p.expect' '$SCRATCH/$case.expect.err'; false; }; }
		"
	done
	test_expect_success "$case: a second pass changes nothing" "
		mkdir '$SCRATCH/$case.again' &&
		eval_policy --batch '$SCRATCH/$case.again' '$stream' '$policy' '$SCRATCH/$case'/*.json &&
		{ python3 '$TEST_TOP/tests/tools/json-same.py' '$SCRATCH/$case' '$SCRATCH/$case.again' >'$SCRATCH/$case.same' ||
		  { grep -v '^same ' '$SCRATCH/$case.same' | sed 's/^/second pass: /'; exit 1; }; }
	"
	test_expect_success "$case: the policy really mutated the matching Pods" "
		grep -q 'tolerationSeconds' '$SCRATCH/$case/gpu-own-tolerations.json' &&
		grep -q 'eks.amazonaws.com/compute-type' '$SCRATCH/$case/gpu-own-tolerations.json' &&
		! grep -q 'eks.amazonaws.com/compute-type' '$SCRATCH/$case/cpu-pod.json' &&
		! grep -q 'eks.amazonaws.com/compute-type' '$SCRATCH/$case/cpu-empty-claims.json'
	"
	# every GPU request form is a GPU Pod; a shared name only where the site has it
	test_expect_success "$case: init containers, native sidecars, MIG and claims are placed" "
		for p in gpu-init-container gpu-native-sidecar gpu-mig gpu-resource-claims; do
			grep -q 'eks.amazonaws.com/compute-type' '$SCRATCH/$case/'\$p.json || { echo \"\$p not placed\"; exit 1; }
		done &&
		if test -n '$shared'; then
			grep -q 'eks.amazonaws.com/compute-type' '$SCRATCH/$case/gpu-shared.json'
		else
			! grep -q 'eks.amazonaws.com/compute-type' '$SCRATCH/$case/gpu-shared.json'
		fi
	"
	if need_upstream; then
		test_expect_success "$case: every mutated Pod validates against the Kubernetes 1.35 Pod schema" "
			'$GPUSITE' validate --rendered --upstream '$UPSTREAM' '$SCRATCH/$case'/*.json 2>'$SCRATCH/$case/schema.err' ||
			{ cat '$SCRATCH/$case/schema.err'; false; }
		"
	else
		test_skip "$case: mutated Pods against the Pod schema" "../shared/upstream not found"
	fi
}

# A Pod in the namespace without the label the incheon-edge podSelector wants.
mkdir -p "$SCRATCH/extra-pods"
sed -e 's/namespace: inference/namespace: batch-inference/' -e 's/name: llm-serve-0/name: unlabelled-0/' \
	-e 's/, app.kubernetes.io\/part-of: batch-inference//' \
	"$pods/gpu-own-tolerations.yaml" >"$SCRATCH/extra-pods/gpu-unlabelled.yaml"

# the Pods as JSON, once, for the expectations
test_expect_success "the sample Pods as JSON" '
	mkdir "$SCRATCH/orig" &&
	for pod in "$pods"/*.yaml "$SCRATCH"/extra-pods/*.yaml; do
		to_json "$pod" "$SCRATCH/orig/$(basename "$pod" .yaml).json" || exit 1
	done
'

test_expect_success "render the fleet and its engine variants" '
	"$GPUSITE" render "$fleet" >"$SCRATCH/fleet.yaml" &&
	variant clusterpolicy "{ sub(/engine: kyverno\$/, \"engine: kyverno-clusterpolicy\") } 1" &&
	variant map136 "{ sub(/engine: kyverno\$/, \"engine: mutating-admission-policy\") } 1" --kube-version 1.36 &&
	variant map135 "{ sub(/engine: kyverno\$/, \"engine: mutating-admission-policy\") } 1" --kube-version 1.35 &&
	variant require "/^  fallback:/ { f = 1 } f && /^    enabled: true/ { sub(/true/, \"false\"); f = 0 } { sub(/mode: prefer-onprem/, \"mode: require-onprem\") } 1" &&
	grep -qx "kind: ClusterPolicy" "$SCRATCH/clusterpolicy.yaml" &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1$" "$SCRATCH/map136.yaml" &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1beta1$" "$SCRATCH/map135.yaml" &&
	grep -q "requiredDuringSchedulingIgnoredDuringExecution" "$SCRATCH/require.yaml"
'

# seoul-dc1: namespaces [inference], no pod selector, 60 s, prefer weight 100
run_case kyverno "$SCRATCH/fleet.yaml" gpusite-seoul-dc1-placement inference '{}' prefer-onprem 100 60 60 seoul-dc1
run_case clusterpolicy "$SCRATCH/clusterpolicy.yaml" gpusite-seoul-dc1-placement inference '{}' prefer-onprem 100 60 60 seoul-dc1
run_case map-v1 "$SCRATCH/map136.yaml" gpusite-seoul-dc1-placement inference '{}' prefer-onprem 100 60 60 seoul-dc1
run_case map-v1beta1 "$SCRATCH/map135.yaml" gpusite-seoul-dc1-placement inference '{}' prefer-onprem 100 60 60 seoul-dc1
run_case require-onprem "$SCRATCH/require.yaml" gpusite-seoul-dc1-placement inference '{}' require-onprem 100 60 60 seoul-dc1 required shared
# siteBinding preferred and none, every engine (required, the default, is above)
for binding in preferred none; do
	test_expect_success "render seoul-dc1 with siteBinding $binding, every engine" "
		variant kyverno-$binding '{ sub(/engine: kyverno\$/, \"engine: kyverno\n    siteBinding: $binding\") } 1' &&
		variant clusterpolicy-$binding '{ sub(/engine: kyverno\$/, \"engine: kyverno-clusterpolicy\n    siteBinding: $binding\") } 1' &&
		variant map136-$binding '{ sub(/engine: kyverno\$/, \"engine: mutating-admission-policy\n    siteBinding: $binding\") } 1' --kube-version 1.36 &&
		variant map135-$binding '{ sub(/engine: kyverno\$/, \"engine: mutating-admission-policy\n    siteBinding: $binding\") } 1' --kube-version 1.35
	"
	for engine in kyverno clusterpolicy map136 map135; do
		run_case "$engine-$binding" "$SCRATCH/$engine-$binding.yaml" gpusite-seoul-dc1-placement inference '{}' prefer-onprem 100 60 60 seoul-dc1 $binding
	done
done
# site_term POD.json: a node affinity term on gpusite.io/site (In) anywhere
site_term() {
	python3 -c "import json, sys
def walk(n):
    if isinstance(n, dict):
        if n.get('key') == 'gpusite.io/site' and n.get('operator') == 'In':
            return True
        return any(walk(v) for v in n.values())
    return isinstance(n, list) and any(walk(v) for v in n)
sys.exit(not walk(json.load(open(sys.argv[1]))['spec'].get('affinity')))" "$1"
}
# site_toleration POD.json SITE: the toleration of gpusite.io/site=SITE:NoSchedule, by value
site_toleration() {
	python3 -c "import json, sys
t = json.load(open(sys.argv[1]))['spec'].get('tolerations') or []
sys.exit({'key': 'gpusite.io/site', 'operator': 'Equal', 'value': sys.argv[2], 'effect': 'NoSchedule'} not in t)" "$1" "$2"
}
test_expect_success "siteBinding: required ANDs the site term, preferred prefers it, none leaves it out" '
	grep -q "\"gpusite.io/site\", \"operator\": \"In\", \"values\": \[\"seoul-dc1\"\]" "$SCRATCH/kyverno/gpu-own-affinity.json" ||
	python3 -c "import json,sys; p=json.load(open(sys.argv[1])); t=p[\"spec\"][\"affinity\"][\"nodeAffinity\"][\"requiredDuringSchedulingIgnoredDuringExecution\"][\"nodeSelectorTerms\"]; sys.exit(not all({\"key\": \"gpusite.io/site\", \"operator\": \"In\", \"values\": [\"seoul-dc1\"]} in x[\"matchExpressions\"] for x in t))" "$SCRATCH/kyverno/gpu-own-affinity.json" &&
	site_term "$SCRATCH/kyverno-preferred/gpu-no-tolerations.json" &&
	! grep -q "requiredDuringScheduling" "$SCRATCH/kyverno-preferred/gpu-no-tolerations.json" &&
	! site_term "$SCRATCH/kyverno-none/gpu-no-tolerations.json" &&
	! site_term "$SCRATCH/clusterpolicy-none/gpu-own-affinity.json" &&
	# the site taint is tolerated whatever the binding: the pools are the site own
	site_toleration "$SCRATCH/kyverno-none/gpu-no-tolerations.json" seoul-dc1
'

# seoul-dc1 with a device-plugin sharing config that renames the GPU
# (renameByDefault: nvidia.com/gpu.shared): Pods asking for the shared
# name are GPU Pods too, in every engine
sharing='/^    values: \{\}$/ { print "    values:"; print "      config:"; print "        map:";
	print "          default: |"; print "            version: v1"; print "            sharing:";
	print "              timeSlicing:"; print "                renameByDefault: true";
	print "                resources:"; print "                - name: nvidia.com/gpu";
	print "                  replicas: 4"; next }'
# sharing_variant NAME ENGINE [render options]: the cluster's two sites
# with the sharing config (the GPU stack is cluster-wide), seoul-dc1 with ENGINE
sharing_variant() {
	sv_name=$1 sv_engine=$2
	shift 2
	rm -rf "$SCRATCH/$sv_name" && cp -R "$fleet" "$SCRATCH/$sv_name" &&
	awk "$sharing 1" "$fleet/sites/incheon-edge.yaml" >"$SCRATCH/$sv_name/sites/incheon-edge.yaml" &&
	awk "$sharing { sub(/engine: kyverno\$/, \"engine: $sv_engine\") } 1" "$fleet/sites/seoul-dc1.yaml" \
		>"$SCRATCH/$sv_name/sites/seoul-dc1.yaml" &&
	"$GPUSITE" render "$SCRATCH/$sv_name" "$@" >"$SCRATCH/$sv_name.yaml"
}
test_expect_success "render seoul-dc1 with a sharing config, every engine" "
	sharing_variant kyverno-sharing kyverno &&
	sharing_variant clusterpolicy-sharing kyverno-clusterpolicy &&
	sharing_variant map136-sharing mutating-admission-policy --kube-version 1.36 &&
	grep -q 'nvidia.com/gpu.shared' '$SCRATCH/kyverno-sharing.yaml' &&
	grep -q 'nvidia.com/gpu.shared' '$SCRATCH/clusterpolicy-sharing.yaml' &&
	grep -q 'nvidia.com/gpu.shared' '$SCRATCH/map136-sharing.yaml'
"
for engine in kyverno clusterpolicy map136; do
	run_case "$engine-sharing" "$SCRATCH/$engine-sharing.yaml" gpusite-seoul-dc1-placement inference '{}' prefer-onprem 100 60 60 seoul-dc1 required exclusive nvidia.com/gpu.shared
done

# frankfurt-lab: MutatingAdmissionPolicy v1, [research, inference], 300 s, weight 80
run_case frankfurt "$SCRATCH/fleet.yaml" gpusite-frankfurt-lab-placement research,inference '{}' prefer-onprem 80 300 300 frankfurt-lab

# incheon-edge: batch-inference with a pod selector; the Pods moved there
mkdir -p "$SCRATCH/incheon-pods"
for pod in "$pods"/*.yaml; do
	sed 's/namespace: inference$/namespace: batch-inference/' "$pod" >"$SCRATCH/incheon-pods/$(basename "$pod")"
done
test_expect_success "incheon-edge: the pod selector is honoured" '
	eval_policy "$SCRATCH/fleet.yaml" gpusite-incheon-edge-placement "$SCRATCH/extra-pods/gpu-unlabelled.yaml" \
		>"$SCRATCH/unlabelled.json" 2>"$SCRATCH/unlabelled.log" &&
	grep -q "does not match this Pod" "$SCRATCH/unlabelled.log" &&
	eval_policy "$SCRATCH/fleet.yaml" gpusite-incheon-edge-placement "$SCRATCH/incheon-pods/gpu-own-tolerations.yaml" \
		>"$SCRATCH/labelled.json" 2>/dev/null &&
	to_json "$SCRATCH/incheon-pods/gpu-own-tolerations.yaml" "$SCRATCH/labelled.orig" &&
	python3 "$TEST_TOP/tests/tools/policy-expect.py" "$SCRATCH/labelled.orig" \
		"$SCRATCH/labelled.json" batch-inference \
		"{\"matchLabels\": {\"app.kubernetes.io/part-of\": \"batch-inference\"}}" prefer-onprem 100 300 300 incheon-edge
'
test_expect_success "the harness is live: a policy that wipes tolerations is caught" '
	sed "s|\[JSONPatch{op: \"add\", path: \"/spec/tolerations/-\",|[JSONPatch{op: \"replace\", path: \"/spec/tolerations\", value: []}, JSONPatch{op: \"add\", path: \"/spec/tolerations/-\",|" \
		"$SCRATCH/fleet.yaml" >"$SCRATCH/wipe.yaml" &&
	! cmp -s "$SCRATCH/fleet.yaml" "$SCRATCH/wipe.yaml" &&
	eval_policy "$SCRATCH/wipe.yaml" gpusite-seoul-dc1-placement "$pods/gpu-own-tolerations.yaml" \
		>"$SCRATCH/wipe.json" 2>/dev/null &&
	to_json "$pods/gpu-own-tolerations.yaml" "$SCRATCH/wipe.orig" &&
	! python3 "$TEST_TOP/tests/tools/policy-expect.py" "$SCRATCH/wipe.orig" "$SCRATCH/wipe.json" \
		inference "{}" prefer-onprem 100 60 60 seoul-dc1 >/dev/null
'
test_done
