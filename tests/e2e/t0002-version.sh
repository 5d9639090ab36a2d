#!/bin/sh
# t0002-version: --version names gpusite and the libraries it runs with.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

test_expect_success 'gpusite --version: the version from VERSION, exit 0' '
	"$GPUSITE" --version >out 2>err &&
	test ! -s err &&
	echo "gpusite $(cat "$TEST_TOP/VERSION")" >expect &&
	head -n 1 out >actual &&
	test_cmp expect actual
'

test_expect_success 'gpusite --version: libgit2, libyaml, cJSON, libcurl, libmicrohttpd and PCRE2 with versions' '
	"$GPUSITE" --version >out &&
	grep -E "^libgit2 [0-9]+\.[0-9]+\.[0-9]+$" out &&
	grep -E "^libyaml [0-9]+\.[0-9]+\.[0-9]+$" out &&
	grep -E "^cJSON [0-9]+\.[0-9]+\.[0-9]+$" out &&
	grep -E "^libcurl [0-9]+\.[0-9]+\.[0-9]+" out &&
	grep -E "^PCRE2 [0-9]+\.[0-9]+$" out &&
	grep -E "^libmicrohttpd [0-9]+\.[0-9]+\.[0-9]+" out &&
	lines=7 &&
	if grep -q "^commit " out; then lines=8; fi &&
	test $(wc -l <out) -eq $lines
'

test_expect_success 'a build in a git checkout names its commit, second line' '
	if git -C "$TEST_TOP" rev-parse --verify -q HEAD >/dev/null &&
		test "$(git -C "$TEST_TOP" rev-parse --show-toplevel)" = "$(cd "$TEST_TOP" && pwd -P)"; then
		"$GPUSITE" --version >out &&
		sed -n 2p out >actual &&
		grep -E "^commit $(git -C "$TEST_TOP" rev-parse --short=12 HEAD)(-dirty)?$" actual
	fi
'

test_expect_success 'the libraries are the ones pkg-config knows, when it is there' '
	if command -v pkg-config >/dev/null && pkg-config --exists yaml-0.1; then
		"$GPUSITE" --version >out &&
		grep -x "libyaml $(pkg-config --modversion yaml-0.1)" out
	fi &&
	if command -v pkg-config >/dev/null && pkg-config --exists libpcre2-8; then
		"$GPUSITE" --version >out &&
		grep -x "PCRE2 $(pkg-config --modversion libpcre2-8)" out
	fi
'

test_done
