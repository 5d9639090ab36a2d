#!/bin/sh
# t2224: validate --rendered with the schemas a user has: --upstream DIR
# of CRDs and OpenAPI v3 documents under any file names (a chart's crds/,
# `kubectl get crd -o yaml`, saved /openapi/v3 JSON), recognised by
# content; and --live, the CRDs and /openapi/v3 documents the cluster
# serves (the fake API server serving the same files).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

U=$UPSTREAM
if ! need_upstream; then
	test_skip "validate --rendered with any upstream directory" "../shared/upstream not found"
	test_done
	exit
fi
cd "$SCRATCH" || exit 1

# clean ERR: no error and no warning, and the summary says so
clean() {
	! grep -q ": \(error\|warning\): " "$1" && grep -q "0 errors, 0 warnings" "$1" ||
	{ cat "$1"; false; }
}

test_expect_success 'setup: the fleet rendered; its schemas copied under odd names' '
	"$GPUSITE" render "$TEST_TOP/testdata/fleet" >fleet.yaml 2>/dev/null &&
	upstream_schemas odd &&
	printf "%s\n" "# a chart template: no schema" "kind: {{ .Values.kind }}" >odd/template.yaml &&
	printf "binary\001\002\n" >odd/blob &&
	sed "0,/^kind: NodePool\$/s//kind: NodePool\nbogusField: 1/" fleet.yaml >bad.yaml &&
	! cmp fleet.yaml bad.yaml
'

test_expect_success '--upstream DIR of odd names: the fleet passes, no object unchecked' '
	"$GPUSITE" validate --rendered --upstream odd fleet.yaml 2>err &&
	clean err &&
	grep "MutatingAdmissionPolicy checked against the admissionregistration.k8s.io/v1beta1 schema of odd/more/adm.json" err
'

test_expect_success 'symbolic links in DIR (a loop, one dangling, one out of it) are not followed' '
	mkdir -p linked && cp -R odd/. linked/ &&
	ln -s . linked/loop && ln -s /nonexistent linked/dangling &&
	ln -s "$U/karpenter/aws-provider/karpenter.sh_nodepools.yaml" linked/outside &&
	rm linked/pools &&
	"$GPUSITE" validate --rendered --upstream linked fleet.yaml 2>err &&
	grep "warning: no upstream schema for karpenter.sh/v1 NodePool in linked" err
'

test_expect_success '--upstream DIR of odd names: a field the CRD does not have is GS130' '
	expect_exit 1 "$GPUSITE" validate --rendered --upstream odd bad.yaml 2>err &&
	grep "error: .*bogusField.*\[GS130\]" err
'

test_expect_success '`kubectl get crd -o yaml` (a List) and a JSON List work the same' '
	mkdir -p listed &&
	python3 -c "import sys, yaml, glob
items = []
for f in sorted(glob.glob(\"odd/**\", recursive=True)):
    try:
        docs = list(yaml.safe_load_all(open(f, encoding=\"utf-8\")))
    except Exception:
        continue
    items += [d for d in docs if isinstance(d, dict) and d.get(\"kind\") == \"CustomResourceDefinition\"]
yaml.safe_dump({\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": items}, open(\"listed/crds\", \"w\"))
" &&
	grep -c "^- apiVersion: apiextensions.k8s.io/v1" listed/crds >n && test "$(cat n)" -ge 10 &&
	cp odd/core listed/core.json && cp odd/more/adm.json listed/adm &&
	"$GPUSITE" validate --rendered --upstream listed fleet.yaml 2>err &&
	clean err &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream listed bad.yaml 2>err &&
	grep "bogusField.*\[GS130\]" err
'

test_expect_success 'a directory without schemas: each object unchecked says so (GS131), no error' '
	mkdir -p none && echo "kind: {{ x }}" >none/t.yaml &&
	"$GPUSITE" validate --rendered --upstream none bad.yaml 2>err &&
	grep "warning: no upstream schema for karpenter.sh/v1 NodePool in none: .*\[GS131\]" err &&
	! grep "GS130" err
'

test_expect_success 'two CRDs of one kind: the last file in name order wins, a note names all' '
	mkdir -p al2023-last hybrid-last &&
	for d in al2023-last hybrid-last; do
		cp -R odd/. "$d"/ && rm "$d/more/nc" "$d/pools" || return 1
	done &&
	cp "$U/nodeadm/eks-hybrid.node.eks.aws_nodeconfigs.yaml" al2023-last/nc-a &&
	cp "$U/nodeadm/amazon-eks-ami.node.eks.aws_nodeconfigs.yaml" al2023-last/nc-b &&
	cp "$U/nodeadm/amazon-eks-ami.node.eks.aws_nodeconfigs.yaml" hybrid-last/nc-a &&
	cp "$U/nodeadm/eks-hybrid.node.eks.aws_nodeconfigs.yaml" hybrid-last/nc-b &&
	cp "$U/karpenter/karpenter.sh_nodepools.yaml" hybrid-last/np-a &&
	cp "$U/karpenter/aws-provider/karpenter.sh_nodepools.yaml" hybrid-last/np-b &&
	cp "$U/karpenter/aws-provider/karpenter.sh_nodepools.yaml" al2023-last/np-a &&
	cp "$U/karpenter/karpenter.sh_nodepools.yaml" al2023-last/np-b &&
	"$GPUSITE" validate --rendered --upstream hybrid-last fleet.yaml 2>err &&
	clean err &&
	grep -c "note: node.eks.aws/v1alpha1 NodeConfig is defined by 2 files of hybrid-last (hybrid-last/nc-a, hybrid-last/nc-b): the last in file-name order, hybrid-last/nc-b, is used" err >n &&
	test "$(cat n)" = 1 &&
	grep "note: karpenter.sh/v1 NodePool is defined by 2 files of hybrid-last (hybrid-last/np-a, hybrid-last/np-b): the last in file-name order, hybrid-last/np-b, is used" err &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream al2023-last fleet.yaml 2>err &&
	grep "error: unknown field .hybrid. in spec .*\[GS130\]" err &&
	grep "note: node.eks.aws/v1alpha1 NodeConfig is defined by 2 files of al2023-last (al2023-last/nc-a, al2023-last/nc-b): the last in file-name order, al2023-last/nc-b, is used" err &&
	grep "note: karpenter.sh/v1 NodePool is defined by 2 files of al2023-last (al2023-last/np-a, al2023-last/np-b): the last in file-name order, al2023-last/np-b, is used" err
'

test_expect_success 'GS131 is reported at its row'"'"'s level only: its note is GS240, its error GS241' '
	"$GPUSITE" validate --rendered --upstream hybrid-last fleet.yaml 2>all &&
	"$GPUSITE" validate --rendered --upstream none bad.yaml 2>>all &&
	"$GPUSITE" validate --rendered --upstream odd fleet.yaml 2>>all &&
	expect_exit 3 "$GPUSITE" validate --rendered --upstream nowhere fleet.yaml 2>>all &&
	grep "\[GS131\]" all >gs131 &&
	test -s gs131 &&
	! grep -v ": warning: no upstream schema for " gs131 &&
	grep "note: karpenter.sh/v1 NodePool is defined by 2 files of hybrid-last .*\[GS240\]\$" all &&
	grep "note: admissionregistration.k8s.io/v1 MutatingAdmissionPolicy checked against .*\[GS240\]\$" all &&
	grep "^nowhere: error: upstream schema directory nowhere is not a directory: .*\[GS241\]\$" all
'

test_expect_success '--live without --rendered, --upstream without --rendered: usage errors' '
	expect_exit 2 "$GPUSITE" validate --live "$TEST_TOP/testdata/fleet" 2>err &&
	grep "go with --rendered" err &&
	(unset GPUSITE_UPSTREAM && expect_exit 2 "$GPUSITE" validate --rendered fleet.yaml 2>err) &&
	grep "upstream DIR, GPUSITE_UPSTREAM or --live" err
'

if ! live_have_python || ! python3 -c "import yaml" 2>/dev/null; then
	test_skip "validate --rendered --live" "python3, python3-yaml or openssl not found"
	test_done
	exit
fi

test_expect_success '--live: the cluster.s CRDs and /openapi/v3: the fleet passes' '
	live_start healthy --schemas "$SCRATCH/odd" &&
	(unset GPUSITE_UPSTREAM && "$GPUSITE" validate --rendered --live \
		--kubeconfig "$SCRATCH/kubeconfig" fleet.yaml 2>err) &&
	clean err &&
	grep -F "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions" "$SCRATCH/requests.log" &&
	grep -F "GET /openapi/v3 " "$SCRATCH/requests.log" &&
	grep -F "GET /openapi/v3/api/v1?hash=" "$SCRATCH/requests.log" &&
	! grep -F "GET /openapi/v3/apis/apps/v1" "$SCRATCH/requests.log" &&
	only_gets
'

test_expect_success '--live: a field the cluster.s CRD does not have is GS130' '
	live_start healthy --schemas "$SCRATCH/odd" &&
	expect_exit 1 "$GPUSITE" validate --rendered --live --kubeconfig "$SCRATCH/kubeconfig" \
		bad.yaml 2>err &&
	grep "bogusField.*\[GS130\]" err
'

test_expect_success '--live: an /openapi/v3 index naming documents elsewhere is refused, exit 3' '
	for url in //evil.example/openapi "https://evil.example/x" "/openapi/v3/x%0a y"; do
		live_start healthy --schemas "$SCRATCH/odd" --fault "openapi-foreign=$url" &&
		expect_exit 3 "$GPUSITE" validate --rendered --live \
			--kubeconfig "$SCRATCH/kubeconfig" fleet.yaml 2>err &&
		grep "at a path that is not one of its own: refusing to follow it" err &&
		! grep -F "evil.example/" "$SCRATCH/requests.log" || return 1
	done
'

test_expect_success '--live: the cluster does not serve the CRD: GS131 names the cluster' '
	mkdir -p few && cp odd/core few/ &&
	live_start healthy --schemas "$SCRATCH/few" &&
	"$GPUSITE" validate --rendered --live --kubeconfig "$SCRATCH/kubeconfig" fleet.yaml 2>err &&
	grep "no upstream schema for karpenter.sh/v1 NodePool in the cluster" err
'

test_done
