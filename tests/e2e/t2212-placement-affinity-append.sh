#!/bin/sh
# t2212: the placement policies APPEND node affinity to what a Pod has
# (docs/design/artifacts.md, "Placement"), for every engine (Kyverno MutatingPolicy, legacy
# ClusterPolicy, MutatingAdmissionPolicy v1 and v1beta1) and both modes.
# Each rendered policy runs on real Pods through tests/tools/policy-eval.mjs
# (cel-js for CEL, fast-json-patch, jmespath for the ClusterPolicy), and the
# result must equal, exactly, the Pod under testdata/pods/expected/<mode>/:
#   - no affinity: the preferred term, or the one required term;
#   - a preferred term of its own: prefer-onprem appends ours after it,
#     require-onprem adds the required term and keeps the preference;
#   - a required term of its own: prefer-onprem adds the preference beside
#     it, require-onprem ANDs the hybrid requirement into every term (one
#     with matchFields only gets a matchExpressions list);
#   - podAffinity only: kept, node affinity added beside it;
#   - the hybrid preference or requirement already there: nothing twice;
#   - every other GPU request form placed alike: the GPU only in an init
#     container or a native sidecar, a MIG resource, resource claims.
# siteBinding is required (the default): every required term also gets
# gpusite.io/site In [seoul-dc1], or the one term is added.
# A second pass changes nothing, and the C model (render_placement_patches,
# unit-tested) and tests/tools/policy-expect.py say the same.
. "$TEST_TOP/tests/lib.sh"

tools="$TEST_TOP/.tools/node_modules"
pods="$TEST_TOP/testdata/pods"
fleet="$TEST_TOP/testdata/fleet"
affinity_pods="gpu-own-tolerations gpu-preferred-affinity gpu-own-affinity gpu-pod-affinity-only
	gpu-required-terms gpu-hybrid-already gpu-empty-node-affinity
	gpu-init-container gpu-native-sidecar gpu-mig gpu-resource-claims"

if ! [ -d "$tools/@marcbachmann/cel-js" ] || ! [ -d "$tools/fast-json-patch" ] ||
   ! [ -d "$tools/jmespath" ] || ! [ -d "$tools/yaml" ]; then
	test_skip "placement affinity appended, every engine and mode" "npm test tools missing in .tools (run make deps)"
	test_done
	exit
fi
mkdir -p "$SCRATCH/eval"
cp "$TEST_TOP/tests/tools/policy-eval.mjs" "$SCRATCH/eval/"
ln -s "$tools" "$SCRATCH/eval/node_modules"
eval_policy() { node "$SCRATCH/eval/policy-eval.mjs" "$@"; }
cat >"$SCRATCH/eval/to-json.cjs" <<'JS'
const fs = require('fs'), YAML = require('yaml');
fs.writeFileSync(process.argv[3], JSON.stringify(YAML.parse(fs.readFileSync(process.argv[2], 'utf8'))));
JS

# variant NAME ENGINE MODE [render options]: seoul-dc1 with that engine and mode
variant() {
	name=$1 engine=$2 mode=$3
	shift 3
	rm -rf "$SCRATCH/$name" && cp -R "$fleet" "$SCRATCH/$name" &&
	awk -v engine="$engine" -v mode="$mode" '
		mode == "require-onprem" && /^  fallback:/ { f = 1 }
		f && /^    enabled: true/ { sub(/true/, "false"); f = 0 }
		{ sub(/mode: prefer-onprem/, "mode: " mode); sub(/engine: kyverno$/, "engine: " engine) } 1
	' "$fleet/sites/seoul-dc1.yaml" >"$SCRATCH/$name/sites/seoul-dc1.yaml" &&
	"$GPUSITE" render "$SCRATCH/$name" "$@" >"$SCRATCH/$name.yaml" 2>"$SCRATCH/$name.err"
}

test_expect_success "render seoul-dc1 with every engine in both modes" '
	for mode in prefer-onprem require-onprem; do
		variant kyverno-$mode kyverno $mode &&
		variant clusterpolicy-$mode kyverno-clusterpolicy $mode &&
		variant map-v1-$mode mutating-admission-policy $mode --kube-version 1.36 &&
		variant map-v1beta1-$mode mutating-admission-policy $mode --kube-version 1.35 || exit 1
	done &&
	grep -q "^  name: gpusite-seoul-dc1-placement" "$SCRATCH/kyverno-require-onprem.yaml" &&
	grep -qx "kind: ClusterPolicy" "$SCRATCH/clusterpolicy-prefer-onprem.yaml" &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1$" "$SCRATCH/map-v1-require-onprem.yaml" &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1beta1$" "$SCRATCH/map-v1beta1-prefer-onprem.yaml"
'
if need_upstream; then
	test_expect_success "every variant's policies pass validate --rendered (schemas, GS166-GS170)" '
		for f in "$SCRATCH"/*-onprem.yaml; do
			"$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$f" 2>"$f.check" ||
			{ cat "$f.check"; exit 1; } &&
			! grep -q ": error: " "$f.check" || { cat "$f.check"; exit 1; }
		done
	'
else
	test_skip "variants against the upstream schemas" "../shared/upstream not found"
fi

# the Pods as JSON, once, for the expectations
mkdir -p "$SCRATCH/orig"
for p in $affinity_pods; do
	node "$SCRATCH/eval/to-json.cjs" "$pods/$p.yaml" "$SCRATCH/orig/$p.json"
done
for mode in prefer-onprem require-onprem; do
	for engine in kyverno clusterpolicy map-v1 map-v1beta1; do
		stream="$SCRATCH/$engine-$mode.yaml"
		dir="$SCRATCH/out/$engine-$mode"
		mkdir -p "$dir"
		# every Pod in one evaluator process: DIR/POD.json and DIR/POD.log
		eval_policy --batch "$dir" "$stream" gpusite-seoul-dc1-placement \
			$(for p in $affinity_pods; do echo "$pods/$p.yaml"; done) 2>"$dir.err"
		# what came out against the expected Pods and the expectation, each
		# in one process: DIR.same ("same POD.json" lines), DIR/POD.expect
		python3 "$TEST_TOP/tests/tools/json-same.py" "$pods/expected/$mode" "$dir" \
			$(for p in $affinity_pods; do echo "$p.json"; done) >"$dir.same" 2>"$dir.same.err"
		python3 "$TEST_TOP/tests/tools/policy-expect.py" --batch "$SCRATCH/orig" "$dir" inference '{}' \
			"$mode" 100 60 60 seoul-dc1 required \
			"$(if [ "$mode" = prefer-onprem ]; then echo exclusive; else echo shared; fi)" 2>"$dir.expect.err"
		for p in $affinity_pods; do
			out="$dir/$p.json"
			test_expect_success "$engine $mode: $p comes out exactly as expected/$mode/$p.json" "
				{ test -s '$out' || { cat '$dir/$p.log' '$dir.err'; exit 1; }; } &&
				{ grep -qx 'same $p.json' '$dir.same' ||
				  { echo '$out differs from $pods/expected/$mode/$p.json:'; cat '$dir.same.err';
				    diff -u '$pods/expected/$mode/$p.json' '$out'; exit 1; }; } &&
				{ head -n 1 '$dir/$p.expect' | grep -qx ok || { cat '$dir/$p.expect' '$dir.expect.err'; exit 1; }; }
			"
		done
		test_expect_success "$engine $mode: a second pass changes nothing" "
			mkdir '$dir.again' &&
			eval_policy --batch '$dir.again' '$stream' gpusite-seoul-dc1-placement '$dir'/*.json &&
			{ python3 '$TEST_TOP/tests/tools/json-same.py' '$dir' '$dir.again' >'$dir.again.same' ||
			  { grep -v '^same ' '$dir.again.same' | sed 's/^/second pass: /'; exit 1; }; }
		"
	done
done

# The expectations themselves: what the Pod had is all still there.
test_expect_success "the expected Pods keep every affinity the Pod had" '
	for mode in prefer-onprem require-onprem; do
		for p in $affinity_pods; do
			python3 - "$SCRATCH/orig/$p.json" "$pods/expected/$mode/$p.json" "$mode" <<-PY || exit 1
			import json, sys
			orig, want, mode = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
			oa, wa = orig["spec"].get("affinity") or {}, want["spec"]["affinity"]
			for k in ("podAffinity", "podAntiAffinity"):
			    assert oa.get(k) == wa.get(k), (sys.argv[2], k)
			ona, wna = oa.get("nodeAffinity") or {}, wa["nodeAffinity"]
			op = ona.get("preferredDuringSchedulingIgnoredDuringExecution") or []
			wp = wna.get("preferredDuringSchedulingIgnoredDuringExecution") or []
			assert wp[:len(op)] == op, (sys.argv[2], "preferred terms lost")
			ot = (ona.get("requiredDuringSchedulingIgnoredDuringExecution") or {}).get("nodeSelectorTerms") or []
			wt = (wna.get("requiredDuringSchedulingIgnoredDuringExecution") or {}).get("nodeSelectorTerms") or []
			hyb = {"key": "eks.amazonaws.com/compute-type", "operator": "In", "values": ["hybrid"]}
			site = {"key": "gpusite.io/site", "operator": "In", "values": ["seoul-dc1"]}
			need = [hyb, site] if mode == "require-onprem" else [site]
			for req in need:
			    assert wt and all(req in t.get("matchExpressions", []) for t in wt), sys.argv[2]
			    assert all(t.get("matchExpressions", []).count(req) == 1 for t in wt), sys.argv[2]
			if ot:
			    assert len(wt) == len(ot), sys.argv[2]
			    for o, w in zip(ot, wt):
			        assert w.get("matchExpressions", [])[:len(o.get("matchExpressions", []))] == o.get("matchExpressions", [])
			        assert w.get("matchFields") == o.get("matchFields")
			if mode != "require-onprem":
			    assert sum(1 for x in wp if x["preference"] == {"matchExpressions": [hyb]}) == 1, sys.argv[2]
			PY
		done
	done
'
test_done
