# live.sh - helpers for the live-cluster tests (source after lib.sh):
# a test CA made in the scratch directory, the fake API server of
# tests/tools/fake-apiserver.py on a free loopback port, and kubeconfigs
# that point at it.  The server is stopped when the test script exits.
FAKE="$TEST_TOP/tests/tools/fake-apiserver.py"
LIVE="$TEST_TOP/testdata/live"
# Unique and greppable: no output of gpusite may ever contain it.
TOKEN="gpusite-test-token-$$-c2VjcmV0"
EKS_ARN="arn:aws:eks:us-west-2:111122223333:cluster/my-hybrid-cluster"
SERVER_PID=
trap 'live_stop; rm -rf "$SCRATCH"' EXIT

# upstream_schemas DIR: the schemas the example fleet's objects need,
# copied from ../shared/upstream under odd names, as a user would gather
# them (a chart's crds/, single CRD files, saved /openapi/v3 documents)
upstream_schemas() {
	mkdir -p "$1/chart-crds" "$1/more/deeper" &&
	i=0 &&
	for f in "$UPSTREAM"/gpu-operator/chart/crds/*.yaml; do
		i=$((i + 1)) && cp "$f" "$1/chart-crds/crd-$i" || return 1
	done &&
	cp "$UPSTREAM/karpenter/aws-provider/karpenter.sh_nodepools.yaml" "$1/pools" &&
	cp "$UPSTREAM/karpenter/karpenter.k8s.aws_ec2nodeclasses.yaml" "$1/more/node classes.txt" &&
	cp "$UPSTREAM/prometheus-operator/monitoring.coreos.com_prometheusrules.yaml" "$1/more/x1" &&
	cp "$UPSTREAM/kyverno/policies.kyverno.io_mutatingpolicies.yaml" "$1/more/deeper/y" &&
	cp "$UPSTREAM/argocd/application-crd.yaml" "$1/z.yml" &&
	cp "$UPSTREAM/nodeadm/eks-hybrid.node.eks.aws_nodeconfigs.yaml" "$1/more/nc" &&
	cp "$UPSTREAM/kubernetes/release-1.35/api__v1_openapi.json" "$1/core" &&
	cp "$UPSTREAM/kubernetes/release-1.35/apis__admissionregistration.k8s.io__v1beta1_openapi.json" \
		"$1/more/adm.json"
}

# live_have_python: the server needs python3 and openssl.
live_have_python() {
	command -v python3 >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1
}

live_certs() {
	[ -f "$SCRATCH/tls/ca.crt" ] || python3 "$FAKE" certs "$SCRATCH/tls"
}

# live_applied SITES_DIR [SITE]: what Argo CD would have synced, as the
# tool renders it (one JSON object per line) -> $SCRATCH/applied.json
live_applied() {
	if [ -n "${2:-}" ]; then
		"$GPUSITE" render --format json --site "$2" "$1" >"$SCRATCH/applied.json"
	else
		"$GPUSITE" render --format json "$1" >"$SCRATCH/applied.json"
	fi
}

# live_burst_spec: the specs of testdata/live/sites with a burst block on
# seoul-dc1 (namespace batch, gpuLimit 8) -> $SCRATCH/spec/sites, and what
# Argo CD would have synced of them -> $SCRATCH/applied.keep
live_burst_spec() {
	mkdir -p "$SCRATCH/spec" &&
	cp -R "$LIVE/sites" "$SCRATCH/spec/" &&
	printf '  burst:\n    gpuLimit: 8\n    namespaces: [batch]\n' >>"$SCRATCH/spec/sites/seoul-dc1.yaml" &&
	live_applied "$SCRATCH/spec/sites" seoul-dc1 &&
	cp "$SCRATCH/applied.json" "$SCRATCH/applied.keep"
}

# live_start SCENARIO [server options...]: start the server, set PORT and
# SERVER, write $SCRATCH/kubeconfig (bearer token, EKS ARN names).
live_start() {	# live_start SCENARIO (a name under testdata/live, or a path) ARGS...
	live_stop
	scen=$1
	shift
	live_certs || return 1
	rm -f "$SCRATCH/port" "$SCRATCH/requests.log"
	# callers keep their own $scen: the directory goes into live_dir
	case $scen in
	/*) live_dir=$scen ;;
	*) live_dir="$LIVE/$scen" ;;
	esac
	python3 "$FAKE" serve --scenario "$live_dir" --tls "$SCRATCH/tls" \
		--port-file "$SCRATCH/port" --token "$TOKEN" \
		--log "$SCRATCH/requests.log" --parent $$ "$@" \
		2>"$SCRATCH/server.err" &
	SERVER_PID=$!
	echo "$SERVER_PID" >"$SCRATCH/server.pid"
	# up to 30 s: a python start that makes its TLS context can take over
	# 10 s on 2 cores shared by a parallel make test and other builds
	i=0
	while [ ! -s "$SCRATCH/port" ]; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
			echo "fake API server did not start:" >&2
			cat "$SCRATCH/server.err" >&2
			return 1
		fi
		sleep 0.05
	done
	PORT=$(cat "$SCRATCH/port")
	SERVER="https://127.0.0.1:$PORT"
	live_kubeconfig >"$SCRATCH/kubeconfig"
}

# Test bodies run in subshells, so the pid also goes through a file.
live_stop() {
	if [ -z "$SERVER_PID" ] && [ -s "$SCRATCH/server.pid" ]; then
		SERVER_PID=$(cat "$SCRATCH/server.pid")
	fi
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
		SERVER_PID=
	fi
	rm -f "$SCRATCH/server.pid"
	return 0
}

# live_kubeconfig [USER-YAML]: a kubeconfig as `aws eks update-kubeconfig`
# writes it (ARN names), with the given user block (default: the token).
live_kubeconfig() {
	user=${1:-"    token: $TOKEN"}
	cat <<EOF
apiVersion: v1
kind: Config
clusters:
- name: $EKS_ARN
  cluster:
    server: $SERVER
    certificate-authority: $SCRATCH/tls/ca.crt
users:
- name: $EKS_ARN
  user:
$user
contexts:
- name: $EKS_ARN
  context:
    cluster: $EKS_ARN
    user: $EKS_ARN
current-context: $EKS_ARN
EOF
}

# no_leak FILE...: none of the files holds the token or a private key.
no_leak() {
	if grep -l -e "$TOKEN" -e "PRIVATE KEY" -e "c2VjcmV0" "$@" 2>/dev/null; then
		echo "secret leaked into the files above" >&2
		return 1
	fi
	return 0
}

# A kubectl to check the server against: PATH, else the one make deps put
# in .tools/ (none: the kubectl tests skip visibly).
live_kubectl() {
	if command -v kubectl >/dev/null 2>&1; then
		command -v kubectl
	elif [ -x "$TEST_TOP/.tools/bin/kubectl-layer" ]; then
		echo "$TEST_TOP/.tools/bin/kubectl-layer"
	fi
}

# live_golden EXPECTED ACTUAL: byte-for-byte; GOLDEN_UPDATE=1
# rewrites EXPECTED instead (review the change with git diff).
live_golden() {
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		mkdir -p "$(dirname "$1")" && cp "$2" "$1"
	fi
	test_cmp "$1" "$2"
}

# only_gets: the request log shows GETs and nothing else.
only_gets() {
	if grep -v '^GET ' "$SCRATCH/requests.log"; then
		echo "a request other than GET was sent" >&2
		return 1
	fi
	return 0
}
