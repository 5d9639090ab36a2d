#!/bin/sh
# t3022-hydrate-remote-refs: `gpusite hydrate` against what a remote holds
# beyond its branches.  The README's pull-request comment names the pull
# request's head commit (--ref), which a pull request from a fork leaves
# reachable only from refs/pull/N/head: that commit is fetched by itself
# (by id, from a server that allows reachable commits in a want, as GitHub
# does; or by its ref).  A local repository's --push fetches its origin's
# branch first and builds on it, so a local branch left behind by a run
# elsewhere never blocks the next run.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"

git init -q work && (
	cd work &&
	mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" "$F/sites/incheon-edge.yaml" sites/ &&
	git_commit one
) >/dev/null

# ---- a pull request from a fork: its head only under refs/pull/1/head ----

mkdir -p srv && git clone -q --bare work srv/fleet.git &&
	git -C srv/fleet.git config uploadpack.allowReachableSHA1InWant true &&
	git -C srv/fleet.git config http.receivepack true &&
	git clone -q work fork && (
	cd fork &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit "pull request" &&
	git push -q ../srv/fleet.git HEAD:refs/pull/1/head
) >/dev/null 2>&1
PR=$(git -C fork rev-parse HEAD)

if git_have_python && http_start http "$SCRATCH/srv"; then
	URL="http://127.0.0.1:$(cat "$SCRATCH/http.port")/fleet.git"

	test_expect_success 'the branch exists on the remote, hydrated from main' '
		"$GPUSITE" hydrate --repo "$URL" --branch hydrated --push >out &&
		grep -x "gpusite hydrate: pushed branch .hydrated." out
	'

	test_expect_success 'the README'"'"'s comment command with the head commit of a pull request from a fork' '
		! git -C srv/fleet.git branch --contains "$PR" | grep . &&
		"$GPUSITE" hydrate --repo "$URL" --ref "$PR" --branch hydrated \
			--dry-run --format markdown >comment.md 2>err &&
		cat comment.md &&
		test ! -s err &&
		grep -x "| \`inference-eu/cluster NodePool/frankfurt-lab-gpu-fallback\` | frankfurt-lab | changed, +1 −1 |" comment.md &&
		grep -x "+    nvidia.com/gpu: 12" comment.md
	'

	test_expect_success 'the same by the ref of the pull request, from an empty cache' '
		XDG_CACHE_HOME="$SCRATCH/cache-2" "$GPUSITE" hydrate --repo "$URL" --ref refs/pull/1/head \
			--branch hydrated --dry-run >out 2>err &&
		test ! -s err &&
		grep -x "M clusters/inference-eu/cluster/manifest.yaml" out
	'

	test_expect_success 'a commit the remote does not have: not found, exit 3' '
		expect_exit 3 "$GPUSITE" hydrate --repo "$URL" --ref 0123456789abcdef0123456789abcdef01234567 \
			--branch hydrated --dry-run >out 2>err &&
		cat err &&
		grep "revision .0123456789abcdef0123456789abcdef01234567. not found" err
	'
	server_stop http
else
	test_skip "pull requests from forks" "python3 not found, or the server did not start"
fi

# ---- a local repository behind its origin ----

test_expect_success 'a local --push builds on the origin'"'"'s branch when the local one is behind' '
	git clone -q --bare work origin.git &&
	git clone -q origin.git a && git clone -q origin.git b &&
	(cd a && "$GPUSITE" hydrate --branch hydrated --push >../out) &&
	grep -x "gpusite hydrate: pushed branch .hydrated." out &&
	(cd b && sed -i "s/gpuLimit: 8 /gpuLimit: 16 /" sites/frankfurt-lab.yaml && git_commit sixteen &&
		git push -q origin main && "$GPUSITE" hydrate --branch hydrated --push >../out) &&
	grep -x "gpusite hydrate: pushed branch .hydrated." out &&
	theirs=$(git -C origin.git rev-parse hydrated) &&
	(cd a && git pull -q --ff-only origin main &&
		sed -i "s/gpuLimit: 16 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit twelve &&
		"$GPUSITE" hydrate --branch hydrated --push >../out 2>../err) &&
	cat out err &&
	grep -x "gpusite hydrate: pushed branch .hydrated." out &&
	test "$(git -C origin.git rev-parse hydrated~1)" = "$theirs" &&
	test "$(git -C origin.git rev-parse hydrated)" = "$(git -C a rev-parse hydrated)" &&
	git -C origin.git log -1 --format=%B hydrated | grep -x "Gpusite-Source: $(git -C a rev-parse main)"
'

test_expect_success 'nothing to commit while behind: the local branch catches up, the push succeeds' '
	git -C a push -q origin main &&
	(cd b && git pull -q --ff-only origin main && "$GPUSITE" hydrate --branch hydrated --push >../out 2>../err) &&
	cat out err &&
	grep "nothing to commit" out &&
	grep -x "gpusite hydrate: pushed branch .hydrated." out &&
	test "$(git -C b rev-parse hydrated)" = "$(git -C origin.git rev-parse hydrated)"
'

test_done
