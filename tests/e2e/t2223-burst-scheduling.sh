#!/bin/sh
# t2223: sites that share a cluster, each with a burst pool, scheduled for
# real.  Two sites of one cluster (testdata/render/two-site-burst: seoul-dc1
# places llm-serving and bursts llm-batch, seoul-dc2 places batch-inference
# and bursts batch-burst) are rendered with every engine (Kyverno
# MutatingPolicy, legacy ClusterPolicy, MutatingAdmissionPolicy v1 and
# v1beta1) and every siteBinding.  Every placement policy of the stream runs,
# one after the other as admission chains them, on GPU Pods of each
# namespace with and without their own affinity and tolerations
# (tests/tools/policy-eval.mjs: the CEL and JMESPath the policies hold);
# tests/tools/schedule-check.py then places each mutated Pod against the
# hybrid nodes as nodeadm registers them from the rendered NodeConfigs and
# one node per instance type of every rendered NodePool (template labels and
# taints), with Kubernetes' node-affinity and taint rules:
#   - burst Pods fit their site's burst nodes, never a fallback node;
#   - placement Pods fit their site's hybrid nodes, never a burst node,
#     even those that tolerate the burst taint themselves (the burst one or
#     a catch-all Exists): the placement policy requires pool NotIn [burst];
#   - siteBinding required: only the site's own nodes and pools;
#     preferred: the site preferred; none: no site term;
#   - every GPU request form is a GPU Pod and bound alike: the GPU only in
#     an init container or a native sidecar, a MIG device, a shared name
#     the sites' sharing config renames the GPU to, resource claims;
#   - a stranger (a namespace of no scope) that tolerates the GPU taint
#     fits no pool node: the site taint keeps it off.
. "$TEST_TOP/tests/lib.sh"

tools="$TEST_TOP/.tools/node_modules"
fleet="$TEST_TOP/testdata/render/two-site-burst/sites"
pods="$TEST_TOP/testdata/pods"
scopes='{"llm-serving": ["seoul-dc1", "placement"], "llm-batch": ["seoul-dc1", "burst"],
 "batch-inference": ["seoul-dc2", "placement"], "batch-burst": ["seoul-dc2", "burst"],
 "strangers": null}'

if ! [ -d "$tools/@marcbachmann/cel-js" ] || ! [ -d "$tools/fast-json-patch" ] ||
   ! [ -d "$tools/jmespath" ] || ! [ -d "$tools/yaml" ]; then
	test_skip "burst scheduling with the rendered policies" "npm test tools missing in .tools (run make deps)"
	test_done
	exit
fi
if ! python3 -c 'import yaml' 2>/dev/null; then
	test_skip "burst scheduling with the rendered policies" "python3-yaml missing (run make deps)"
	test_done
	exit
fi
mkdir -p "$SCRATCH/eval"
cp "$TEST_TOP/tests/tools/policy-eval.mjs" "$SCRATCH/eval/"
ln -s "$tools" "$SCRATCH/eval/node_modules"

# the GPU Pods: bare, and with their own tolerations and node affinity
# (a required term and a preference), in each namespace of the cluster
mkdir -p "$SCRATCH/pods"
for ns in llm-serving llm-batch batch-inference batch-burst; do
	sed "s/namespace: inference\$/namespace: $ns/" "$pods/gpu-no-tolerations.yaml" >"$SCRATCH/pods/$ns-bare.yaml"
	sed "s/namespace: inference\$/namespace: $ns/" "$pods/gpu-own-tolerations.yaml" >"$SCRATCH/pods/$ns-own.yaml"
	cat >>"$SCRATCH/pods/$ns-own.yaml" <<-EOF
	  affinity:
	    nodeAffinity:
	      requiredDuringSchedulingIgnoredDuringExecution:
	        nodeSelectorTerms:
	        - matchExpressions:
	          - {key: kubernetes.io/os, operator: In, values: [linux]}
	      preferredDuringSchedulingIgnoredDuringExecution:
	      - weight: 10
	        preference:
	          matchExpressions:
	          - {key: kubernetes.io/arch, operator: In, values: [amd64]}
	EOF
done
# placement Pods that bring a toleration of the burst taint themselves: the
# burst one, and a catch-all (operator Exists, no key).  Their own
# toleration must not take them onto Spot.
for ns in llm-serving batch-inference; do
	sed "s/namespace: inference\$/namespace: $ns/" "$pods/gpu-no-tolerations.yaml" >"$SCRATCH/pods/$ns-burst-tol.yaml"
	cat >>"$SCRATCH/pods/$ns-burst-tol.yaml" <<-EOF
	  tolerations:
	  - {key: gpusite.io/burst, operator: Exists, effect: NoSchedule}
	EOF
	sed "s/namespace: inference\$/namespace: $ns/" "$pods/gpu-no-tolerations.yaml" >"$SCRATCH/pods/$ns-exists.yaml"
	cat >>"$SCRATCH/pods/$ns-exists.yaml" <<-EOF
	  tolerations:
	  - {operator: Exists}
	EOF
done

# every other GPU request form, in each namespace: the GPU only in an init
# container or a native sidecar, a MIG device, a name the sites' sharing
# config renames the GPU to (below), resource claims
for ns in llm-serving llm-batch batch-inference batch-burst; do
	for form in gpu-init-container gpu-native-sidecar gpu-mig gpu-shared gpu-resource-claims; do
		sed "s/namespace: inference\$/namespace: $ns/" "$pods/$form.yaml" >"$SCRATCH/pods/$ns-$form.yaml" || exit 1
	done
done
# the second shared name (a rename of its own), once
sed -e "s/namespace: inference\$/namespace: batch-inference/" -e "s|nvidia.com/gpu.shared|nvidia.com/gpu-slice|" \
	"$pods/gpu-shared.yaml" >"$SCRATCH/pods/batch-inference-gpu-slice.yaml"
# a stranger: a GPU Pod in a namespace of no scope that tolerates the GPU
# taint itself; no policy touches it and the site taint keeps it off
# every pool node
sed "s/namespace: inference\$/namespace: strangers/" "$pods/gpu-has-gpu-toleration.yaml" >"$SCRATCH/pods/strangers-gpu.yaml"

# variant NAME ENGINE BINDING [render options]: both sites with that engine
# and siteBinding, and the same device-plugin sharing config (the GPU
# stack is cluster-wide): time-slicing with renameByDefault
# (nvidia.com/gpu.shared), MPS with a rename (nvidia.com/gpu-slice)
variant() {
	name=$1 engine=$2 binding=$3
	shift 3
	mkdir -p "$SCRATCH/$name/sites" &&
	for f in "$fleet"/*.yaml; do
		awk -v e="$engine" -v b="$binding" '{ print } /^  placement:$/ {
			print "    engine: " e; print "    siteBinding: " b }
			/^  gpuStack:$/ { print "    values:"; print "      config:"; print "        map:"
			print "          default: |"; print "            version: v1"; print "            sharing:"
			print "              timeSlicing:"; print "                renameByDefault: true"
			print "                resources:"; print "                - {name: nvidia.com/gpu, replicas: 4}"
			print "          slices: |"; print "            version: v1"; print "            sharing:"
			print "              mps:"; print "                resources:"
			print "                - {name: gpu, rename: gpu-slice, replicas: 2}" }' \
			"$f" >"$SCRATCH/$name/sites/$(basename "$f")" || return 1
	done &&
	"$GPUSITE" render "$SCRATCH/$name/sites" "$@" >"$SCRATCH/$name.yaml"
}

# evaluated OUTDIR POD...: each POD came out of a --batch evaluation into
# OUTDIR (OUTDIR/NAME.json; absent when admission rejected the Pod or the
# evaluation failed, which OUTDIR/NAME.log then says)
evaluated() {
	ev_dir=$1
	shift
	for ev_pod; do
		ev_base=$ev_dir/$(basename "${ev_pod%.*}")
		test -s "$ev_base.json" || { cat "$ev_base.log" >&2; return 1; }
	done
}

# place NAME BINDING [POLICIES]: every Pod through the policies (ALL of the
# stream by default), all in one evaluator process, then onto the nodes
place() {
	name=$1 binding=$2 policies=${3:-ALL}
	mkdir -p "$SCRATCH/$name/out" &&
	node "$SCRATCH/eval/policy-eval.mjs" --batch "$SCRATCH/$name/out" "$SCRATCH/$name.yaml" "$policies" \
		"$SCRATCH"/pods/*.yaml 2>>"$SCRATCH/$name/eval.log" &&
	evaluated "$SCRATCH/$name/out" "$SCRATCH"/pods/*.yaml &&
	python3 "$TEST_TOP/tests/tools/schedule-check.py" "$SCRATCH/$name.yaml" "$binding" "$scopes" \
		"$SCRATCH/$name"/out/*.json >"$SCRATCH/$name/placed.txt"
}

for binding in required preferred none; do
	for engine in kyverno kyverno-clusterpolicy map-v1 map-v1beta1; do
		case $engine in
		map-v1) e=mutating-admission-policy kv=1.36 ;;
		map-v1beta1) e=mutating-admission-policy kv=1.35 ;;
		*) e=$engine kv=1.36 ;;
		esac
		test_expect_success "$engine, siteBinding $binding: each site's Pods fit only what their scope allows" "
			variant '$engine-$binding' '$e' '$binding' --kube-version '$kv' &&
			test \$(grep -c '^  name: gpusite-seoul-dc.-burst-placement\$' '$SCRATCH/$engine-$binding.yaml') -ge 2 &&
			{ place '$engine-$binding' '$binding' || { cat '$SCRATCH/$engine-$binding/placed.txt'; false; }; }
		"
	done
done

test_expect_success "required: a burst Pod fits only its site's hybrid and burst nodes, a placement Pod only its hybrid and fallback nodes" '
	grep "^llm-batch-bare.json" "$SCRATCH/kyverno-required/placed.txt" >"$SCRATCH/b.txt" &&
	grep -q "seoul-dc1-gpu-01" "$SCRATCH/b.txt" && grep -q "seoul-dc1-gpu-burst-" "$SCRATCH/b.txt" &&
	! grep -q "gpu-fallback-\|seoul-dc2" "$SCRATCH/b.txt" &&
	grep "^batch-inference-own.json" "$SCRATCH/map-v1beta1-required/placed.txt" >"$SCRATCH/p.txt" &&
	grep -q "seoul-dc2-gpu-fallback-" "$SCRATCH/p.txt" && ! grep -q "gpu-burst-\|seoul-dc1" "$SCRATCH/p.txt"
'

test_expect_success "placement Pods with their own burst or catch-all toleration fit no burst node, every engine" '
	for engine in kyverno kyverno-clusterpolicy map-v1 map-v1beta1; do
		for pod in llm-serving-burst-tol llm-serving-exists batch-inference-burst-tol batch-inference-exists; do
			grep "^$pod.json" "$SCRATCH/$engine-none/placed.txt" >"$SCRATCH/t.txt" &&
			grep -q "gpu-fallback-" "$SCRATCH/t.txt" &&
			! grep -q "gpu-burst-" "$SCRATCH/t.txt" || return 1
		done
	done
'

test_expect_success "every GPU request form is bound to its site and scope, every engine" '
	for engine in kyverno kyverno-clusterpolicy map-v1 map-v1beta1; do
		for form in gpu-init-container gpu-native-sidecar gpu-mig gpu-shared gpu-resource-claims; do
			grep "^llm-batch-$form.json" "$SCRATCH/$engine-required/placed.txt" >"$SCRATCH/f.txt" &&
			grep -q "seoul-dc1-gpu-01" "$SCRATCH/f.txt" && grep -q "seoul-dc1-gpu-burst-" "$SCRATCH/f.txt" &&
			! grep -q "gpu-fallback-\|seoul-dc2" "$SCRATCH/f.txt" &&
			grep "^batch-inference-$form.json" "$SCRATCH/$engine-required/placed.txt" >"$SCRATCH/f.txt" &&
			grep -q "seoul-dc2-gpu-01" "$SCRATCH/f.txt" && grep -q "seoul-dc2-gpu-fallback-" "$SCRATCH/f.txt" &&
			! grep -q "gpu-burst-\|seoul-dc1" "$SCRATCH/f.txt" || { echo "$engine: $form"; return 1; }
		done &&
		grep "^batch-inference-gpu-slice.json" "$SCRATCH/$engine-none/placed.txt" >"$SCRATCH/f.txt" &&
		grep -q "seoul-dc2-gpu-fallback-" "$SCRATCH/f.txt" && ! grep -q "gpu-burst-" "$SCRATCH/f.txt" || return 1
	done
'

test_expect_success "a stranger tolerating the GPU taint fits no pool node, every engine and binding" '
	for f in "$SCRATCH"/*-required/placed.txt "$SCRATCH"/*-preferred/placed.txt "$SCRATCH"/*-none/placed.txt; do
		grep "^strangers-gpu.json" "$f" >"$SCRATCH/s.txt" &&
		grep -q "seoul-dc1-gpu-01" "$SCRATCH/s.txt" &&
		! grep -q "gpu-fallback-\|gpu-burst-" "$SCRATCH/s.txt" || { echo "$f"; return 1; }
	done
'

test_expect_success "a second pass of every policy changes nothing, every engine" '
	for engine in kyverno kyverno-clusterpolicy map-v1 map-v1beta1; do
		out="$SCRATCH/$engine-required/out" again="$SCRATCH/$engine-required/again" &&
		mkdir -p "$again" &&
		node "$SCRATCH/eval/policy-eval.mjs" --batch "$again" "$SCRATCH/$engine-required.yaml" ALL \
			"$out/llm-serving-own.json" "$out/llm-serving-exists.json" \
			"$out/batch-inference-burst-tol.json" "$out/llm-batch-own.json" 2>/dev/null || return 1
		for pod in llm-serving-own llm-serving-exists batch-inference-burst-tol llm-batch-own; do
			evaluated "$again" "$out/$pod.json" &&
			python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a!=b)" \
				"$out/$pod.json" "$again/$pod.json" || { echo "$engine $pod changed on a second pass"; return 1; }
		done
	done
'

test_expect_success "the check fails when only the placement policies run: burst Pods then fit no burst node" '
	cp "$SCRATCH/kyverno-required.yaml" "$SCRATCH/only-placement.yaml" &&
	! place only-placement required gpusite-seoul-dc1-placement,gpusite-seoul-dc2-placement 2>/dev/null &&
	grep -q "^FAIL: llm-batch-bare.json .* fits no burst node of its site" "$SCRATCH/only-placement/placed.txt"
'

test_done
