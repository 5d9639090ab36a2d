#!/bin/sh
# t3005-github-action.sh - action.yml, the composite GitHub Action, run step
# by step as the runner would (tests/tools/run-action.py: GITHUB_* and
# RUNNER_* variables, the pull_request event payload, GITHUB_OUTPUT,
# GITHUB_PATH, the step summary file) on a pull request's base and head:
# the install step, validate with annotations and SARIF, the rendered
# diff in the summary, and the action's outputs.  The install: the cache
# holds the binary alone under a key that changes with the action's files
# (hashFiles() cannot see them: they lie outside the workspace); deb-url
# only over https and with its deb-sha256, which is checked; no /tmp when
# RUNNER_TEMP is missing.  The example workflow of examples/github-actions/
# uses it.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

VERSION=$(cat "$TEST_TOP/VERSION")
if ! python3 -c "import yaml" 2>/dev/null; then
	test_skip "the GitHub Action" "python3-yaml not found"
	test_done
	exit
fi

# the gpusite under test on PATH: the install step finds it there
mkdir -p bin && ln -s "$GPUSITE" bin/gpusite

# event PR-DIR BASE-REV: the pull_request payload of the repository's HEAD
event() {
	python3 -c 'import json, sys
print(json.dumps({"action": "synchronize", "number": 7, "pull_request": {
    "number": 7, "base": {"sha": sys.argv[1], "ref": "main"},
    "head": {"sha": sys.argv[2], "ref": "change"}}}))' \
		"$(git -C "$1" rev-parse "$2")" "$(git -C "$1" rev-parse HEAD)" >event.json
}

# run_action OUT [PATH-DIRS] [INPUT=VALUE...]: the action (ACTION, default
# this checkout) in pr/
run_action() {
	ra_out=$1 ra_path=$2
	shift 2
	rm -rf "$ra_out" &&
	PATH="$ra_path:/usr/local/bin:/usr/bin:/bin" python3 "$TEST_TOP/tests/tools/run-action.py" \
		"${ACTION:-$TEST_TOP}" "$SCRATCH/pr" "$SCRATCH/event.json" "$SCRATCH/$ra_out" "$@"
}

git_pr_repo pr
# a SHA-256 no package has
SUM0=0000000000000000000000000000000000000000000000000000000000000000

# expect_steps VALIDATE-RC: the steps of a run on a pull request, in expect
expect_steps() {
	printf "%s\n" "Key the gpusite build 0" \
		"Restore the gpusite build uses actions/cache@v4" "Install gpusite 0" \
		"Validate $1" "Upload SARIF uses github/codeql-action/upload-sarif@v3" \
		"Rendered diff 0" >expect
}

test_expect_success 'a good pull request: every step passes; outputs, summary and SARIF' '
	event pr base &&
	run_action good "$SCRATCH/bin" &&
	expect_steps 0 &&
	test_cmp expect good/steps &&
	grep -x "version=$VERSION" good/outputs &&
	grep -x "validate-exit=0" good/outputs &&
	grep -x "errors=0" good/outputs &&
	grep -x "diff-exit=1" good/outputs &&
	grep -x "changed=true" good/outputs &&
	grep -x "No problems found." good/summary &&
	grep -x "+    nvidia.com/gpu: 12" good/summary &&
	sarif=$(sed -n "s/^sarif-file=//p" good/outputs) &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d[\"version\"] == \"2.1.0\" and d[\"runs\"][0][\"results\"] == []" "$sarif" &&
	grep -x "$SCRATCH/bin" good/github-path
'

test_expect_success 'no change to the rendered objects: diff-exit 0, changed false' '
	event pr HEAD &&
	run_action same "$SCRATCH/bin" &&
	grep -x "diff-exit=0" same/outputs &&
	grep -x "changed=false" same/outputs
'

test_expect_success 'a bad pull request: validate fails with an annotation; SARIF and diff still run' '
	(cd pr && sed -i "s/gpuLimit: 12 /gpuLimit: 2 /" sites/frankfurt-lab.yaml && git_commit bad) >/dev/null &&
	event pr base &&
	run_action bad "$SCRATCH/bin" &&
	expect_steps 1 &&
	test_cmp expect bad/steps &&
	grep -x "validate-exit=1" bad/outputs &&
	grep -x "errors=1" bad/outputs &&
	grep "^::error file=sites/frankfurt-lab.yaml,line=[0-9]*,col=[0-9]*,title=GS041::" bad/log &&
	grep "GS041" bad/summary &&
	sarif=$(sed -n "s/^sarif-file=//p" bad/outputs) &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert \"GS041\" in [r[\"ruleId\"] for r in d[\"runs\"][0][\"results\"]]" "$sarif"
'

test_expect_success 'fail-on-findings false: the step passes, validate-exit says 1' '
	run_action lenient "$SCRATCH/bin" fail-on-findings=false &&
	grep -x "Validate 0" lenient/steps &&
	grep -x "validate-exit=1" lenient/outputs
'

test_expect_success 'sarif false: no upload; deb-url given: no build cache restored' '
	run_action nosarif "$SCRATCH/bin" sarif=false &&
	grep -x "Upload SARIF skipped" nosarif/steps &&
	run_action deb "$SCRATCH/bin" deb-url=https://example.invalid/gpusite.deb deb-sha256="$SUM0" &&
	grep -x "Key the gpusite build skipped" deb/steps &&
	grep -x "Restore the gpusite build skipped" deb/steps &&
	grep -x "Install gpusite 0" deb/steps
'

test_expect_success 'no gpusite on PATH: the cached build is used, nothing is built' '
	mkdir -p "$SCRATCH/home/.cache/gpusite-action" &&
	cp "$GPUSITE" "$SCRATCH/home/.cache/gpusite-action/gpusite" &&
	run_action cached "" &&
	grep -x "Install gpusite 0" cached/steps &&
	grep "using the cached build" cached/log &&
	! grep "building" cached/log &&
	grep -x "$SCRATCH/home/.cache/gpusite-action" cached/github-path &&
	grep -x "version=$VERSION" cached/outputs
'

# cache_with OUT: the actions/cache step's path and key, as "path key"
cache_with() {
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    w = json.loads(l)
    if w["uses"].startswith("actions/cache@"):
        print(w["with"]["path"], w["with"]["key"])' "$1/with"
}

test_expect_success 'the build cache: the binary alone, under a key that is a hash of the action'"'"'s files' '
	cache_with good >good.cache &&
	read -r path key <good.cache &&
	test "$path" = "~/.cache/gpusite-action/gpusite" &&
	echo "$key" | grep -xE "gpusite-Linux-X64-[0-9a-f]{64}" &&
	mkdir -p action &&
	(cd "$TEST_TOP" && cp -R action.yml VERSION Makefile mk src schemas "$SCRATCH/action/") &&
	event pr base &&
	ACTION=$SCRATCH/action run_action same-code "$SCRATCH/bin" &&
	cache_with same-code >same-code.cache &&
	test_cmp good.cache same-code.cache &&
	echo "/* a change */" >>action/src/main.c &&
	ACTION=$SCRATCH/action run_action new-code "$SCRATCH/bin" &&
	cache_with new-code >new-code.cache &&
	read -r path2 key2 <new-code.cache &&
	test "$path2" = "$path" &&
	test "$key2" != "$key" &&
	echo "# a change" >>action/action.yml &&
	ACTION=$SCRATCH/action run_action new-yml "$SCRATCH/bin" &&
	cache_with new-yml >new-yml.cache &&
	read -r path3 key3 <new-yml.cache &&
	test "$key3" != "$key2"
'

test_expect_success 'deb-url: http:// refused, deb-sha256 required, and never given alone' '
	run_action http "$SCRATCH/bin" deb-url=http://example.invalid/gpusite.deb deb-sha256="$SUM0" &&
	grep -x "Install gpusite 1" http/steps &&
	grep -x "gpusite: deb-url must be an https:// URL (a package fetched in the clear can be swapped)" http/log &&
	run_action nosum "$SCRATCH/bin" deb-url=https://example.invalid/gpusite.deb &&
	grep -x "Install gpusite 1" nosum/steps &&
	grep "deb-url needs deb-sha256" nosum/log &&
	run_action badsum "$SCRATCH/bin" deb-url=https://example.invalid/gpusite.deb deb-sha256=xyz &&
	grep "deb-url needs deb-sha256" badsum/log &&
	run_action alone "$SCRATCH/bin" deb-sha256="$SUM0" &&
	grep -x "Install gpusite 1" alone/steps &&
	grep -x "gpusite: deb-sha256 is given without deb-url" alone/log
'

# stand-ins for the network and the package manager: curl writes
# fake.deb to its -o file, apt-get and sudo say what they were asked
mkdir -p fakebin &&
printf "a package\n" >fake.deb &&
cat >fakebin/curl <<-\EOF_FAKE &&
	#!/bin/sh
	echo "curl $*" >>"$FAKE_LOG"
	while [ $# -gt 0 ]; do
		case $1 in -o) cp "$FAKE_DEB" "$2" && shift ;; esac
		shift
	done
	EOF_FAKE
printf '#!/bin/sh\necho "apt-get $*" >>"$FAKE_LOG"\n' >fakebin/apt-get &&
printf '#!/bin/sh\nexec "$@"\n' >fakebin/sudo &&
chmod +x fakebin/curl fakebin/apt-get fakebin/sudo || exit 1
FAKE_DEB=$SCRATCH/fake.deb FAKE_LOG=$SCRATCH/fake.log
export FAKE_DEB FAKE_LOG
SUM=$(sha256sum <fake.deb | cut -d" " -f1)

test_expect_success 'deb-sha256 is checked: a package that differs is not installed; the right one is' '
	rm -f fake.log &&
	run_action wrong "$SCRATCH/fakebin" deb-url=https://example.invalid/gpusite.deb deb-sha256="$SUM0" &&
	grep -x "Install gpusite 1" wrong/steps &&
	grep -x "gpusite: the package from deb-url has SHA-256 $SUM, not deb-sha256: not installed" wrong/log &&
	grep "^curl .*--proto =https --proto-redir =https .* https://example.invalid/gpusite.deb$" fake.log &&
	! grep "^apt-get" fake.log &&
	test ! -e wrong/runner-temp/gpusite.deb &&
	rm -f fake.log &&
	run_action right "$SCRATCH/fakebin" deb-url=https://example.invalid/gpusite.deb deb-sha256="$SUM" &&
	grep -x "apt-get install -y -qq $SCRATCH/right/runner-temp/gpusite.deb" fake.log
'

test_expect_success 'RUNNER_TEMP unset: the install fails, nothing goes to /tmp' '
	rm -f fake.log &&
	run_action notemp "$SCRATCH/fakebin" deb-url=https://example.invalid/gpusite.deb deb-sha256="$SUM" \
		--unset-env=RUNNER_TEMP &&
	grep -x "Install gpusite 1" notemp/steps &&
	grep "^gpusite: RUNNER_TEMP is not set" notemp/log &&
	test ! -e fake.log
'

test_expect_success 'the example workflow uses the action on pull requests, with full history' '
	python3 - "$TEST_TOP/examples/github-actions/gpusite-action.yaml" <<-\EOF
	import sys, yaml
	w = yaml.safe_load(open(sys.argv[1]))
	on = w[True] if True in w else w["on"]
	assert "pull_request" in on, on
	assert w["permissions"]["security-events"] == "write", w["permissions"]
	steps = w["jobs"]["check"]["steps"]
	assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
	ours = [s for s in steps if s.get("uses", "").startswith("example-org/gpusite@")]
	assert ours and ours[0]["id"] == "gpusite", steps
	runs = "\n".join(s.get("run", "") for s in steps)
	assert "${{" not in runs, "expressions belong in env:, not in scripts"
	EOF
'

test_done
