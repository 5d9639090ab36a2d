#!/bin/sh
# t1144-findings-table: every findings table of the documents is what the
# one table of findings (src/base/findings.c) generates: findings-gen
# (mk/findings-gen.c, what `make docs-rules-update` runs) regenerates
# docs/rules.md (who reports which IDs; ID, severity, meaning and the kept
# "how to fix") and the README's drift table into a temporary directory,
# and they must equal the tree's byte for byte.  A planted stale line
# fails the same comparison; the --help lists of findings are printed from
# the same table.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

GEN="$BUILD_DIR/tools/findings-gen"

# fresh TOP: TOP's documents are what the table generates (a diff of each
# that is not).
fresh() {
	rm -rf gen && "$GEN" "$1" gen || return 1
	fresh_rc=0
	test_cmp "$1/docs/rules.md" gen/docs/rules.md || fresh_rc=1
	test_cmp "$1/README.md" gen/README.md || fresh_rc=1
	return $fresh_rc
}

# plant SED: a copy of the documents with one line changed by SED.
plant() {
	rm -rf fake &&
	mkdir -p fake/docs &&
	cp "$TEST_TOP/docs/rules.md" fake/docs/rules.md &&
	cp "$TEST_TOP/README.md" fake/README.md &&
	sed -i "$1" fake/docs/rules.md fake/README.md &&
	! { cmp -s fake/docs/rules.md "$TEST_TOP/docs/rules.md" &&
		cmp -s fake/README.md "$TEST_TOP/README.md"; }
}

test_expect_success 'findings-gen is built' '
	test -x "$GEN"
'

test_expect_success 'docs/rules.md and the README hold what the table of findings generates' '
	fresh "$TEST_TOP" ||
	{ echo "a findings table is stale: run make docs-rules-update"; false; }
'

test_expect_success 'a stale line fails: another severity, a changed summary, a missing row, an old range' '
	plant "s/^| GS211 | error | /| GS211 | warning | /" &&
	test_must_fail fresh fake >out &&
	grep -x -- "-| GS211 | warning | the fallback NodePool differs from the rendered one |" out &&
	grep -x -- "+| GS211 | error | the fallback NodePool differs from the rendered one |" out &&
	plant "s/^| GS205 | error | a node of a site is not Ready |/| GS205 | error | a node is not Ready |/" &&
	test_must_fail fresh fake >out &&
	grep -x -- "+| GS205 | error | a node of a site is not Ready |" out &&
	plant "/^| GS218 | error | /d" &&
	test_must_fail fresh fake >out &&
	grep -c "^+| GS218 | error | the live EC2NodeClass" out >n &&
	echo 2 | test_cmp - n &&
	plant "s/^| GS201–GS219, GS246–GS247 | /| GS201–GS215 | /" &&
	test_must_fail fresh fake >out &&
	grep -x -- "+| GS201–GS219, GS246–GS247 | \`gpusite drift\` against the live cluster |" out
'

test_expect_success 'the "how to fix" cells are kept, and a new one gets its anchor' '
	plant "/^| GS041 | /s/<a id=\"gs041\"><\/a>//" &&
	! grep -F "<a id=\"gs041\">" fake/docs/rules.md &&
	rm -rf gen &&
	"$GEN" fake gen &&
	test_cmp "$TEST_TOP/docs/rules.md" gen/docs/rules.md
'

test_expect_success 'a document without its section is refused, exit 1, saying which' '
	plant "/^<!-- findings: drift: end -->\$/d" &&
	rm -rf gen &&
	expect_exit 1 "$GEN" fake gen 2>err &&
	grep -F "has no section between '"'"'<!-- findings: drift: begin -->'"'"' and '"'"'<!-- findings: drift: end -->'"'"' lines" err &&
	expect_exit 2 "$GEN" fake 2>err &&
	grep -x "usage: findings-gen TOP OUT" err
'

test_expect_success 'drift --help lists the IDs of the README table, drill plan --help those of drill plan' '
	sed -n "/^<!-- findings: drift: begin -->\$/,/^<!-- findings: drift: end -->\$/p" "$TEST_TOP/README.md" |
		sed -n "s/^| \(GS[0-9]*\) | .*/\1/p" >want &&
	test "$(wc -l <want)" -eq "$(grep -c "FINDING_DRIFT," "$TEST_TOP/src/base/findings.c")" &&
	"$GPUSITE" drift --help | sed -n "s/^  \(GS[0-9]*\)  .*/\1/p" >have &&
	test_cmp want have &&
	sed -n "s/^| \(GS[0-9]*\) | [a-z]* | drill plan: .*/\1/p" "$TEST_TOP/docs/rules.md" >want &&
	test "$(wc -l <want)" -eq 8 &&
	"$GPUSITE" drill plan --help | sed -n "s/^  \(GS[0-9]*\)  .*/\1/p" >have &&
	test_cmp want have
'

test_done
