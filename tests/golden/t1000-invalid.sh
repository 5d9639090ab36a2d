#!/bin/sh
# t1000-invalid.sh - the invalid golden cases of `gpusite validate`.
#
# Every directory testdata/invalid/<ID>-<slug>/ is one case:
#   sites/*.yaml    the specs (validate runs in the case directory with no
#                   path, so it reads sites/ as a user's repository would)
#   expected.err    stderr, byte for byte (not a terminal: no carets, no colour)
#   expected.exit   the exit code
#   args            optional: extra validate arguments (e.g. --strict)
#   command         optional: the command instead of validate, with its
#                   arguments (render, generate: what fails only there)
#   env             optional: NAME=VALUE lines set for the run (the
#                   environment Argo CD gives generate)
#   setup           optional: shell run first in a scratch copy of the case,
#                   for what Git cannot store (a FIFO)
# stdout must stay empty.  Adding a case needs no C and no edit here.
#
#   sh tests/golden/t1000-invalid.sh --update   rewrites expected.* from the
#   current binary (make golden-update-invalid), for review with git diff.
: "${TEST_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$TEST_TOP/tests/lib.sh"

cases="$TEST_TOP/testdata/invalid"
update=
[ "${1:-}" = --update ] && update=1

# run_case DIR OUT: run validate for case DIR; stdout, stderr and the exit
# code land in OUT.stdout, OUT.stderr, OUT.exit.
run_case() {
	rc_dir=$1 rc_out=$2
	if [ -f "$rc_dir/setup" ]; then
		rc_work="$SCRATCH/work-$(basename "$rc_dir")"
		rm -rf "$rc_work"
		cp -R "$rc_dir" "$rc_work" || return 1
		(cd "$rc_work" && sh ./setup) || return 1
		rc_dir=$rc_work
	fi
	rc_args= rc_cmd=validate rc_env=
	[ -f "$rc_dir/args" ] && rc_args=$(cat "$rc_dir/args")
	[ -f "$rc_dir/command" ] && rc_cmd=$(cat "$rc_dir/command")
	[ -f "$rc_dir/env" ] && rc_env=$(grep -v '^#' "$rc_dir/env")
	# shellcheck disable=SC2086
	(cd "$rc_dir" && exec env $rc_env "$GPUSITE" $rc_cmd $rc_args) \
		>"$rc_out.stdout" 2>"$rc_out.stderr" </dev/null
	echo $? >"$rc_out.exit"
}

check_case() {
	dir=$1 out="$SCRATCH/$(basename "$1")"
	[ -f "$dir/expected.err" ] || { echo "missing $dir/expected.err" >&2; return 1; }
	[ -f "$dir/expected.exit" ] || { echo "missing $dir/expected.exit" >&2; return 1; }
	run_case "$dir" "$out" || return 1
	test_cmp "$dir/expected.exit" "$out.exit" &&
	test_cmp "$dir/expected.err" "$out.stderr" &&
	if [ -s "$out.stdout" ]; then
		echo "stdout is not empty:" >&2
		cat "$out.stdout" >&2
		return 1
	fi
}

if [ ! -x "$GPUSITE" ]; then
	test_skip "invalid golden cases" "$GPUSITE not built"
	test_done
	exit
fi

n=0
for dir in "$cases"/GS*/; do
	dir=${dir%/}
	[ -d "$dir/sites" ] || [ -f "$dir/setup" ] || continue
	name=$(basename "$dir")
	n=$((n + 1))
	if [ -n "$update" ]; then
		out="$SCRATCH/$name"
		run_case "$dir" "$out" || { echo "$name: setup failed" >&2; exit 1; }
		cp "$out.stderr" "$dir/expected.err"
		cp "$out.exit" "$dir/expected.exit"
		[ -s "$out.stdout" ] && echo "$name: stdout is not empty" >&2
		echo "updated $name (exit $(cat "$out.exit"))"
		continue
	fi
	test_expect_success "$name" "check_case '$dir'"
done
[ -n "$update" ] && exit 0

# Every rule of the rules table (src/rules/rules.c, what validate runs) has
# at least one case; the list is read from the table, so a new rule without
# a case fails here.
test_expect_success 'every rule ID has a case' '
	ids=$(grep -o "&rule_gs[0-9]*" "$TEST_TOP/src/rules/rules.c" | sed "s/&rule_gs/GS/") &&
	test "$(echo "$ids" | wc -w)" -ge 40 &&
	missing= &&
	for id in $ids; do
		ls -d "$cases/$id"-* >/dev/null 2>&1 || missing="$missing $id" &&
		grep -q "\[$id\]\$" "$cases/$id"-*/expected.err 2>/dev/null ||
			missing="$missing $id(no-diagnostic)" || return 1
	done &&
	[ -z "$missing" ] || { echo "no case for:$missing" >&2; false; }
'
# The GS010 cases hold literal secrets; no expected output may repeat
# one (expected.err is compared byte for byte, so neither may gpusite).
test_expect_success 'no GS010 finding repeats the secret it found' '
	found=0 &&
	for d in "$cases"/GS010-*/; do
		for secret in Fjz3sZfSvv78EXAMPLE Fjz3/sZfSvv78EXAMPLE \
			wJalrXUtnFEMI MHcCAQEEIBkg; do
			if grep -q "$secret" "$d"sites/*.yaml; then found=$((found + 1)); fi &&
			if grep -q "$secret" "$d/expected.err"; then
				echo "$d/expected.err repeats $secret" >&2
				exit 1
			fi
		done
	done &&
	[ "$found" -ge 4 ]
'
test_done
