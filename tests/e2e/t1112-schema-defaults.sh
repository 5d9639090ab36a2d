#!/bin/sh
# t1112-schema-defaults.sh - the schema's defaults and the model's agree.
# For every property of the GPUSite schema that states a default
# (tests/tools/schema-defaults.py walks it, $refs included), a site that
# leaves the property out and the same site that writes the default must
# validate, render (YAML, all objects) and explain to the same bytes and
# exit codes: a default the model applies differently from the schema's
# shows as a difference there.  The base site (testdata/schema-defaults-base.json,
# JSON being YAML) has every block a default lives in.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

"$GPUSITE" schema >schema.json || exit 1

# run_all DIR: what the commands print for the site under DIR
run_all() {
	(cd "$1" &&
		{ "$GPUSITE" validate sites; echo "validate exit $?"; } 2>&1 &&
		{ "$GPUSITE" render --objects all sites; echo "render exit $?"; } 2>&1 &&
		{ "$GPUSITE" explain sites; echo "explain exit $?"; } 2>&1)
}

test_expect_success 'the schema states defaults, and the walker finds them' '
	python3 "$TEST_TOP/tests/tools/schema-defaults.py" schema.json \
		"$TEST_TOP/testdata/schema-defaults-base.json" pairs >list &&
	test "$(wc -l <list)" -ge 30 &&
	grep -F "spec.placement.unreachableTolerationSeconds 300" list &&
	grep -F "spec.alerts.namespace \"monitoring\"" list &&
	grep -F "spec.argocd.namespace \"argocd\"" list
'

test_expect_success 'the base site is valid and renders' '
	run_all pairs/0/absent >base.out &&
	grep -Fx "validate exit 0" base.out &&
	grep -Fx "render exit 0" base.out
'

test_expect_success 'leaving a property out is the same as writing its schema default' '
	: >bad &&
	while read -r n path default; do
		run_all "pairs/$n/absent" >absent.out &&
		run_all "pairs/$n/given" >given.out &&
		if ! cmp -s absent.out given.out; then
			echo "$path: default $default is not what the model applies" >>bad &&
			diff absent.out given.out | head -8 >>bad
		fi || return 1
	done <list &&
	test_cmp /dev/null bad
'

test_expect_success 'a schema default the model does not apply is caught (planted: weight 50)' '
	python3 -c "import json,sys; s=json.load(open(sys.argv[1])); s[\"properties\"][\"spec\"][\"properties\"][\"placement\"][\"properties\"][\"weight\"][\"default\"]=50; json.dump(s,open(sys.argv[2],\"w\"))" schema.json wrong.json &&
	python3 "$TEST_TOP/tests/tools/schema-defaults.py" wrong.json \
		"$TEST_TOP/testdata/schema-defaults-base.json" planted >plist &&
	grep -F "spec.placement.weight 50" plist >one &&
	read -r n path default <one &&
	run_all "planted/$n/absent" >absent.out &&
	run_all "planted/$n/given" >given.out &&
	! cmp -s absent.out given.out
'

test_done
