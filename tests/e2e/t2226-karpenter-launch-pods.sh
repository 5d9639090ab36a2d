#!/bin/sh
# t2226: which Pods each rendered NodePool launches for, as Karpenter
# decides it.  For every golden render case, Pods of each site are run
# through the case's rendered placement policies by the CEL engine of
# t2204 (tests/tools/policy-eval.mjs, every policy of the stream, as
# admission chains them), and what comes out is judged by
# tests/tools/karpenter_launch.py against every NodePool of the case: the
# pool's taints (startupTaints aside), its requirements, the instance
# types and their offerings, the Pod's nodeSelector, required terms
# (alternatives) and preferred terms (relaxed), and its GPU request (the
# largest nvidia.com/gpu count of the types the pool can launch).
#   place    a GPU Pod of the first placement namespace (and the scope's
#            matchLabels), no tolerations of its own: launches from every
#            capacity type of its site's fallback pool, none from a burst
#            pool;
#   burst    the same in the burst scope: launches from its site's burst
#            pool, none from the fallback;
#   stranger a GPU Pod of another namespace that tolerates nvidia.com/gpu
#            (operator Exists) and has no site affinity: launches from no
#            exclusive pool (fallback.exclusive, burst.exclusive: true by
#            default; such a pool must carry the site taint) and can from
#            one that is not; for a burst pool the stranger also tolerates
#            gpusite.io/burst (without it, it launches none there);
#   all      a stranger tolerating every taint (operator Exists, no key):
#            launches from every pool of every site, the documented
#            exception.
. "$TEST_TOP/tests/lib.sh"

tool="$TEST_TOP/tests/tools/karpenter_launch.py"
tools="$TEST_TOP/.tools/node_modules"
cases="$TEST_TOP/testdata/render"
K="$UPSTREAM/karpenter"

if ! [ -d "$tools/@marcbachmann/cel-js" ] || ! [ -d "$tools/yaml" ]; then
	test_skip "Pods launched by the rendered NodePools" "npm test tools missing in .tools (run make deps)"
	test_done
	exit
fi
if ! [ -f "$K/gpu-instance-types.csv" ]; then
	test_skip "Pods launched by the rendered NodePools" "../shared/upstream not found"
	test_done
	exit
fi
mkdir -p "$SCRATCH/eval"
cp "$TEST_TOP/tests/tools/policy-eval.mjs" "$SCRATCH/eval/"
ln -s "$tools" "$SCRATCH/eval/node_modules"

# prep.cjs SITES_DIR STREAM.json OUT: for each site file of SITES_DIR,
# OUT/pods/cN/SITE.{place,burst,stranger,strangerburst,all}.json (cN: the
# site's cluster; burst only with a burst block); OUT/sites, a line
# "SITE ENGINE FALLBACK_EXCLUSIVE BURST_EXCLUSIVE" a site (yes/no: the
# spec's exclusive, true by default); OUT/pools, "POOL SITE ROLE TAINTED"
# a NodePool of the stream (TAINTED: yes when it carries the site taint
# gpusite.io/site=<site>); and on stdout a line "cN POLICIES" a cluster:
# the placement policies of its sites, comma separated ("-": none), as
# admission runs them all on every Pod of the cluster
cat >"$SCRATCH/eval/prep.cjs" <<'JS'
const fs = require('fs'), YAML = require('yaml');
const [dir, stream, out] = process.argv.slice(2);
const pod = (name, ns, labels, tolerations) => ({
	apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels },
	spec: Object.assign({ containers: [{ name: 'main', image: 'registry.example.com/gpu:1',
		resources: { limits: { 'nvidia.com/gpu': '1' } } }] }, tolerations ? { tolerations } : {}) });
const clusters = [], clusterOf = {}, sites = [];
const gpu = { key: 'nvidia.com/gpu', operator: 'Exists' };
for (const f of fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
	for (const doc of YAML.parseAllDocuments(fs.readFileSync(`${dir}/${f}`, 'utf8')).map((d) => d.toJS())) {
		if (!doc || doc.kind !== 'GPUSite') continue;
		const site = doc.metadata.name, spec = doc.spec ?? {}, pl = spec.placement ?? {};
		const cluster = spec.cluster?.name ?? '';
		if (!clusters.includes(cluster)) clusters.push(cluster);
		const cdir = `${out}/pods/c${clusters.indexOf(cluster)}`;
		fs.mkdirSync(cdir, { recursive: true });
		clusterOf[site] = clusters.indexOf(cluster);
		const write = (kind, p) => fs.writeFileSync(`${cdir}/${site}.${kind}.json`, JSON.stringify(p));
		const labels = (sel) => (sel ?? {}).matchLabels ?? {};
		write('place', pod('place', (pl.namespaces ?? ['default'])[0], labels(pl.podSelector)));
		if (spec.burst)
			write('burst', pod('burst', spec.burst.namespaces[0], labels(spec.burst.podSelector)));
		write('stranger', pod('stranger', 'stranger-ns', {}, [gpu]));
		write('strangerburst', pod('strangerburst', 'stranger-ns', {},
			[gpu, { key: 'gpusite.io/burst', operator: 'Exists' }]));
		write('all', pod('all', 'stranger-ns', {}, [{ operator: 'Exists' }]));
		const excl = (b) => (b?.exclusive ?? true) ? 'yes' : 'no';
		sites.push(`${site} ${pl.engine ?? 'kyverno'} ${excl(spec.fallback)} ${excl(spec.burst)}\n`);
	}
}
fs.writeFileSync(`${out}/sites`, sites.join(''));
const objs = fs.readFileSync(stream, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const pools = objs.filter((o) => o.kind === 'NodePool').map((o) => {
	const t = o.spec.template, taints = t.spec.taints ?? [];
	const site = t.metadata.labels['gpusite.io/site'], role = t.metadata.labels['gpusite.io/pool'];
	const tainted = taints.some((x) => x.key === 'gpusite.io/site' && x.value === site);
	return `${o.metadata.name} ${site} ${role} ${tainted ? 'yes' : 'no'}\n`;
});
fs.writeFileSync(`${out}/pools`, pools.join(''));
const kinds = ['MutatingPolicy', 'ClusterPolicy', 'MutatingAdmissionPolicy'];
clusters.forEach((_, i) => {
	const names = objs.filter((o) => kinds.includes(o.kind) &&
		clusterOf[o.metadata.labels?.['gpusite.io/site']] === i).map((o) => o.metadata.name);
	console.log(`c${i} ${names.join(',') || '-'}`);
});
JS

# judge.py POOLS SITES LAUNCH: what each Pod must and must not get, one
# line per claim: "ok CLAIM" or "FAIL CLAIM: the tool's lines"
cat >"$SCRATCH/eval/judge.py" <<'PY'
import sys
pools = [l.split() for l in open(sys.argv[1]) if l.strip()]
sites = {l.split()[0]: l.split() for l in open(sys.argv[2]) if l.strip()}
lines = [l.rstrip("\n") for l in open(sys.argv[3])]
def got(podfile, pool):
    return [l for l in lines if l.startswith("%s: %s " % (podfile, pool))]
def claim(text, podfile, pool, want):
    out = got(podfile, pool)
    if not out:
        print("FAIL %s: no line for %s on %s" % (text, podfile, pool)); return
    bad = [l for l in out if (": launches " in l) != want]
    print(("FAIL %s: %s" % (text, " | ".join(bad))) if bad else "ok " + text)
for name, site, role, tainted in pools:
    has_burst = any(p[1] == site and p[2] == "burst" for p in pools)
    facts = sites[site]
    exclusive = facts[2 if role == "fallback" else 3] == "yes"
    print(("ok %s: the site taint iff exclusive" if (tainted == "yes") == exclusive else
           "FAIL %s: exclusive is " + str(exclusive) + ", the site taint " + tainted) % name)
    if facts[1] == "none":
        print("skip %s: placement.engine none renders no policy" % name)
    elif role == "fallback":
        claim("%s: the largest placement Pod launches every capacity type" % name,
              site + ".place", name, True)
        if has_burst:
            claim("%s: the burst Pod launches none" % name, site + ".burst", name, False)
    elif role == "burst":
        claim("%s: the largest burst Pod launches every capacity type" % name,
              site + ".burst", name, True)
        claim("%s: the placement Pod launches none" % name, site + ".place", name, False)
    stranger = site + (".strangerburst" if role == "burst" else ".stranger")
    if role == "burst":
        claim("%s: a stranger without the burst toleration launches none" % name,
              site + ".stranger", name, False)
    if exclusive:
        claim("%s: exclusive, a stranger launches none" % name, stranger, name, False)
    else:
        claim("%s: not exclusive, a stranger can launch" % name, stranger, name, True)
    claim("%s: a Pod tolerating everything still launches (the exception)" % name,
          site + ".all", name, True)
PY

launch() {
	python3 "$tool" --instance-types "$K/gpu-instance-types.csv" \
		--local-nvme "$K/gpu-instance-local-nvme.csv" "$@"
}

test_expect_success 'the model: taints, tolerations, affinity alternatives, preferred terms, GPU fit' '
	run_in_case "$cases/two-site-burst" render --format json >"$SCRATCH/tsb.json" &&
	pod() { printf "%s\n" "{\"metadata\": {\"name\": \"p\"}, \"spec\": {$2, \"containers\": [{\"name\": \"c\", \"resources\": {\"limits\": {\"nvidia.com/gpu\": \"$3\"}}}]}}" >"$SCRATCH/$1.json"; } &&
	T="\"tolerations\": [{\"key\": \"nvidia.com/gpu\", \"operator\": \"Exists\"}, {\"key\": \"gpusite.io/site\", \"operator\": \"Exists\"}]" &&
	pod bare "\"nodeSelector\": {}" 4 &&
	pod tol "$T" 4 &&
	pod big "$T" 5 &&
	pod alt "$T, \"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": {\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"gpusite.io/site\", \"operator\": \"In\", \"values\": [\"elsewhere\"]}]}, {\"matchExpressions\": [{\"key\": \"gpusite.io/site\", \"operator\": \"In\", \"values\": [\"seoul-dc1\"]}]}]}}}" 1 &&
	pod pref "$T, \"affinity\": {\"nodeAffinity\": {\"preferredDuringSchedulingIgnoredDuringExecution\": [{\"weight\": 1, \"preference\": {\"matchExpressions\": [{\"key\": \"gpusite.io/site\", \"operator\": \"In\", \"values\": [\"seoul-dc1\"]}]}}, {\"weight\": 100, \"preference\": {\"matchExpressions\": [{\"key\": \"eks.amazonaws.com/compute-type\", \"operator\": \"In\", \"values\": [\"hybrid\"]}]}}]}}" 1 &&
	{ launch --pod "$SCRATCH/bare.json" --pod "$SCRATCH/tol.json" --pod "$SCRATCH/big.json" \
		--pod "$SCRATCH/alt.json" --pod "$SCRATCH/pref.json" "$SCRATCH/tsb.json" || :; } >"$SCRATCH/model.out" &&
	cat "$SCRATCH/model.out" &&
	grep -q "^bare: seoul-dc1-gpu-fallback on-demand: no offering: the Pod: does not tolerate taint nvidia.com/gpu=Exists:NoSchedule$" "$SCRATCH/model.out" &&
	grep -q "^tol: seoul-dc1-gpu-fallback on-demand: launches g6e.12xlarge in " "$SCRATCH/model.out" &&
	grep -q "^tol: seoul-dc1-gpu-burst spot: no offering: the Pod: does not tolerate taint gpusite.io/burst=true:NoSchedule$" "$SCRATCH/model.out" &&
	grep -q "^big: seoul-dc1-gpu-fallback on-demand: no offering: g6e.12xlarge: 5 nvidia.com/gpu requested, the type has 4$" "$SCRATCH/model.out" &&
	grep -q "^alt: seoul-dc1-gpu-fallback on-demand: launches g6e.12xlarge in us-west-2a \[required term dropped\]$" "$SCRATCH/model.out" &&
	grep -q "^alt: seoul-dc2-gpu-fallback on-demand: no offering: the Pod: gpusite.io/site In \[elsewhere\] never meets gpusite.io/site In \[seoul-dc2\]; the Pod: gpusite.io/site In \[seoul-dc1\] never meets " "$SCRATCH/model.out" &&
	grep -q "^pref: seoul-dc1-gpu-fallback on-demand: launches g6e.12xlarge in us-west-2a \[preferred term dropped\]$" "$SCRATCH/model.out" &&
	grep -q "^pref: seoul-dc2-gpu-fallback on-demand: launches g6e.12xlarge in us-west-2a \[preferred term dropped, preferred term dropped\]$" "$SCRATCH/model.out"
'

test_expect_success 'the model: startupTaints are not the Pod'"'"'s to tolerate' '
	sed "s/\"taints\":/\"startupTaints\":/" "$SCRATCH/tsb.json" >"$SCRATCH/startup.json" &&
	launch --pod "$SCRATCH/bare.json" "$SCRATCH/startup.json" >"$SCRATCH/startup.out" &&
	cat "$SCRATCH/startup.out" &&
	! grep -q "no offering" "$SCRATCH/startup.out"
'

# judge_case DIR NAME: render the case in DIR (a render case: sites/ or
# path, env, args), make its sites' Pods, run them through the policies
# of their cluster and the model, and append judge.py's claims, each
# prefixed with NAME, to $SCRATCH/all.judged
judge_case() {
	jc_dir=$1 jc_name=$2 jc=$SCRATCH/$2 &&
	jc_sites="$jc_dir/sites" &&
	{ ! [ -f "$jc_dir/path" ] || jc_sites="$jc_dir/$(cat "$jc_dir/path")"; } &&
	mkdir -p "$jc/mut" &&
	run_in_case "$jc_dir" render --format json >"$jc/stream.json" 2>"$jc/err" &&
	run_in_case "$jc_dir" render >"$jc/stream.yaml" 2>>"$jc/err" &&
	node "$SCRATCH/eval/prep.cjs" "$jc_sites" "$jc/stream.json" "$jc" >"$jc/clusters" &&
	while read -r cl pols; do
		if test "$pols" != -
		then
			node "$SCRATCH/eval/policy-eval.mjs" --batch "$jc/mut" "$jc/stream.yaml" "$pols" \
				"$jc/pods/$cl"/*.json 2>>"$jc/eval.err"
		else
			cp "$jc/pods/$cl"/*.json "$jc/mut/"
		fi || return 1
	done <"$jc/clusters" &&
	set -- &&
	for p in "$jc/mut"/*.json; do
		set -- "$@" --pod "$p" || return 1
	done &&
	{ launch --gpus largest "$@" "$jc/stream.json" || :; } >"$jc/launch" &&
	python3 "$SCRATCH/eval/judge.py" "$jc/pools" "$jc/sites" "$jc/launch" |
		sed "s/^\([a-zA-Z]*\) /\1 $jc_name: /" >>"$SCRATCH/all.judged"
}

test_expect_success 'every golden site: placement, burst, stranger and tolerate-all Pods' '
	: >"$SCRATCH/all.judged" &&
	for dir in "$cases"/*/; do
		judge_case "${dir%/}" "$(basename "$dir")" || return 1
	done &&
	cat "$SCRATCH/all.judged" &&
	! grep -q "^FAIL" "$SCRATCH/all.judged" &&
	test "$(grep -c "^ok .*: the largest placement Pod launches every capacity type" "$SCRATCH/all.judged")" -ge 20 &&
	grep -q "^ok two-site-burst: seoul-dc1-gpu-burst: the placement Pod launches none" "$SCRATCH/all.judged" &&
	grep -q "^ok two-site-burst: seoul-dc2-gpu-fallback: the burst Pod launches none" "$SCRATCH/all.judged" &&
	grep -q "^ok fallback-reserved-al2023: lab-gpu-fallback: the largest placement Pod" "$SCRATCH/all.judged" &&
	grep -q "^ok two-site-burst: seoul-dc1-gpu-fallback: exclusive, a stranger launches none" "$SCRATCH/all.judged" &&
	grep -q "^ok two-site-burst: seoul-dc1-gpu-burst: exclusive, a stranger launches none" "$SCRATCH/all.judged" &&
	grep -q "^ok burst-shared-pools: .*-gpu-fallback: not exclusive, a stranger can launch" "$SCRATCH/all.judged" &&
	grep -q "^ok burst-shared-pools: .*-gpu-burst: not exclusive, a stranger can launch" "$SCRATCH/all.judged" &&
	test "$(grep -c "^ok .*: exclusive, a stranger launches none" "$SCRATCH/all.judged")" -ge 25
'

# a site whose placement renders no policy: its Pods are the user's
grep "^skip " "$SCRATCH/all.judged" >"$SCRATCH/skips" 2>/dev/null
while read -r _ what; do
	test_skip "${what%%: placement.engine*}: the largest placement Pod" "${what##*: }"
done <"$SCRATCH/skips"

test_done
