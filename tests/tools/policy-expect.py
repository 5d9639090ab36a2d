#!/usr/bin/env python3
"""policy-expect.py - what docs/design/artifacts.md, "Placement" says the placement policy
must do to a Pod, computed from the Pod and the site's placement settings,
compared with what the rendered policy did (policy-eval.mjs).

  policy-expect.py ORIGINAL.json MUTATED.json NAMESPACES POD_SELECTOR_JSON \
                   MODE WEIGHT NOT_READY_SECONDS UNREACHABLE_SECONDS \
                   [SITE [BINDING [POOL [SHARED]]]]

SITE is the site's name, BINDING its placement.siteBinding (required when
left out); without SITE no site term is expected.  POOL is "exclusive"
(the default with SITE: the scope launches from a pool tainted
gpusite.io/site=SITE:NoSchedule, whose toleration the policy adds by
value) or "shared" (no such pool: fallback.exclusive false, or none).
SHARED is the site's shared GPU resource names, comma-separated (none
when left out or empty): a Pod that asks for one is a GPU Pod too.

Exit 0 when MUTATED is exactly the expected Pod, else 1 with the difference.

  policy-expect.py --batch ORIGINAL_DIR MUTATED_DIR NAMESPACES ... (as above)

The same for every ORIGINAL_DIR/NAME.json in one process (a python start
per Pod is most of a policy test's time): MUTATED_DIR/NAME.expect gets the
verdict, "ok", or "differs" and the difference, "missing" when
MUTATED_DIR/NAME.json is not there or not JSON, or "error" and the
traceback when the expectation itself failed.  Exit 0 unless the
arguments are bad (2).
"""
import copy
import io
import json
import os
import sys
import traceback

GPU = "nvidia.com/gpu"
MIG_PREFIX = "nvidia.com/mig-"
SITE_TAINT = "gpusite.io/site"
HYBRID = {"key": "eks.amazonaws.com/compute-type", "operator": "In", "values": ["hybrid"]}


def load(path):
    with open(path) as f:
        return json.load(f)


def selects(sel, labels):
    for k, v in (sel.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in sel.get("matchExpressions") or []:
        has, vals = e["key"] in labels, e.get("values") or []
        op = e["operator"]
        if (op == "In" and not (has and labels[e["key"]] in vals)) or \
           (op == "NotIn" and has and labels[e["key"]] in vals) or \
           (op == "Exists" and not has) or (op == "DoesNotExist" and has):
            return False
    return True


def is_gpu(name, shared):
    """k8s_gpu.h's list: nvidia.com/gpu, the nvidia.com/mig- prefix, and
    the site's shared names (exact)."""
    return name == GPU or name.startswith(MIG_PREFIX) or name in shared


def requests_gpu(pod, shared=()):
    """A GPU Pod: a container or init container (native sidecars are init
    containers) with a GPU name under limits or requests, or resource
    claims.  Ephemeral containers have no resources."""
    spec = pod["spec"]
    for c in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        r = c.get("resources") or {}
        if any(is_gpu(n, shared) for n in list(r.get("limits") or {}) + list(r.get("requests") or {})):
            return True
    return bool(spec.get("resourceClaims"))


def tolerates_gpu_taint(t):
    """Toleration.ToleratesTaint against nvidia.com/gpu=Exists:NoSchedule."""
    if t.get("effect") and t["effect"] != "NoSchedule":
        return False
    if t.get("key") and t["key"] != GPU:
        return False
    op = t.get("operator") or "Equal"
    return op == "Exists" or (op == "Equal" and t.get("value", "") == "Exists")


def require(spec, req):
    """A required expression ANDed into every nodeSelectorTerm, or the one term."""
    aff = spec.setdefault("affinity", {})
    na = aff.setdefault("nodeAffinity", {})
    terms = (na.get("requiredDuringSchedulingIgnoredDuringExecution") or {}) \
        .get("nodeSelectorTerms") or []
    if not terms:
        # the one term; the Pod's other nodeAffinity fields stay
        na["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [{"matchExpressions": [dict(req)]}]}
        return
    for t in terms:
        # ANDed into every term that lacks it; the term's other fields stay
        if req not in (t.get("matchExpressions") or []):
            t["matchExpressions"] = (t.get("matchExpressions") or []) + [dict(req)]


def prefer(spec, req, weight):
    """A preferred term appended, unless one with exactly req is there (any weight)."""
    na = (spec.get("affinity") or {}).get("nodeAffinity")
    pref = (na or {}).get("preferredDuringSchedulingIgnoredDuringExecution") or []
    for p in pref:
        me = (p.get("preference") or {}).get("matchExpressions") or []
        mf = (p.get("preference") or {}).get("matchFields") or []
        if len(me) == 1 and not mf and me[0] == req:
            return
    aff = spec.setdefault("affinity", {})
    na = aff.setdefault("nodeAffinity", {})
    na["preferredDuringSchedulingIgnoredDuringExecution"] = pref + [
        {"weight": weight, "preference": {"matchExpressions": [dict(req)]}}]


def tolerates_site_taint(t, site):
    """Toleration.ToleratesTaint against gpusite.io/site=SITE:NoSchedule."""
    if t.get("effect") and t["effect"] != "NoSchedule":
        return False
    if t.get("key") and t["key"] != SITE_TAINT:
        return False
    if not t.get("key") and t.get("operator") != "Exists":
        return False
    op = t.get("operator") or "Equal"
    return op == "Exists" or (op == "Equal" and t.get("value", "") == site)


def place_affinity(spec, mode, weight, site, binding):
    """Node affinity APPENDED to what the Pod has (docs/design/artifacts.md, "Placement"):
    the hybrid requirement, then the site's (siteBinding)."""
    if mode == "require-onprem":
        require(spec, HYBRID)
    else:
        prefer(spec, HYBRID, weight)
    if not site or binding == "none":
        return
    term = {"key": "gpusite.io/site", "operator": "In", "values": [site]}
    if binding == "preferred":
        prefer(spec, term, 100)
    else:
        require(spec, term)


def expected(pod, namespaces, pod_selector, mode, weight, seconds, site=None, binding="required",
             pool="exclusive", shared=()):
    ns = pod["metadata"].get("namespace", "default")
    if ns not in namespaces or not selects(pod_selector, pod["metadata"].get("labels") or {}) \
            or not requests_gpu(pod, shared):
        return pod
    out = copy.deepcopy(pod)
    spec = out["spec"]
    tols = spec.get("tolerations")
    for t in tols or []:
        # DefaultTolerationSeconds' entries (300 s) take the site's seconds;
        # other seconds were set by the user and stay
        if t.get("key") in seconds and t.get("operator") == "Exists" and \
                t.get("effect") == "NoExecute" and t.get("tolerationSeconds") == 300:
            t["tolerationSeconds"] = seconds[t["key"]]
    if not any(tolerates_gpu_taint(t) for t in tols or []):
        spec["tolerations"] = (tols or []) + [{"key": GPU, "operator": "Exists", "effect": "NoSchedule"}]
    # the site taint of an exclusive pool, tolerated by its value (after the GPU one)
    tols = spec.get("tolerations")
    if site and pool == "exclusive" and not any(tolerates_site_taint(t, site) for t in tols or []):
        spec["tolerations"] = (tols or []) + [
            {"key": SITE_TAINT, "operator": "Equal", "value": site, "effect": "NoSchedule"}]
    place_affinity(spec, mode, weight, site, binding)
    return out


def compare(original, mutated, settings, out):
    """compare(ORIGINAL, MUTATED, SETTINGS, OUT): 0 when MUTATED is the
    Pod SETTINGS (the arguments after the two files) make of ORIGINAL,
    else 1 with the difference written to OUT"""
    namespaces = settings[0].split(",")
    pod_selector = json.loads(settings[1])
    mode, weight = settings[2], int(settings[3])
    seconds = {"node.kubernetes.io/not-ready": int(settings[4]),
               "node.kubernetes.io/unreachable": int(settings[5])}
    site = settings[6] if len(settings) > 6 else None
    binding = settings[7] if len(settings) > 7 else "required"
    pool = settings[8] if len(settings) > 8 else "exclusive"
    shared = [n for n in settings[9].split(",") if n] if len(settings) > 9 else []
    want = expected(original, namespaces, pod_selector, mode, weight, seconds, site, binding, pool,
                    shared)
    if want != mutated:
        print("expected:", json.dumps(want["spec"], indent=1, sort_keys=True), file=out)
        print("got:     ", json.dumps(mutated["spec"], indent=1, sort_keys=True), file=out)
        return 1
    return 0


def batch(orig_dir, mutated_dir, settings):
    for name in sorted(n for n in os.listdir(orig_dir) if n.endswith(".json")):
        original = load(os.path.join(orig_dir, name))
        with open(os.path.join(mutated_dir, name[:-len(".json")] + ".expect"), "w") as out:
            try:
                mutated = load(os.path.join(mutated_dir, name))
            except (OSError, ValueError) as e:
                print("missing", file=out)
                print(e, file=out)
                continue
            verdict = io.StringIO()
            try:
                differs = compare(original, mutated, settings, verdict)
            except Exception:  # what would have ended a run of its own
                print("error", file=out)
                traceback.print_exc(file=out)
                continue
            if differs:
                print("differs", file=out)
                out.write(verdict.getvalue())
            else:
                print("ok", file=out)
    return 0


def main():
    if len(sys.argv) >= 11 and sys.argv[1] == "--batch":
        return batch(sys.argv[2], sys.argv[3], sys.argv[4:])
    if len(sys.argv) < 9 or sys.argv[1] == "--batch":
        print(__doc__, file=sys.stderr)
        return 2
    return compare(load(sys.argv[1]), load(sys.argv[2]), sys.argv[3:], sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
