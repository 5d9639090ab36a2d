#!/bin/sh
# t6200: hostile inputs beyond YAML text, each with its clean failure (exit
# code and message) and bounded in time: symlink loops and links out of
# the repository, FIFOs, a 1 GiB file through every reading command, a
# directory of 100,000 files, hostile kubeconfigs (huge, endless, nested,
# a missing exec binary), hostile ARGOCD_APP_PARAMETERS, and API objects
# nested deeper than the JSON limit or holding numbers beyond 64 bits.
#
# Covered elsewhere, not repeated here (testdata/hostile/README.md lists
# every case and where it is tested):
#   t6000  YAML text: billion laughs, 100,000-deep nesting, 1 GiB and 4 MiB
#          files for validate, NUL bytes, invalid UTF-8, a 10,000-byte key,
#          numbers beyond 64 bits in a spec, !!python/object tags
#   GS006-symlink-outside, GS006-fifo, GS006-dangling-symlink (testdata/invalid,
#          run by the golden invalid-case runner): one link out, a FIFO
#   t5030  "a missing exec binary" against a live server
#   t5040  "an endless body": exit 3 at the 64 MiB cap (peak memory: below)
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

SPEC="$TEST_TOP/testdata/fleet/sites/seoul-dc1.yaml"
LIVESITES="$TEST_TOP/testdata/live/sites"
# every run is bounded: a hang is exit 124, never a stuck suite
T=20

# run DIR CMD...: run gpusite CMD in DIR; stdout, stderr, exit code in
# $SCRATCH/out, $SCRATCH/err, $SCRATCH/rc.
run() {
	dir=$1
	shift
	(cd "$dir" && timeout $T "$GPUSITE" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null)
	echo $? >"$SCRATCH/rc"
}

# expect_rc CODE: the last run exited with CODE.
expect_rc() {
	got=$(cat "$SCRATCH/rc")
	if [ "$got" -ne "$1" ]; then
		echo "expected exit $1, got $got; stderr:" >&2
		head -c 4000 "$SCRATCH/err" >&2
		return 1
	fi
}

# expect_err LINE: stderr of the last run has exactly this line.
expect_err() {
	grep -Fxq -- "$1" "$SCRATCH/err" && return 0
	echo "missing line: $1" >&2
	echo "stderr was:" >&2
	head -c 4000 "$SCRATCH/err" >&2
	return 1
}

# no_stdout: nothing was printed (no half stream, no partial report).
no_stdout() {
	test ! -s "$SCRATCH/out" || { echo "stdout is not empty:" >&2; head -c 800 "$SCRATCH/out" >&2; return 1; }
}

# repo NAME: a fresh repository with one valid site, seoul-dc1; prints its path.
repo() {
	r="$SCRATCH/$1"
	mkdir -p "$r/sites" && cp "$SPEC" "$r/sites/seoul-dc1.yaml" && echo "$r"
}

# elapsed CMD...: run CMD, print its wall seconds (whole) on stdout.
elapsed() {
	s=$(date +%s)
	"$@"
	e=$(date +%s)
	echo $((e - s))
}

# ---------------------------------------------------------------- symlinks

test_expect_success 'symlink loops (a -> b -> a, a link to itself): GS006 each, the walk goes on' '
	r=$(repo loops) &&
	ln -s b.yaml "$r/sites/a.yaml" && ln -s a.yaml "$r/sites/b.yaml" &&
	ln -s self.yaml "$r/sites/self.yaml" &&
	run "$r" validate sites &&
	expect_rc 1 &&
	expect_err "sites/a.yaml: error: symlink loop: the link never reaches a file; spec files must be regular files [GS006]" &&
	expect_err "sites/b.yaml: error: symlink loop: the link never reaches a file; spec files must be regular files [GS006]" &&
	expect_err "sites/self.yaml: error: symlink loop: the link never reaches a file; spec files must be regular files [GS006]" &&
	expect_err "gpusite: 3 errors, 0 warnings (1 file, 1 site)"
'

test_expect_success 'a symlink loop named on the command line: GS006, exit 1' '
	r=$(repo loop-arg) &&
	ln -s self.yaml "$r/sites/self.yaml" &&
	run "$r" validate sites/self.yaml &&
	expect_rc 1 &&
	expect_err "sites/self.yaml: error: symlink loop: the link never reaches a file; spec files must be regular files [GS006]"
'

test_expect_success 'a directory symlink back up the tree is not walked: no loop, no duplicate' '
	r=$(repo dirloop) &&
	ln -s .. "$r/sites/up" && ln -s . "$r/sites/here" &&
	run "$r" validate sites &&
	expect_rc 0 &&
	expect_err "gpusite: 0 errors, 0 warnings (1 file, 1 site)"
'

test_expect_success 'symlinks out of the repository (absolute, to a device, relative ..): GS006, nothing read' '
	r=$(repo escape) &&
	ln -s /etc/passwd "$r/sites/passwd.yaml" &&
	ln -s /dev/zero "$r/sites/zero.yaml" &&
	ln -s ../../escape-target.yaml "$r/sites/up.yaml" &&
	cp "$SPEC" "$SCRATCH/escape-target.yaml" &&
	run "$r" validate sites &&
	expect_rc 1 &&
	for f in passwd zero up; do
		expect_err "sites/$f.yaml: error: symlink leads outside the repository; spec files must be regular files inside it [GS006]" || exit 1
	done &&
	! grep -q "root:" "$SCRATCH/err"
'

test_expect_success 'render refuses a repository with a link out: exit 1, no stream' '
	run "$SCRATCH/escape" render sites &&
	expect_rc 1 &&
	no_stdout &&
	grep -q "symlink leads outside the repository" "$SCRATCH/err"
'

test_expect_success 'a FIFO named on the command line is not opened (no hang): GS006' '
	r=$(repo fifo) &&
	mkfifo "$r/sites/pipe.yaml" &&
	run "$r" validate sites/pipe.yaml &&
	expect_rc 1 &&
	expect_err "sites/pipe.yaml: error: not a regular file (a FIFO); spec files must be regular files [GS006]"
'

# ---------------------------------------------------------------- size

test_expect_success 'a 1 GiB spec is refused by its size in render, without reading it' '
	r=$(repo huge) &&
	truncate -s 1G "$r/sites/huge.yaml" &&
	t=$(elapsed run "$r" render sites) &&
	expect_rc 1 &&
	no_stdout &&
	grep -q "^sites/huge.yaml: error: file is 1073741824 bytes.* \[GS001\]$" "$SCRATCH/err" &&
	test "$t" -le 3
'

test_expect_success 'a 1 GiB spec is refused by the Argo CD plugin: non-zero, stdout empty' '
	t=$(elapsed run "$SCRATCH/huge" generate) &&
	test "$(cat "$SCRATCH/rc")" -ne 0 &&
	test "$(cat "$SCRATCH/rc")" -ne 124 &&
	no_stdout &&
	grep -q "sites/huge.yaml.*1073741824 bytes" "$SCRATCH/err" &&
	test "$t" -le 3
'

# 100,000 files: spec files beyond SOURCE_MAX_FILES (20,000) are refused as
# a whole (exit 3: the tree is not a spec repository); other files are
# skipped by name without being opened, so a big unrelated tree is fast.
test_expect_success 'a directory of 100,000 spec files: refused, exit 3, within the time bound' '
	mkdir -p "$SCRATCH/many/sites" &&
	(cd "$SCRATCH/many/sites" && seq -f "s%06g.yaml" 1 100000 | xargs touch) &&
	test "$(ls "$SCRATCH/many/sites" | wc -l)" -eq 100000 &&
	t=$(elapsed run "$SCRATCH/many" validate sites) &&
	expect_rc 3 &&
	expect_err "gpusite: error: more than 20000 spec files under '\''sites'\''; point gpusite at a smaller tree [GS007]" &&
	test "$t" -le 10 &&
	run "$SCRATCH/many" render sites &&
	expect_rc 3 &&
	no_stdout
'

test_expect_success 'one spec beside 100,000 other files: validated, fast' '
	r=$(repo crowd) &&
	(cd "$r/sites" && seq -f "n%06g.txt" 1 100000 | xargs touch) &&
	t=$(elapsed run "$r" validate sites) &&
	expect_rc 0 &&
	expect_err "gpusite: 0 errors, 0 warnings (1 file, 1 site)" &&
	test "$t" -le 10 &&
	rm -rf "$SCRATCH/many" "$r"
'

# ---------------------------------------------------------------- kubeconfig

# kc_run KUBECONFIG: drift over the live sites with that kubeconfig.
kc_run() {
	run "$LIVESITES/.." drift --kubeconfig "$1" sites
}

test_expect_success 'a 1 GiB kubeconfig is refused by its size: exit 3' '
	truncate -s 1G "$SCRATCH/kc-huge" &&
	t=$(elapsed kc_run "$SCRATCH/kc-huge") &&
	rm -f "$SCRATCH/kc-huge" &&
	expect_rc 3 &&
	expect_err "$SCRATCH/kc-huge: error: kubeconfig '\''$SCRATCH/kc-huge'\'' is larger than 4194304 bytes [GS290]" &&
	test "$t" -le 3
'

test_expect_success 'an endless kubeconfig (/dev/zero) and a FIFO: exit 3, no hang' '
	kc_run /dev/zero &&
	expect_rc 3 &&
	grep -q "^/dev/zero: error: cannot read kubeconfig .* \[GS290\]$" "$SCRATCH/err" &&
	mkfifo "$SCRATCH/kc-fifo" &&
	kc_run "$SCRATCH/kc-fifo" &&
	expect_rc 3 &&
	grep -q "cannot read kubeconfig .*kc-fifo" "$SCRATCH/err" &&
	KUBECONFIG="$SCRATCH/kc-fifo" run "$LIVESITES/.." drift sites &&
	expect_rc 3
'

test_expect_success 'a billion-laughs kubeconfig: exit 3 with the YAML diagnostic' '
	cp "$TEST_TOP/testdata/hostile/billion-laughs.yaml" "$SCRATCH/kc-laughs" &&
	kc_run "$SCRATCH/kc-laughs" &&
	expect_rc 3 &&
	expect_err "$SCRATCH/kc-laughs:7:45: error: alias expansion exceeds the limit of 1000000 nodes per file; use fewer aliases or split the file [GS001]"
'

test_expect_success 'a kubeconfig nested 100,000 deep: exit 3 at level 65 (the 64th bracket, inside a mapping)' '
	awk "BEGIN { printf \"clusters: \"; for (i = 0; i < 100000; i++) printf \"[\"; for (i = 0; i < 100000; i++) printf \"]\"; print \"\" }" >"$SCRATCH/kc-deep" &&
	kc_run "$SCRATCH/kc-deep" &&
	expect_rc 3 &&
	expect_err "$SCRATCH/kc-deep:1:74: error: nesting is deeper than 64 levels [GS001]"
'

# The user block of a kubeconfig whose server would never answer: the
# failure must come from the credentials, before any connection.
kc_exec() {
	cat <<EOF
apiVersion: v1
kind: Config
clusters:
- name: $EKS_ARN
  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
users:
- name: ops
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: $1, args: [eks, get-token], interactiveMode: Never, installHint: install the AWS CLI v2}
contexts:
- name: $EKS_ARN
  context: {cluster: $EKS_ARN, user: ops}
current-context: $EKS_ARN
EOF
}

test_expect_success 'a kubeconfig pointing at a missing exec binary: exit 3, names it and the install hint' '
	kc_exec aws-not-installed-anywhere >"$SCRATCH/kc-exec" &&
	kc_run "$SCRATCH/kc-exec" &&
	expect_rc 3 &&
	expect_err "$SCRATCH/kc-exec:11:3: error: exec credential plugin '\''aws-not-installed-anywhere'\'' of user '\''ops'\'' cannot be run: executable '\''aws-not-installed-anywhere'\'' not found on PATH: install the AWS CLI v2 [GS290]" &&
	run "$LIVESITES/.." diff --live --kubeconfig "$SCRATCH/kc-exec" sites &&
	expect_rc 3 &&
	no_stdout
'

test_expect_success 'an exec path that is a directory or not executable: exit 3, not a crash' '
	mkdir -p "$SCRATCH/bin/aws-dir" && : >"$SCRATCH/bin/aws-noexec" &&
	kc_exec "$SCRATCH/bin/aws-dir" >"$SCRATCH/kc-dir" &&
	kc_run "$SCRATCH/kc-dir" &&
	expect_rc 3 &&
	grep -q "exec credential plugin .*aws-dir.* cannot be run" "$SCRATCH/err" &&
	kc_exec "$SCRATCH/bin/aws-noexec" >"$SCRATCH/kc-noexec" &&
	kc_run "$SCRATCH/kc-noexec" &&
	expect_rc 3 &&
	grep -q "exec credential plugin .*aws-noexec.* cannot be run" "$SCRATCH/err"
'

# ---------------------------------------------------------------- Argo CD

# gen PARAMETERS: the plugin entry point in the repository "gen".
gen() {
	ARGOCD_APP_PARAMETERS=$1 run "$SCRATCH/gen" generate
}

# Linux passes no environment string over 128 KiB (MAX_ARG_STRLEN), so the
# deepest ARGOCD_APP_PARAMETERS a plugin can receive is about 65,000
# levels, and one over the 1 MiB cap cannot reach it at all (that cap is
# tested in test_argocd_env).
test_expect_success 'ARGOCD_APP_PARAMETERS nested 65,000 deep: GS120, nothing printed' '
	repo gen >/dev/null &&
	gen "$(awk "BEGIN { for (i = 0; i < 65000; i++) printf \"[\"; for (i = 0; i < 65000; i++) printf \"]\" }")" &&
	test "$(cat "$SCRATCH/rc")" -ne 0 && test "$(cat "$SCRATCH/rc")" -ne 124 &&
	no_stdout &&
	expect_err "ARGOCD_APP_PARAMETERS:1:513: error: JSON nesting is deeper than 512 levels [GS120]"
'

test_expect_success 'ARGOCD_APP_PARAMETERS with invalid UTF-8 and numbers beyond 64 bits: refused, no crash' '
	gen "$(printf "[{\"name\":\"sites\",\"string\":\"\\377\\376\"}]")" &&
	test "$(cat "$SCRATCH/rc")" -ne 0 && test "$(cat "$SCRATCH/rc")" -ne 124 &&
	no_stdout &&
	grep -q "\[GS12[0-4]\]$" "$SCRATCH/err" &&
	gen "[{\"name\":\"strict\",\"string\":123456789012345678901234567890}]" &&
	test "$(cat "$SCRATCH/rc")" -ne 0 && test "$(cat "$SCRATCH/rc")" -ne 124 &&
	no_stdout &&
	grep -q "^ARGOCD_APP_PARAMETERS[:0-9]*: error: .*\[GS120\]$" "$SCRATCH/err"
'

# ---------------------------------------------------------------- API server

if ! live_have_python; then
	test_skip "hostile API server bodies" "python3 or openssl not found"
	test_done
	exit
fi

# scenario NAME PYTHON: the healthy scenario with its first Node changed by
# PYTHON (a statement on `node`), served from $SCRATCH/NAME.
scenario() {
	mkdir -p "$SCRATCH/scen/$1" &&
	python3 - "$LIVE/healthy/cluster.json" "$SCRATCH/scen/$1/cluster.json" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
node = next(o for o in doc["objects"] if o["kind"] == "Node")
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"))
EOF
}

# live_scen NAME: start the server on a scenario made by scenario(); the
# server copies objects recursively, so it runs with Python's recursion
# limit raised for the deep case.
cat >"$SCRATCH/fake-deep.py" <<EOF
import runpy, sys
sys.setrecursionlimit(20000)
sys.argv[0] = "$FAKE"
runpy.run_path("$FAKE", run_name="__main__")
EOF
live_scen() {
	saved=$LIVE saved_fake=$FAKE
	LIVE="$SCRATCH/scen" FAKE="$SCRATCH/fake-deep.py"
	live_start "$1" --applied "$SCRATCH/applied.json"
	rc=$?
	LIVE=$saved FAKE=$saved_fake
	return $rc
}

live_applied "$LIVESITES" seoul-dc1 || exit 1

test_expect_success 'an API object nested 600 deep (JSON limit 512): exit 3, says the body is too deep' '
	scenario deep "v = []
for _ in range(600): v = [v]
node[\"status\"][\"deep\"] = v" &&
	live_scen deep &&
	run "$LIVESITES/.." drift --kubeconfig "$SCRATCH/kubeconfig" sites &&
	expect_rc 3 &&
	no_leak "$SCRATCH/out" "$SCRATCH/err" &&
	grep -q "^https://127.0.0.1:$PORT/api/v1/nodes:1:[0-9]*: error: JSON nesting is deeper than 512 levels \[GS290\]$" "$SCRATCH/err"
'

test_expect_success 'API numbers beyond 64 bits and a huge float: read, not wrapped, no crash' '
	scenario numbers "node[\"status\"][\"big\"] = 123456789012345678901234567890
node[\"status\"][\"neg\"] = -99999999999999999999
node[\"status\"][\"float\"] = 1e308
node[\"metadata\"][\"generation\"] = 18446744073709551617" &&
	live_scen numbers &&
	run "$LIVESITES/.." drift --kubeconfig "$SCRATCH/kubeconfig" sites &&
	expect_rc 0 &&
	no_leak "$SCRATCH/out" "$SCRATCH/err"
'

if [ -n "${GPUSITE_SANITIZE:-}${GPUSITE_VALGRIND:-}" ]; then
	# the figure would be the tool's shadow memory, not gpusite's
	test_skip "an endless body: peak memory bounded" "sanitizer or valgrind run"
else
test_expect_success 'an endless body: exit 3 at the 64 MiB cap, peak memory bounded (< 256 MB)' '
	if [ ! -x /usr/bin/time ]; then echo "/usr/bin/time missing" >&2; exit 1; fi &&
	live_start healthy --applied "$SCRATCH/applied.json" --fault endless@/api/v1/nodes &&
	(cd "$LIVESITES/.." && timeout 60 /usr/bin/time -f "%M" -o "$SCRATCH/rss" \
		"$GPUSITE" drift --kubeconfig "$SCRATCH/kubeconfig" sites >"$SCRATCH/out" 2>"$SCRATCH/err"
	 echo $? >"$SCRATCH/rc") &&
	expect_rc 3 &&
	grep -q "is larger than 64 MiB" "$SCRATCH/err" &&
	kib=$(tail -1 "$SCRATCH/rss") &&
	echo "peak RSS $kib KiB" &&
	test "$kib" -lt 262144
'
fi

test_done
