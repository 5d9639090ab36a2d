#!/bin/sh
# t2030-render-secrets.sh - SSM activation codes: read from the variable
# the spec names, only for --nodeconfigs, written only into those files
# (mode 0600), never to stdout, stderr or -o; an unset variable is exit 3
# with the variable named and nothing written.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"
CODE_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
CODE_I=In9cH3on5Ac7Ti9Va1Ti0nCd
CODE_L=L4s0aBcDeFgHiJkLmNoPqRs
unset SSM_ACTIVATION_CODE_RACK_B SSM_ACTIVATION_CODE_INCHEON SSM_ACTIVATION_CODE_INCHEON_L40S

with_codes() {
	SSM_ACTIVATION_CODE_RACK_B=$CODE_B SSM_ACTIVATION_CODE_INCHEON=$CODE_I \
	SSM_ACTIVATION_CODE_INCHEON_L40S=$CODE_L "$@"
}

no_code_in() {	# no_code_in FILE...
	! grep -q -e "$CODE_B" -e "$CODE_I" -e "$CODE_L" "$@"
}

test_expect_success 'render without --nodeconfigs needs no code' '
	"$GPUSITE" render "$fleet" >"$SCRATCH/plain.yaml" 2>"$SCRATCH/err" &&
	test -s "$SCRATCH/plain.yaml"
'

test_expect_success 'unset variable: exit 3, named, nothing written anywhere' '
	mkdir -p "$SCRATCH/nc1" &&
	SSM_ACTIVATION_CODE_RACK_B=$CODE_B SSM_ACTIVATION_CODE_INCHEON=$CODE_I \
		expect_exit 3 "$GPUSITE" render -o "$SCRATCH/o1.yaml" --values "$SCRATCH/v1" \
		--nodeconfigs "$SCRATCH/nc1" "$fleet" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" &&
	grep -q "SSM_ACTIVATION_CODE_INCHEON_L40S is not set" "$SCRATCH/err" &&
	grep -q "\[GS192\]" "$SCRATCH/err" &&
	test ! -e "$SCRATCH/o1.yaml" && test ! -e "$SCRATCH/v1" &&
	test -z "$(ls -A "$SCRATCH/nc1")" &&
	no_code_in "$SCRATCH/err"
'

test_expect_success 'an empty or too short code is refused the same way' '
	SSM_ACTIVATION_CODE_RACK_B=short SSM_ACTIVATION_CODE_INCHEON=$CODE_I \
	SSM_ACTIVATION_CODE_INCHEON_L40S= \
		expect_exit 3 "$GPUSITE" render --nodeconfigs "$SCRATCH/nc2" "$fleet" \
		>"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" && test ! -e "$SCRATCH/nc2" &&
	grep -q "SSM_ACTIVATION_CODE_RACK_B holds 5 characters" "$SCRATCH/err" &&
	grep -q "SSM_ACTIVATION_CODE_INCHEON_L40S is not set" "$SCRATCH/err" &&
	! grep -q "short" "$SCRATCH/err"
'

test_expect_success 'with the codes set: files written, codes only in SSM files' '
	with_codes "$GPUSITE" render -v -o "$SCRATCH/o.yaml" --nodeconfigs "$SCRATCH/nc" \
		"$fleet" >"$SCRATCH/out" 2>"$SCRATCH/err" &&
	test ! -s "$SCRATCH/out" &&
	no_code_in "$SCRATCH/o.yaml" "$SCRATCH/err" &&
	grep -q "activationCode: $CODE_B" "$SCRATCH/nc/seoul-dc1/rack-b.yaml" &&
	grep -q "activationCode: $CODE_I" "$SCRATCH/nc/incheon-edge/a100-racks.yaml" &&
	grep -q "activationCode: $CODE_L" "$SCRATCH/nc/incheon-edge/l40s-racks.yaml" &&
	test -f "$SCRATCH/nc/seoul-dc1/rack-a/gpu-a-01.yaml" &&
	test -f "$SCRATCH/nc/frankfurt-lab/lab-l40s/fra-gpu-04.yaml" &&
	no_code_in "$SCRATCH/nc/seoul-dc1/rack-a/gpu-a-01.yaml" &&
	cmp "$SCRATCH/plain.yaml" "$SCRATCH/o.yaml"
'

test_expect_success 'files with a code are mode 0600, the others are not secret' '
	test "$(stat -c %a "$SCRATCH/nc/seoul-dc1/rack-b.yaml")" = 600 &&
	test "$(stat -c %a "$SCRATCH/nc/incheon-edge/a100-racks.yaml")" = 600 &&
	(umask 022 && with_codes "$GPUSITE" render -o "$SCRATCH/o3.yaml" --nodeconfigs "$SCRATCH/nc3" "$fleet") &&
	test "$(stat -c %a "$SCRATCH/nc3/seoul-dc1/rack-a/gpu-a-01.yaml")" = 644 &&
	test "$(stat -c %a "$SCRATCH/nc3/seoul-dc1/rack-b.yaml")" = 600
'

test_expect_success 'the ConfigMap carries the same NodeConfig minus the code' '
	python3 -c "
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
cm = [d for d in docs if d[\"kind\"] == \"ConfigMap\" and d[\"metadata\"][\"name\"] == \"gpusite-nodeconfig-seoul-dc1\"][0]
assert sorted(cm[\"data\"]) == [\"rack-a.gpu-a-01.yaml\", \"rack-a.gpu-a-02.yaml\", \"rack-b.yaml\"]
f = yaml.safe_load(open(sys.argv[2] + \"/seoul-dc1/rack-b.yaml\"))
c = yaml.safe_load(cm[\"data\"][\"rack-b.yaml\"])
assert f[\"spec\"][\"hybrid\"][\"ssm\"].pop(\"activationCode\")
assert f == c, (f, c)
a = yaml.safe_load(open(sys.argv[2] + \"/seoul-dc1/rack-a/gpu-a-02.yaml\"))
assert a == yaml.safe_load(cm[\"data\"][\"rack-a.gpu-a-02.yaml\"])
" "$SCRATCH/plain.yaml" "$SCRATCH/nc"
'

test_expect_success 'json output and explain never carry a code either' '
	with_codes "$GPUSITE" render --format json "$fleet" >"$SCRATCH/j" 2>&1 &&
	with_codes "$GPUSITE" explain "$fleet" >"$SCRATCH/e" 2>&1 &&
	no_code_in "$SCRATCH/j" "$SCRATCH/e"
'

test_done
