#!/bin/sh
# t0004: the one-file-plus-one-row promise (CONTRIBUTING: adding an
# artifact kind, a rule, a subcommand).  A copy of the tree gets a toy
# kind (src/render/render_toy.c, its row in render_kinds[] and its
# declaration), a toy rule (src/rules/gs185_toy.c, its row in rules_table,
# its declaration and its row in the table of findings) and a toy command
# (src/cmd/cmd_toy.c, its row in commands[] and its declaration), and
# nothing else; it builds with make,
# and then render emits the kind, validate runs the rule and --help lists
# the command.  The objects of the build under test are copied along, so
# make compiles only what the additions touch.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

tree="$SCRATCH/tree"

test_expect_success 'copy the tree (with the objects of the build under test)' '
	copy_tree "$tree" &&
	test -f "$tree/src/render/render.c"
'

test_expect_success 'add a kind: one file, one row, one declaration' '
	cat >"$tree/src/render/render_toy.c" <<-\EOC &&
	#include "render/render.h"
	#include "render/render_util.h"

	static int
	toy_site(struct render_ctx *ctx, const struct spec_site *site)
	{
		render_object_add(ctx, &render_kind_toy, NULL, NULL, "", site->name,
				  site->name, site->cluster.name, NULL, "a toy");
		return 0;
	}

	const struct render_kind render_kind_toy = {
		.kind = "Toy", .api_version = "toy.example.com/v1",
		.rank = RENDER_RANK_PROMETHEUSRULE, .render_site = toy_site,
		.group = "toy.example.com", .version = "v1", .plural = "toys",
		.unchecked = "a toy",
	};
	EOC
	sed -i "s|^	&render_kind_alerts,$|&\n	\&render_kind_toy,|" "$tree/src/render/render.c" &&
	sed -i "s|^extern const struct render_kind render_kind_alerts;$|&\nextern const struct render_kind render_kind_toy;|" "$tree/src/render/render.h" &&
	grep -c "render_kind_toy" "$tree/src/render/render.c" "$tree/src/render/render.h" >counts &&
	printf "%s\n" "$tree/src/render/render.c:1" "$tree/src/render/render.h:1" | test_cmp - counts
'

test_expect_success 'add a rule: one file, one row, one declaration, one finding' '
	cat >"$tree/src/rules/gs185_toy.c" <<-\EOC &&
	#include "rules/rules_int.h"

	static void
	check_gs185(struct rule_ctx *c, const struct spec_site *s)
	{
		rule_report(c, s, rule_pos(s, NULL, NULL), "", "toy rule ran on %s", s->name);
	}

	const struct rule rule_gs185 = {
		.id = "GS185", .check_site = check_gs185,
	};
	EOC
	# anchored on the start of each list: not on its last rule, which each
	# new rule changes, nor on how clang-format wrapped it
	sed -i "/^extern const struct rule rule_gs004,/i extern const struct rule rule_gs185;" "$tree/src/rules/rules_int.h" &&
	sed -i "/^const struct rule \*const rules_table\[\] = {\$/a \	&rule_gs185," "$tree/src/rules/rules.c" &&
	# the severity and the summary: a row of the table of findings, in ID order
	sed -i "/^	ROW(\"GS186\",/i \	ROW(\"GS185\", DIAG_WARNING, FINDING_RULE, \"a toy\")," "$tree/src/base/findings.c" &&
	grep -q "rule_gs185" "$tree/src/rules/rules_int.h" && grep -q "&rule_gs185" "$tree/src/rules/rules.c" &&
	grep -q "^	ROW(\"GS185\", DIAG_WARNING, FINDING_RULE, \"a toy\"),\$" "$tree/src/base/findings.c"
'

test_expect_success 'add a command: one file, one row, one declaration' '
	cat >"$tree/src/cmd/cmd_toy.c" <<-\EOC &&
	#include <stdio.h>

	#include "cmd/cmd.h"

	int
	cmd_toy(int argc, char **argv)
	{
		(void)argc;
		(void)argv;
		puts("toy");
		return 0;
	}
	EOC
	sed -i "s|^cmd_fn cmd_diff;$|&\ncmd_fn cmd_toy;|" "$tree/src/cmd/cmd.h" &&
	sed -i "s|^	{ \"validate\", cmd_validate,|	{ \"toy\", cmd_toy, \"a toy command\" },\n&|" "$tree/src/cmd/commands.c" &&
	grep -q "cmd_toy" "$tree/src/cmd/cmd.h" && grep -q "cmd_toy" "$tree/src/cmd/commands.c"
'

test_expect_success 'the tree builds with make' '
	(cd "$tree" && make -s -j2 O=build-toy all >"$SCRATCH/build.log" 2>&1) ||
	{ tail -30 "$SCRATCH/build.log"; false; }
'

toy="$tree/build-toy/gpusite"
test_expect_success 'render emits the toy kind' '
	"$toy" render "$TEST_TOP/testdata/fleet" >out.yaml 2>err &&
	grep -c "^kind: Toy$" out.yaml >n &&
	test "$(cat n)" -ge 2 &&
	grep "^apiVersion: toy.example.com/v1$" out.yaml
'
test_expect_success 'validate runs the toy rule' '
	expect_exit 0 "$toy" validate "$TEST_TOP/testdata/fleet" >out 2>&1 &&
	grep -F "warning: toy rule ran on" out | grep -c -F "[GS185]" >n &&
	echo 3 | test_cmp - n &&
	grep -F "seoul-dc1.yaml:12:1: warning: toy rule ran on seoul-dc1 [GS185]" out
'
test_expect_success '--help lists the toy command, and it runs' '
	"$toy" --help >help &&
	grep "^  toy  *a toy command$" help &&
	"$toy" toy >out && echo toy | test_cmp - out
'

test_done
