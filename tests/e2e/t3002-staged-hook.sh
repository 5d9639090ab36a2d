#!/bin/sh
# t3002-staged-hook: `validate --staged` judges what is staged, not the work
# tree, in both directions; file names as in the repository (and from a
# subdirectory as seen from there); GitHub annotations escape odd file
# names.  hooks/pre-commit as a plain git hook blocks a bad commit and lets
# a good one through, for `git commit`, `git commit -a` and
# `git commit FILE` (whose index reaches the hook in GIT_INDEX_FILE).
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"
HOOK="$TEST_TOP/hooks/pre-commit"
LIMIT_LINE=$(grep -n "gpuLimit:" "$F/sites/frankfurt-lab.yaml" | cut -d: -f1)
OK2="gpusite: 0 errors, 0 warnings (2 files, 2 sites)"

# repo/: two valid sites committed
git init -q repo && (
	cd repo && mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" "$F/sites/incheon-edge.yaml" sites/ &&
	git_commit base
) >/dev/null

bad() {	# bad FILE: the fallback limit below one instance (GS041)
	sed -i "s/gpuLimit: [0-9]* /gpuLimit: 2 /" "$1"
}
good() {	# good FILE: back to the fixture
	cp "$F/sites/$(basename "$1")" "$1"
}

test_expect_success 'staged bad, work tree good: exit 1, the staged line' '
	cd repo &&
	bad sites/frankfurt-lab.yaml && git add sites/frankfurt-lab.yaml &&
	good sites/frankfurt-lab.yaml &&
	"$GPUSITE" validate 2>err &&
	grep -x "$OK2" err &&
	expect_exit 1 "$GPUSITE" validate --staged 2>err &&
	grep "^sites/frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" err
'

test_expect_success 'staged good, work tree bad: exit 0' '
	cd repo &&
	good sites/frankfurt-lab.yaml && git add sites/frankfurt-lab.yaml &&
	bad sites/frankfurt-lab.yaml &&
	expect_exit 1 "$GPUSITE" validate 2>/dev/null &&
	"$GPUSITE" validate --staged 2>err &&
	grep -x "$OK2" err &&
	good sites/frankfurt-lab.yaml
'

test_expect_success 'a staged deletion and a new staged site count as staged' '
	cd repo &&
	git rm -q --cached sites/incheon-edge.yaml &&
	"$GPUSITE" validate --staged 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err &&
	git add sites/incheon-edge.yaml &&
	cp "$F/added/seoul-dc1.yaml" sites/ &&
	"$GPUSITE" validate --staged 2>err &&
	grep -x "$OK2" err &&
	git add sites/seoul-dc1.yaml &&
	"$GPUSITE" validate --staged 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (3 files, 3 sites)" err &&
	git rm -q --cached sites/seoul-dc1.yaml && rm sites/seoul-dc1.yaml
'

test_expect_success 'from a subdirectory: names as seen from there' '
	cd repo && bad sites/frankfurt-lab.yaml && git add sites/frankfurt-lab.yaml &&
	(cd sites && expect_exit 1 "$GPUSITE" validate --staged 2>../err) &&
	grep "^frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" err &&
	(cd sites && expect_exit 1 "$GPUSITE" validate --staged frankfurt-lab.yaml 2>../err) &&
	grep "^frankfurt-lab.yaml:$LIMIT_LINE:" err &&
	good sites/frankfurt-lab.yaml && git add sites/frankfurt-lab.yaml
'

test_expect_success 'json and sarif findings carry the staged path' '
	cd repo && bad sites/incheon-edge.yaml && git add sites/incheon-edge.yaml &&
	expect_exit 1 "$GPUSITE" validate --staged --format json >out &&
	python3 -c "
import json, sys
d = json.load(open(\"out\"))
files = {x[\"file\"] for x in d[\"diagnostics\"] if x[\"rule\"] == \"GS041\"}
assert files == {\"sites/incheon-edge.yaml\"}, files
" &&
	expect_exit 1 "$GPUSITE" validate --staged --format sarif >out &&
	grep "\"uri\": *\"sites/incheon-edge.yaml\"" out &&
	good sites/incheon-edge.yaml && git add sites/incheon-edge.yaml
'

test_expect_success 'github annotations escape % , : and newlines in file names' '
	cd repo &&
	odd="sites/we%ird,na:me.yaml" &&
	nl="sites/new
line.yaml" &&
	cp sites/frankfurt-lab.yaml "$odd" && cp sites/frankfurt-lab.yaml "$nl" &&
	bad "$odd" && bad "$nl" &&
	sed -i "s/name: frankfurt-lab$/name: odd-one/" "$odd" &&
	sed -i "s/name: frankfurt-lab$/name: new-line/" "$nl" &&
	git add "$odd" "$nl" &&
	expect_exit 1 env GITHUB_STEP_SUMMARY="$SCRATCH/summary.md" \
		"$GPUSITE" validate --staged --format github >out &&
	grep -F "::error file=sites/we%25ird%2Cna%3Ame.yaml,line=$LIMIT_LINE," out &&
	grep -F "::error file=sites/new%0Aline.yaml,line=$LIMIT_LINE," out &&
	! grep "^line.yaml" out &&
	grep -F "GS041" "$SCRATCH/summary.md" &&
	git rm -q --cached "$odd" "$nl" && rm -f "$odd" "$nl"
'

test_expect_success '--staged with --repo or --ref is a usage error; outside a repository exit 3' '
	expect_exit 2 "$GPUSITE" validate --staged --ref HEAD 2>err &&
	grep "cannot be combined" err &&
	mkdir -p norepo && cd norepo &&
	GIT_CEILING_DIRECTORIES="$SCRATCH" expect_exit 3 "$GPUSITE" validate --staged 2>err &&
	grep "^gpusite: error: --staged " err
'

# ---- the plain git hook ----

count() { git -C "$SCRATCH/hooked" rev-list --count HEAD; }

git init -q hooked && (
	cd hooked && mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" sites/ &&
	git config core.hooksPath "$SCRATCH/hooks" &&
	mkdir -p "$SCRATCH/hooks" && ln -s "$HOOK" "$SCRATCH/hooks/pre-commit"
) >/dev/null
export GPUSITE

test_expect_success 'hook: the first commit of a valid site passes' '
	cd hooked && git add -A && git commit -q -m first 2>../err &&
	test "$(count)" = 1
'

test_expect_success 'hook: a staged bad spec blocks the commit, with the finding' '
	cd hooked && bad sites/frankfurt-lab.yaml && git add sites/frankfurt-lab.yaml &&
	good sites/frankfurt-lab.yaml &&
	expect_exit 1 git commit -q -m bad 2>../err &&
	grep "^sites/frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" ../err &&
	grep "^pre-commit: the staged site specs do not validate" ../err &&
	test "$(count)" = 1
'

test_expect_success 'hook: commit -a takes the work tree version: passes' '
	cd hooked &&
	sed -i "s/gpuLimit: [0-9]* /gpuLimit: 12 /" sites/frankfurt-lab.yaml &&
	git commit -q -a -m "limit 12" 2>../err &&
	test "$(count)" = 2 &&
	git show HEAD:sites/frankfurt-lab.yaml | grep "gpuLimit: 12 "
'

test_expect_success 'hook: commit -a of a bad work tree is blocked (GIT_INDEX_FILE)' '
	cd hooked && bad sites/frankfurt-lab.yaml &&
	git diff --cached --quiet &&
	expect_exit 1 git commit -q -a -m bad 2>../err &&
	grep "\[GS041\]" ../err &&
	test "$(count)" = 2
'

test_expect_success 'hook: commit FILE of a bad file is blocked, the index untouched' '
	cd hooked &&
	expect_exit 1 git commit -q -m bad sites/frankfurt-lab.yaml 2>../err &&
	grep "\[GS041\]" ../err &&
	test "$(count)" = 2 &&
	git diff --cached --quiet
'

test_expect_success 'hook: staged good with a bad work tree commits' '
	cd hooked && good sites/frankfurt-lab.yaml &&
	cp "$F/sites/incheon-edge.yaml" sites/ && git add sites &&
	bad sites/incheon-edge.yaml &&
	git commit -q -m "incheon" 2>../err &&
	test "$(count)" = 3 &&
	good sites/incheon-edge.yaml &&
	git diff --quiet
'

test_expect_success 'hook: a commit without YAML changes does not run gpusite' '
	cd hooked && echo notes >NOTES && git add NOTES &&
	GPUSITE=/nonexistent/gpusite git commit -q -m notes 2>../err &&
	test "$(count)" = 4
'

test_expect_success 'hook: gpusite missing blocks a YAML commit and says what to do' '
	cd hooked && bad sites/incheon-edge.yaml && git add sites/incheon-edge.yaml &&
	expect_exit 1 env GPUSITE=/nonexistent/gpusite git commit -q -m x 2>../err &&
	grep "not found: install gpusite or set GPUSITE" ../err &&
	test "$(count)" = 4 &&
	git commit -q --no-verify -m "skipped" && test "$(count)" = 5
'

test_expect_success 'hook: the hook script is POSIX sh (dash) and executable' '
	test -x "$HOOK" &&
	head -1 "$HOOK" | grep -x "#!/bin/sh" &&
	{ ! command -v dash >/dev/null || dash -n "$HOOK"; }
'

test_done
