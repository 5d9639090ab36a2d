#!/bin/sh
# t3003-diff-revisions: `gpusite diff --base REV [--head REV]` on a
# repository made here.  Golden outputs (testdata/git/expected; rewrite
# them with GPUSITE_GOLDEN_UPDATE=1 and review with git diff) for a
# changed gpuLimit (exactly one object changes), a new site (objects
# added), a deleted site (objects removed), and a pure reformatting (no
# difference, exit 0); the markdown, json and github forms; the work tree
# and the index as head; an empty side; an invalid side; errors and usage
# errors.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"
GOLDEN="$F/expected"

# golden NAME ACTUAL: byte for byte against testdata/git/expected/NAME
golden() {
	if [ "${GPUSITE_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$2" "$GOLDEN/$1"
	fi
	test_cmp "$GOLDEN/$1" "$2"
}

# repo/: tag empty (no sites yet), tag base (two sites), one branch per case
git init -q repo && (
	cd repo &&
	echo "fleet" >README && git_commit empty && git tag empty &&
	mkdir sites && cp "$F/sites/frankfurt-lab.yaml" "$F/sites/incheon-edge.yaml" sites/ &&
	git_commit base && git tag base &&
	git checkout -q -b limit base &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit limit &&
	git checkout -q -b added base &&
	cp "$F/added/seoul-dc1.yaml" sites/ && git_commit added &&
	git checkout -q -b removed base &&
	git rm -q sites/incheon-edge.yaml && git_commit removed &&
	git checkout -q -b reformat base &&
	cp "$F/reformatted/frankfurt-lab.yaml" sites/ && git_commit reformat &&
	git checkout -q -b bad base &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" sites/frankfurt-lab.yaml && git_commit bad &&
	git checkout -q -b odd base &&
	cp "$F/added/seoul-dc1.yaml" "sites/we%ird,na:me
x.yaml" && git_commit odd &&
	git checkout -q base
) >/dev/null

d() { (cd "$SCRATCH/repo" && "$GPUSITE" diff "$@"); }

test_expect_success 'a changed gpuLimit: exactly one object changes (golden), exit 1' '
	expect_exit 1 d --base base --head limit >out 2>err &&
	test ! -s err &&
	golden limit.diff out &&
	test "$(grep -c "^--- a/" out)" = 1 &&
	grep -x -- "--- a/NodePool/frankfurt-lab-gpu-fallback" out &&
	grep -x -- "+    nvidia.com/gpu: 12" out &&
	tail -1 out | grep -x "1 objects changed, 0 added, 0 removed"
'

test_expect_success 'a new site: its objects added whole (golden)' '
	expect_exit 1 d --base base --head added >out &&
	golden added.diff out &&
	grep -x -- "+++ b/NodePool/seoul-dc1-gpu-fallback" out &&
	grep -B1 -x -- "+++ b/NodePool/seoul-dc1-gpu-fallback" out | grep -x -- "--- /dev/null" &&
	tail -1 out | grep -x "0 objects changed, [1-9][0-9]* added, 0 removed"
'

test_expect_success 'added objects are shown whole: each is a document render prints' '
	(cd repo && git checkout -q added && "$GPUSITE" render >../stream.yaml &&
	 git checkout -q base) &&
	expect_exit 1 d --base base --head added >out &&
	python3 - out stream.yaml <<-\EOF
	import sys
	diff = open(sys.argv[1]).read().split("\n")
	docs = open(sys.argv[2]).read().split("---\n")
	added, cur = [], None
	for i, line in enumerate(diff):
	    if line == "--- /dev/null":
	        cur = []
	        added.append(cur)
	    elif line.startswith("--- "):
	        cur = None
	    elif cur is not None and line.startswith("+") and not line.startswith("+++ "):
	        cur.append(line[1:])
	assert added, "no added object"
	for body in added:
	    text = "\n".join(body) + "\n"
	    assert text in docs, text[:200]
	EOF
'

test_expect_success 'a deleted site: its objects removed whole (golden)' '
	expect_exit 1 d --base base --head removed >out &&
	golden removed.diff out &&
	! grep "^+[^+]" out &&
	grep -A1 -x -- "--- a/NodePool/incheon-edge-gpu-fallback" out | grep -x -- "+++ /dev/null" &&
	tail -1 out | grep -x "0 objects changed, 0 added, [1-9][0-9]* removed"
'

test_expect_success 'a pure reformatting renders the same: exit 0, nothing but the summary' '
	(cd repo && ! git diff --quiet base reformat) &&
	d --base base --head reformat >out &&
	echo "0 objects changed, 0 added, 0 removed" >expect &&
	test_cmp expect out &&
	d -q --base base --head reformat >out &&
	test ! -s out
'

test_expect_success 'markdown: the PR comment (golden)' '
	expect_exit 1 d --base base --head limit --format markdown >out &&
	golden limit.md out &&
	expect_exit 1 d --base base --head added --format markdown >out &&
	golden added.md out &&
	grep -c "^<details>" out >/dev/null &&
	d --base base --head reformat --format markdown >out &&
	grep -x "No difference in the rendered output." out
'

test_expect_success 'github: log groups, annotations on the spec file, the summary appended (golden)' '
	(cd repo && expect_exit 1 env GITHUB_STEP_SUMMARY="$SCRATCH/summary.md" \
		"$GPUSITE" diff --base base --head limit --format github >../out) &&
	golden limit.github out &&
	grep -x "::notice file=sites/frankfurt-lab.yaml,title=gpusite diff::NodePool/frankfurt-lab-gpu-fallback changed in the rendered output (+1 -1 lines)" out &&
	expect_exit 1 d --base base --head limit --format markdown >md &&
	test_cmp md "$SCRATCH/summary.md"
'

test_expect_success 'github: file properties escape % , : and newlines' '
	expect_exit 1 d --base base --head odd --format github >out &&
	grep "^::notice file=sites/we%25ird%2Cna%3Ame%0Ax.yaml,title=gpusite diff::NodePool/seoul-dc1-gpu-fallback added" out &&
	! grep "^x.yaml" out
'

test_expect_success 'json: every object with its status; diffs as in the text form' '
	expect_exit 1 d --base base --head added --format json >out.json &&
	expect_exit 1 d --base base --head added >out.txt &&
	python3 - out.json out.txt <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	text = open(sys.argv[2]).read()
	assert d["base"] == "base" and d["head"] == "added", d
	st = [o["status"] for o in d["objects"]]
	s = d["summary"]
	assert s["changed"] == st.count("changed") and s["added"] == st.count("added"), s
	assert s["removed"] == 0 and s["unchanged"] == st.count("unchanged") > 0, s
	assert "".join(o.get("diff", "") for o in d["objects"]) + \
	    "%d objects changed, %d added, %d removed\n" % (s["changed"], s["added"], s["removed"]) == text
	for o in d["objects"]:
	    if o["status"] == "added":
	        assert o["site"] == "seoul-dc1" and o["file"] == "sites/seoul-dc1.yaml", o
	        assert o["deletions"] == 0 and o["additions"] > 0, o
	    if o["status"] == "unchanged":
	        assert "diff" not in o, o
	EOF
'

test_expect_success 'head defaults to the work tree; --staged compares the index' '
	(cd repo && git checkout -q base &&
	 sed -i "s/gpuLimit: 8 /gpuLimit: 12 /" sites/frankfurt-lab.yaml) &&
	expect_exit 1 d --base base >out &&
	golden limit.diff out &&
	d --base base --staged >out &&
	tail -1 out | grep -x "0 objects changed, 0 added, 0 removed" &&
	(cd repo && git add sites/frankfurt-lab.yaml) &&
	expect_exit 1 d --base base --staged >out &&
	golden limit.diff out &&
	(cd repo && git checkout -q HEAD -- sites && git diff --quiet HEAD)
'

test_expect_success 'a side without spec files: everything added, nothing invalid' '
	expect_exit 1 d --base empty --head base >out &&
	n=$(cd repo && git checkout -q base && "$GPUSITE" render | grep -c "^---$") &&
	tail -1 out | grep -x "0 objects changed, $n added, 0 removed"
'

test_expect_success 'an invalid side: its errors on stderr, nothing on stdout, exit 1' '
	expect_exit 1 d --base base --head bad >out 2>err &&
	test ! -s out &&
	grep -x "gpusite diff: the specs at bad are not valid; nothing was compared" err &&
	grep "^sites/frankfurt-lab.yaml:[0-9]*:[0-9]*: error: .*\[GS041\]" err
'

test_expect_success 'an invalid base: the base'\''s findings on stderr, nothing on stdout, exit 3' '
	for fmt in text markdown github json; do
		expect_exit 3 d --base bad --head base --format $fmt >out 2>err &&
		test ! -s out &&
		head -1 err | grep -x "gpusite diff: error: the base'\''s specs at bad are not valid; nothing was compared.  The base'\''s findings:" &&
		grep "^sites/frankfurt-lab.yaml:[0-9]*:[0-9]*: error: .*\[GS041\]" err &&
		tail -1 err | grep -x "gpusite diff: fix the base'\''s specs, or compare with a --base whose specs are valid" || return 1
	done
'

test_expect_success 'an invalid base fails the shipped PR workflow step, an invalid head does not pass silently' '
	wf="$TEST_TOP/examples/github-actions/gpusite.yaml" &&
	python3 - "$wf" >step.sh <<-\EOF &&
	import sys, yaml
	wf = yaml.safe_load(open(sys.argv[1]))
	for st in wf["jobs"]["check"]["steps"]:
	    if st.get("name") == "Rendered diff":
	        print(st["run"])
	EOF
	grep -q "gpusite diff --base" step.sh &&
	mkdir -p bin && ln -sf "$GPUSITE" bin/gpusite &&
	(PATH="$SCRATCH/bin:$PATH" && cd repo && expect_exit 3 env BASE_SHA=bad GITHUB_STEP_SUMMARY="$SCRATCH/sum.md" \
		sh -e "$SCRATCH/step.sh" >/dev/null 2>"$SCRATCH/err") &&
	grep -q "base'\''s specs at bad are not valid" err &&
	grep -q "could not compare" sum.md &&
	(PATH="$SCRATCH/bin:$PATH" && cd repo && git checkout -q limit &&
	 expect_exit 0 env BASE_SHA=base GITHUB_STEP_SUMMARY="$SCRATCH/sum2.md" \
		sh -e "$SCRATCH/step.sh" >/dev/null 2>&1 && git checkout -q base) &&
	grep -q "NodePool/frankfurt-lab-gpu-fallback" sum2.md
'

test_expect_success 'a missing revision or path: exit 3 with the reason' '
	expect_exit 3 d --base nope >out 2>err &&
	test ! -s out &&
	grep -x "gpusite: error: revision '\''nope'\'' not found in . \[GS007\]" err &&
	expect_exit 3 d --base base --head limit nowhere 2>err &&
	grep -x "gpusite: error: path '\''nowhere'\'' does not exist at base \[GS007\]" err
'

test_expect_success 'usage errors: exit 2' '
	expect_exit 2 d --head limit 2>err && grep "needs --base" err &&
	expect_exit 2 d --base base --ref limit 2>err && grep "does not take --ref" err &&
	expect_exit 2 d --base base --head limit --staged 2>err &&
	expect_exit 2 d --base base --format yaml 2>err && grep "unknown --format" err &&
	expect_exit 2 d --live --format markdown 2>err && grep "goes with --base" err
'

test_expect_success 'markdown stays under a PR comment, github summary holds more' '
	(cd repo && git checkout -q -b many base &&
	 for i in $(seq 1 24); do
		sed -e "s/frankfurt-lab/lab-$i/g" -e "s/inference-eu/cluster-$i/" \
		    -e "s/fra-gpu-/n$i-gpu-/g" sites/frankfurt-lab.yaml >sites/lab-$i.yaml || exit 1
	 done && git_commit many >/dev/null && git checkout -q base) &&
	(cd repo && "$GPUSITE" validate --ref many 2>/dev/null) &&
	expect_exit 1 d --base base --head many --format markdown >out &&
	test "$(wc -c <out)" -lt 65536 &&
	grep "diffs not shown here (too long)" out &&
	grep -c "^| \`" out >rows && test "$(cat rows)" -gt 24 &&
	expect_exit 1 env GITHUB_STEP_SUMMARY="$SCRATCH/big.md" \
		sh -c "cd repo && \"\$GPUSITE\" diff --base base --head many --format github" >/dev/null &&
	test "$(wc -c <"$SCRATCH/big.md")" -gt 65536 &&
	test "$(wc -c <"$SCRATCH/big.md")" -lt 1048576 &&
	! grep "not shown here" "$SCRATCH/big.md"
'

test_done
