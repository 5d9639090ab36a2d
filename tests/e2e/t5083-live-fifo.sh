#!/bin/sh
# t5083: a FIFO (or another file that is not a regular file) where the
# kubeconfig names a certificate-authority, client-certificate, client-key
# or tokenFile, the kubeconfig itself, the in-cluster CA: refused at once
# (opened with O_NONBLOCK, fstat, regular files only), exit 3 within a
# second, whatever --timeout says; `timeout` guards against a hang.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/live.sh"

if ! live_have_python; then
	test_skip "FIFOs" "python3 or openssl not found"
	test_done
	exit
fi
live_certs
mkfifo "$SCRATCH/fifo" || exit 1
SERVER=https://127.0.0.1:1	# never reached
SITES="$LIVE/sites"
unset KUBECONFIG

# quick MESSAGE [drift args]: exit 3 in under a second, MESSAGE on stderr
quick() {
	msg=$1
	shift
	t0=$(date +%s%N)
	(cd "$SITES/.." && timeout 5 "$GPUSITE" drift --timeout 30s "$@" sites \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	 echo $? >"$SCRATCH/rc")
	t1=$(date +%s%N)
	cat "$SCRATCH/err"
	echo "exit $(cat "$SCRATCH/rc") after $(((t1 - t0) / 1000000)) ms"
	[ "$(cat "$SCRATCH/rc")" -eq 3 ] &&
	[ $(((t1 - t0) / 1000000)) -lt 1000 ] &&
	grep -F "$msg" "$SCRATCH/err"
}

test_expect_success 'certificate-authority is a FIFO: exit 3 at once, not blocked in open()' '
	live_kubeconfig | sed "s|^    certificate-authority: .*|    certificate-authority: $SCRATCH/fifo|" >"$SCRATCH/kubeconfig" &&
	quick "cannot read certificate-authority of cluster '"'"'$EKS_ARN'"'"' '"'"'$SCRATCH/fifo'"'"': not a regular file" \
		--kubeconfig "$SCRATCH/kubeconfig"
'
test_expect_success 'client-certificate and client-key are FIFOs: exit 3 at once each' '
	live_kubeconfig "    client-certificate: $SCRATCH/fifo
    client-key: $SCRATCH/tls/client.key" >"$SCRATCH/kubeconfig" &&
	quick "cannot read client-certificate of user '"'"'$EKS_ARN'"'"' '"'"'$SCRATCH/fifo'"'"': not a regular file" \
		--kubeconfig "$SCRATCH/kubeconfig" &&
	live_kubeconfig "    client-certificate: $SCRATCH/tls/client.crt
    client-key: $SCRATCH/fifo" >"$SCRATCH/kubeconfig" &&
	quick "cannot read client-key of user '"'"'$EKS_ARN'"'"' '"'"'$SCRATCH/fifo'"'"': not a regular file" \
		--kubeconfig "$SCRATCH/kubeconfig"
'
test_expect_success 'tokenFile is a FIFO: exit 3 at once, says it is not a regular file' '
	live_kubeconfig "    tokenFile: $SCRATCH/fifo" >"$SCRATCH/kubeconfig" &&
	quick "cannot read the token file $SCRATCH/fifo of user '"'"'$EKS_ARN'"'"': not a regular file" \
		--kubeconfig "$SCRATCH/kubeconfig"
'
test_expect_success 'the kubeconfig itself is a FIFO, by --kubeconfig and by KUBECONFIG: exit 3 at once' '
	quick "cannot read kubeconfig '"'"'$SCRATCH/fifo'"'"': not a regular file" --kubeconfig "$SCRATCH/fifo" &&
	KUBECONFIG="$SCRATCH/fifo" quick "cannot read kubeconfig '"'"'$SCRATCH/fifo'"'"': not a regular file"
'
test_expect_success 'a directory as certificate-authority: exit 3, says so' '
	live_kubeconfig | sed "s|^    certificate-authority: .*|    certificate-authority: $SCRATCH/tls|" >"$SCRATCH/kubeconfig" &&
	quick "'"'"'$SCRATCH/tls'"'"': a directory, not a file" --kubeconfig "$SCRATCH/kubeconfig"
'
test_expect_success 'in-cluster: a FIFO as the service account CA is refused at once' '
	mkdir -p "$SCRATCH/sa" &&
	echo "$TOKEN" >"$SCRATCH/sa/token" &&
	mkfifo "$SCRATCH/sa/ca.crt" &&
	HOME="$SCRATCH/nohome" KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=1 \
		GPUSITE_SERVICEACCOUNT_DIR="$SCRATCH/sa" \
		quick "cannot read certificate-authority of cluster '"'"'(in-cluster)'"'"' '"'"'$SCRATCH/sa/ca.crt'"'"': not a regular file"
'

test_done
