#!/bin/sh
# t2010-render-determinism.sh - the same input renders the same bytes:
# twice in a row, with the spec files created in another order (and so
# another directory order), under a Turkish locale (dotless i), in another
# time zone, and from another working directory.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"

test_expect_success 'render the fleet as the reference' '
	"$GPUSITE" render "$fleet" >"$SCRATCH/ref.yaml" &&
	"$GPUSITE" render --format json "$fleet" >"$SCRATCH/ref.json" &&
	test -s "$SCRATCH/ref.yaml" && test -s "$SCRATCH/ref.json"
'

test_expect_success 'a second run gives the same bytes' '
	"$GPUSITE" render "$fleet" >"$SCRATCH/again.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/again.yaml"
'

test_expect_success 'files created in reverse order, in a nested layout' '
	mkdir -p "$SCRATCH/rev/sites/z" &&
	for f in $(ls "$fleet" | sort -r); do
		cp "$fleet/$f" "$SCRATCH/rev/sites/z/$f" || return 1
	done &&
	"$GPUSITE" render "$SCRATCH/rev/sites" >"$SCRATCH/rev.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/rev.yaml"
'

test_expect_success 'all sites in one multi-document file' '
	mkdir -p "$SCRATCH/one" &&
	for f in $(ls "$fleet" | sort -r); do
		cat "$fleet/$f" && echo "---" || return 1
	done >"$SCRATCH/one/all.yaml" &&
	"$GPUSITE" render "$SCRATCH/one" >"$SCRATCH/one.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/one.yaml"
'

test_expect_success 'TZ=Asia/Seoul changes nothing' '
	TZ=Asia/Seoul "$GPUSITE" render "$fleet" >"$SCRATCH/tz.yaml" &&
	TZ=Asia/Seoul "$GPUSITE" render --format json "$fleet" >"$SCRATCH/tz.json" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/tz.yaml" &&
	cmp "$SCRATCH/ref.json" "$SCRATCH/tz.json"
'

# A real tr_TR.UTF-8 locale, built into the scratch directory (LOCPATH),
# so the run is not silently in the C locale (patterns run on PCRE2, which
# no locale changes).
if command -v localedef >/dev/null 2>&1 && mkdir -p "$SCRATCH/locale" &&
   localedef -i tr_TR -f UTF-8 "$SCRATCH/locale/tr_TR.UTF-8" >/dev/null 2>&1; then
	test_expect_success 'LC_ALL=tr_TR.UTF-8 changes nothing' '
		LOCPATH="$SCRATCH/locale" LC_ALL=tr_TR.UTF-8 sh -c "locale 2>&1" |
			grep -q "LC_CTYPE=\"tr_TR.UTF-8\"" &&
		LOCPATH="$SCRATCH/locale" LC_ALL=tr_TR.UTF-8 \
			"$GPUSITE" render "$fleet" >"$SCRATCH/tr.yaml" &&
		LOCPATH="$SCRATCH/locale" LC_ALL=tr_TR.UTF-8 \
			"$GPUSITE" render --format json "$fleet" >"$SCRATCH/tr.json" &&
		cmp "$SCRATCH/ref.yaml" "$SCRATCH/tr.yaml" &&
		cmp "$SCRATCH/ref.json" "$SCRATCH/tr.json"
	'
else
	test_skip 'LC_ALL=tr_TR.UTF-8 changes nothing' 'localedef cannot build tr_TR.UTF-8 here'
fi

test_expect_success 'the working directory does not matter' '
	(cd "$TEST_TOP/testdata/fleet" && "$GPUSITE" render) >"$SCRATCH/cwd.yaml" &&
	(cd "$TEST_TOP/testdata/fleet/sites" && "$GPUSITE" render .) >"$SCRATCH/dot.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/cwd.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/dot.yaml"
'

test_expect_success 'the stream is sorted by kind rank, namespace, name' '
	awk "/^kind: /{k=\$2} /^  name: /{n=\$2} /^  namespace: /{ns=\$2}
	     /^---/{if (k) print k, ns, n; k=\"\"; n=\"\"; ns=\"\"}
	     END{print k, ns, n}" "$SCRATCH/ref.yaml" >"$SCRATCH/order" &&
	cat >"$SCRATCH/want" <<-\EOT &&
	ConfigMap kube-system gpusite-nodeconfig-frankfurt-lab
	ConfigMap kube-system gpusite-nodeconfig-incheon-edge
	ConfigMap kube-system gpusite-nodeconfig-seoul-dc1
	EC2NodeClass  gpu-fallback
	NodePool  frankfurt-lab-gpu-fallback
	NodePool  incheon-edge-gpu-fallback
	NodePool  seoul-dc1-gpu-fallback
	Application argocd inference-eu-gpu-operator
	Application argocd my-hybrid-cluster-nvidia-device-plugin
	Application argocd my-hybrid-cluster-nvidia-device-plugin-fallback
	MutatingPolicy  gpusite-incheon-edge-placement
	MutatingPolicy  gpusite-seoul-dc1-placement
	MutatingAdmissionPolicy  gpusite-frankfurt-lab-placement
	MutatingAdmissionPolicyBinding  gpusite-frankfurt-lab-placement
	PrometheusRule monitoring gpusite-incheon-edge
	PrometheusRule monitoring gpusite-seoul-dc1
	PrometheusRule observability gpusite-frankfurt-lab
	EOT
	test_cmp "$SCRATCH/want" "$SCRATCH/order"
'

test_done
