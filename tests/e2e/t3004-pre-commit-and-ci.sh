#!/bin/sh
# t3004-pre-commit-and-ci: the pre-commit framework itself runs the hooks
# of .pre-commit-hooks.yaml (cloned from this checkout at its HEAD) in a
# fleet repository: a bad spec blocks the commit, a good one passes, a
# commit without specs skips the hook, and a cross-file finding (GS004)
# on a file outside the commit is caught because the hook checks all of
# sites/.  Then the example GitHub Actions workflow: its shape, and its
# `run:` steps executed as the runner would (bash -eo pipefail, the step
# environment, $GITHUB_STEP_SUMMARY) on a pull request's base and head.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"
WORKFLOW="$TEST_TOP/examples/github-actions/gpusite.yaml"
mkdir -p bin && ln -s "$GPUSITE" bin/gpusite
export PATH="$SCRATCH/bin:$PATH" PRE_COMMIT_HOME="$SCRATCH/pre-commit-home"
export PRE_COMMIT_COLOR=never
LIMIT_LINE=$(grep -n "gpuLimit:" "$F/sites/frankfurt-lab.yaml" | cut -d: -f1)

test_expect_success '.pre-commit-hooks.yaml: the ids, no file names, serial, spec files only' '
	python3 - "$TEST_TOP/.pre-commit-hooks.yaml" <<-\EOF
	import re, sys, yaml
	hooks = {h["id"]: h for h in yaml.safe_load(open(sys.argv[1]))}
	h = hooks["gpusite-validate"]
	assert h["entry"] == "gpusite validate" and h["language"] == "system", h
	assert h["pass_filenames"] is False and h["require_serial"] is True, h
	# the hooks run on any staged YAML file, as validate reads every YAML
	# file of sites/ (or of the repository without sites/)
	for h in hooks.values():
	    f = re.compile(h["files"])
	    assert f.search("sites/seoul.yaml") and f.search("sites/a/b.yml"), h
	    assert f.search("clusters/eu/lab.yaml") and f.search("lab.yml"), h
	    assert not f.search("README.md") and not f.search("sites/notes.txt"), h
	assert hooks["gpusite-validate-staged"]["entry"] == "gpusite validate --staged"
	EOF
'

if ! command -v pre-commit >/dev/null 2>&1; then
	test_skip "the pre-commit framework runs the hook" "pre-commit not found (make deps installs it)"
else
	test_expect_success 'pre-commit accepts the manifest' '
		pre-commit validate-manifest "$TEST_TOP/.pre-commit-hooks.yaml"
	'

	# pre-commit clones the hook repository at `rev`: the manifest must be
	# committed as it is here; otherwise the same hooks as `repo: local`.
	if git -C "$TEST_TOP" rev-parse -q --verify HEAD:.pre-commit-hooks.yaml >/dev/null &&
		git -C "$TEST_TOP" diff --quiet HEAD -- .pre-commit-hooks.yaml; then
		HOOKS_FROM="this checkout at $(git -C "$TEST_TOP" rev-parse --short HEAD)"
		cat >precommit-config.yaml <<-EOF
		repos:
		  - repo: $TEST_TOP
		    rev: $(git -C "$TEST_TOP" rev-parse HEAD)
		    hooks:
		      - id: gpusite-validate
		EOF
	else
		HOOKS_FROM="repo: local (.pre-commit-hooks.yaml has uncommitted changes)"
		echo "# hooks from $HOOKS_FROM"
		{ echo "repos:"; echo "  - repo: local"; echo "    hooks:"
		  python3 -c '
import sys, yaml
h = [x for x in yaml.safe_load(open(sys.argv[1])) if x["id"] == "gpusite-validate"]
print("\n".join("      " + l for l in yaml.safe_dump(h, sort_keys=False).splitlines()))
' "$TEST_TOP/.pre-commit-hooks.yaml"; } >precommit-config.yaml
	fi

	git init -q fleet && (
		cd fleet && mkdir sites &&
		cp ../precommit-config.yaml .pre-commit-config.yaml &&
		git add .pre-commit-config.yaml && git commit -q -m config &&
		pre-commit install >/dev/null
	)
	count() { git -C "$SCRATCH/fleet" rev-list --count HEAD; }

	test_expect_success "pre-commit ($HOOKS_FROM): a good spec passes" '
		cd fleet && cp "$F/sites/frankfurt-lab.yaml" sites/ && git add sites &&
		git commit -m "frankfurt" >../out 2>&1 &&
		grep "^gpusite validate\.*Passed" ../out &&
		test "$(count)" = 2
	'

	test_expect_success 'pre-commit: a bad spec blocks the commit, with the finding' '
		cd fleet && sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" sites/frankfurt-lab.yaml &&
		git add sites && expect_exit 1 git commit -m "too low" >../out 2>&1 &&
		grep "^gpusite validate\.*Failed" ../out &&
		grep "^sites/frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" ../out &&
		test "$(count)" = 2 &&
		git checkout -q HEAD -- sites
	'

	test_expect_success 'pre-commit: only the staged form counts (unstaged changes are stashed)' '
		cd fleet && cp "$F/sites/incheon-edge.yaml" sites/ && git add sites &&
		sed -i "s/gpuLimit: [0-9]* /gpuLimit: 2 /" sites/incheon-edge.yaml &&
		git commit -m "incheon" >../out 2>&1 &&
		grep "^gpusite validate\.*Passed" ../out &&
		test "$(count)" = 3 &&
		grep "gpuLimit: 2 " sites/incheon-edge.yaml &&
		git checkout -q -- sites
	'

	test_expect_success 'pre-commit: a commit without specs skips the hook' '
		cd fleet && echo notes >NOTES && git add NOTES &&
		git commit -m notes >../out 2>&1 &&
		grep "^gpusite validate\.*(no files to check)Skipped" ../out &&
		test "$(count)" = 4
	'

	test_expect_success 'pre-commit: a new file clashing with an unchanged one (GS004) is caught' '
		cd fleet && cp sites/frankfurt-lab.yaml sites/frankfurt-copy.yaml &&
		git add sites/frankfurt-copy.yaml &&
		expect_exit 1 git commit -m copy >../out 2>&1 &&
		grep "\[GS004\]" ../out &&
		grep "frankfurt-lab.yaml" ../out &&
		test "$(count)" = 4
	'

	# a fleet that keeps its specs outside sites/: the default hook sees them
	git init -q elsewhere && (
		cd elsewhere && mkdir -p clusters/eu &&
		cp ../precommit-config.yaml .pre-commit-config.yaml &&
		git add .pre-commit-config.yaml && git commit -q -m config &&
		pre-commit install >/dev/null
	)

	test_expect_success 'pre-commit: specs outside sites/ are checked by default, not skipped' '
		cd elsewhere && cp "$F/sites/frankfurt-lab.yaml" clusters/eu/ &&
		sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" clusters/eu/frankfurt-lab.yaml &&
		git add clusters && expect_exit 1 git commit -m "too low" >../out 2>&1 &&
		grep "^gpusite validate\.*Failed" ../out &&
		grep "^clusters/eu/frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" ../out &&
		! grep -q "pre-commit-config" ../out &&
		sed -i "s/gpuLimit: 2 /gpuLimit: 8 /" clusters/eu/frankfurt-lab.yaml &&
		git add clusters && git commit -m "ok" >../out 2>&1 &&
		grep "^gpusite validate\.*Passed" ../out
	'

	test_expect_success 'pre-commit: the documented override (files and args) narrows the hook' '
		cd elsewhere &&
		python3 - .pre-commit-config.yaml <<-\EOF &&
		import sys, yaml
		c = yaml.safe_load(open(sys.argv[1]))
		h = c["repos"][0]["hooks"][0]
		h["files"] = r"^clusters/.*\.ya?ml$"
		h["args"] = ["clusters"]
		yaml.safe_dump(c, open(sys.argv[1], "w"), sort_keys=False)
		EOF
		grep -q "args:" .pre-commit-config.yaml &&
		git add .pre-commit-config.yaml && git commit -q -m narrow >/dev/null 2>&1 &&
		mkdir -p docs && printf "x: 1\n" >docs/other.yaml && git add docs &&
		git commit -m "docs" >../out 2>&1 &&
		grep "^gpusite validate\.*(no files to check)Skipped" ../out &&
		sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" clusters/eu/frankfurt-lab.yaml &&
		git add clusters && expect_exit 1 git commit -m "too low" >../out 2>&1 &&
		grep "^clusters/eu/frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" ../out &&
		! grep -q "GS127" ../out &&
		grep -q "files: ^fleet/specs/" "$TEST_TOP/.pre-commit-hooks.yaml" &&
		grep -q "args: \[fleet/specs\]" "$TEST_TOP/.pre-commit-hooks.yaml"
	'

	test_expect_success 'pre-commit try-repo: an untracked draft fails gpusite-validate, not -staged' '
		cd fleet && git rm -q --cached sites/frankfurt-copy.yaml &&
		mv sites/frankfurt-copy.yaml sites/draft.yaml &&
		sed -i "s/gpuLimit: [0-9]* /gpuLimit: 2 /" sites/draft.yaml &&
		sed -i "s/gpuLimit: 8 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git add sites/frankfurt-lab.yaml &&
		expect_exit 1 pre-commit try-repo "$TEST_TOP" gpusite-validate >../out 2>&1 &&
		grep "^sites/draft.yaml:.*\[GS041\]" ../out &&
		pre-commit try-repo "$TEST_TOP" gpusite-validate-staged >../out 2>&1 &&
		grep "^gpusite validate --staged\.*Passed" ../out &&
		rm sites/draft.yaml
	'
fi

# ---- the GitHub Actions example ----

test_expect_success 'workflow: pull requests, SARIF permission, full history, the three checks' '
	python3 - "$WORKFLOW" <<-\EOF
	import sys, yaml
	w = yaml.safe_load(open(sys.argv[1]))
	on = w[True] if True in w else w["on"]
	assert "pull_request" in on and "sites/**" in on["pull_request"]["paths"], on
	assert w["permissions"]["security-events"] == "write", w["permissions"]
	steps = w["jobs"]["check"]["steps"]
	assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
	runs = "\n".join(s.get("run", "") for s in steps)
	assert "gpusite validate --format github" in runs
	assert "gpusite validate --format sarif" in runs
	assert "gpusite diff --base \"$BASE_SHA\" --format markdown" in runs
	up = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
	assert up and up[0]["with"]["sarif_file"] == "gpusite.sarif" and up[0]["if"] == "always()", up
	env = [s["env"]["BASE_SHA"] for s in steps if "BASE_SHA" in s.get("env", {})]
	assert env == ["${{ github.event.pull_request.base.sha }}"], env
	assert "${{" not in runs, "expressions belong in env:, not in scripts"
	EOF
'

# run_workflow DIR BASE: the run steps (but the build) as the runner would
# run them in DIR, the pull request's base being BASE; "step NAME rc" lines
# in DIR.steps, the job summary in DIR.summary, the log in DIR.log.
run_workflow() {
	python3 - "$WORKFLOW" "$1" "$2" <<-\EOF
	import os, subprocess, sys, yaml
	wf, work, base = sys.argv[1:4]
	steps = yaml.safe_load(open(wf))["jobs"]["check"]["steps"]
	summary = work + ".summary"
	open(summary, "w").close()
	failed = False
	with open(work + ".steps", "w") as out, open(work + ".log", "w") as log:
	    for s in steps:
	        if "run" not in s or s.get("id") == "install":
	            continue
	        if failed and s.get("if") != "always()":
	            continue
	        env = dict(os.environ, GITHUB_STEP_SUMMARY=summary, GITHUB_WORKSPACE=work)
	        for k, v in s.get("env", {}).items():
	            env[k] = str(v).replace("${{ github.event.pull_request.base.sha }}", base)
	        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail",
	                              "-c", s["run"]], cwd=work, env=env, stdout=log,
	                             stderr=subprocess.STDOUT)
	        out.write("step %s %d\n" % (s["name"], rc))
	        failed = failed or rc != 0
	EOF
}

git_pr_repo pr

test_expect_success 'workflow run on a good pull request: every step passes' '
	run_workflow "$SCRATCH/pr" "$(git -C pr rev-parse base)" &&
	cat >expect <<-\EOF &&
	step Validate 0
	step Findings as SARIF 0
	step Rendered diff 0
	EOF
	test_cmp expect pr.steps &&
	grep -x "No problems found." pr.summary &&
	grep -x "\*\*1 objects changed, 0 added, 0 removed\*\* (9 unchanged)" pr.summary &&
	grep -x "+    nvidia.com/gpu: 12" pr.summary &&
	python3 -c "import json; d = json.load(open(\"pr/gpusite.sarif\")); assert d[\"version\"] == \"2.1.0\" and d[\"runs\"][0][\"results\"] == []"
'

test_expect_success 'workflow run on a bad pull request: validate fails, SARIF and diff still run' '
	(cd pr && sed -i "s/gpuLimit: 12 /gpuLimit: 2 /" sites/frankfurt-lab.yaml && git_commit bad) >/dev/null &&
	run_workflow "$SCRATCH/pr" "$(git -C pr rev-parse base)" &&
	cat >expect <<-\EOF &&
	step Validate 1
	step Findings as SARIF 0
	step Rendered diff 0
	EOF
	test_cmp expect pr.steps &&
	grep "^::error file=sites/frankfurt-lab.yaml,line=$LIMIT_LINE,col=[0-9]*,title=GS041::" pr.log &&
	grep "GS041" pr.summary &&
	python3 -c "import json; d = json.load(open(\"pr/gpusite.sarif\")); assert \"GS041\" in [r[\"ruleId\"] for r in d[\"runs\"][0][\"results\"]]" &&
	grep -x "gpusite diff: the specs in the work tree are not valid; nothing was compared" pr.log
'

test_expect_success 'workflow run on a pull request whose base is invalid: the diff step fails' '
	(cd pr && sed -i "s/gpuLimit: 2 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit fixed) >/dev/null &&
	run_workflow "$SCRATCH/pr" "$(git -C pr rev-parse HEAD~1)" &&
	cat >expect <<-\EOF &&
	step Validate 0
	step Findings as SARIF 0
	step Rendered diff 3
	EOF
	test_cmp expect pr.steps &&
	grep "^gpusite diff: error: the base.s specs at [0-9a-f]* are not valid" pr.log &&
	grep -x "gpusite diff could not compare (exit 3): see the step log" pr.summary
'

test_done
