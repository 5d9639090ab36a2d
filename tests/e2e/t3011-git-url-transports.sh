#!/bin/sh
# t3011-git-url-transports: --repo names only the transports gpusite
# supports.  git's transport helpers (ext::, fd::) run commands or use
# descriptors; libgit2 would read "ext::..." as scp-like ssh to a host named
# "ext" and look it up.  They, unknown schemes, a leading '-' and control
# characters are refused by name (exit 3, one line), before any network
# or command; nothing is created, no cache directory made.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1
export XDG_CACHE_HOME="$SCRATCH/cache"

refused() {	# refused URL EXPECTED-TEXT
	expect_exit 3 "$GPUSITE" validate --repo "$1" >out 2>err &&
	test ! -s out &&
	test "$(wc -l <err)" -eq 1 &&
	grep -F -- "$2" err &&
	test ! -e "$SCRATCH/cache/gpusite"
}

test_expect_success 'ext:: runs no command and looks up no host' '
	refused "ext::sh -c touch% $SCRATCH/pwned" \
		"git'"'"'s transport helpers ('"'"'ext::'"'"') are not supported" &&
	test ! -e "$SCRATCH/pwned" &&
	! grep -q "resolve" err
'
test_expect_success 'fd:: is refused by name' '
	refused "fd::17" "transport helpers ('"'"'fd::'"'"')"
'
test_expect_success 'an unknown scheme is refused by name' '
	refused "gopher://example.invalid/fleet" "the transport '"'"'gopher'"'"' is not supported"
'
test_expect_success 'a URL with a control character is refused, escaped' '
	refused "$(printf "https://example.invalid/\033[31mfleet")" "it holds a control character" &&
	! grep -q "$(printf "\033")" err
'
test_expect_success 'a URL that starts with - is refused' '
	refused "-uhttps://example.invalid/fleet" "it starts with '"'"'-'"'"'"
'
test_done
