#!/bin/sh
# t6903-man-pages.sh - mk/man.sh run directly on the binary (no package
# build): every page has a DESCRIPTION with text, gpusite(1) says what the
# tool is, and man reads each page without a warning.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

if ! command -v man >/dev/null 2>&1 || ! command -v groff >/dev/null 2>&1; then
	test_skip 'the man pages' "man or groff is not installed"
	test_done
	exit 0
fi

# the text of section NAME of the formatted page FILE, one line per line,
# spaces squeezed (man justifies the text)
section() {
	awk -v s="$1" '/^[A-Z][A-Z ]*$/ { on = $0 == s; next } on && NF { print }' "$2" |
		tr -s " "
}

test_expect_success 'mk/man.sh writes gpusite.1 and one page per command' '
	sh "$TEST_TOP/mk/man.sh" "$GPUSITE" man 0.0.0 2026-01-01 &&
	test -s man/gpusite.1 &&
	"$GPUSITE" --help | awk "/^commands:\$/ { on = 1; next } on && /^  [a-z]/ { print \$1 }" >cmds &&
	test -s cmds &&
	for c in $(cat cmds); do
		test -s "man/gpusite-$c.1" || { echo "no page for $c"; return 1; }
	done
'

test_expect_success 'gpusite(1): DESCRIPTION says what the tool is' '
	MANWIDTH=400 man --warnings=w -l man/gpusite.1 >page 2>page.err &&
	test ! -s page.err &&
	section DESCRIPTION page >desc &&
	test -s desc &&
	grep "gpusite turns a Git repository of hybrid GPU site specs" desc &&
	grep "Karpenter fallback NodePool" desc &&
	section COMMANDS page | grep "^ *validate" &&
	section "EXIT STATUS" page | grep "2 usage error"
'

test_expect_success 'every command page has a DESCRIPTION with text, and no warning' '
	for c in $(cat cmds); do
		MANWIDTH=400 man --warnings=w -l "man/gpusite-$c.1" >page 2>page.err &&
		test ! -s page.err &&
		section DESCRIPTION page | grep -q "[a-z]" ||
			{ echo "gpusite-$c.1: empty DESCRIPTION or warnings"; cat page.err; return 1; }
	done
'

test_expect_success 'a usage error stays short: no description on stderr' '
	expect_exit 2 "$GPUSITE" 2>err &&
	grep "^commands:" err &&
	! grep "turns a Git repository" err
'

test_done
