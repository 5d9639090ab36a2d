#!/bin/sh
# t3001-git-repo-ref: --repo URL|PATH and --ref REV on the reading commands.
# A repository made here (commits, a branch, an annotated tag) is served
# from a bare remote over file://, git daemon and smart HTTP (git
# http-backend), and read at a branch, a tag, full and short SHAs and
# HEAD~1; a missing revision is exit 3 with a clear message.  The cache:
# where it lives, no network for a commit it holds (the server's request
# log does not grow; the server stopped, the commit still reads),
# concurrent runs.  Credentials: HTTPS with a test CA, the token as basic
# auth, never printed, never stored.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

F="$GIT_FIXTURES"
ONE="(1 file, 1 site)"
TWO="(2 files, 2 sites)"
THREE="(3 files, 3 sites)"

# work/: main = one (frankfurt; tag v1) - two (+incheon) - three (frankfurt's
# gpuLimit 2: GS041); branch good = two + seoul.
git init -q work && (
	cd work &&
	mkdir sites &&
	cp "$F/sites/frankfurt-lab.yaml" sites/ && git_commit one &&
	git tag -a -m "first site" v1 &&
	cp "$F/sites/incheon-edge.yaml" sites/ && git_commit two &&
	git branch good &&
	sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" sites/frankfurt-lab.yaml && git_commit three &&
	git checkout -q good && cp "$F/added/seoul-dc1.yaml" sites/ && git_commit good &&
	git checkout -q main
) >/dev/null
C2=$(git -C work rev-parse good~1)
SHORT=$(echo "$C2" | cut -c1-7)
LIMIT_LINE=$(grep -n "gpuLimit:" "$F/sites/frankfurt-lab.yaml" | cut -d: -f1)
mkdir -p srv && git clone -q --bare work srv/fleet.git
# the render of branch good from a plain export, to compare with
mkdir -p export && git -C work archive good | tar -x -C export &&
	"$GPUSITE" render export/sites >render-good.yaml

test_expect_success 'the fixture repository has its history' '
	test -n "$C2" && test -s render-good.yaml &&
	test "$(git -C work rev-list --count main)" = 3
'

# one block of checks per transport
transports="file"
if git_have_python && http_start http "$SCRATCH/srv"; then
	transports="$transports http"
else
	test_skip "smart HTTP transport" "python3 not found or http-backend.py did not start"
fi
if daemon_start daemon "$SCRATCH/srv"; then
	transports="$transports git"
else
	test_skip "git daemon transport" "git daemon did not start"
fi

for T in $transports; do
	case $T in
	file) URL="file://$SCRATCH/srv/fleet.git" ;;
	http) URL="http://127.0.0.1:$(cat "$SCRATCH/http.port")/fleet.git" ;;
	git) URL="git://127.0.0.1:$(cat "$SCRATCH/daemon.port")/fleet.git" ;;
	esac

	test_expect_success "$T: no --ref reads the remote HEAD (main), GS041 at its line" '
		expect_exit 1 "$GPUSITE" validate --repo "$URL" 2>err &&
		grep "^sites/frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" err
	'

	test_expect_success "$T: a branch, a tag, a full and a short SHA, HEAD~1" '
		"$GPUSITE" validate --repo "$URL" --ref good 2>err &&
		grep -F "$THREE" err &&
		"$GPUSITE" validate --repo "$URL" --ref v1 2>err &&
		grep -F "$ONE" err &&
		"$GPUSITE" validate --repo "$URL" --ref "$C2" 2>err &&
		grep -F "$TWO" err &&
		"$GPUSITE" validate --repo "$URL" --ref "$SHORT" 2>err &&
		grep -F "$TWO" err &&
		"$GPUSITE" validate --repo "$URL" --ref HEAD~1 2>err &&
		grep -F "$TWO" err
	'

	test_expect_success "$T: a missing revision: exit 3, names it and the URL" '
		expect_exit 3 "$GPUSITE" validate --repo "$URL" --ref nope >out 2>err &&
		test ! -s out &&
		echo "gpusite: error: revision '\''nope'\'' not found in $URL [GS007]" >expect &&
		test_cmp expect err
	'

	test_expect_success "$T: render --ref is the render of that revision, byte for byte" '
		"$GPUSITE" render --repo "$URL" --ref good >out &&
		test_cmp render-good.yaml out
	'
done

URL="file://$SCRATCH/srv/fleet.git"

test_expect_success 'explain and diff take --repo and --ref too' '
	"$GPUSITE" explain --repo "$URL" --ref good seoul-dc1 >out &&
	grep "^site seoul-dc1 " out &&
	expect_exit 1 "$GPUSITE" diff --repo "$URL" --base v1 --head good >out &&
	tail -1 out | grep -x "0 objects changed, [1-9][0-9]* added, 0 removed"
'

test_expect_success 'findings formats name files as in the repository' '
	expect_exit 1 "$GPUSITE" validate --repo "$URL" --format github >out &&
	grep "^::error file=sites/frankfurt-lab.yaml,line=$LIMIT_LINE,col=[0-9]*,title=GS041::" out &&
	expect_exit 1 "$GPUSITE" validate --repo "$URL" --format sarif >out &&
	grep "\"uri\": *\"sites/frankfurt-lab.yaml\"" out
'

# ---- local repositories ----

test_expect_success '--repo PATH: a work tree and a bare repository, read in place' '
	"$GPUSITE" validate --repo work --ref good 2>err &&
	grep -F "$THREE" err &&
	"$GPUSITE" validate --repo srv/fleet.git --ref v1 2>err &&
	grep -F "$ONE" err &&
	test ! -d "$XDG_CACHE_HOME/gpusite/repos/$(printf %s work | git hash-object --stdin).git"
'

test_expect_success '--ref alone reads the current repository, from a subdirectory too' '
	(cd work && "$GPUSITE" validate --ref good 2>../err) &&
	grep -F "$THREE" err &&
	(cd work/sites && expect_exit 1 "$GPUSITE" validate --ref main 2>../../err) &&
	grep "^frankfurt-lab.yaml:$LIMIT_LINE:[0-9]*: error: .*\[GS041\]" err
'

test_expect_success '--repo that is no repository: exit 3' '
	mkdir -p plain &&
	GIT_CEILING_DIRECTORIES="$SCRATCH" expect_exit 3 "$GPUSITE" validate --repo plain 2>err &&
	grep "^gpusite: error: cannot open repository '\''plain'\''" err
'

test_expect_success 'a PATH missing at the revision: exit 3' '
	expect_exit 3 "$GPUSITE" validate --repo "$URL" --ref v1 nowhere 2>err &&
	grep -x "gpusite: error: path '\''nowhere'\'' does not exist at v1 \[GS007\]" err
'

# ---- the cache ----

test_expect_success 'the cache: a bare clone named by the URL, nothing of the URL inside' '
	d=$(cache_dir "$URL") &&
	test -f "$d/HEAD" && test -d "$d/objects" &&
	test ! -s "$d/FETCH_HEAD" &&
	! grep -rl "srv/fleet.git" "$d"
'

test_expect_success 'the cache under HOME when XDG_CACHE_HOME is unset or relative' '
	(unset XDG_CACHE_HOME && "$GPUSITE" validate --repo "$URL" --ref good 2>/dev/null) &&
	test -d "$(cache_dir "$URL" "$HOME/.cache")" &&
	rm -rf "$HOME/.cache" &&
	XDG_CACHE_HOME=relative "$GPUSITE" validate --repo "$URL" --ref good 2>/dev/null &&
	test -d "$(cache_dir "$URL" "$HOME/.cache")" && test ! -e relative
'

if [ -s "$SCRATCH/http.port" ]; then
	HURL="http://127.0.0.1:$(cat "$SCRATCH/http.port")/fleet.git"

	test_expect_success 'http: a commit the cache holds needs no request' '
		"$GPUSITE" validate --repo "$HURL" --ref "$C2" 2>/dev/null &&
		before=$(requests http) &&
		"$GPUSITE" validate --repo "$HURL" --ref "$C2" 2>err &&
		"$GPUSITE" validate --repo "$HURL" --ref "$SHORT~1" 2>err2 &&
		grep -F "$TWO" err && grep -F "$ONE" err2 &&
		test "$(requests http)" = "$before"
	'

	test_expect_success 'http: a branch is fetched each run: a push is seen' '
		git -C work push -q ../srv/fleet.git good:moving &&
		"$GPUSITE" validate --repo "$HURL" --ref moving 2>err &&
		grep -F "$THREE" err &&
		before=$(requests http) &&
		(cd work && git checkout -q -b moving good &&
		 sed -i "s/gpuLimit: 8 /gpuLimit: 2 /" sites/frankfurt-lab.yaml &&
		 git_commit "too low" && git push -q ../srv/fleet.git moving &&
		 git checkout -q main) &&
		expect_exit 1 "$GPUSITE" validate --repo "$HURL" --ref moving 2>err &&
		grep "\[GS041\]" err &&
		test "$(requests http)" -gt "$before" &&
		tail -1 "$SCRATCH/http.log" | grep "^POST /fleet.git/git-upload-pack 200"
	'

	test_expect_success 'http: two concurrent runs on an empty cache, same output' '
		export XDG_CACHE_HOME="$SCRATCH/cache-concurrent" &&
		{ "$GPUSITE" render --repo "$HURL" --ref "$C2" >o1 2>e1 & p1=$!; } &&
		{ "$GPUSITE" render --repo "$HURL" --ref "$C2" >o2 2>e2 & p2=$!; } &&
		wait $p1 && wait $p2 &&
		test -s o1 && test_cmp o1 o2 &&
		git -C work archive "$C2" | (mkdir -p c2 && tar -x -C c2) &&
		"$GPUSITE" render c2/sites >expect &&
		test_cmp expect o1 &&
		test "$(ls "$XDG_CACHE_HOME/gpusite/repos" | grep -c "\.git$")" = 1
	'

	test_expect_success 'http: the server gone, a cached commit still reads; a branch cannot' '
		server_stop http &&
		"$GPUSITE" validate --repo "$HURL" --ref "$C2" 2>err &&
		grep -F "$TWO" err &&
		expect_exit 3 "$GPUSITE" validate --repo "$HURL" --ref good >out 2>err &&
		test ! -s out &&
		grep "^gpusite: error: cannot fetch $HURL: " err
	'
fi

# ---- HTTPS and credentials ----

if git_have_python && command -v openssl >/dev/null 2>&1 &&
	python3 "$FAKE_API" certs "$SCRATCH/tls" &&
	http_start https "$SCRATCH/srv" --tls "$SCRATCH/tls" \
		--auth "x-access-token:$TOKEN"; then
	# localhost, not 127.0.0.1: libgit2 on mbedTLS matches DNS names only
	SURL="https://localhost:$(cat "$SCRATCH/https.port")/fleet.git"
	CA="$SCRATCH/tls/ca.crt"

	test_expect_success 'https: a certificate of an unknown CA is refused before any request' '
		export GPUSITE_GIT_TOKEN="$TOKEN" &&
		expect_exit 3 "$GPUSITE" validate --repo "$SURL" >out 2>err &&
		grep "TLS certificate is not trusted" err &&
		expect_exit 3 env GIT_SSL_CAINFO="$SCRATCH/tls/wrong-ca.crt" \
			"$GPUSITE" validate --repo "$SURL" 2>err &&
		grep "TLS certificate is not trusted" err &&
		test "$(requests https)" = 0
	'

	test_expect_success 'https: GPUSITE_GIT_TOKEN goes as x-access-token basic auth' '
		GIT_SSL_CAINFO="$CA" GPUSITE_GIT_TOKEN="$TOKEN" \
			"$GPUSITE" validate -v --repo "$SURL" --ref good >out 2>err &&
		grep -F "$THREE" err &&
		grep "^POST /fleet.git/git-upload-pack 200 auth=ok:x-access-token$" "$SCRATCH/https.log" &&
		! grep -F "$TOKEN" out err
	'

	test_expect_success 'https: GIT_TOKEN when GPUSITE_GIT_TOKEN is unset; SSL_CERT_FILE' '
		XDG_CACHE_HOME="$SCRATCH/cache-gt" SSL_CERT_FILE="$CA" GIT_TOKEN="$TOKEN" \
			"$GPUSITE" validate --repo "$SURL" --ref v1 2>err &&
		grep -F "$ONE" err
	'

	test_expect_success 'https: no token: exit 3, names the variables' '
		expect_exit 3 env XDG_CACHE_HOME="$SCRATCH/cache-nt" GIT_SSL_CAINFO="$CA" \
			"$GPUSITE" validate --repo "$SURL" 2>err &&
		grep -x "gpusite: error: cannot fetch $SURL: the server asks for credentials: put an access token in GPUSITE_GIT_TOKEN (or GIT_TOKEN) \[GS007\]" err
	'

	test_expect_success 'https: a rejected token: exit 3, the token never shown' '
		expect_exit 3 env XDG_CACHE_HOME="$SCRATCH/cache-bad" GIT_SSL_CAINFO="$CA" \
			GPUSITE_GIT_TOKEN="bad-$TOKEN" "$GPUSITE" validate -v --repo "$SURL" >out 2>err &&
		grep -x "gpusite: error: cannot fetch $SURL: the server rejected the token in GPUSITE_GIT_TOKEN \[GS007\]" err &&
		! grep -F "$TOKEN" out err
	'

	test_expect_success 'https: credentials in the URL work and appear nowhere' '
		port=$(cat "$SCRATCH/https.port") &&
		CURL="https://x-access-token:$TOKEN@localhost:$port/fleet.git" &&
		GIT_SSL_CAINFO="$CA" "$GPUSITE" validate -v --repo "$CURL" --ref good >out 2>err &&
		grep -F "$THREE" err &&
		expect_exit 3 env GIT_SSL_CAINFO="$CA" "$GPUSITE" validate -v --repo "$CURL" --ref nope >>out 2>>err &&
		grep -x "gpusite: error: revision '\''nope'\'' not found in $SURL \[GS007\]" err &&
		GIT_SSL_CAINFO="$CA" "$GPUSITE" render --repo "$CURL" --ref good >>out 2>>err &&
		expect_exit 1 env GIT_SSL_CAINFO="$CA" "$GPUSITE" diff --repo "$CURL" --base v1 --head good --format json >>out 2>>err &&
		! grep -F "$TOKEN" out err &&
		! find "$XDG_CACHE_HOME" | grep -F "$TOKEN" &&
		! grep -rF "$TOKEN" "$XDG_CACHE_HOME" &&
		test -d "$(cache_dir "$SURL")"
	'

	test_expect_success 'https: the token is used once, not retried endlessly' '
		before=$(requests https) &&
		expect_exit 3 env XDG_CACHE_HOME="$SCRATCH/cache-once" GIT_SSL_CAINFO="$CA" \
			GPUSITE_GIT_TOKEN=wrong "$GPUSITE" validate --repo "$SURL" 2>/dev/null &&
		test "$(( $(requests https) - before ))" -le 3
	'
	server_stop https
else
	test_skip "https and credentials" "python3 or openssl not found, or the server did not start"
fi

if git_have_python && http_start plain "$SCRATCH/srv" --auth "x-access-token:$TOKEN"; then
	PURL="http://127.0.0.1:$(cat "$SCRATCH/plain.port")/fleet.git"

	test_expect_success 'plain http: the token is never sent' '
		expect_exit 3 env GPUSITE_GIT_TOKEN="$TOKEN" "$GPUSITE" validate --repo "$PURL" 2>err &&
		grep "a token is only ever sent over https" err &&
		! grep -v "auth=missing$" "$SCRATCH/plain.log"
	'
	server_stop plain
fi

test_done
