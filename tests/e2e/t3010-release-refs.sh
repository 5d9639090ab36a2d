#!/bin/sh
# t3010-release-refs: the gpusite revision the README's pre-commit example
# and the example workflow name is the release of this tree, "v" + the
# VERSION file - never a tag of another version.  (The tag itself is made
# when the version is released; see the README.)
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

WANT="v$(cat "$TEST_TOP/VERSION")"

test_expect_success 'VERSION is one semantic version' '
	grep -Eqx "[0-9]+\.[0-9]+\.[0-9]+" "$TEST_TOP/VERSION"
'

test_expect_success 'every rev: of the README and docs is v$(cat VERSION)' '
	grep -h -o "^ *rev: *[^ #]*" "$TEST_TOP/README.md" "$TEST_TOP"/docs/*.md |
		sed "s/^ *rev: *//" >revs &&
	test -s revs &&
	grep -q "" revs &&
	while read -r r; do
		test "$r" = "$WANT" || { echo "rev: $r, VERSION says $WANT"; return 1; }
	done <revs
'

test_expect_success 'the example workflow builds the gpusite of v$(cat VERSION)' '
	grep -o "GPUSITE_REF: *[^ #]*" "$TEST_TOP/examples/github-actions/gpusite.yaml" |
		sed "s/GPUSITE_REF: *//" >refs &&
	test "$(cat refs)" = "$WANT"
'

test_expect_success 'the binary reports the same version' '
	"$GPUSITE" --version | head -n 1 | grep -q "$(cat "$TEST_TOP/VERSION")"
'

test_done
