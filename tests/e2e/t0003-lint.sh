#!/bin/sh
# t0003-lint: each external library is included by its own module only,
# and the check itself catches an offender.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

test_expect_success 'the tree passes the include check' '
	sh "$TEST_TOP/mk/lint.sh" "$TEST_TOP" >out 2>err &&
	grep "lint: ok" out
'

# make_tree DIR FILE LINE: a fake tree with one source file
make_tree() {
	mkdir -p "$1/src/yamlio" "$1/src/json" "$1/src/source" "$1/src/kube" "$1/src/cmd" &&
	printf "#include <yaml.h>\n" >"$1/src/yamlio/ok.c" &&
	printf "#include <cjson/cJSON.h>\n" >"$1/src/json/ok.c" &&
	printf "#include <git2.h>\n" >"$1/src/source/ok.c" &&
	printf "#include <curl/curl.h>\n" >"$1/src/kube/ok.c" &&
	mkdir -p "$(dirname "$1/$2")" &&
	printf "%s\n" "$3" >"$1/$2"
}

test_expect_success 'a clean fake tree passes' '
	make_tree clean src/cmd/x.c "#include <stdio.h>" &&
	sh "$TEST_TOP/mk/lint.sh" clean
'

for case in "src/cmd/x.c|#include <yaml.h>|<yaml.h>" \
	    "src/report/r.c|#include <cjson/cJSON.h>|cJSON" \
	    "src/render/r.h|#  include \"cJSON.h\"|cJSON" \
	    "src/cmd/g.c|#include <git2/diff.h>|<git2.h>" \
	    "src/json/j.c|#include <curl/curl.h>|curl"; do
	file=${case%%|*}; rest=${case#*|}; line=${rest%|*}; what=${rest#*|}
	test_expect_success "lint fails on $what in $file" "
		make_tree bad $file '$line' &&
		expect_exit 1 sh \"\$TEST_TOP/mk/lint.sh\" bad 2>err &&
		grep -F '$file' err &&
		grep -F '$what may be included only' err
	"
	rm -rf "$SCRATCH/bad"
done

test_done
