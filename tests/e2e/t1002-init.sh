#!/bin/sh
# t1002-init: `gpusite init NAME` writes a commented starter spec that
# validates, never overwrites, and checks NAME.  Its placeholders (the
# cluster your-eks-cluster, all-zero IDs and account) warn (GS178) until
# they are replaced; then it is clean.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

test_expect_success 'init writes sites/NAME.yaml and prints the path' '
	mkdir a && cd a &&
	"$GPUSITE" init seoul-dc9 >out 2>err &&
	echo "sites/seoul-dc9.yaml" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	test -f sites/seoul-dc9.yaml
'

test_expect_success 'the starter names the schema for editors on its first line' '
	head -n 1 a/sites/seoul-dc9.yaml >first &&
	echo "# yaml-language-server: \$schema=../schemas/gpusite.v1alpha1.schema.json" >expect &&
	test_cmp expect first
'

test_expect_success 'the starter is commented and carries NAME as metadata.name' '
	test $(grep -c "#" a/sites/seoul-dc9.yaml) -ge 20 &&
	grep -E "^  name: seoul-dc9( |$)" a/sites/seoul-dc9.yaml
'

test_expect_success 'init then validate: exit 0, GS178 at each placeholder' '
	(cd a && "$GPUSITE" validate) >out 2>err &&
	test ! -s out &&
	cl=$(grep -n "^    name: your-eks-cluster " a/sites/seoul-dc9.yaml | cut -d: -f1) &&
	id=$(grep -n "activationId: 00000000-0000-4000-8000-000000000000\$" a/sites/seoul-dc9.yaml | cut -d: -f1) &&
	cat >expect <<-EOF &&
	sites/seoul-dc9.yaml:$cl:11: warning: cluster.name is your-eks-cluster, the placeholder gpusite init writes: write the name of the EKS cluster the nodes join [GS178]
	sites/seoul-dc9.yaml:$id:25: warning: ssm.activationId of node group rack-a is the all-zero placeholder gpusite init writes: write the ID that aws ssm create-activation returned for the group [GS178]
	gpusite: 0 errors, 2 warnings (1 file, 1 site)
	EOF
	test_cmp expect err &&
	(cd a && expect_exit 1 "$GPUSITE" validate --strict 2>err) &&
	test "$(grep -c "error: .*\[GS178\]" a/err)" = 2
'

test_expect_success 'the IAM Roles Anywhere example, uncommented, warns at each ARN' '
	mkdir ra && cd ra && "$GPUSITE" init lab >/dev/null &&
	sed -i -e "s/your-eks-cluster/seoul-cluster/" \
		-e "s/^        ssm:/        iamRolesAnywhere:/" -e "/activationId:/d" \
		-e "/activationCodeEnv:/d" -e "s/^        #   \([a-zA-Z]*Arn: \)/          \1/" \
		-e "s/^      count: 2 .*/      nodes: [lab-gpu-01, lab-gpu-02]/" sites/lab.yaml &&
	"$GPUSITE" validate 2>err &&
	grep -q "^sites/lab.yaml:[0-9]*:[0-9]*: warning: iamRolesAnywhere.trustAnchorArn of node group rack-a has the all-zero account 000000000000, the placeholder gpusite init writes: write the ARN of your own IAM Roles Anywhere trust anchor \[GS178\]\$" err &&
	grep -q "warning: iamRolesAnywhere.profileArn of node group rack-a has the all-zero account 000000000000, .* \[GS178\]\$" err &&
	grep -q "warning: iamRolesAnywhere.roleArn of node group rack-a has the all-zero account 000000000000, .* \[GS178\]\$" err &&
	grep -x "gpusite: 0 errors, 3 warnings (1 file, 1 site)" err &&
	sed -i "s/:000000000000:/:210987654321:/" sites/lab.yaml &&
	"$GPUSITE" validate 2>err &&
	grep -q "warning: iamRolesAnywhere.trustAnchorArn of node group rack-a has an all-zero ID, .* \[GS178\]\$" err &&
	grep -q "warning: iamRolesAnywhere.profileArn of node group rack-a has an all-zero ID, .* \[GS178\]\$" err &&
	grep -x "gpusite: 0 errors, 2 warnings (1 file, 1 site)" err &&
	sed -i "s/00000000-0000-4000-8000-000000000000/4d2c6b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d/" sites/lab.yaml &&
	"$GPUSITE" validate --strict 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err
'

test_expect_success 'with the placeholders replaced, validate is clean' '
	mkdir a2 && cp -R a/sites a2/ && starter_fill_in a2/sites/seoul-dc9.yaml &&
	(cd a2 && "$GPUSITE" validate) >out 2>err &&
	test ! -s out &&
	echo "gpusite: 0 errors, 0 warnings (1 file, 1 site)" >expect &&
	test_cmp expect err
'

test_expect_success 'the starter says what the fallback nodes boot, and they get their plugin' '
	grep -E "^    nodeImage: al2023$" a/sites/seoul-dc9.yaml &&
	(cd a && "$GPUSITE" render) >stream.yaml &&
	grep -E "^  name: your-eks-cluster-nvidia-device-plugin-fallback$" stream.yaml &&
	grep -E "^        gpusite.io/node-image: al2023$" stream.yaml
'

test_expect_success 'the starter, filled in, stays clean under --strict in every format' '
	(cd a2 && "$GPUSITE" validate --strict --format json) >out &&
	python3 -c "
import json
d = json.load(open(\"out\"))
assert d[\"diagnostics\"] == [] and d[\"summary\"][\"warnings\"] == 0, d
"
'

test_expect_success 'init refuses to overwrite: exit 3, file unchanged' '
	cd a &&
	cp sites/seoul-dc9.yaml before &&
	echo "# mine" >>sites/seoul-dc9.yaml &&
	cp sites/seoul-dc9.yaml mine &&
	expect_exit 3 "$GPUSITE" init seoul-dc9 >out 2>err &&
	test ! -s out &&
	grep "sites/seoul-dc9.yaml exists" err &&
	test_cmp mine sites/seoul-dc9.yaml
'

test_expect_success 'init does not follow a symlink planted at the path' '
	mkdir b && cd b && mkdir sites &&
	echo keep >target &&
	ln -s ../target sites/x.yaml &&
	expect_exit 3 "$GPUSITE" init x 2>err &&
	echo keep >expect &&
	test_cmp expect target
'

for bad in Seoul seoul_dc -seoul seoul- "" "a.b" \
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"; do
	test_expect_success "init rejects the name '$bad': exit 2, nothing written" "
		mkdir -p c && cd c &&
		expect_exit 2 \"\$GPUSITE\" init -- '$bad' >out 2>err &&
		grep 'DNS-1123 label' err &&
		test ! -e sites
	"
done

test_expect_success 'a 63-character name is fine' '
	mkdir d && cd d &&
	name=$(printf "%063d" 0 | tr 0 a) &&
	"$GPUSITE" init "$name" && starter_fill_in "sites/$name.yaml" &&
	"$GPUSITE" validate 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err
'

test_expect_success 'init -o DIR writes there (creating it) and the result validates' '
	mkdir e && cd e &&
	"$GPUSITE" init -o specs/eu lab1 >out &&
	echo "specs/eu/lab1.yaml" >expect &&
	test_cmp expect out &&
	head -n 1 specs/eu/lab1.yaml | grep -x "# yaml-language-server: \$schema=../../schemas/gpusite.v1alpha1.schema.json" &&
	starter_fill_in specs/eu/lab1.yaml &&
	"$GPUSITE" validate specs 2>err &&
	grep -x "gpusite: 0 errors, 0 warnings (1 file, 1 site)" err
'

test_expect_success 'two inits in one repository validate together: each places its own namespace' '
	mkdir f && cd f &&
	"$GPUSITE" init one >/dev/null &&
	"$GPUSITE" init two >/dev/null &&
	grep -x "    namespaces: \[one\]" sites/one.yaml &&
	grep -x "    namespaces: \[two\]" sites/two.yaml &&
	starter_fill_in sites/one.yaml && starter_fill_in sites/two.yaml &&
	"$GPUSITE" validate 2>err &&
	! grep "GS171" err &&
	grep -x "gpusite: 0 errors, 0 warnings (2 files, 2 sites)" err
'

test_expect_success 'kubernetesVersion is marked EDIT like the cluster name' '
	grep -E "^    name: your-eks-cluster +# EDIT: " a/sites/seoul-dc9.yaml &&
	grep -E "^    kubernetesVersion: \"1\.35\" +# EDIT: " a/sites/seoul-dc9.yaml
'

test_expect_success 'init without NAME, or with two, is a usage error' '
	expect_exit 2 "$GPUSITE" init 2>err &&
	grep "missing argument" err &&
	expect_exit 2 "$GPUSITE" init a b 2>err &&
	grep "unexpected argument '"'"'b'"'"'" err
'

test_expect_success 'init -o with an absolute or .. directory: a real relative $schema path' '
	mkdir -p h/repo h/elsewhere && cd h/repo &&
	"$GPUSITE" init -o "$SCRATCH/h/elsewhere" abs1 >out &&
	head -n 1 ../elsewhere/abs1.yaml >first &&
	echo "# yaml-language-server: \$schema=../repo/schemas/gpusite.v1alpha1.schema.json" >expect &&
	test_cmp expect first &&
	mkdir -p deep/er && (cd deep/er && "$GPUSITE" init -o ../../sites up1 >/dev/null) &&
	head -n 1 sites/up1.yaml >first &&
	echo "# yaml-language-server: \$schema=../deep/er/schemas/gpusite.v1alpha1.schema.json" >expect &&
	test_cmp expect first &&
	! grep -q "see .gpusite schema" ../elsewhere/abs1.yaml sites/up1.yaml
'

test_expect_success 'init and schema --help name the same schema file and the same $schema line' '
	mkdir s1 && cd s1 && "$GPUSITE" init lab >/dev/null &&
	"$GPUSITE" schema --help >help &&
	line=$(head -n 1 sites/lab.yaml) &&
	grep -F -x "  $line" help &&
	grep -F -x "  gpusite schema > schemas/gpusite.v1alpha1.schema.json" help &&
	grep -F -x "#   gpusite schema > schemas/gpusite.v1alpha1.schema.json" sites/lab.yaml &&
	mkdir schemas && "$GPUSITE" schema >schemas/gpusite.v1alpha1.schema.json &&
	test -s "sites/$(head -n 1 sites/lab.yaml | sed "s/.*\$schema=//")"
'

test_expect_success 'the starter says which instance types its minGpuMemoryMiB excludes' '
	mkdir m && cd m && "$GPUSITE" init lab >/dev/null && starter_fill_in sites/lab.yaml &&
	grep -q "minGpuMemoryMiB: 40000\$" sites/lab.yaml &&
	grep -q "g6.12xlarge (22,888 MiB)" sites/lab.yaml &&
	"$GPUSITE" validate --strict 2>err &&
	sed -i "s/instanceTypes: \[g6e.12xlarge\]/instanceTypes: [g6.12xlarge]/" sites/lab.yaml &&
	expect_exit 1 "$GPUSITE" validate 2>err &&
	grep -q "\[GS042\]" err &&
	sed -i "s/minGpuMemoryMiB: 40000/minGpuMemoryMiB: 22888/" sites/lab.yaml &&
	"$GPUSITE" validate 2>err || { cat err; false; }
'

test_done
