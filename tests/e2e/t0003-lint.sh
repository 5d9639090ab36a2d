#!/bin/sh
# t0003-lint: the tree passes every check of mk/lint.sh, and each check
# catches an offender in a fake tree: a library included outside its
# module, library code in src/cmd/, an include up the road, a banned
# function, a file that is not clang-format clean, a broken && chain in a
# test body.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

test_expect_success 'the tree passes every lint check' '
	sh "$TEST_TOP/mk/lint.sh" "$TEST_TOP" >out 2>err &&
	grep "lint: ok" out
'

# make_tree DIR FILE LINE: a fake tree with one source file
make_tree() {
	mkdir -p "$1/src/yamlio" "$1/src/json" "$1/src/source" "$1/src/kube" "$1/src/cmd" &&
	printf "#include <yaml.h>\n" >"$1/src/yamlio/ok.c" &&
	printf "#include <cjson/cJSON.h>\n" >"$1/src/json/ok.c" &&
	printf "#include <git2.h>\n" >"$1/src/source/ok.c" &&
	printf "#include <curl/curl.h>\n" >"$1/src/kube/ok.c" &&
	mkdir -p "$(dirname "$1/$2")" &&
	printf "%s\n" "$3" >"$1/$2"
}

test_expect_success 'a clean fake tree passes' '
	make_tree clean src/cmd/cmd_x.c "#include <stdio.h>" &&
	sh "$TEST_TOP/mk/lint.sh" clean
'

for case in "src/cmd/cmd_x.c|#include <yaml.h>|<yaml.h>" \
	    "src/report/r.c|#include <cjson/cJSON.h>|cJSON" \
	    "src/render/r.h|#  include \"cJSON.h\"|cJSON" \
	    "src/cmd/cmd_g.c|#include <git2/diff.h>|<git2.h>" \
	    "src/json/j.c|#include <curl/curl.h>|curl"; do
	file=${case%%|*}; rest=${case#*|}; line=${rest%|*}; what=${rest#*|}
	test_expect_success "lint fails on $what in $file" "
		make_tree bad $file '$line' &&
		expect_exit 1 sh \"\$TEST_TOP/mk/lint.sh\" bad 2>err &&
		grep -F '$file' err &&
		grep -F '$what may be included only' err
	"
	rm -rf "$SCRATCH/bad"
done

lint=$TEST_TOP/mk/lint.sh

test_expect_success 'library code in src/cmd/ fails, an allowlisted file passes' '
	make_tree cmdlib src/cmd/pipeline.c "int x;" &&
	expect_exit 1 sh "$lint" cmdlib 2>err &&
	grep -F "lint: src/cmd/pipeline.c is not a command" err &&
	mkdir -p cmdlib/mk/lint &&
	echo pipeline.c >cmdlib/mk/lint/cmd-allow.txt &&
	sh "$lint" cmdlib
'

test_expect_success 'an allowlist line whose file is gone fails' '
	make_tree stale src/cmd/cmd_x.c "int x;" &&
	mkdir -p stale/mk/lint &&
	printf "# moved\nlive.c\n" >stale/mk/lint/cmd-allow.txt &&
	expect_exit 1 sh "$lint" stale 2>err &&
	grep -F "names src/cmd/live.c, which no longer exists" err
'

test_expect_success 'an include up the road fails and names the file and line' '
	make_tree road src/spec/s.c "#include \"render/render.h\"" &&
	expect_exit 1 sh "$lint" road 2>err &&
	grep -F "lint: src/spec/s.c:1 includes render/render.h: render (rank 15) is above spec (rank 9)" err
'

test_expect_success 'an include down the road passes; an allowlisted back arrow passes' '
	make_tree down src/render/r.c "#include \"spec/spec.h\"" &&
	sh "$lint" down &&
	make_tree back src/render/n.c "#include \"emit/emit.h\"" &&
	mkdir -p back/mk/lint &&
	echo "src/render/n.c emit/emit.h # why" >back/mk/lint/road-allow.txt &&
	sh "$lint" back &&
	echo "src/render/m.c emit/emit.h # gone" >>back/mk/lint/road-allow.txt &&
	expect_exit 1 sh "$lint" back 2>err &&
	grep -F "lists \"src/render/m.c emit/emit.h\", which is no longer included" err
'

test_expect_success 'a module without a rank fails' '
	make_tree newmod src/frob/f.c "#include \"base/arena.h\"" &&
	expect_exit 1 sh "$lint" newmod 2>err &&
	grep -F "module src/frob/ has no rank" err
'

test_expect_success 'a banned function fails; a comment naming one passes' '
	make_tree ban src/base/b.c "	sprintf(buf, \"%d\", 1);" &&
	expect_exit 1 sh "$lint" ban 2>err &&
	grep -F "banned function called" err &&
	grep -F "src/base/b.c:1:" err &&
	make_tree note src/base/b.c " * never strcpy(a, b) here" &&
	sh "$lint" note &&
	make_tree snp src/base/b.c "	snprintf(buf, 4, \"%d\", 1);" &&
	sh "$lint" snp
'

test_expect_success 'a second selector evaluator, timestamp parser or kubelet label list fails; src/k8s/ holds them' '
	make_tree sel src/diff/d.c "	if (!strcmp(op, \"DoesNotExist\"))" &&
	expect_exit 1 sh "$lint" sel 2>err &&
	grep -F "src/diff/d.c:1:" err && grep -Fx "lint: failed: k8s-once" err &&
	make_tree tm src/drill/t.c "	*out = timegm(&tm);" &&
	expect_exit 1 sh "$lint" tm 2>err &&
	grep -F "k8s-once: a timestamp parser outside src/k8s/:" err &&
	make_tree home src/k8s/k8s_time.c "	*out = timegm(&tm);" &&
	sh "$lint" home &&
	make_tree kl src/check/c.c "	\"failure-domain.beta.kubernetes.io/region\"," &&
	expect_exit 1 sh "$lint" kl 2>err &&
	grep -F "k8s-once: a list of kubelet labels outside src/k8s/:" err &&
	make_tree klhome src/k8s/k8s_labels.c "	\"failure-domain.beta.kubernetes.io/region\"," &&
	sh "$lint" klhome
'

test_expect_success 'banned.h turns a banned call into a compile error' '
	printf "#include <string.h>\n#include \"base/banned.h\"\nvoid f(char *d);\nvoid f(char *d) { strcpy(d, \"x\"); }\n" >b.c &&
	! cc -std=c11 -I"$TEST_TOP/src" -c b.c -o b.o 2>err &&
	grep -F "sorry_strcpy_is_a_banned_function" err
'

# The Makefile puts base/compat.h (and through it banned.h) before the
# first line of every C file: a planted call fails the build of a file
# that includes nothing of the project.
test_expect_success 'a banned call planted in src/ fails the build itself' '
	mkdir tree &&
	cp -R "$TEST_TOP/src" "$TEST_TOP/mk" "$TEST_TOP/schemas" "$TEST_TOP/Makefile" \
		"$TEST_TOP/VERSION" tree/ &&
	printf "#include <string.h>\nvoid planted(char *d);\nvoid planted(char *d) { strcpy(d, \"x\"); }\n" \
		>tree/src/base/planted.c &&
	expect_exit 2 make -C tree O="$SCRATCH/o" "$SCRATCH/o/src/base/planted.o" >out 2>err &&
	grep -F "sorry_strcpy_is_a_banned_function" err &&
	rm tree/src/base/planted.c &&
	printf "#include <string.h>\nvoid planted(char *d);\nvoid planted(char *d) { memcpy(d, \"x\", 2); }\n" \
		>tree/src/base/planted.c &&
	make -C tree O="$SCRATCH/o" "$SCRATCH/o/src/base/planted.o" >out 2>err
'

test_expect_success 'a C file that is not clang-format clean fails' '
	make_tree fmt src/base/f.c "int  x ;" &&
	mkdir -p fmt/mk/lint && cp "$TEST_TOP/.clang-format" fmt/ &&
	expect_exit 1 sh "$lint" fmt 2>err &&
	grep -F "lint: src/base/f.c is not clang-format clean" err &&
	echo "int x;" >fmt/src/base/f.c &&
	sh "$lint" fmt
'

long_function() {	# long_function FILE N: a function whose body spans N lines
	{ printf "int\nf(int x)\n{\n"; i=1; while [ "$i" -lt "$2" ]; do
		printf "\tx++;\n"; i=$((i + 1)); done; printf "}\n"; } >"$1"
}

test_expect_success 'a function over 100 lines fails and is named; 100 lines pass' '
	make_tree long src/render/r.c "int x;" &&
	long_function long/src/render/r.c 101 &&
	expect_exit 1 sh "$lint" long 2>err &&
	grep -F "src/render/r.c:3: f: 101 lines" err &&
	grep -Fx "lint: failed: function-length" err &&
	long_function long/src/render/r.c 100 &&
	sh "$lint" long
'

test_expect_success 'the driver names the checks that failed' '
	make_tree two src/cmd/live.c "#include <yaml.h>" &&
	expect_exit 1 sh "$lint" two 2>err &&
	grep -F "lint: failed: cmd-only-commands libs" err
'

# chain_tree DIR BODY: a fake tree with a test script whose one test has BODY
chain_tree() {
	make_tree "$1" src/base/b.c "int x;" &&
	mkdir -p "$1/tests/e2e" &&
	printf "%s\n" ". lib.sh" "test_expect_success \"planted\" \"" "$2" "\"" \
		"test_done" >"$1/tests/e2e/t9999-planted.sh"
}

test_expect_success 'a broken && chain in a test body fails and is named' '
	chain_tree chain "	echo one &&
	expect_exit 1 false
	cat out &&
	test -s out" &&
	expect_exit 1 sh "$lint" chain 2>err &&
	grep -Fx "lint: tests/e2e/t9999-planted.sh:4: test '\''planted'\'': no && after '\''expect_exit 1 false'\''" err &&
	grep -Fx "lint: failed: chainlint" err &&
	chain_tree chained "	echo one &&
	expect_exit 1 false &&
	cat out" &&
	sh "$lint" chained
'

test_expect_success 'the chain lint reads groups, subshells, case arms, loops and here-documents' '
	chain_tree shapes "	cat >a <<-EOF &&
	not; a command
	EOF
	case \$x in a) echo a ;; *) echo b; false ;; esac &&
	for i in 1 2; do
		echo \$i || return 1
	done &&
	(cd d && ls) | sort &&
	{ echo a &&
	  echo b; } >c" &&
	sh "$lint" shapes &&
	chain_tree group "	{ echo a; echo b; } >c" &&
	expect_exit 1 sh "$lint" group 2>err &&
	grep -F "t9999-planted.sh:3: test '\''planted'\'': no && after '\''echo a'\''" err &&
	chain_tree loop "	for i in 1 2; do
		echo \$i
	done &&
	true" &&
	expect_exit 1 sh "$lint" loop 2>err &&
	grep -F "t9999-planted.sh:3: test '\''planted'\'': a failure inside this loop is lost" err &&
	chain_tree bg "	x=1 &&
	sleep 1 &
	wait" &&
	expect_exit 1 sh "$lint" bg 2>err &&
	grep -F "t9999-planted.sh:4: test '\''planted'\'': '\''&'\'' sends the whole && chain before '\''sleep 1'\'' to the background" err &&
	chain_tree bgok "	x=1 &&
	{ sleep 1 & pid=\$!; } &&
	wait \$pid" &&
	sh "$lint" bgok
'

test_expect_success 'a new function of tests/lib.sh that evaluates a body must be known to the chain lint' '
	make_tree evals src/base/b.c "int x;" &&
	mkdir -p evals/tests &&
	printf "%s\n" "test_expect_failure() {" "	(eval \"\$2\")" "}" >evals/tests/lib.sh &&
	expect_exit 1 sh "$lint" evals 2>err &&
	grep -F "lint: tests/lib.sh:2: test_expect_failure evaluates an argument" err
'

test_expect_success 'a module missing from CONTRIBUTING.md, or a row for none, fails' '
	make_tree map src/newmod/n.c "int x;" &&
	printf "| \`src/newmod/\` | new | |\n| \`src/gone/\` | gone | |\n" >map/CONTRIBUTING.md &&
	expect_exit 1 sh "$lint" map 2>err &&
	grep -F "names src/gone/, which does not exist" err &&
	! grep -F "src/newmod/ has no row" err &&
	printf "| \`src/other/\` | other | |\n" >map/CONTRIBUTING.md &&
	mkdir -p map/src/other &&
	expect_exit 1 sh "$lint" map 2>err &&
	grep -F "lint: src/newmod/ has no row in CONTRIBUTING.md" err
'

# regex-once: patterns only through src/regex/ (PCRE2), never a POSIX
# regex or a translator into one again
for case in "src/schema/s.c|#include <regex.h>|<regex.h> in src/" \
	    "src/check/c.c|	rc = regcomp(&re, p, REG_EXTENDED);|POSIX regex call in src/" \
	    "src/schema/s.h|int schema_regex_translate(struct buf *out, const char *src);|a regex translator in src/"; do
	file=${case%%|*}; rest=${case#*|}; line=${rest%|*}; what=${rest#*|}
	test_expect_success "lint fails on $what ($file)" "
		make_tree rx $file '$line' &&
		expect_exit 1 sh \"\$TEST_TOP/mk/lint.sh\" rx 2>err &&
		grep -F '$file' err &&
		grep -F 'lint: $what' err &&
		grep -F 'lint: failed: regex-once' err &&
		rm -rf rx
	"
done
test_expect_success 'regex/regex.h and a word like "translation" pass regex-once' '
	make_tree rxok src/schema/s.c "#include \"regex/regex.h\"" &&
	printf "int render_translate(void);\n" >rxok/src/schema/t.h &&
	sh "$TEST_TOP/mk/lint/regex-once.sh" rxok
'

test_expect_success 'a finding reported with a level of its own fails: the level is the table'"'"'s' '
	make_tree lvl src/base/findings.c "	ROW(\"GS041\", DIAG_ERROR, FINDING_RULE, \"x\")," &&
	mkdir -p lvl/src/render &&
	printf "%s\n" "	diag_add(d, DIAG_WARNING, at, \"GS041\", \"\", \"x\");" >lvl/src/render/r.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/finding-levels.sh" lvl 2>err &&
	grep -F "src/render/r.c:1: diag_add() passes a level" err &&
	printf "%s\n" "" "	check_report(c, DIAG_WARNING, \"GS041\", n, \"\", \"x\");" >lvl/src/render/r.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/finding-levels.sh" lvl 2>err &&
	grep -F "src/render/r.c:2: check_report() passes a level" err &&
	printf "%s\n" "	diag_report(d, at, \"GS041\", \"\", \"x\");" >lvl/src/render/r.c &&
	sh "$TEST_TOP/mk/lint/finding-levels.sh" lvl
'

test_expect_success 'a finding whose #define'"'"'d ID has no row, or is defined nowhere, fails' '
	make_tree lid src/base/findings.c "	ROW(\"GS041\", DIAG_ERROR, FINDING_RULE, \"x\")," &&
	mkdir -p lid/src/render &&
	printf "%s\n" "#define RENDER_RULE_TOY \\" "	\"GS999\" /* a toy */" >lid/src/render/render.h &&
	printf "%s\n" "#include \"render/render.h\"" "" \
		"	return diag_report(d, at, RENDER_RULE_TOY, \"\", \"x\");" >lid/src/render/r.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/finding-levels.sh" lid 2>err &&
	grep -F "src/render/r.c:3: diag_report() reports GS999 (RENDER_RULE_TOY), which has no row" err &&
	printf "%s\n" "	diag_report(d, at, RENDER_RULE_NOWHERE, \"\", \"x\");" >lid/src/render/r.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/finding-levels.sh" lid 2>err &&
	grep -F "src/render/r.c:1: diag_report() reports RENDER_RULE_NOWHERE, which no #define" err &&
	printf "%s\n" "#define RENDER_RULE_BASE \"GS041\"" "#define RENDER_RULE_TOY RENDER_RULE_BASE" \
		>lid/src/render/render.h &&
	printf "%s\n" "	return diag_report(d, at, RENDER_RULE_TOY, \"\", \"x\");" >lid/src/render/r.c &&
	sh "$TEST_TOP/mk/lint/finding-levels.sh" lid
'

test_expect_success 'a gpusite label spelled outside the inventory fails; a comment or the inventory passes' '
	make_tree lab src/render/r.c "const char *k = \"gpusite.io/site\";" &&
	mkdir -p lab/src/inventory &&
	cp "$TEST_TOP/src/inventory/inventory_labels.h" lab/src/inventory/ &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/labels-once.sh" lab 2>err &&
	grep -F "src/render/r.c:1:" err &&
	printf "%s\n" "x = \"node-type\";" >lab/src/render/r.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/labels-once.sh" lab 2>err &&
	grep -F "src/render/r.c:1:" err &&
	printf "%s\n" "/* nodes with gpusite.io/site */" "/*" " * \"cloud-gpu-fallback\"" " */" >lab/src/render/r.c &&
	printf "%s\n" "k = INV_POOL_LABEL;" >>lab/src/render/r.c &&
	sh "$TEST_TOP/mk/lint/labels-once.sh" lab
'

# the names labels-once checks come from the header itself: every label
# key, taint key and pool-name pattern of the real inventory_labels.h, and
# a name added there is checked with no change to the lint
for case in 'src/render/r.c|	node_map_add_str(a, m, "gpusite.io/pool", v);|gpusite.io/pool' \
	    'src/render/r.c|	t.key = "gpusite.io/burst";|gpusite.io/burst' \
	    'src/live/d.c|	name = arena_printf(a, "%s-gpu-burst", site);|-gpu-burst' \
	    'src/scope/s.c|	if (!strcmp(nt, "cloud-gpu-burst"))|cloud-gpu-burst' \
	    'src/explain/e.c|	k = "gpusite.io/reserved";|gpusite.io/reserved' \
	    'src/render/r.c|	p = arena_printf(a, "gpusite-%s-toy-placement", s);|gpusite-'; do
	file=${case%%|*}; rest=${case#*|}; line=${rest%|*}; what=${rest#*|}
	test_expect_success "labels-once fails on a literal holding $what ($file)" "
		make_tree lab2 $file \"\$line\" &&
		mkdir -p lab2/src/inventory &&
		cp \"\$TEST_TOP/src/inventory/inventory_labels.h\" lab2/src/inventory/ &&
		expect_exit 1 sh \"\$TEST_TOP/mk/lint/labels-once.sh\" lab2 2>err &&
		grep -F '$file:1:' err &&
		grep -F '(holds $what)' err &&
		rm -rf lab2
	"
done

test_expect_success 'a name added to the header is checked; API groups and prose pass' '
	make_tree lab3 src/render/r.c "	t.key = \"example.com/toy-pool\";" &&
	mkdir -p lab3/src/inventory &&
	sh "$TEST_TOP/mk/lint/labels-once.sh" lab3 &&
	printf "%s\n" "#define INV_TOY_TAINT_KEY \"example.com/toy-pool\"" >lab3/src/inventory/inventory_labels.h &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/labels-once.sh" lab3 2>err &&
	grep -F "src/render/r.c:1:" err &&
	printf "%s\n" "#define API \"gpusite.io/v1alpha1\"" "#define REC \"gpusite.io/drill-record/v1\"" \
		"	msg = \"the nodes labelled gpusite.io/pool=burst\";" >lab3/src/render/r.c &&
	sh "$TEST_TOP/mk/lint/labels-once.sh" lab3
'

for case in 'src/live/d.c|	bool burst = p->role == INV_ROLE_BURST_POOL;' \
	    'src/explain/e.c|	p = inventory_pool(inv, INV_ROLE_FALLBACK_POOL);' \
	    'src/render/r.c|	if (!strcmp(pool->noun, "burst"))' \
	    'src/fleetpage/f.c|	if (!strcmp("burst", s->pools[i].noun))'; do
	file=${case%%|*}; line=${case#*|}
	test_expect_success "labels-once fails on a branch on a pool role ($file)" "
		make_tree role $file \"\$line\" &&
		expect_exit 1 sh \"\$TEST_TOP/mk/lint/labels-once.sh\" role 2>err &&
		grep -F '$file:1:' err &&
		grep -F 'branches on a pool role' err &&
		rm -rf role
	"
done

test_expect_success 'pools read from the inventory pass the role check' '
	make_tree role2 src/render/r.c "	for (size_t i = 0; i < inv->pool_count; i++) one(&inv->pools[i]);" &&
	printf "%s\n" "	if (!strcmp(sum->noun, p->noun))" >>role2/src/render/r.c &&
	sh "$TEST_TOP/mk/lint/labels-once.sh" role2
'

test_expect_success 'an owned name read from the spec outside the inventory fails' '
	make_tree own src/drill/d.c "p = s->fallback.node_pool_name;" &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/labels-once.sh" own 2>err &&
	grep -F "src/drill/d.c:1:" err &&
	grep -F "read it from the site" err
'

test_expect_success 'a command that works on the site model fails; one that prints its identity passes' '
	make_tree model src/cmd/cmd_x.c "	int64_t g = s->fallback.gpu_limit;" &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/cmd-only-commands.sh" model 2>err &&
	grep -F "src/cmd/cmd_x.c:1:" err &&
	grep -F "a command reads the site model" err &&
	printf "%s\n" "	r = in->site->cluster.region;" >model/src/cmd/cmd_x.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/cmd-only-commands.sh" model 2>err &&
	grep -F "src/cmd/cmd_x.c:1:" err &&
	printf "%s\n" "	printf(\"%s %s %s\", s->name, s->file, s->cluster.name);" \
		"	x = desc->fallback;" >model/src/cmd/cmd_x.c &&
	sh "$TEST_TOP/mk/lint/cmd-only-commands.sh" model
'

test_expect_success 'a comment citing a page outside the repository fails; a page of the tree passes' '
	make_tree refs src/render/r.c "/* see outputs.md section 3 */" &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/doc-refs.sh" refs 2>err &&
	grep -F "src/render/r.c:1: cites outputs.md" err &&
	mkdir -p refs/docs/design &&
	printf "# Artifacts\n" >refs/docs/design/artifacts.md &&
	printf "%s\n" "/* see docs/design/artifacts.md */" >refs/src/render/r.c &&
	sh "$TEST_TOP/mk/lint/doc-refs.sh" refs
'

test_expect_success 'a comment citing an upstream source file or ../shared fails; a generated table or a string passes' '
	make_tree ups src/k8s/k.c "/* kubelet pkg/apis/well_known_labels.go */" &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/doc-refs.sh" ups 2>err &&
	grep -F "src/k8s/k.c: a comment cites an upstream source file" err &&
	printf "%s\n" "/* the CRDs under ../shared/upstream */" >ups/src/k8s/k.c &&
	expect_exit 1 sh "$TEST_TOP/mk/lint/doc-refs.sh" ups 2>err &&
	grep -F "src/k8s/k.c: a comment cites" err &&
	printf "%s\n" "/* generated by mk/gen.sh from zz_generated.pricing_aws.go */" >ups/src/k8s/k.c &&
	printf "%s\n" "static const char src[] = \"zz_generated.pricing_aws.go\";" >ups/src/k8s/s.c &&
	sh "$TEST_TOP/mk/lint/doc-refs.sh" ups
'

test_done
