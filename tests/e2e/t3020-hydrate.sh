#!/bin/sh
# t3020-hydrate: `gpusite hydrate` with real git.  A fleet repository is
# hydrated in place (twice: the second commits nothing; a spec change: one
# commit, only the changed files; invalid specs: nothing; two concurrent
# runs: one commit, one exit 3), from two clones with other users, dates,
# time zones and git configuration (the same commit id), and through a
# bare remote served by smart HTTP over TLS with a token and by git daemon
# with --push (twice; a run of another source racing a stale cache is
# refused; a pre-receive hook that protects the branch: exit 3 with its
# reason).  Every file of the branch is what `render --objects ...
# --cluster ...` prints and passes validate --rendered; no token in any
# output, reflog, commit or cache path.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"
CLUSTERS="inference-eu my-hybrid-cluster"

# work/: main = one (frankfurt-lab, incheon-edge)
git init -q work && (
	cd work &&
	mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" "$F/sites/incheon-edge.yaml" sites/ &&
	GIT_AUTHOR_DATE="2026-03-01T10:00:00+09:00" GIT_COMMITTER_DATE="2026-03-02T11:00:00+09:00" \
		git_commit one
) >/dev/null

# check_branch REPO REV: every manifest of the branch at REV is what render
# prints for its cluster, at the source commit its trailer names.
check_branch() {
	src=$(git -C "$1" log -1 --format=%B "$2" | sed -n "s/^Gpusite-Source: //p") &&
	test -n "$src" &&
	rm -rf export && mkdir export && git -C "$1" archive "$src" | tar -x -C export &&
	for c in $CLUSTERS; do
		for p in cluster argocd; do
			"$GPUSITE" render --objects $p --cluster $c export/sites >want.yaml &&
			git -C "$1" show "$2:clusters/$c/$p/manifest.yaml" >got.yaml &&
			test_cmp want.yaml got.yaml || return 1
		done || return 1
	done
}

test_expect_success 'hydrate commits every cluster, the index and the READMEs' '
	(cd work && "$GPUSITE" hydrate --branch hydrated >../out 2>../err) &&
	test ! -s err &&
	grep "^gpusite hydrate: committed [0-9a-f]\{40\} to branch .hydrated. (13 files changed" out &&
	git -C work ls-tree -r --name-only hydrated >files &&
	cat >want-files <<-\EOF &&
	README.md
	clusters/inference-eu/argocd/README.md
	clusters/inference-eu/argocd/cluster.json
	clusters/inference-eu/argocd/manifest.yaml
	clusters/inference-eu/cluster/README.md
	clusters/inference-eu/cluster/cluster.json
	clusters/inference-eu/cluster/manifest.yaml
	clusters/my-hybrid-cluster/argocd/README.md
	clusters/my-hybrid-cluster/argocd/cluster.json
	clusters/my-hybrid-cluster/argocd/manifest.yaml
	clusters/my-hybrid-cluster/cluster/README.md
	clusters/my-hybrid-cluster/cluster/cluster.json
	clusters/my-hybrid-cluster/cluster/manifest.yaml
	EOF
	test_cmp want-files files &&
	git -C work show hydrated:README.md >index &&
	grep -F "| \`inference-eu\` | \`clusters/inference-eu/\` | \`frankfurt-lab\` | [cluster/](clusters/inference-eu/cluster/) |" index &&
	git -C work show hydrated:clusters/inference-eu/cluster/README.md >readme &&
	grep -F "gpusite render --objects cluster --cluster inference-eu" readme &&
	grep -F "do not edit" readme &&
	test "$(git -C work rev-list --count hydrated)" = 1 &&
	test "$(git -C work rev-parse --abbrev-ref HEAD)" = main &&
	git -C work diff --quiet HEAD
'

test_expect_success 'the manifests are what render prints, byte for byte' '
	check_branch work hydrated
'

test_expect_success 'trailers, and author, committer and dates of the source commit' '
	git -C work log -1 --format=%B hydrated >msg &&
	grep -x "Gpusite-Source: $(git -C work rev-parse main)" msg &&
	grep -x "Gpusite-Version: $(cat "$TEST_TOP/VERSION")" msg &&
	git -C work log -1 --format="%an <%ae> %ad|%cn <%ce> %cd" --date=raw main >want &&
	git -C work log -1 --format="%an <%ae> %ad|%cn <%ce> %cd" --date=raw hydrated >got &&
	test_cmp want got &&
	grep "+0900" got
'

need_upstream && test_set_prereq UPSTREAM
test_expect_success UPSTREAM 'every file of the branch passes validate --rendered' '
	for c in $CLUSTERS; do
		for p in cluster argocd; do
			git -C work show "hydrated:clusters/$c/$p/manifest.yaml" >m.yaml &&
			"$GPUSITE" validate --rendered --upstream "$UPSTREAM" m.yaml || return 1
		done || return 1
	done
'

test_expect_success 'a second run commits nothing and says so (exit 0)' '
	before=$(git -C work rev-parse hydrated) &&
	(cd work && "$GPUSITE" hydrate --branch hydrated >../out) &&
	grep "^gpusite hydrate: branch .hydrated. already holds the render of [0-9a-f]*: nothing to commit$" out &&
	test "$(git -C work rev-parse hydrated)" = "$before" &&
	(cd work && "$GPUSITE" hydrate -q --branch hydrated >../out) &&
	test ! -s out
'

test_expect_success 'the work tree is never read: an uncommitted change is not hydrated' '
	before=$(git -C work rev-parse hydrated) &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 16 /" work/sites/frankfurt-lab.yaml &&
	(cd work && "$GPUSITE" hydrate --branch hydrated >../out) &&
	grep "nothing to commit" out &&
	test "$(git -C work rev-parse hydrated)" = "$before" &&
	git -C work checkout -q -- sites
'

test_expect_success 'a spec change: one commit, only the changed files' '
	(cd work && sed -i "s/gpuLimit: 8 /gpuLimit: 16 /" sites/frankfurt-lab.yaml && git_commit limit) &&
	(cd work && "$GPUSITE" hydrate --branch hydrated >../out) &&
	echo "M clusters/inference-eu/cluster/manifest.yaml" >want &&
	grep "^[AMD] " out >got &&
	test_cmp want got &&
	test "$(git -C work rev-list --count hydrated)" = 2 &&
	git -C work diff --name-only hydrated~1 hydrated >changed &&
	echo clusters/inference-eu/cluster/manifest.yaml >want &&
	test_cmp want changed &&
	check_branch work hydrated
'

test_expect_success 'invalid specs: the findings as validate prints them, exit 1, nothing committed' '
	before=$(git -C work rev-parse hydrated) &&
	(cd work && sed -i "s/gpuLimit: 16 /gpuLimit: 2 /" sites/frankfurt-lab.yaml && git_commit broken) &&
	(cd work && expect_exit 1 "$GPUSITE" hydrate --branch hydrated >../out 2>../err) &&
	(cd work && expect_exit 1 "$GPUSITE" validate --ref HEAD 2>../verr) &&
	test_cmp verr err &&
	grep "\[GS041\]" err &&
	test "$(git -C work rev-parse hydrated)" = "$before" &&
	(cd work && git reset -q --hard HEAD~1)
'

test_expect_success '--dry-run says what would change and writes nothing' '
	before=$(git -C work rev-parse hydrated) &&
	objects=$(git -C work count-objects | cut -d" " -f1) &&
	(cd work && "$GPUSITE" hydrate --branch fresh --dry-run >../out) &&
	grep "^A clusters/inference-eu/cluster/manifest.yaml$" out &&
	grep "would commit 13 changed files to branch .fresh. (new)" out &&
	test_must_fail git -C work rev-parse -q --verify refs/heads/fresh &&
	test "$(git -C work rev-parse hydrated)" = "$before"
'

test_expect_success 'usage: --branch is required; --push and --dry-run exclude each other' '
	(cd work && expect_exit 2 "$GPUSITE" hydrate 2>../err) &&
	grep "branch NAME is required" err &&
	(cd work && expect_exit 2 "$GPUSITE" hydrate --branch h --push --dry-run 2>../err) &&
	(cd work && expect_exit 3 "$GPUSITE" hydrate --branch "bad..name" 2>../err) &&
	grep "not a valid branch name" err
'

test_expect_success 'a branch hydrate did not write (the specs'"'"' own main) is never touched' '
	before=$(git -C work rev-parse main) &&
	(cd work && expect_exit 3 "$GPUSITE" hydrate --branch main >../out 2>../err) &&
	grep -x "gpusite: error: branch .main. is checked out in a work tree of the repository: it is never moved under it; give a branch of its own \[GS007\]" err &&
	test "$(git -C work rev-parse main)" = "$before" &&
	git clone -q --bare work bare-main.git &&
	expect_exit 3 "$GPUSITE" hydrate --repo bare-main.git --branch main >out 2>err &&
	grep -x "gpusite: error: branch .main. exists and was not written by this tool (its tip has no Gpusite-Source trailer naming a commit): give a branch of its own \[GS007\]" err &&
	test "$(git -C bare-main.git rev-parse main)" = "$before"
'

test_expect_success '--dry-run --format markdown: the change per cluster and object, nothing written' '
	git clone -q work md &&
	(cd md && git branch -q hydrated origin/hydrated &&
		sed -i "s/gpuLimit: 16 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit twelve) &&
	tip=$(git -C md rev-parse hydrated) &&
	(cd md && "$GPUSITE" hydrate --branch hydrated --dry-run --format markdown >../md.out) &&
	test "$(git -C md rev-parse hydrated)" = "$tip" &&
	head -n 1 md.out | grep -x "### gpusite hydrate: what the commit on hydrated would change" &&
	sed -n 3p md.out | grep -x "\` hydrated@$(echo "$tip" | cut -c1-12) \` → \` $(git -C md rev-parse --short=12 main) \`" &&
	! grep "gpusite diff:" md.out &&
	grep -x "\*\*1 objects changed, 0 added, 0 removed\*\* (3 unchanged)" md.out &&
	grep -x "| \`inference-eu/cluster NodePool/frankfurt-lab-gpu-fallback\` | frankfurt-lab | changed, +1 −1 |" md.out &&
	grep -x -e "-    nvidia.com/gpu: 16" md.out &&
	grep -x "+    nvidia.com/gpu: 12" md.out &&
	(cd md && expect_exit 2 "$GPUSITE" hydrate --branch hydrated --format markdown 2>../err) &&
	grep "format markdown goes with --dry-run" err
'

# ---- the same source on two machines ----

test_expect_success 'two clones, other users, dates, time zones and config: the same commit id' '
	git clone -q work one && git clone -q work two &&
	(cd one && GIT_AUTHOR_NAME=alice GIT_AUTHOR_EMAIL=a@one GIT_COMMITTER_NAME=alice \
		GIT_COMMITTER_EMAIL=a@one GIT_COMMITTER_DATE="2030-01-01T00:00:00Z" TZ=Asia/Seoul \
		"$GPUSITE" hydrate --branch h --ref origin/main >/dev/null) &&
	git config --global user.name bob && git config --global user.email bob@two &&
	(cd two && TZ=America/Los_Angeles GIT_AUTHOR_DATE="1999-01-01T00:00:00Z" \
		"$GPUSITE" hydrate --branch h --ref origin/main >/dev/null) &&
	git config --global --unset user.name && git config --global --unset user.email &&
	test "$(git -C one rev-parse h)" = "$(git -C two rev-parse h)" &&
	test "$(git -C one rev-parse h^{tree})" = "$(git -C work rev-parse hydrated^{tree})"
'

# ---- concurrent runs ----

test_expect_success 'two concurrent runs: one commit, the other exit 3 with a clear line' '
	git clone -q work race &&
	(cd race && git branch -q hydrated origin/hydrated~1 && git reset -q --hard origin/main) &&
	mkfifo p1 p2 &&
	{ (cd race && GPUSITE_TEST_HYDRATE_PAUSE=../p1 "$GPUSITE" hydrate --branch hydrated \
		>../r1.out 2>../r1.err; echo $? >../r1.rc) & } &&
	{ (cd race && GPUSITE_TEST_HYDRATE_PAUSE=../p2 "$GPUSITE" hydrate --branch hydrated \
		>../r2.out 2>../r2.err; echo $? >../r2.rc) & } &&
	i=0 &&
	while ! test -f p1.ready || ! test -f p2.ready; do
		i=$((i + 1)) && test $i -lt 600 && sleep 0.1 || return 1
	done &&
	echo go >p1 && echo go >p2 &&
	wait &&
	test "$(cat r1.rc r2.rc | sort | tr "\n" " ")" = "0 3 " &&
	cat r1.out r2.out | grep "^gpusite hydrate: committed" &&
	cat r1.err r2.err >r.err &&
	cat r.err &&
	grep -x "gpusite: error: branch .hydrated. was \(moved\|being updated\) by another run while this one built its commit; nothing was lost: run again \[GS007\]" r.err &&
	test "$(git -C race rev-list --count hydrated)" = 2 &&
	git -C race log -1 --format=%B hydrated | grep -x "Gpusite-Source: $(git -C race rev-parse main)"
'

test_expect_success 'a local repository pushes to its origin; without one, exit 3 naming --repo' '
	git clone -q --bare work origin.git &&
	git -C origin.git branch -D hydrated >/dev/null &&
	git clone -q origin.git local &&
	(cd local && "$GPUSITE" hydrate --branch hydrated --push >../out) &&
	grep -x "gpusite hydrate: pushed branch .hydrated." out &&
	test "$(git -C origin.git rev-parse hydrated)" = "$(git -C local rev-parse hydrated)" &&
	git -C local remote remove origin &&
	(cd local && expect_exit 3 "$GPUSITE" hydrate --branch other --push 2>../err) &&
	grep -x "gpusite: error: cannot push: the repository has no remote .origin. (give the URL with --repo) \[GS007\]" err
'

# ---- remotes: smart HTTP with a token, git daemon; push ----

mkdir -p srv && git clone -q --bare work srv/fleet.git &&
	git -C srv/fleet.git branch -D hydrated >/dev/null &&
	git -C srv/fleet.git config http.receivepack true

# the remote holds no hydrated branch: a push creates it
push_checks() {
	T=$1 URL=$2

	test_expect_success "$T: hydrate --push creates the branch on the remote" '
		"$GPUSITE" hydrate --repo "$URL" --branch hydrated --push >out 2>err &&
		grep "^gpusite hydrate: committed" out &&
		grep -x "gpusite hydrate: pushed branch .hydrated." out &&
		git clone -q --bare srv/fleet.git check-$T &&
		check_branch check-$T hydrated &&
		test "$(git -C srv/fleet.git rev-parse hydrated^{tree})" = "$(git -C work rev-parse hydrated^{tree})"
	'

	test_expect_success "$T: a second run commits and pushes nothing new" '
		before=$(git -C srv/fleet.git rev-parse hydrated) &&
		"$GPUSITE" hydrate --repo "$URL" --branch hydrated --push >out &&
		grep "nothing to commit" out &&
		test "$(git -C srv/fleet.git rev-parse hydrated)" = "$before"
	'
}

if git_have_python && command -v openssl >/dev/null 2>&1 &&
	python3 "$FAKE_API" certs "$SCRATCH/tls" &&
	http_start https "$SCRATCH/srv" --tls "$SCRATCH/tls" --auth "x-access-token:$TOKEN"; then
	SURL="https://localhost:$(cat "$SCRATCH/https.port")/fleet.git"
	export GIT_SSL_CAINFO="$SCRATCH/tls/ca.crt" GPUSITE_GIT_TOKEN="$TOKEN"
	push_checks https "$SURL"

	test_expect_success 'https: the token went as basic auth, over receive-pack too' '
		grep "^POST /fleet.git/git-receive-pack 200 auth=ok:x-access-token$" "$SCRATCH/https.log"
	'

	test_expect_success 'https: two runs racing for the remote: the later push is refused, exit 3, nothing lost' '
		(cd work && sed -i "s/gpuLimit: 16 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit twelve) &&
		git -C srv/fleet.git fetch -q "$SCRATCH/work" main:main &&
		first=$(git -C work rev-list --max-parents=0 main) &&
		mkfifo p3 &&
		{ (GPUSITE_TEST_HYDRATE_PAUSE=p3 XDG_CACHE_HOME="$SCRATCH/cache-b" "$GPUSITE" hydrate \
			--repo "$SURL" --branch hydrated --ref "$first" --push >b.out 2>b.err; echo $? >b.rc) & } &&
		i=0 &&
		while ! test -f p3.ready; do
			i=$((i + 1)) && test $i -lt 600 && sleep 0.1 || return 1
		done &&
		"$GPUSITE" hydrate --repo "$SURL" --branch hydrated --push >out &&
		grep "^gpusite hydrate: committed" out &&
		won=$(git -C srv/fleet.git rev-parse hydrated) &&
		echo go >p3 &&
		wait &&
		test "$(cat b.rc)" = 3 &&
		grep "^gpusite: error: cannot push branch .hydrated. to $SURL: the remote.s branch moved since this run read it (not a fast-forward: .*); run again \[GS007\]$" b.err &&
		test "$(git -C srv/fleet.git rev-parse hydrated)" = "$won"
	'

	test_expect_success 'https: a protected branch: the hook refuses, exit 3 with its reason' '
		cat >srv/fleet.git/hooks/pre-receive <<-\EOF &&
		#!/bin/sh
		while read old new ref; do
			case $ref in refs/heads/hydrated) echo "branch hydrated is protected: merge a pull request" >&2; exit 1 ;; esac
		done
		EOF
		chmod +x srv/fleet.git/hooks/pre-receive &&
		(cd work && sed -i "s/gpuLimit: 12 /gpuLimit: 16 /" sites/frankfurt-lab.yaml && git_commit sixteen) &&
		git -C srv/fleet.git fetch -q "$SCRATCH/work" main:main &&
		before=$(git -C srv/fleet.git rev-parse hydrated) &&
		expect_exit 3 "$GPUSITE" hydrate --repo "$SURL" --branch hydrated --push >out 2>err &&
		cat err &&
		grep "^gpusite: error: the remote $SURL refused branch .hydrated.: pre-receive hook declined; the remote says: .*branch hydrated is protected: merge a pull request" err &&
		test "$(git -C srv/fleet.git rev-parse hydrated)" = "$before" &&
		rm srv/fleet.git/hooks/pre-receive
	'

	test_expect_success 'https: the token is in no output, reflog, commit or cache path' '
		! grep -rF "$TOKEN" out err r1.out r1.err r2.out r2.err b.out b.err md.out &&
		! find "$XDG_CACHE_HOME" "$SCRATCH/cache-b" | grep -F "$TOKEN" &&
		! grep -rF "$TOKEN" "$XDG_CACHE_HOME" "$SCRATCH/cache-b" &&
		! git -C srv/fleet.git log --all --format="%H %an %ae %cn %ce %B" | grep -F "$TOKEN" &&
		for d in $(find "$XDG_CACHE_HOME" -name "*.git" -type d); do
			! git -C "$d" reflog --all --format="%H %gs %gn %ge" | grep -F "$TOKEN" || return 1
		done
	'
	server_stop https
	unset GIT_SSL_CAINFO GPUSITE_GIT_TOKEN
else
	test_skip "https with a token" "python3 or openssl not found, or the server did not start"
fi

# git daemon with receive-pack enabled, serving a remote of its own
daemon_push_start() {
	port=$(git_free_port) || return 1
	git daemon --reuseaddr --export-all --enable=receive-pack --base-path="$SCRATCH/srv2" \
		--listen=127.0.0.1 --port="$port" 2>"$SCRATCH/pushd.log" &
	echo $! >"$SCRATCH/pushd.pid"
	i=0
	while ! git ls-remote "git://127.0.0.1:$port/fleet.git" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.05
	done
	DURL="git://127.0.0.1:$port/fleet.git"
}

mkdir -p srv2 && git clone -q --bare work srv2/fleet.git &&
	git -C srv2/fleet.git branch -D hydrated >/dev/null
if daemon_push_start; then
	test_expect_success 'git daemon: hydrate --push creates the branch, a second run pushes nothing' '
		XDG_CACHE_HOME="$SCRATCH/cache-d" "$GPUSITE" hydrate --repo "$DURL" --branch hydrated --push >out &&
		grep -x "gpusite hydrate: pushed branch .hydrated." out &&
		git clone -q --bare srv2/fleet.git check-daemon &&
		check_branch check-daemon hydrated &&
		before=$(git -C srv2/fleet.git rev-parse hydrated) &&
		XDG_CACHE_HOME="$SCRATCH/cache-d" "$GPUSITE" hydrate --repo "$DURL" --branch hydrated --push >out &&
		grep "nothing to commit" out &&
		test "$(git -C srv2/fleet.git rev-parse hydrated)" = "$before"
	'
	server_stop pushd
else
	test_skip "git daemon push" "git daemon did not start"
fi

test_done
