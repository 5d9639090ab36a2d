#!/bin/sh
# t0008: a pool role is one inventory entry (docs/design/inventory.md,
# "Adding a pool role").  A copy of the tree gets a toy pool role that
# differs from the fallback: its own taint, its own scope (namespace
# toy-jobs), its own alerts, normal-time capacity like the burst pool.
# The change is its enum value and its name, a builder and one row in
# pool_kinds[], all in src/inventory/ - nothing else.  Built, it renders
# the toy NodePool with its labels and taint, the placement policy of its
# scope (tolerating its taint, never the fallback), the placement scope's
# exclusion of it, its alerts, explains it, and the fleet rule on
# NodePool names (GS046, on validate's lean road) sees it: every module
# that renders and judges pools reads the inventory's entries instead of
# asking for a role.  The objects of the build under test are copied
# along, as in t0004.
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
	/* a toy: a pool of a scope of its own (namespace toy-jobs), with its
	 * own taint, node type and alerts, on the spec block of the fallback */
	static void
	toy_pool(struct arena *a, struct inv_pool *p, const struct spec_site *site)
	{
		static const struct spec_taint taint = { "example.com/toy", "true", "NoSchedule",
							 NULL };
		static const char *const ns[] = { "toy-jobs" };
		static const char *const off[] = { INV_POOL_FALLBACK };
		struct inv_scope *sc = arena_alloc(a, sizeof(*sc));
		struct kvs tl = { NULL, 0, 0 };

		fallback_pool(a, p, site);
		p->role = INV_ROLE_TOY_POOL;
		p->name = "toy-pool";
		for (size_t i = 0; i < p->node_label_count; i++)
			kvs_set(a, &tl, p->node_labels[i].key, p->node_labels[i].value);
		pool_labels(a, p, &tl, "cloud-gpu-toy", "toy");
		p->title = "the toy pool";
		p->purpose = "the toy pool: GPU nodes for the toy scope";
		p->renders_class = false;
		p->owns_class = false;
		p->normal_time = true;
		pool_taints(a, p, site, &taint);
		*sc = (struct inv_scope){ ns, 1, NULL, site->fallback.src, p->spec_path,
					  scope_policy_name(a, site, p->noun), off, 1 };
		p->scope = sc;
		p->alert_prefix = "GPUSiteToy";
		p->limit_note = "toy pods beyond it stay pending.";
	}

	EOC
	awk "/^\/\* The pools a site may have/ { while ((getline l <\"toy.c\") > 0) print l } { print }" \
		"$inv/inventory.c" >inventory.c.new &&
	mv inventory.c.new "$inv/inventory.c" &&
	sed -i "/^	{ has_fallback, fallback_pool, INV_NODE_TYPE_FALLBACK, INV_POOL_FALLBACK, false },\$/a \	{ has_fallback, toy_pool, \"cloud-gpu-toy\", \"toy\", true }," "$inv/inventory.c" &&
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
test_expect_success 'render emits the toy pool beside the fallback, with its node labels and taint' '
	"$toy" render "$TEST_TOP/testdata/fleet/sites/frankfurt-lab.yaml" >out.yaml &&
	test "$(grep -c "^kind: NodePool$" out.yaml)" -eq 2 &&
	grep -x "  name: frankfurt-lab-gpu-fallback" out.yaml &&
	grep -x "  name: toy-pool" out.yaml &&
	test "$(grep -c "^        gpusite.io/site: frankfurt-lab$" out.yaml)" -eq 2 &&
	sed -n "/^  name: toy-pool$/,/^---/p" out.yaml >toy.yaml &&
	grep -x "        gpusite.io/pool: toy" toy.yaml &&
	grep -x "        node-type: cloud-gpu-toy" toy.yaml &&
	grep -x "      - key: example.com/toy" toy.yaml &&
	sed -n "/^  name: frankfurt-lab-gpu-fallback$/,/^---/p" out.yaml >fallback.yaml &&
	! grep -F "example.com/toy" fallback.yaml &&
	test "$(grep -c "^kind: EC2NodeClass$" out.yaml)" -le 1
'

test_expect_success 'the toy scope has its own placement policy: its namespace, its taint, never the fallback' '
	sed -n "/^  name: gpusite-frankfurt-lab-toy-placement$/,/^---/p" out.yaml >policy.yaml &&
	grep -F "example.com/toy" policy.yaml &&
	grep -F "toy-jobs" policy.yaml &&
	grep -F "operator: \"NotIn\", values: [\"fallback\"]" policy.yaml
'

test_expect_success 'the placement scope keeps its Pods off the toy pool' '
	sed -n "/^  name: gpusite-frankfurt-lab-placement$/,/^---/p" out.yaml >place.yaml &&
	grep -F "key: \"gpusite.io/pool\", operator: \"NotIn\", values: [\"toy\"]" place.yaml
'

test_expect_success 'the alerts watch the toy pool with its own alerts' '
	grep -F "karpenter_nodepools_usage{nodepool=\"toy-pool\",resource_type=\"nvidia.com/gpu\"}" out.yaml &&
	grep -F "karpenter_nodepools_usage{nodepool=\"frankfurt-lab-gpu-fallback\",resource_type=\"nodes\"}" out.yaml &&
	! grep -F "karpenter_nodepools_usage{nodepool=\"toy-pool\",resource_type=\"nodes\"}" out.yaml &&
	grep -E "^ *- alert: GPUSiteToyNearLimit$" out.yaml &&
	grep -E "^ *- alert: GPUSiteToyPodsPending$" out.yaml &&
	grep -F "toy-jobs" out.yaml | grep -F "kube_pod_status_phase"
'

test_expect_success 'explain prints the toy pool, its scope and its policies from its entry' '
	"$toy" explain "$TEST_TOP/testdata/fleet/sites/frankfurt-lab.yaml" >explain.txt &&
	grep "^    toy: NodePool toy-pool, .*for GPU Pods in toy-jobs: on-prem first, then the toy pool, never the fallback (its nodes are tainted example.com/toy=true:NoSchedule and gpusite.io/site=frankfurt-lab:NoSchedule)$" explain.txt &&
	grep -F "adds to GPU Pods in the toy namespaces the GPU, toy and site taint tolerations" explain.txt &&
	grep -F "never the toy pool" explain.txt
'

test_expect_success 'GS046 on the lean road sees two sites of one cluster with the same toy pool' '
	expect_exit 1 "$toy" validate "$TEST_TOP/testdata/fleet" >out 2>&1 &&
	grep -F "toy-pool" out | grep -F "[GS046]" &&
	grep -F "my-hybrid-cluster" out | grep -F "[GS046]"
'

test_done
