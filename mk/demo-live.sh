#!/bin/sh
# demo-live.sh BIN: the live part of `make demo`.  Starts the bundled
# example cluster (the test API server of tests/tools/ with a CA made for
# the occasion), shows `diff --live` and `drift` against it - once in sync,
# once after someone changed the fallback NodePool by hand and a node
# joined without its taint - and stops it.  Exits 0 when every command
# gave the exit code it should.
set -u
bin=${1:?usage: demo-live.sh BIN}
top=$(cd "$(dirname "$0")/.." && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if ! command -v python3 >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1; then
	echo "demo-live: skipped: the example cluster needs python3 and openssl"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusite-demo.XXXXXX")
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fake="$top/tests/tools/fake-apiserver.py"
live="$top/testdata/live"
token="demo-$$"

python3 "$fake" certs "$tmp/tls" || exit 3
"$bin" render --format json --site seoul-dc1 "$live/sites" >"$tmp/applied.json" || exit 3

# start SCENARIO: the example cluster with what Argo CD synced, plus the
# scenario's changes; writes $tmp/kubeconfig
start() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -f "$tmp/port"
	python3 "$fake" serve --scenario "$live/$1" --tls "$tmp/tls" --token "$token" \
		--applied "$tmp/applied.json" --port-file "$tmp/port" --parent $$ \
		2>"$tmp/server.err" &
	pid=$!
	i=0
	while [ ! -s "$tmp/port" ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && { cat "$tmp/server.err" >&2; return 1; }
		sleep 0.05
	done
	arn=arn:aws:eks:us-west-2:111122223333:cluster/my-hybrid-cluster
	cat >"$tmp/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: $arn
  cluster: {server: "https://127.0.0.1:$(cat "$tmp/port")", certificate-authority: $tmp/tls/ca.crt}
users:
- name: $arn
  user: {token: $token}
contexts:
- name: $arn
  context: {cluster: $arn, user: $arn}
current-context: $arn
EOF
}

# step WANT TITLE ARGS...: run gpusite from testdata/live, check the exit code
failed=0
step() {
	want=$1 title=$2
	shift 2
	printf '\n== %s\n$ gpusite %s\n' "$title" "$*"
	(cd "$live" && "$bin" "$@" --kubeconfig "$tmp/kubeconfig" sites 2>&1)
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "demo-live: expected exit $want, got $got" >&2
		failed=1
	fi
}

start healthy || exit 3
step 0 "the example cluster, in sync: no difference" diff --live
step 0 "and no drift" drift
start nodepool-drifted || exit 3
step 1 "someone raised the fallback limit by hand; a removed site left a rule behind" diff --live
start no-taint || exit 3
step 1 "a node joined without the GPU taint and labels, another with the wrong effect" drift
[ "$failed" -eq 0 ] && printf '\ndemo-live: the example cluster is stopped\n'
exit "$failed"
