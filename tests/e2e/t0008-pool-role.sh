#!/bin/sh
# t0008: a pool role is data (docs/design/inventory.md, "Adding a pool
# role").  A copy of the tree gets a toy pool role: its enum value and its
# name in src/inventory/, a builder and one row in pool_kinds[] - and
# nothing else.  Built, it renders the toy NodePool for every site with
# its node labels, alerts on it, and the fleet rule on NodePool names
# (GS046, on validate's lean road) sees it: the modules that render and
# judge pools read the inventory's list instead of a pool of their own.
# The objects of the build under test are copied along, as in t0004.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

tree="$SCRATCH/tree"

test_expect_success 'copy the tree (with the objects of the build under test)' '
	copy_tree "$tree" &&
	test -f "$tree/src/inventory/inventory.c"
'

test_expect_success 'add a pool role: an enum value, its name, a builder, one row' '
	inv="$tree/src/inventory" &&
	sed -i "/^	INV_ROLE_FALLBACK_POOL, /a \	INV_ROLE_TOY_POOL," "$inv/inventory.h" &&
	sed -i "/^	\[INV_ROLE_FALLBACK_POOL\] = /a \	[INV_ROLE_TOY_POOL] = \"toy pool\"," "$inv/inventory.c" &&
	cat >toy.c <<-\EOC &&
	/* a toy: the fallback pool again, under another name */
	static void
	toy_pool(struct arena *a, struct inv_pool *p, const struct spec_site *site)
	{
		fallback_pool(a, p, site);
		p->role = INV_ROLE_TOY_POOL;
		p->name = "toy-pool";
		p->node_selector = "karpenter.sh/nodepool=toy-pool";
	}

	EOC
	awk "/^\/\* The pools a site may have/ { while ((getline l <\"toy.c\") > 0) print l } { print }" \
		"$inv/inventory.c" >inventory.c.new &&
	mv inventory.c.new "$inv/inventory.c" &&
	sed -i "/^	{ has_fallback, fallback_pool },\$/a \	{ has_fallback, toy_pool }," "$inv/inventory.c" &&
	grep -c "TOY_POOL\|toy_pool" "$inv/inventory.h" "$inv/inventory.c" >counts &&
	printf "%s\n" "$inv/inventory.h:1" "$inv/inventory.c:4" | test_cmp - counts
'

test_expect_success 'only src/inventory/ changed' '
	(cd "$tree" && for f in $(find src -type f | LC_ALL=C sort); do
		cmp -s "$f" "$TEST_TOP/$f" || echo "$f" || return 1
	done) >changed &&
	printf "%s\n" src/inventory/inventory.c src/inventory/inventory.h | test_cmp - changed
'

test_expect_success 'the tree builds with make' '
	# the copied dependency files name the objects of the build under
	# test: drop every object that includes the inventory, so the changed
	# header is compiled in
	find "$tree/build-toy" -name "*.d" | while read -r d; do
		if grep -q "inventory/inventory.h" "$d"; then
			rm -f "${d%.d}.o" || return 1
		fi
	done &&
	(cd "$tree" && make -s -j2 O=build-toy all >"$SCRATCH/build.log" 2>&1) ||
	{ tail -30 "$SCRATCH/build.log"; false; }
'

toy="$tree/build-toy/gpusite"
test_expect_success 'render emits the toy pool beside the fallback, with its node labels' '
	"$toy" render "$TEST_TOP/testdata/fleet/sites/frankfurt-lab.yaml" >out.yaml &&
	test "$(grep -c "^kind: NodePool$" out.yaml)" -eq 2 &&
	grep -x "  name: frankfurt-lab-gpu-fallback" out.yaml &&
	grep -x "  name: toy-pool" out.yaml &&
	test "$(grep -c "^        gpusite.io/site: frankfurt-lab$" out.yaml)" -eq 2
'

test_expect_success 'the alerts watch the toy pool too' '
	grep -F "karpenter_nodepools_usage{nodepool=\"toy-pool\",resource_type=\"nodes\"}" out.yaml &&
	grep -F "karpenter_nodepools_usage{nodepool=\"frankfurt-lab-gpu-fallback\",resource_type=\"nodes\"}" out.yaml
'

test_expect_success 'GS046 on the lean road sees two sites of one cluster with the same toy pool' '
	expect_exit 1 "$toy" validate "$TEST_TOP/testdata/fleet" >out 2>&1 &&
	grep -F "toy-pool" out | grep -F "[GS046]" &&
	grep -F "my-hybrid-cluster" out | grep -F "[GS046]"
'

test_done
