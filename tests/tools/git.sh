# git.sh - helpers for the Git tests (source after lib.sh): a private
# HOME, cache and git configuration in the scratch directory, fixture
# repositories made with git on the fly, and servers on loopback ports
# (git daemon; Git's smart HTTP through tests/tools/http-backend.py),
# stopped when the test script exits.
GIT_FIXTURES="$TEST_TOP/testdata/git"
HTTP_BACKEND="$TEST_TOP/tests/tools/http-backend.py"
FAKE_API="$TEST_TOP/tests/tools/fake-apiserver.py"
# Unique and greppable: no output and no file of the cache may hold it.
TOKEN="gpusite-git-token-$$-c2VjcmV0"

export HOME="$SCRATCH/home" XDG_CACHE_HOME="$SCRATCH/cache"
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=gpusite-test \
	GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=gpusite-test \
	GIT_COMMITTER_EMAIL=test@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GPUSITE_GIT_TOKEN GIT_TOKEN \
	GIT_SSL_CAINFO SSL_CERT_FILE SSL_CERT_DIR GITHUB_STEP_SUMMARY
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false
trap 'git_servers_stop; rm -rf "$SCRATCH"' EXIT

# git_commit MSG: commit everything in the current repository.
git_commit() {
	git add -A && git commit -q -m "$1"
}

# git_pr_repo DIR: a fleet repository as a pull request leaves it: two
# sites committed and tagged "base", then frankfurt-lab's gpuLimit raised
# from 8 to 12 in the commit "head" (HEAD).
git_pr_repo() {
	git init -q "$1" && (
		cd "$1" && mkdir sites &&
		cp "$GIT_FIXTURES/sites/frankfurt-lab.yaml" "$GIT_FIXTURES/sites/incheon-edge.yaml" sites/ &&
		git_commit base && git tag base &&
		sed -i "s/gpuLimit: 8 /gpuLimit: 12 /" sites/frankfurt-lab.yaml && git_commit head
	) >/dev/null
}

# git_have_python: the HTTP server needs python3 (and openssl for TLS).
git_have_python() {
	command -v python3 >/dev/null 2>&1
}

git_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# http_start NAME ROOT [http-backend.py options...]: serve the repositories
# under ROOT; the port in $SCRATCH/NAME.port, requests in $SCRATCH/NAME.log.
http_start() {
	name=$1 root=$2
	shift 2
	rm -f "$SCRATCH/$name.port"
	: >"$SCRATCH/$name.log"
	python3 "$HTTP_BACKEND" --root "$root" --port-file "$SCRATCH/$name.port" \
		--log "$SCRATCH/$name.log" --parent $$ "$@" 2>"$SCRATCH/$name.err" &
	echo $! >"$SCRATCH/$name.pid"
	i=0
	while [ ! -s "$SCRATCH/$name.port" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 "$(cat "$SCRATCH/$name.pid")" 2>/dev/null; then
			echo "http-backend.py did not start:" >&2
			cat "$SCRATCH/$name.err" >&2
			return 1
		fi
		sleep 0.05
	done
}

# daemon_start NAME ROOT: git daemon on a free port ($SCRATCH/NAME.port),
# its log in $SCRATCH/NAME.log; a few tries in case the port was taken.
daemon_start() {
	name=$1 root=$2
	for try in 1 2 3 4 5; do
		port=$(git_free_port) || return 1
		git daemon --reuseaddr --export-all --base-path="$root" \
			--listen=127.0.0.1 --port="$port" --verbose \
			--log-destination=stderr 2>"$SCRATCH/$name.log" &
		echo $! >"$SCRATCH/$name.pid"
		i=0
		while [ $i -lt 100 ]; do
			if git ls-remote "git://127.0.0.1:$port/fleet.git" >/dev/null 2>&1; then
				echo "$port" >"$SCRATCH/$name.port"
				return 0
			fi
			kill -0 "$(cat "$SCRATCH/$name.pid")" 2>/dev/null || break
			i=$((i + 1))
			sleep 0.05
		done
		server_stop "$name"
	done
	return 1
}

# server_stop NAME
server_stop() {
	if [ -s "$SCRATCH/$1.pid" ]; then
		kill "$(cat "$SCRATCH/$1.pid")" 2>/dev/null
		wait "$(cat "$SCRATCH/$1.pid")" 2>/dev/null
		rm -f "$SCRATCH/$1.pid"
	fi
	return 0
}

git_servers_stop() {
	for p in "$SCRATCH"/*.pid; do
		[ -f "$p" ] || continue
		server_stop "$(basename "$p" .pid)"
	done
}

# cache_dir URL: where the bare clone of URL lives (the blob id of the URL).
cache_dir() {
	echo "${2:-$XDG_CACHE_HOME}/gpusite/repos/$(printf %s "$1" | git hash-object --stdin).git"
}

# requests NAME: how many requests the server has logged so far.
requests() {
	wc -l <"$SCRATCH/$1.log" | tr -d ' '
}
