#!/bin/sh
# t2060-explain.sh - `gpusite explain [SITE] [PATH]`: the RTO budget term by
# term, the Kubernetes version (and when it is assumed), capacity against
# the fallback, one line per rendered object; a budget over target is
# explained and exits 1; an unknown site is an error.
. "$TEST_TOP/tests/lib.sh"

fleet="$TEST_TOP/testdata/fleet/sites"

test_expect_success 'explain SITE PATH: the budget adds up term by term' '
	"$GPUSITE" explain seoul-dc1 "$fleet" >"$SCRATCH/e" &&
	grep -q "^site seoul-dc1 (cluster my-hybrid-cluster" "$SCRATCH/e" &&
	grep -q "recovery budget (targetRTO 15m):" "$SCRATCH/e" &&
	grep -q "eviction toleration *1m0s" "$SCRATCH/e" &&
	grep -q "node monitor grace *50s" "$SCRATCH/e" &&
	grep -q "node provisioning *4m0s" "$SCRATCH/e" &&
	grep -q "image pull *6m0s" "$SCRATCH/e" &&
	grep -q "model load *3m0s" "$SCRATCH/e" &&
	grep -q "total *14m50s  OK: 10s within the target" "$SCRATCH/e" &&
	! grep -q "^site incheon-edge" "$SCRATCH/e"
'

test_expect_success 'capacity: on-prem GPUs, the limit, what each type serves' '
	grep -q "on-prem GPUs: 32 (rack-a: 2 x 8 h200; rack-b: 2 x 8 h200)" "$SCRATCH/e" &&
	grep -q "gpuLimit 16 nvidia.com/gpu (50% of on-prem)" "$SCRATCH/e" &&
	grep -q "g6.12xlarge *4 x l4 *22888 MiB per GPU  up to 4 nodes" "$SCRATCH/e" &&
	grep -q "g6e.12xlarge *4 x l40s *45776 MiB per GPU" "$SCRATCH/e"
'

test_expect_success 'one line per rendered object of the site' '
	"$GPUSITE" render --site seoul-dc1 "$fleet" | grep -c "^kind: " >"$SCRATCH/n" &&
	test "$(grep -c "^    [A-Za-z0-9]* [^ ]*: " "$SCRATCH/e")" -eq "$(cat "$SCRATCH/n")" &&
	grep -q "^    NodePool seoul-dc1-gpu-fallback: " "$SCRATCH/e" &&
	grep -q "^    Application argocd/my-hybrid-cluster-nvidia-device-plugin: " "$SCRATCH/e" &&
	grep -q "^    MutatingPolicy gpusite-seoul-dc1-placement: .*eviction toleration seconds" "$SCRATCH/e"
'

test_expect_success 'the Kubernetes version: from the spec, overridden, assumed' '
	grep -q "kubernetes: 1.35 (cluster.kubernetesVersion)" "$SCRATCH/e" &&
	"$GPUSITE" explain --kube-version 1.36 seoul-dc1 "$fleet" | grep -q "kubernetes: 1.36 (--kube-version)" &&
	mkdir -p "$SCRATCH/nov" &&
	sed "/kubernetesVersion/d" "$fleet/seoul-dc1.yaml" >"$SCRATCH/nov/s.yaml" &&
	"$GPUSITE" explain "$SCRATCH/nov" >"$SCRATCH/nov.txt" &&
	grep -q "kubernetes: 1.36 (assumed 1.36" "$SCRATCH/nov.txt"
'

test_expect_success 'controller releases: assumed, declared, and the Gte they allow' '
	grep -q "^  karpenter: 1.9 or later assumed (cluster.versions.karpenter not set" "$SCRATCH/e" &&
	grep -q "^  kyverno: 1.17 or later assumed" "$SCRATCH/e" &&
	grep -q "minGpuMemoryMiB is rendered as the equivalent Gt" "$SCRATCH/e" &&
	mkdir -p "$SCRATCH/ver" &&
	sed "s/^    region: us-west-2\$/&\n    versions: {karpenter: \"1.10\", kyverno: \"1.18.1\"}/" \
		"$fleet/seoul-dc1.yaml" >"$SCRATCH/ver/s.yaml" &&
	"$GPUSITE" explain "$SCRATCH/ver" >"$SCRATCH/ver.txt" &&
	grep -q "^  karpenter: 1.10 (cluster.versions.karpenter); minGpuMemoryMiB is rendered as Gte\$" "$SCRATCH/ver.txt" &&
	grep -q "^  kyverno: 1.18.1 (cluster.versions.kyverno)\$" "$SCRATCH/ver.txt" &&
	"$GPUSITE" render "$SCRATCH/ver" | grep -A1 "instance-gpu-memory" | grep -q "operator: Gte"
'

test_expect_success 'a single argument is PATH when it exists, else SITE' '
	(cd "$TEST_TOP/testdata/fleet" && "$GPUSITE" explain incheon-edge) >"$SCRATCH/i" &&
	grep -q "^site incheon-edge" "$SCRATCH/i" && ! grep -q "^site seoul-dc1" "$SCRATCH/i" &&
	"$GPUSITE" explain "$fleet" >"$SCRATCH/all" &&
	test "$(grep -c "^site " "$SCRATCH/all")" -eq 3
'

test_expect_success 'a budget over target is explained, with exit 1 and GS060' '
	mkdir -p "$SCRATCH/over" &&
	sed -e "s/notReadyTolerationSeconds: 60/notReadyTolerationSeconds: 300/" \
	    -e "s/unreachableTolerationSeconds: 60/unreachableTolerationSeconds: 300/" \
		"$fleet/seoul-dc1.yaml" >"$SCRATCH/over/s.yaml" &&
	expect_exit 1 "$GPUSITE" explain "$SCRATCH/over" >"$SCRATCH/o" 2>"$SCRATCH/oe" &&
	grep -q "total *18m50s  OVER the target by 3m50s" "$SCRATCH/o" &&
	grep -q "\[GS060\]" "$SCRATCH/oe"
'

test_expect_success 'engine none: the policy to paste is shown' '
	mkdir -p "$SCRATCH/none" &&
	sed "s/engine: kyverno/engine: none/" "$fleet/seoul-dc1.yaml" >"$SCRATCH/none/s.yaml" &&
	"$GPUSITE" explain "$SCRATCH/none" >"$SCRATCH/n.txt" &&
	grep -q "placement: engine none" "$SCRATCH/n.txt" &&
	grep -q "^    kind: MutatingPolicy$" "$SCRATCH/n.txt" &&
	! grep -q "^    MutatingPolicy gpusite" "$SCRATCH/n.txt"
'

test_expect_success 'an unknown site is an error' '
	expect_exit 1 "$GPUSITE" explain nowhere-dc "$TEST_TOP/testdata/fleet/sites" \
		>"$SCRATCH/u" 2>"$SCRATCH/ue" &&
	test ! -s "$SCRATCH/u" && grep -q "no site is named .nowhere-dc." "$SCRATCH/ue"
'

burst="$TEST_TOP/testdata/render/two-site-burst/sites"
test_expect_success 'a burst pool: its capacity, its scope and the Spot interruption queue' '
	"$GPUSITE" explain seoul-dc2 "$burst" >"$SCRATCH/b.txt" &&
	grep -q "^    burst: NodePool seoul-dc2-gpu-burst, karpenter, on-demand, gpuLimit 4 nvidia.com/gpu (50% of on-prem), for GPU Pods in batch-burst: on-prem first, then the burst pool, never the fallback" "$SCRATCH/b.txt" &&
	! grep -q "interruption queue" "$SCRATCH/b.txt" &&
	"$GPUSITE" explain seoul-dc1 "$burst" >"$SCRATCH/b1.txt" &&
	grep -q "^    burst: NodePool seoul-dc1-gpu-burst, karpenter, spot, gpuLimit 8" "$SCRATCH/b1.txt" &&
	grep -q "only when it runs with its interruption queue (chart value settings.interruptionQueue" "$SCRATCH/b1.txt"
'

test_expect_success 'explain CLUSTER: the cluster view first (capacity and totals, namespaces, the pool check), then each site' '
	"$GPUSITE" explain shared-cluster "$burst" >"$SCRATCH/c.all" &&
	test "$(grep -c "^site " "$SCRATCH/c.all")" -eq 2 &&
	sed -n "1,13p" "$SCRATCH/c.all" >"$SCRATCH/c.txt" &&
	sed -n "14p" "$SCRATCH/c.all" | grep -q "^\$" &&
	cat >"$SCRATCH/c.want" <<-\EOF &&
	cluster shared-cluster (2 sites)
	  capacity (nvidia.com/gpu):
	    site                      on-prem  fallback limit  burst limit
	    seoul-dc1                       8               8            8
	    seoul-dc2                       8               8            4
	    cluster total                  16              16           12
	  namespaces (GPU Pods go to):
	    llm-serving              seoul-dc1 placement: hybrid nodes, then NodePool seoul-dc1-gpu-fallback
	    llm-batch                seoul-dc1 burst: hybrid nodes, then NodePool seoul-dc1-gpu-burst (never the fallback)
	    batch-inference          seoul-dc2 placement: hybrid nodes, then NodePool seoul-dc2-gpu-fallback
	    batch-burst              seoul-dc2 burst: hybrid nodes, then NodePool seoul-dc2-gpu-burst (never the fallback)
	  pools: every GPU pool of the cluster (4) is reachable from exactly one site'"'"'s scope
	  site taint: 4 of the 4 GPU pools carry their site'"'"'s taint (gpusite.io/site=<site>:NoSchedule): a DaemonSet that must run on their nodes needs the toleration {key: gpusite.io/site, operator: Exists}, and a Pod that tolerates every taint still lands there
	EOF
	test_cmp "$SCRATCH/c.want" "$SCRATCH/c.txt"
'

test_expect_success 'explain CLUSTER: a site not bound to its own nodes never reaches the other site'"'"'s exclusive pools' '
	mkdir -p "$SCRATCH/loose" &&
	cp "$burst"/*.yaml "$SCRATCH/loose/" &&
	sed -i "s/^    namespaces: \[llm-serving\]$/    namespaces: [llm-serving]\n    siteBinding: none/" "$SCRATCH/loose/seoul-dc1.yaml" &&
	grep -q "siteBinding: none" "$SCRATCH/loose/seoul-dc1.yaml" &&
	"$GPUSITE" explain shared-cluster "$SCRATCH/loose" >"$SCRATCH/l.txt" &&
	grep -q "^  pools: every GPU pool of the cluster (4) is reachable from exactly one site" "$SCRATCH/l.txt" &&
	"$GPUSITE" explain seoul-dc1 "$SCRATCH/loose" >"$SCRATCH/l1.txt" &&
	grep -q "^  site binding: none: .* (another site.s pool only when shared, exclusive: false)" "$SCRATCH/l1.txt"
'

test_expect_success 'explain CLUSTER: with exclusive: false the other site reaches the shared pools, and each site says they are shared' '
	mkdir -p "$SCRATCH/shared" &&
	cp "$SCRATCH/loose"/*.yaml "$SCRATCH/shared/" &&
	sed -i "s/^    gpuLimit: \(.*\)$/    gpuLimit: \1\n    exclusive: false/" "$SCRATCH/shared/seoul-dc2.yaml" &&
	test "$(grep -c "exclusive: false" "$SCRATCH/shared/seoul-dc2.yaml")" -eq 2 &&
	"$GPUSITE" explain shared-cluster "$SCRATCH/shared" >"$SCRATCH/s.txt" &&
	grep -q "^  pools: NodePool seoul-dc2-gpu-fallback of site seoul-dc2 is reachable from 2 sites'"'"' scopes (seoul-dc1 among them" "$SCRATCH/s.txt" &&
	grep -q "^  pools: NodePool seoul-dc2-gpu-burst of site seoul-dc2 is reachable from 2 sites'"'"' scopes" "$SCRATCH/s.txt" &&
	! grep -q "every GPU pool" "$SCRATCH/s.txt" &&
	grep -q "^  site taint: 2 of the 4 GPU pools carry their site" "$SCRATCH/s.txt" &&
	grep -q "^  site taint: none on seoul-dc2-gpu-fallback, seoul-dc2-gpu-burst (exclusive: false): shared" "$SCRATCH/s.txt" &&
	grep -q "^  site taint: none on NodePool seoul-dc2-gpu-burst (burst.exclusive: false): the pool is shared, any Pod that tolerates nvidia.com/gpu and gpusite.io/burst can land on its nodes and make Karpenter launch one" "$SCRATCH/s.txt"
'

test_done
