#!/bin/sh
# t3021-hydrate-hostile: what `gpusite hydrate` does with a branch, a
# branch name or a URL it should not trust.  A branch is written only when
# its tip is a commit hydrate would make (the Gpusite-Source trailer in the
# trailer block, naming a full commit id; a tree of nothing but the layout
# hydrate writes), and never while a work tree has it checked out.  The
# old tree is read under the limits of spec files: 100,000 nested trees
# and four entries of one 300 MB blob are each one line and exit 3, within
# a minute and 200 MB.  Branch names git refuses or that shadow other refs
# are refused naming no absolute path.  Credentials in an http:// URL are
# never sent; a token in a URL's query or fragment is in no message.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"
RSS_MAX=200000 # KiB

git init -q work && (
	cd work &&
	mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" "$F/sites/incheon-edge.yaml" sites/ &&
	git_commit one &&
	"$GPUSITE" hydrate --branch hydrated &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 16 /" sites/frankfurt-lab.yaml && git_commit two
) >/dev/null
SRC=$(git -C work rev-parse main)

# craft BRANCH TREE MESSAGE: a commit of TREE with MESSAGE as BRANCH's tip.
craft() {
	c=$(printf '%s\n' "$3" | git -C work commit-tree "$2") &&
	git -C work update-ref "refs/heads/$1" "$c"
}

# refused BRANCH [OPTIONS...]: hydrate exits 3 with one line on stderr and
# leaves the branch where it was.
refused() {
	b=$1 && shift &&
	before=$(git -C work rev-parse -q --verify "refs/heads/$b") &&
	(cd work && expect_exit 3 "$GPUSITE" hydrate --branch "$b" "$@" >../out 2>../err) &&
	cat err &&
	test "$(wc -l <err)" = 1 &&
	test "$(git -C work rev-parse -q --verify "refs/heads/$b")" = "$before"
}

# ---- item: a branch is hydrate's only if its tip is what hydrate makes ----

test_expect_success 'a Gpusite-Source line outside the trailer block: not hydrate'"'"'s, exit 3' '
	craft body "hydrated^{tree}" "$(printf "notes\n\nGpusite-Source: %s\n\nmore text" "$SRC")" &&
	refused body &&
	grep -x "gpusite: error: branch .body. exists and was not written by this tool (its tip has no Gpusite-Source trailer naming a commit): give a branch of its own \[GS007\]" err
'

test_expect_success 'a trailer whose value is no commit id: exit 3' '
	craft word "hydrated^{tree}" "$(printf "x\n\nGpusite-Source: main")" &&
	refused word &&
	grep "no Gpusite-Source trailer naming a commit" err
'

test_expect_success 'the trailer on a tree that is not the layout (the specs themselves): exit 3' '
	craft specs "main^{tree}" "$(printf "x\n\nGpusite-Source: %s" "$SRC")" &&
	refused specs &&
	grep -x "gpusite: error: branch .specs. exists and was not written by this tool (its tip holds .sites/frankfurt-lab.yaml., which it never writes): give a branch of its own \[GS007\]" err
'

test_expect_success 'the layout plus one more file: exit 3' '
	git -C work read-tree --index-output="$SCRATCH/idx" hydrated &&
	blob=$(echo extra | git -C work hash-object -w --stdin) &&
	GIT_INDEX_FILE="$SCRATCH/idx" git -C work update-index --add --cacheinfo "100644,$blob,clusters/inference-eu/cluster/extra.sh" &&
	tree=$(GIT_INDEX_FILE="$SCRATCH/idx" git -C work write-tree) &&
	craft extra "$tree" "$(printf "x\n\nGpusite-Source: %s" "$SRC")" &&
	refused extra &&
	grep "its tip holds .clusters/inference-eu/cluster/extra.sh., which it never writes" err
'

test_expect_success 'a branch hydrate wrote is still taken' '
	(cd work && "$GPUSITE" hydrate --branch hydrated >../out) &&
	grep "^gpusite hydrate: committed" out
'

test_expect_success 'the branch checked out in the work tree is never moved (exit 3), even when hydrate wrote it' '
	git clone -q work co &&
	(cd co && git checkout -q -b hydrated origin/hydrated~1) &&
	before=$(git -C co rev-parse hydrated) &&
	(cd co && expect_exit 3 "$GPUSITE" hydrate --branch hydrated --ref origin/main >../out 2>../err) &&
	cat err && test "$(wc -l <err)" = 1 &&
	grep -x "gpusite: error: branch .hydrated. is checked out in a work tree of the repository: it is never moved under it; give a branch of its own \[GS007\]" err &&
	test "$(git -C co rev-parse hydrated)" = "$before" &&
	git -C co diff --quiet HEAD
'

test_expect_success 'nor the branch a linked work tree has checked out' '
	git -C work branch -q linked hydrated~1 &&
	git -C work worktree add -q ../lw linked &&
	refused linked &&
	grep "branch .linked. is checked out in a work tree" err &&
	git -C work worktree remove ../lw &&
	(cd work && "$GPUSITE" hydrate --branch linked >../out) &&
	grep "^gpusite hydrate: committed" out
'

# ---- item: the old tree is read under limits ----

# deep.py DEPTH SOURCE PACK: a pack of a commit whose tree nests DEPTH
# trees ("clusters/a/a/...") with one blob at the bottom, and a trailer
# naming SOURCE; prints the commit's id.
cat >deep.py <<\EOF
import hashlib, struct, sys, zlib
depth, src = int(sys.argv[1]), sys.argv[2]
objs = []
def add(kind, body):
    objs.append((kind, body))
    return hashlib.sha1(b"%s %d\0" % (kind.encode(), len(body)) + body).digest()
sha = add("blob", b"x\n")
sha = add("tree", b"100644 manifest.yaml\0" + sha)
for _ in range(depth):
    sha = add("tree", b"40000 a\0" + sha)
sha = add("tree", b"40000 clusters\0" + sha)
who = b"t <t@example.com> 1700000000 +0000"
msg = b"x\n\nGpusite-Source: " + src.encode() + b"\n"
commit = add("commit", b"tree " + sha.hex().encode() + b"\nauthor " + who + b"\ncommitter " + who + b"\n\n" + msg)
types = {"commit": 1, "tree": 2, "blob": 3}
out = [b"PACK" + struct.pack(">II", 2, len(objs))]
for kind, body in objs:
    n = len(body)
    head = bytearray([(types[kind] << 4) | (n & 15)])
    n >>= 4
    while n:
        head[-1] |= 0x80
        head.append(n & 0x7f)
        n >>= 7
    out.append(bytes(head) + zlib.compress(body, 1))
data = b"".join(out)
open(sys.argv[3], "wb").write(data + hashlib.sha1(data).digest())
print(commit.hex())
EOF

# bounded: the last run took at most a minute and RSS_MAX.
bounded() {
	test "$(cat rc)" = 3 &&
	rss=$(tail -n 1 rss) &&
	echo "peak RSS $rss KiB" &&
	test "$rss" -lt $RSS_MAX
}

test_expect_success '100,000 nested trees on the branch: one line, exit 3, within a minute and 200 MB' '
	c=$(python3 deep.py 100000 "$SRC" deep.pack) &&
	git -C work index-pack --stdin <deep.pack >/dev/null &&
	git -C work update-ref refs/heads/deep "$c" &&
	git -C work cat-file -p deep | grep -x "Gpusite-Source: $SRC" &&
	before=$(git -C work rev-parse deep) &&
	(cd work && timeout 60 /usr/bin/time -f %M -o ../rss "$GPUSITE" hydrate --branch deep >../out 2>../err; echo $? >../rc) &&
	cat err && bounded &&
	test "$(wc -l <err)" = 1 &&
	grep -x "gpusite: error: branch .deep. exists and was not written by this tool (its tip holds .clusters/a/a/a/., which it never writes): give a branch of its own \[GS007\]" err &&
	test "$(git -C work rev-parse deep)" = "$before"
'

test_expect_success 'four entries of one 300 MB blob: one line, exit 3, within a minute and 200 MB' '
	big=$(head -c 300000000 /dev/zero | git -C work hash-object -w --stdin) &&
	readme=$(git -C work rev-parse hydrated:README.md) &&
	part=$(printf "100644 blob %s\tREADME.md\n100644 blob %s\tmanifest.yaml\n" "$big" "$big" | git -C work mktree) &&
	cl=$(printf "040000 tree %s\targocd\n040000 tree %s\tcluster\n" "$part" "$part" | git -C work mktree) &&
	cls=$(printf "040000 tree %s\tinference-eu\n" "$cl" | git -C work mktree) &&
	top=$(printf "100644 blob %s\tREADME.md\n040000 tree %s\tclusters\n" "$readme" "$cls" | git -C work mktree) &&
	craft big "$top" "$(printf "x\n\nGpusite-Source: %s" "$SRC")" &&
	before=$(git -C work rev-parse big) &&
	(cd work && timeout 60 /usr/bin/time -f %M -o ../rss "$GPUSITE" hydrate --branch big --dry-run >../out 2>../err; echo $? >../rc) &&
	cat err && bounded &&
	test "$(wc -l <err)" = 1 &&
	grep -x "gpusite: error: branch .big. holds .clusters/inference-eu/argocd/README.md. of 300000000 bytes, over the 4 MiB limit of a file; nothing was written \[GS007\]" err &&
	test "$(git -C work rev-parse big)" = "$before"
'

# ---- item: branch names ----

test_expect_success 'branch names git refuses or that shadow other refs: exit 3, one line, no absolute path' '
	git -C work for-each-ref >refs-before &&
	for b in HEAD @ -x "a..b" "x.lock" "a b" "a@{1}" refs/heads/x heads/x tags/x \
		origin/main remotes/origin/main "$SCRATCH/abs" "/etc/passwd"; do
		(cd work && expect_exit 3 "$GPUSITE" hydrate --branch "$b" >../out 2>../err) &&
		cat err &&
		test "$(wc -l <err)" = 1 &&
		grep "^gpusite: error: .* is not a valid branch name: " err &&
		! grep -F "$SCRATCH" err &&
		! grep -e " /" -e "[[:punct:]]/" err || return 1
	done &&
	git -C work for-each-ref >refs-after &&
	test_cmp refs-before refs-after
'

test_expect_success 'a branch name that a tag or a remote-tracking branch already has: exit 3' '
	git -C work tag v1 main &&
	(cd work && expect_exit 3 "$GPUSITE" hydrate --branch v1 >../out 2>../err) &&
	grep -x "gpusite: error: .v1. is not a valid branch name: it would shadow a tag of that name \[GS007\]" err &&
	test_must_fail git -C work rev-parse -q --verify refs/heads/v1 &&
	git -C work tag -d v1 >/dev/null &&
	git clone -q work tracking &&
	(cd tracking && expect_exit 3 "$GPUSITE" hydrate --branch origin/hydrated 2>../err) &&
	grep "is not a valid branch name" err &&
	git -C tracking update-ref refs/remotes/up/x HEAD &&
	(cd tracking && expect_exit 3 "$GPUSITE" hydrate --branch up/x 2>../err) &&
	grep -x "gpusite: error: .up/x. is not a valid branch name: it would shadow a remote-tracking branch of that name \[GS007\]" err
'

# ---- item: credentials never over plain http ----

mkdir -p srv && git clone -q --bare work srv/fleet.git
if git_have_python && http_start http "$SCRATCH/srv" --auth "x-access-token:$TOKEN"; then
	HPORT=$(cat "$SCRATCH/http.port")

	test_expect_success 'a token in an http:// URL is never sent: exit 3, one line, no request' '
		expect_exit 3 "$GPUSITE" hydrate --repo "http://x-access-token:$TOKEN@127.0.0.1:$HPORT/fleet.git" \
			--branch hydrated --dry-run >out 2>err &&
		cat err && test "$(wc -l <err)" = 1 &&
		grep -x "gpusite: error: cannot fetch http://127.0.0.1:$HPORT/fleet.git: credentials are never sent over plain http (they would cross the network in clear text): use https:// \[GS007\]" err &&
		! grep -F "$TOKEN" out err &&
		test ! -s "$SCRATCH/http.log"
	'

	test_expect_success 'a token in the query of an http:// URL: the same, and in no message' '
		expect_exit 3 "$GPUSITE" hydrate --repo "http://127.0.0.1:$HPORT/fleet.git?access_token=$TOKEN" \
			--branch hydrated --dry-run >out 2>err &&
		cat err && test "$(wc -l <err)" = 1 &&
		grep "credentials are never sent over plain http" err &&
		! grep -F "$TOKEN" out err &&
		test ! -s "$SCRATCH/http.log"
	'

	test_expect_success 'a local repository whose origin is an http:// URL with a token: --push refused before any connection' '
		git clone -q work pushy &&
		git -C pushy remote set-url origin "http://x-access-token:$TOKEN@127.0.0.1:$HPORT/fleet.git" &&
		(cd pushy && expect_exit 3 "$GPUSITE" hydrate --branch h --push >../out 2>../err) &&
		cat err && test "$(wc -l <err)" = 1 &&
		grep "cannot reach the remote .origin. (http://127.0.0.1:$HPORT/fleet.git): credentials are never sent over plain http" err &&
		! grep -F "$TOKEN" out err &&
		test ! -s "$SCRATCH/http.log"
	'
	server_stop http
else
	test_skip "credentials over http" "python3 not found, or the server did not start"
fi

test_expect_success 'a token in the query or fragment of an https URL is cut from every message' '
	port=$(git_free_port) &&
	expect_exit 3 "$GPUSITE" hydrate --repo "https://127.0.0.1:$port/fleet.git?access_token=$TOKEN#$TOKEN" \
		--branch hydrated --dry-run >out 2>err &&
	cat err &&
	! grep -F "$TOKEN" out err &&
	grep -F "https://127.0.0.1:$port/fleet.git?<redacted>" err
'

test_done
