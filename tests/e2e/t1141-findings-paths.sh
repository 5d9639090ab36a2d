#!/bin/sh
# t1141-findings-paths: --format github and sarif name files from the top
# of the Git work tree (or of the local --repo PATH), whatever directory
# the command runs in, so annotations and code-scanning alerts land on the
# right file; text and json keep the names as given.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

INV="$TEST_TOP/testdata/invalid"

git init -q repo && mkdir -p repo/sites/eu &&
cp "$INV/GS041-limit-below-smallest/sites/lab.yaml" repo/sites/eu/lab.yaml &&
(cd repo && git_commit base) >/dev/null

# ghfile: the file= of each annotation
ghfile() { sed -n 's/^::error file=\([^,]*\),.*/\1/p' "$1" | sort -u; }
# sariffile: the artifact URIs of the results
sariffile() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("\n".join(sorted({l["physicalLocation"]["artifactLocation"]["uri"]
    for r in d["runs"][0]["results"] for l in r.get("locations", [])})))' "$1"
}

test_expect_success 'github from a subdirectory: the path from the repository top' '
	(cd repo/sites && expect_exit 1 "$GPUSITE" validate --format github >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = sites/eu/lab.yaml &&
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" validate --format github . >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = sites/eu/lab.yaml &&
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" validate --format github ../eu/./lab.yaml >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = sites/eu/lab.yaml
'

test_expect_success 'sarif from a subdirectory: the artifact URI from the repository top' '
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" validate --format sarif >"$SCRATCH/s.json") &&
	test "$(sariffile s.json)" = sites/eu/lab.yaml
'

test_expect_success 'an absolute path inside the work tree: named from the top too' '
	(cd repo/sites && expect_exit 1 "$GPUSITE" validate --format github \
		"$SCRATCH/repo/sites/eu/lab.yaml" >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = sites/eu/lab.yaml
'

test_expect_success '--staged and --repo PATH from a subdirectory' '
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" validate --staged --format github >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = sites/eu/lab.yaml &&
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" validate --repo . --format github >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = sites/eu/lab.yaml &&
	expect_exit 1 "$GPUSITE" validate --repo repo/sites --format sarif >s.json &&
	test "$(sariffile s.json)" = sites/eu/lab.yaml
'

test_expect_success 'text and json keep the names relative to the current directory' '
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" validate --color never 2>"$SCRATCH/err") &&
	# the line and column the golden case gives, named from here
	at=$(sed -n "s|^sites/\(lab.yaml:[0-9]*:[0-9]*\): error: .*|\1|p" \
		"$INV/GS041-limit-below-smallest/expected.err") && test -n "$at" &&
	grep -q "^$at: error: " err &&
	(cd repo/sites && expect_exit 1 "$GPUSITE" validate --format json >"$SCRATCH/j") &&
	grep -q "\"file\":\"eu/lab.yaml\"" j
'

test_expect_success 'outside any work tree: the names as given' '
	mkdir -p plain/sites && cp repo/sites/eu/lab.yaml plain/sites/ &&
	(cd plain/sites && GIT_CEILING_DIRECTORIES="$SCRATCH" expect_exit 1 "$GPUSITE" validate \
		--format github >"$SCRATCH/gh") &&
	test "$(ghfile gh)" = lab.yaml
'

test_expect_success 'diff --base --format github: the notice names the spec from the top' '
	(cd repo && sed -i "s/gpuLimit: 2/gpuLimit: 4/" sites/eu/lab.yaml && git_commit four &&
	 sed -i "s/gpuLimit: 4/gpuLimit: 8/" sites/eu/lab.yaml) >/dev/null &&
	(cd repo/sites/eu && expect_exit 1 "$GPUSITE" diff --base HEAD --format github >"$SCRATCH/gh") &&
	grep -q "^::notice file=sites/eu/lab.yaml,title=gpusite diff::" gh
'

test_done
