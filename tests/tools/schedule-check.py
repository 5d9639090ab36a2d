#!/usr/bin/env python3
"""schedule-check.py - place mutated Pods on the nodes a rendered stream makes.

  schedule-check.py STREAM BINDING SCOPES_JSON POD_JSON...

STREAM is gpusite's rendered YAML stream of one cluster.  The nodes are
  - every hybrid node as nodeadm registers it from the NodeConfigs of the
    stream's ConfigMaps (--node-labels, --register-with-taints), plus the
    labels the kubelet and EKS add (kubernetes.io/os, kubernetes.io/arch,
    kubernetes.io/hostname, eks.amazonaws.com/compute-type=hybrid);
  - one node per instance type of every NodePool: the template's labels and
    taints, karpenter.sh/nodepool, the instance type, the first capacity
    type and the architecture its requirements allow.
A Pod fits a node when it tolerates every NoSchedule/NoExecute taint of the
node (core/v1 ToleratesTaint) and one of its required nodeSelectorTerms
matches the node's labels (In, NotIn, Exists, DoesNotExist; NotIn and
DoesNotExist match a missing label).  BINDING is the siteBinding of every
site (required | preferred | none); SCOPES_JSON maps a namespace to
[site, "placement" | "burst"], or to null: a namespace of no scope.

What must hold, per Pod (its namespace names its site and scope):
  - burst Pods fit the site's burst nodes and never a fallback node;
  - placement Pods fit the site's hybrid nodes and its fallback nodes
    (when it has some), never a burst node;
  - whatever the binding, no Pod fits another site's pool node (the site
    taint, tolerated by value), unless it tolerates every taint itself;
    a Pod of no scope fits no pool node and is not placed;
  - with siteBinding required, every node a Pod fits is its site's: its
    hybrid nodes, its own pools' nodes (so Karpenter can launch for it only
    from the site's pools); with preferred, the Pod prefers its site
    (weight 100); with none, nothing names the site.
Exit 0 when all hold, 1 with the reasons.
"""
import json
import sys

import yaml


def node_labels_from_flags(flags):
    labels, taints = {}, []
    for f in flags:
        if f.startswith("--node-labels="):
            for kv in f[len("--node-labels="):].split(","):
                k, _, v = kv.partition("=")
                labels[k] = v
        elif f.startswith("--register-with-taints="):
            for t in f[len("--register-with-taints="):].split(","):
                kv, _, effect = t.partition(":")
                k, _, v = kv.partition("=")
                taints.append({"key": k, "value": v, "effect": effect})
    return labels, taints


def nodes_of(docs):
    nodes = []
    for d in docs:
        if d.get("kind") == "ConfigMap" and d["metadata"]["name"].startswith("gpusite-nodeconfig-"):
            for key, text in sorted((d.get("data") or {}).items()):
                nc = yaml.safe_load(text)
                name = nc["spec"]["hybrid"]["iamRolesAnywhere"]["nodeName"]
                labels, taints = node_labels_from_flags(nc["spec"]["kubelet"]["flags"])
                labels.update({"kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                               "kubernetes.io/hostname": name,
                               "eks.amazonaws.com/compute-type": "hybrid"})
                nodes.append({"name": name, "kind": "hybrid", "site": labels["gpusite.io/site"],
                              "labels": labels, "taints": taints})
        if d.get("kind") == "NodePool":
            t = d["spec"]["template"]
            reqs = {r["key"]: r.get("values", []) for r in t["spec"].get("requirements", [])}
            types = reqs.get("node.kubernetes.io/instance-type") or ["any-gpu-type"]
            for it in types:
                labels = dict(t["metadata"].get("labels", {}))
                name = "%s-%s" % (d["metadata"]["name"], it)
                labels.update({
                    "karpenter.sh/nodepool": d["metadata"]["name"],
                    "node.kubernetes.io/instance-type": it,
                    "karpenter.sh/capacity-type": (reqs.get("karpenter.sh/capacity-type") or ["on-demand"])[0],
                    "kubernetes.io/arch": (reqs.get("kubernetes.io/arch") or ["amd64"])[0],
                    "kubernetes.io/os": "linux",
                    "kubernetes.io/hostname": name,
                })
                nodes.append({"name": name, "kind": labels.get("gpusite.io/pool", "pool"),
                              "site": labels.get("gpusite.io/site"), "labels": labels,
                              "taints": t["spec"].get("taints", [])})
    return nodes


def tolerates(tol, taint):
    key, op = tol.get("key", ""), tol.get("operator", "Equal")
    if tol.get("effect") and tol["effect"] != taint["effect"]:
        return False
    if key == "":
        return op == "Exists"
    if key != taint["key"]:
        return False
    return op == "Exists" or tol.get("value", "") == taint.get("value", "")


def tolerates_all(pod):
    return any(not t.get("key") and t.get("operator") == "Exists" and not t.get("effect")
               for t in pod["spec"].get("tolerations") or [])


def expr_matches(e, labels):
    has, vals = e["key"] in labels, e.get("values", [])
    op = e["operator"]
    if op == "In":
        return has and labels[e["key"]] in vals
    if op == "NotIn":
        return not has or labels[e["key"]] not in vals
    if op == "Exists":
        return has
    if op == "DoesNotExist":
        return not has
    raise ValueError("operator %s" % op)


def fits(pod, node):
    tols = pod["spec"].get("tolerations") or []
    for t in node["taints"]:
        if t["effect"] in ("NoSchedule", "NoExecute") and not any(tolerates(x, t) for x in tols):
            return False
    req = (((pod["spec"].get("affinity") or {}).get("nodeAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution"))
    if not req:
        return True
    return any(not term.get("matchFields") and term.get("matchExpressions") and
               all(expr_matches(e, node["labels"]) for e in term["matchExpressions"])
               for term in req.get("nodeSelectorTerms", []))


def prefers_site(pod, site):
    prefs = (((pod["spec"].get("affinity") or {}).get("nodeAffinity") or {})
             .get("preferredDuringSchedulingIgnoredDuringExecution")) or []
    return any(p.get("weight") == 100 and
               {"key": "gpusite.io/site", "operator": "In", "values": [site]}
               in p["preference"].get("matchExpressions", []) for p in prefs)


def names_site(pod):
    return "gpusite.io/site" in json.dumps(pod.get("spec", {}).get("affinity", {}))


def main():
    stream, binding, scopes = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    docs = [d for d in yaml.safe_load_all(open(stream)) if d]
    nodes = nodes_of(docs)
    bad = []
    if not any(n["kind"] == "burst" for n in nodes):
        bad.append("the stream has no burst node")
    sites_kinds = {(n["site"], n["kind"]) for n in nodes}
    for f in sys.argv[4:]:
        pod = json.load(open(f))
        ns = pod["metadata"]["namespace"]
        on = [n for n in nodes if fits(pod, n)]
        kinds = {(n["site"], n["kind"]) for n in on}
        if scopes.get(ns) is None:
            # a stranger: no scope, no policy; the site taint keeps it off
            # every pool node whatever else it tolerates
            who = "%s (%s, no scope)" % (f.rsplit("/", 1)[-1], ns)
            if any(k != "hybrid" for _, k in kinds):
                bad.append("%s fits a pool node: %s" % (who, sorted(kinds)))
            if names_site(pod):
                bad.append("%s was placed by a policy" % who)
            print("%s -> %s" % (who, ", ".join(n["name"] for n in on)))
            continue
        site, scope = scopes[ns]
        who = "%s (%s, %s scope of %s)" % (f.rsplit("/", 1)[-1], ns, scope, site)
        # a pool node of another site, whatever the binding: its site
        # taint is tolerated by value, for the Pod's own site only (unless
        # the Pod tolerates every taint itself: a key-less Exists)
        if not tolerates_all(pod) and any(s != site and k != "hybrid" for s, k in kinds):
            bad.append("%s fits another site's pool node: %s" % (who, sorted(kinds)))
        if scope == "placement" and (site, "fallback") in sites_kinds and \
                (site, "fallback") not in kinds:
            bad.append("%s fits no fallback node of its site: %s" % (who, sorted(kinds)))
        want = "burst" if scope == "burst" else "hybrid"
        if (site, want) not in kinds:
            bad.append("%s fits no %s node of its site: %s" % (who, want, sorted(kinds)))
        if scope == "burst" and any(k == "fallback" for _, k in kinds):
            bad.append("%s fits a fallback node: %s" % (who, sorted(kinds)))
        if scope == "placement" and any(k == "burst" for _, k in kinds):
            bad.append("%s fits a burst node: %s" % (who, sorted(kinds)))
        if binding == "required" and any(s != site for s, _ in kinds):
            bad.append("%s fits another site's nodes: %s" % (who, sorted(kinds)))
        if binding == "preferred" and not prefers_site(pod, site):
            bad.append("%s does not prefer its site" % who)
        if binding == "none" and names_site(pod):
            bad.append("%s names a site with siteBinding none" % who)
        print("%s -> %s" % (who, ", ".join(n["name"] for n in on)))
    for b in bad:
        print("FAIL: " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
