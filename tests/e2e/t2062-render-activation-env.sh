#!/bin/sh
# t2062-render-activation-env.sh - activationCodeEnv names only a variable
# that says it holds an SSM activation code: a spec naming
# AWS_SECRET_ACCESS_KEY or GPUSITE_GIT_TOKEN is refused (GS103) by
# validate and render, and the secret never lands in the NodeConfig files,
# stdout or stderr; a code that is not base64 text (a space, a quote, a
# newline) is refused (GS192, exit 3) without being shown.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

AWS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY
GIT_TOKEN=ghp_t2062NotARealTokenButShapedLikeOne0000
CODE=Zqr175DJ+sPQRHsmbzzf

# site DIR ENV: a site whose SSM group reads its code from variable ENV
site() {
	mkdir -p "$1/sites" &&
	cat >"$1/sites/lab.yaml" <<-EOF
	apiVersion: gpusite.io/v1alpha1
	kind: GPUSite
	metadata:
	  name: lab
	spec:
	  cluster:
	    name: lab-cluster
	    region: us-west-2
	  nodeGroups:
	    - name: rack-b
	      gpu: {model: l40s, perNode: 4}
	      count: 2
	      credentials:
	        ssm:
	          activationId: 4b2c1a3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d
	          activationCodeEnv: $2
	  gpuStack:
	    chart:
	      version: 0.20.0
	  fallback:
	    instanceTypes: [g6e.12xlarge]
	    gpuLimit: 8
	    nodeImage: bottlerocket
	  placement:
	    namespaces: [inference]
	EOF
}

for var in AWS_SECRET_ACCESS_KEY GPUSITE_GIT_TOKEN; do
	test_expect_success "activationCodeEnv: $var: render refuses it, the secret goes nowhere" "
		site $var $var &&
		(cd $var && AWS_SECRET_ACCESS_KEY=\$AWS_KEY GPUSITE_GIT_TOKEN=\$GIT_TOKEN \
			expect_exit 1 \"\$GPUSITE\" render --nodeconfigs nc >out 2>err) &&
		test ! -s $var/out &&
		test ! -e $var/nc &&
		grep -q '^sites/lab.yaml:16:30: error: node group .rack-b.: activationCodeEnv $var cannot name the variable of an SSM activation code: names starting with ${var%%_*}_ .*\[GS103\]\$' $var/err &&
		! grep -rqF \"\$AWS_KEY\" $var &&
		! grep -rqF \"\$GIT_TOKEN\" $var
	"
done

test_expect_success 'validate refuses it too, before anything reads the variable' '
	(cd AWS_SECRET_ACCESS_KEY && AWS_SECRET_ACCESS_KEY=$AWS_KEY \
		expect_exit 1 "$GPUSITE" validate >out 2>err) &&
	grep -c "\[GS103\]$" AWS_SECRET_ACCESS_KEY/err >n && test "$(cat n)" -eq 1
'

test_expect_success 'a name with SSM and ACTIVATION keeps working' '
	site dj DJ_SSM_ACTIVATION_CODE &&
	(cd dj && DJ_SSM_ACTIVATION_CODE=$CODE "$GPUSITE" render --nodeconfigs nc >out 2>err) &&
	test ! -s dj/err &&
	grep -qx "      activationCode: Zqr175DJ+sPQRHsmbzzf" dj/nc/lab/rack-b.yaml &&
	! grep -qF "$CODE" dj/out
'

nl='
'
for bad in "Zqr175DJ sPQRHsmbzzf" "Zqr175DJ\"sPQRHsmbzzf" "Zqr175DJ${nl}sPQRHsmbzzf" \
	   "Zqr175DJ-sPQRHsmbzzf" "Zqr=75DJ+sPQRHsmbzzf"; do
	test_expect_success "a code that is not base64 text is refused unseen: $(printf %s "$bad" | tr "$nl" "~")" '
		rm -rf dj/nc &&
		(cd dj && DJ_SSM_ACTIVATION_CODE=$bad \
			expect_exit 3 "$GPUSITE" render --nodeconfigs nc >out 2>err) &&
		test ! -s dj/out && test ! -e dj/nc &&
		grep -q "^sites/lab.yaml:16:30: error: environment variable DJ_SSM_ACTIVATION_CODE holds a character an SSM activation code never has (at position [0-9]*: .*\[GS192\]$" dj/err &&
		! grep -qF "sPQRHsmbzzf" dj/err
	'
done

test_done
