#!/bin/sh
# t2020-render-cli.sh - `gpusite render` options and exit codes: --site,
# unknown sites, -o (a file, or standard output as -, /dev/stdout or
# /dev/fd/1), --format, --values, --kube-version, usage errors, and
# "nothing on stdout" whenever the run fails.  Links and special files at
# an output path: t2070, t2071.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"

test_expect_success '--site keeps only that site (and its cluster stack)' '
	"$GPUSITE" render --site seoul-dc1 "$fleet" >"$SCRATCH/one.yaml" &&
	grep -q "^  name: gpusite-nodeconfig-seoul-dc1$" "$SCRATCH/one.yaml" &&
	grep -q "^  name: my-hybrid-cluster-nvidia-device-plugin$" "$SCRATCH/one.yaml" &&
	! grep -q "incheon-edge\|frankfurt-lab\|inference-eu" "$SCRATCH/one.yaml" &&
	# ConfigMap, EC2NodeClass, NodePool, the cluster stack Application,
	# MutatingPolicy, PrometheusRule (the AL2023 fallback plugin is
	# of incheon-edge, not asked for)
	test "$(grep -c "^---$" "$SCRATCH/one.yaml")" -eq 6
'

test_expect_success '--site repeated or comma-separated' '
	"$GPUSITE" render --site seoul-dc1 --site frankfurt-lab "$fleet" >"$SCRATCH/a.yaml" &&
	"$GPUSITE" render --site=frankfurt-lab,seoul-dc1 "$fleet" >"$SCRATCH/b.yaml" &&
	cmp "$SCRATCH/a.yaml" "$SCRATCH/b.yaml" &&
	grep -q "inference-eu-gpu-operator" "$SCRATCH/a.yaml" &&
	! grep -q "incheon-edge" "$SCRATCH/a.yaml"
'

test_expect_success 'an unknown site is an error with empty stdout' '
	expect_exit 1 "$GPUSITE" render --site seoul-dc1 --site seoul-dc9 "$fleet" \
		>"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" &&
	grep -q "no site is named .seoul-dc9." "$SCRATCH/err" &&
	grep -q "\[GS190\]" "$SCRATCH/err"
'

test_expect_success 'a directory without specs is an error, never an empty stream' '
	mkdir -p "$SCRATCH/empty" &&
	! "$GPUSITE" render "$SCRATCH/empty" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" &&
	test -s "$SCRATCH/err"
'

test_expect_success '--format json: one object per line, the same objects' '
	"$GPUSITE" render --format json "$fleet" >"$SCRATCH/s.json" &&
	"$GPUSITE" render "$fleet" >"$SCRATCH/s.yaml" &&
	test "$(wc -l <"$SCRATCH/s.json")" -eq "$(grep -c "^---$" "$SCRATCH/s.yaml")" &&
	python3 -c "
import json, sys, yaml
js = [json.loads(l) for l in open(sys.argv[1])]
ys = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d is not None]
assert js == ys, \"json and yaml differ\"
assert [d[\"kind\"] for d in js][0] == \"ConfigMap\"
" "$SCRATCH/s.json" "$SCRATCH/s.yaml"
'

test_expect_success '-o FILE writes the stream there and nothing on stdout' '
	"$GPUSITE" render -o "$SCRATCH/o.yaml" "$fleet" >"$SCRATCH/stdout" &&
	test ! -s "$SCRATCH/stdout" &&
	"$GPUSITE" render "$fleet" >"$SCRATCH/ref.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/o.yaml" &&
	"$GPUSITE" render -o - "$fleet" | cmp - "$SCRATCH/ref.yaml"
'

test_expect_success '-o /dev/stdout and -o /dev/fd/1 are standard output, as -o - is' '
	"$GPUSITE" render -o /dev/stdout "$fleet" | cmp - "$SCRATCH/ref.yaml" &&
	"$GPUSITE" render -o /dev/fd/1 "$fleet" >"$SCRATCH/fd1.yaml" &&
	cmp "$SCRATCH/ref.yaml" "$SCRATCH/fd1.yaml"
'

test_expect_success '-o onto a directory fails and leaves it alone' '
	mkdir -p "$SCRATCH/adir" &&
	expect_exit 3 "$GPUSITE" render -o "$SCRATCH/adir" "$fleet" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" && test -d "$SCRATCH/adir" &&
	test -z "$(ls -A "$SCRATCH/adir")" && grep -q "is a directory" "$SCRATCH/err"
'

test_expect_success '--values DIR writes DIR/<cluster>/values.yaml' '
	"$GPUSITE" render -o "$SCRATCH/x.yaml" --values "$SCRATCH/values" "$fleet" &&
	test -f "$SCRATCH/values/my-hybrid-cluster/values.yaml" &&
	test -f "$SCRATCH/values/inference-eu/values.yaml" &&
	grep -q "^  eks.amazonaws.com/compute-type: hybrid$" \
		"$SCRATCH/values/my-hybrid-cluster/values.yaml" &&
	grep -q "^driver:$" "$SCRATCH/values/inference-eu/values.yaml" &&
	test ! -e "$SCRATCH/values/seoul-dc1"
'

test_expect_success 'the values file is the Application valuesObject' '
	python3 -c "
import sys, yaml
apps = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d[\"kind\"] == \"Application\"]
for a in apps:
    c = a[\"metadata\"][\"labels\"][\"gpusite.io/cluster\"]
    # the plugin of the AL2023 fallback nodes has a values file of its own
    f = \"values-fallback.yaml\" if a[\"metadata\"][\"name\"].endswith(\"-fallback\") else \"values.yaml\"
    v = yaml.safe_load(open(sys.argv[2] + \"/\" + c + \"/\" + f))
    assert v == a[\"spec\"][\"source\"][\"helm\"][\"valuesObject\"], c
" "$SCRATCH/ref.yaml" "$SCRATCH/values"
'

test_expect_success '--kube-version picks the admission policy API' '
	"$GPUSITE" render --site frankfurt-lab "$fleet" >"$SCRATCH/k36.yaml" &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1$" "$SCRATCH/k36.yaml" &&
	"$GPUSITE" render --kube-version 1.35 --site frankfurt-lab "$fleet" \
		>"$SCRATCH/k35.yaml" 2>/dev/null &&
	grep -q "^apiVersion: admissionregistration.k8s.io/v1beta1$" "$SCRATCH/k35.yaml" &&
	! grep -q "^apiVersion: admissionregistration.k8s.io/v1$" "$SCRATCH/k35.yaml" &&
	"$GPUSITE" render --kube-version v1.36.2 --site frankfurt-lab "$fleet" \
		>"$SCRATCH/k362.yaml" && cmp "$SCRATCH/k36.yaml" "$SCRATCH/k362.yaml"
'

test_expect_success 'usage errors exit 2 with nothing on stdout' '
	expect_exit 2 "$GPUSITE" render --format xml "$fleet" >"$SCRATCH/out" 2>/dev/null &&
	test ! -s "$SCRATCH/out" &&
	expect_exit 2 "$GPUSITE" render --no-such-flag "$fleet" >"$SCRATCH/out" 2>/dev/null &&
	expect_exit 2 "$GPUSITE" render --kube-version two "$fleet" >"$SCRATCH/out" 2>/dev/null &&
	expect_exit 2 "$GPUSITE" render "$fleet" "$fleet" >"$SCRATCH/out" 2>/dev/null &&
	test ! -s "$SCRATCH/out"
'

test_expect_success '--help lists the options' '
	"$GPUSITE" render --help >"$SCRATCH/help" &&
	for o in --site --output --format --nodeconfigs --values --kube-version; do
		grep -q -- "$o" "$SCRATCH/help" || return 1
	done
'

test_expect_success 'an invalid spec prints findings, nothing on stdout, exit 1' '
	mkdir -p "$SCRATCH/bad" &&
	sed "s/gpuLimit: 16 .*/gpuLimit: 2/" "$fleet/seoul-dc1.yaml" >"$SCRATCH/bad/seoul.yaml" &&
	expect_exit 1 "$GPUSITE" render "$SCRATCH/bad" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" &&
	grep -q "seoul.yaml:[0-9]*:[0-9]*: error: .*\[GS041\]" "$SCRATCH/err"
'

test_expect_success 'warnings are printed, the stream still comes out; --strict fails' '
	mkdir -p "$SCRATCH/warn" &&
	sed "/minGpuMemoryMiB/d" "$fleet/seoul-dc1.yaml" >"$SCRATCH/warn/seoul.yaml" &&
	"$GPUSITE" render "$SCRATCH/warn" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test -s "$SCRATCH/out" && grep -q "warning: .*\[GS043\]" "$SCRATCH/err" &&
	expect_exit 1 "$GPUSITE" render --strict "$SCRATCH/warn" >"$SCRATCH/out" 2>/dev/null &&
	test ! -s "$SCRATCH/out"
'

test_done
