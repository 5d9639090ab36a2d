#!/usr/bin/env python3
"""fake-apiserver.py - a loopback Kubernetes API server for gpusite's tests.

Python standard library only (http.server + ssl).  It serves the objects of
a scenario under testdata/live/<scenario>/ with the behaviour of the real
API server that gpusite and kubectl rely on:

  /version, /api, /api/v1, /apis, /apis/<group>/<version>   (legacy discovery)
  GET and LIST of every resource in RESOURCES, cluster-wide and namespaced,
  labelSelector and fieldSelector, limit/continue paging, Table output for
  plain `kubectl get`, Status error bodies, bearer-token and client-cert
  authentication over TLS, and fault switches (--fault) that make it answer
  401, 403, 429, 500, 410 Expired, drop the connection, answer slowly or
  send an endless body.

Usage:
  fake-apiserver.py certs DIR
      write a test CA, a server certificate for 127.0.0.1/localhost, a
      client certificate and a second, unrelated CA into DIR (openssl).
  fake-apiserver.py serve --scenario DIR --tls DIR [--port N] [--port-file F]
      [--token T]... [--applied FILE] [--fault SPEC]... [--log FILE]
      [--parent PID]    (exit when process PID is gone)
  fake-apiserver.py dump --scenario DIR [--applied FILE]
      print the scenario's objects as one JSON List (for checks).

Scenario file DIR/cluster.json:
  {"include": ["../healthy"],        # scenarios this one starts from
   "serverVersion": "1.33",
   "absentGroups": ["karpenter.k8s.aws"],   # API groups not served
   "objects": [ {...}, ... ],        # added, replacing same kind/ns/name
   "delete":  [ {"kind": "EC2NodeClass", "name": "gpu-fallback"} ],
   "patches": [ {"kind": "NodePool", "name": "x",
                 "path": "/spec/limits/nvidia.com~1gpu", "value": 8},
                {"kind": "Node", "name": "n", "path": "/spec/taints",
                 "remove": true} ],
   "generate": {...}}                # see generate_objects()

--applied FILE holds what `gpusite render --format json` printed (one
object per line): it is added first, decorated as the API server and an
Argo CD sync would leave it (uid, resourceVersion, managedFields, status,
tracking annotation, server defaults), so scenarios can drift from the
real rendered output.

--schemas DIR: the cluster's schemas, for `validate --rendered --live`:
every CustomResourceDefinition in the files below DIR (YAML or JSON, any
names; python3-yaml reads YAML) is served as an object of
apiextensions.k8s.io/v1 customresourcedefinitions, and every OpenAPI v3
document (JSON with "openapi": "3...") at /openapi/v3/<key>, listed by the
/openapi/v3 index with a serverRelativeURL as the real server does.  The
key is "api/v1" or "apis/<group>/<version>": from a file named like
api__v1_openapi.json or apis__<group>__<version>_openapi.json, else from
the group/version most of its components carry.

Fault SPEC: NAME[=ARG][@PATHPREFIX]
  unauthorized-once     first authenticated request gets 401
  forbidden             403 Forbidden with the RBAC message
  throttle=N[:SECS]     first N requests get 429 with Retry-After SECS (1)
  error=N               first N requests get 500
  unavailable=N[:SECS]  first N requests get 503 with Retry-After SECS (1)
  drop=N                first N requests: connection closed, no answer
  slow=SECS             wait SECS before every answer
  endless               the body never ends
  expire-continue=N     first N requests that carry `continue` get 410

Hostile fault SPECs (a malicious API server):
  continue-endless=N    every LIST page: N made-up nodes and a new,
                        distinct continue token (the list never ends)
  continue-repeat       every LIST page: its items and the same continue
                        token, again and again
  continue-long=BYTES   the LIST answer carries a continue token of BYTES
  wrong-shape=NAME      a LIST answer of the wrong shape: items-map
                        ({"kind":"NodeList","items":{"a":1}}), items-missing,
                        items-string, item-string, metadata-string,
                        continue-number, root-array, kind-other;
                        for a GET of one object: object-array,
                        object-metadata-string; for discovery
                        (/api/v1, /apis/G/V): resources-map
  status-long=BYTES     500 with a Status message of BYTES bytes (no retry
                        relief: every request)
  trickle=SECS          the answer is sent one byte every SECS (slow loris)
  gzip-bomb             Content-Encoding: gzip, 256 MiB of JSON once inflated
  openapi-foreign=URL   the /openapi/v3 index names every document at URL
                        (another host, a path with control characters)
  redirect=URL          302 Found to URL (another host)
  unauthorized          every request gets 401, whatever the credentials

The drill simulator (a scenario with a "drill" block) makes the server
writable for what `kubectl drain` and `gpusite drill run` send, and plays
a scripted recovery with time compression:

  "drill": {"timeScale": 60,       # scenario seconds per real second,
                                   # from the first eviction on
            "rights": ["get nodes", "list nodes", "list pods",
                       "patch nodes", "create pods/eviction", ...],
                                   # what SelfSubjectAccessReview allows
                                   # (absent: everything)
            "pdbs": [{"namespace": "inference", "name": "llm-server",
                      "matchLabels": {"app": "llm-server"},
                      "minAvailable": 4}],
            "fallback": {"nodePool": "seoul-dc1-gpu-fallback",
                         "node": "i-0f00000000000fa11", "gpus": 4,
                         "labels": {"gpusite.io/site": "seoul-dc1"}},
                                   # gpus 0: no device plugin, the
                                   # replacement stays Pending; labels:
                                   # more labels of the node it launches
                                   # (the NodePool template's)
            "failWrites": [{"method": "PATCH",
                            "path": "/api/v1/nodes/gpu-a-02",
                            "code": 500}],
                                   # these writes fail every time (500:
                                   # InternalError, 403: Forbidden by an
                                   # admission webhook, other: Invalid)
            "script": {"deleted": 30, "pending": 30, "launched": 45,
                       "registered": 140, "initialized": 170,
                       "nodeReady": 170, "scheduled": 171, "pulling": 172,
                       "pulled": 460, "started": 462, "ready": 700},
                                   # seconds after each eviction
            "return": {"podsBack": 30, "nodeGone": 90}}
                                   # seconds after the last uncordon

  PATCH /api/v1/nodes/NAME  strategic-merge or merge patch of
        spec.unschedulable (the node.kubernetes.io/unschedulable taint
        follows, with timeAdded)
  POST  /api/v1/namespaces/NS/pods/NAME/eviction  policy/v1 Eviction;
        429 with the upstream Status body when a PodDisruptionBudget
        disallows it
  POST  /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
  Without a "drill" block every write gets 405.  --log lines of writes
  carry the request body after the status and auth columns.

--header-log FILE ("header echo"): every request's header lines are
appended to FILE as received, then a line "--", so a test can prove which
headers reached the server (and that no injected one did).
"""

import base64
import copy
import hashlib
import http.server
import json
import os
import re
import socketserver
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
import zlib

CREATED = "2025-06-01T08:00:00Z"

# (group, version, plural, kind, namespaced, shortNames)
RESOURCES = [
    ("", "v1", "nodes", "Node", False, ["no"]),
    ("", "v1", "pods", "Pod", True, ["po"]),
    ("", "v1", "namespaces", "Namespace", False, ["ns"]),
    ("", "v1", "configmaps", "ConfigMap", True, ["cm"]),
    ("", "v1", "secrets", "Secret", True, []),
    ("", "v1", "events", "Event", True, ["ev"]),
    ("apps", "v1", "daemonsets", "DaemonSet", True, ["ds"]),
    ("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", True,
     ["pdb"]),
    ("apps", "v1", "deployments", "Deployment", True, ["deploy"]),
    ("karpenter.sh", "v1", "nodepools", "NodePool", False, []),
    ("karpenter.sh", "v1", "nodeclaims", "NodeClaim", False, []),
    ("karpenter.k8s.aws", "v1", "ec2nodeclasses", "EC2NodeClass", False,
     ["ec2nc", "ec2ncs"]),
    ("eks.amazonaws.com", "v1", "nodeclasses", "NodeClass", False, []),
    ("argoproj.io", "v1alpha1", "applications", "Application", True,
     ["app", "apps"]),
    ("kyverno.io", "v1", "clusterpolicies", "ClusterPolicy", False,
     ["cpol"]),
    ("policies.kyverno.io", "v1", "mutatingpolicies", "MutatingPolicy",
     False, ["mpol"]),
    ("admissionregistration.k8s.io", "v1", "mutatingadmissionpolicies",
     "MutatingAdmissionPolicy", False, []),
    ("admissionregistration.k8s.io", "v1",
     "mutatingadmissionpolicybindings", "MutatingAdmissionPolicyBinding",
     False, []),
    ("admissionregistration.k8s.io", "v1beta1", "mutatingadmissionpolicies",
     "MutatingAdmissionPolicy", False, []),
    ("admissionregistration.k8s.io", "v1beta1",
     "mutatingadmissionpolicybindings", "MutatingAdmissionPolicyBinding",
     False, []),
    ("monitoring.coreos.com", "v1", "prometheusrules", "PrometheusRule",
     True, ["promrule"]),
    ("nvidia.com", "v1", "clusterpolicies", "ClusterPolicy", False, []),
    ("apiextensions.k8s.io", "v1", "customresourcedefinitions",
     "CustomResourceDefinition", False, ["crd", "crds"]),
]

# Groups whose first listed version is the preferred one.
LIST_KINDS = {}


def group_version(group, version):
    return version if group == "" else group + "/" + version


def uid_for(key):
    h = hashlib.sha256(key.encode()).hexdigest()
    return "%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])


def status_body(code, reason, message, details=None, extra_meta=None):
    body = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": extra_meta or {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }
    if details is not None:
        body["details"] = details
    return body


# ---------------------------------------------------------------- scenario


class Store:
    """Objects by (group, version, plural), each list sorted by ns/name."""

    def __init__(self):
        self.resources = [r for r in RESOURCES]
        self.lists = {}
        self.server_version = "1.33"
        self.absent = set()
        self.rv = 1000
        self.drill = None

    def resource_for(self, api_version, kind):
        group, _, version = api_version.rpartition("/")
        for r in self.resources:
            if r[0] == group and r[1] == version and r[3] == kind:
                return r
        # served under another version of the group: store by kind
        for r in self.resources:
            if r[0] == group and r[3] == kind:
                return r
        return None

    def key(self, obj):
        r = self.resource_for(obj.get("apiVersion", ""), obj.get("kind", ""))
        if r is None:
            raise SystemExit("fake-apiserver: no resource for %s %s" %
                             (obj.get("apiVersion"), obj.get("kind")))
        md = obj.setdefault("metadata", {})
        return r, md.get("namespace", ""), md.get("name", "")

    def put(self, obj):
        r, ns, name = self.key(obj)
        lst = self.lists.setdefault((r[0], r[1], r[2]), {})
        lst[(ns, name)] = obj

    def find(self, kind, ns, name):
        for (g, v, p), lst in self.lists.items():
            for (ons, oname), obj in lst.items():
                if obj.get("kind") == kind and ons == ns and oname == name:
                    return (g, v, p), obj
        return None, None

    def delete(self, kind, ns, name):
        for (g, v, p), lst in self.lists.items():
            if (ns, name) in lst and lst[(ns, name)].get("kind") == kind:
                del lst[(ns, name)]
                return True
        return False

    def finish(self):
        """Fill server fields and sort every list."""
        out = {}
        for rk, lst in self.lists.items():
            items = [lst[k] for k in sorted(lst)]
            for obj in items:
                md = obj.setdefault("metadata", {})
                self.rv += 1
                md.setdefault("uid", uid_for("%s/%s/%s/%s" % (
                    rk[2], md.get("namespace", ""), md.get("name", ""),
                    obj.get("kind"))))
                md.setdefault("resourceVersion", str(self.rv))
                md.setdefault("creationTimestamp", CREATED)
            out[rk] = items
        self.lists = out

    def items(self, rk):
        return self.lists.get(rk, [])

    def served(self):
        return [r for r in self.resources if r[0] not in self.absent]


def json_pointer(path):
    if path in ("", "/"):
        return []
    return [p.replace("~1", "/").replace("~0", "~")
            for p in path.lstrip("/").split("/")]


def apply_patch(obj, patch):
    parts = json_pointer(patch["path"])
    cur = obj
    for p in parts[:-1]:
        if isinstance(cur, list):
            cur = cur[int(p)]
        else:
            cur = cur.setdefault(p, {})
    last = parts[-1]
    if patch.get("remove"):
        if isinstance(cur, list):
            del cur[int(last)]
        else:
            cur.pop(last, None)
    elif isinstance(cur, list):
        if last == "-":
            cur.append(patch["value"])
        else:
            cur[int(last)] = patch["value"]
    else:
        cur[last] = patch["value"]


def decorate_applied(obj):
    """What the API server and an Argo CD sync leave on an applied object."""
    md = obj.setdefault("metadata", {})
    kind = obj.get("kind", "")
    last = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    ann = md.setdefault("annotations", {})
    ann["kubectl.kubernetes.io/last-applied-configuration"] = last + "\n"
    ann["argocd.argoproj.io/tracking-id"] = "gpusite:%s/%s:%s/%s" % (
        obj.get("apiVersion", "").rpartition("/")[0], kind,
        md.get("namespace", ""), md.get("name", ""))
    md["generation"] = 1
    md["managedFields"] = [{
        "manager": "argocd-controller",
        "operation": "Update",
        "apiVersion": obj.get("apiVersion"),
        "time": CREATED,
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:metadata": {"f:labels": {}}},
    }]
    spec = obj.get("spec")
    if kind == "NodePool" and isinstance(spec, dict):
        # karpenter.sh/v1 CRD defaults
        dis = spec.setdefault("disruption", {})
        dis.setdefault("budgets", [{"nodes": "10%"}])
        dis.setdefault("consolidateAfter", "0s")
        tspec = spec.setdefault("template", {}).setdefault("spec", {})
        tspec.setdefault("expireAfter", "720h")
        obj["status"] = {
            "conditions": [
                {"type": "Ready", "status": "True", "reason": "Ready",
                 "lastTransitionTime": CREATED, "message": ""},
                {"type": "ValidationSucceeded", "status": "True",
                 "reason": "ValidationSucceeded",
                 "lastTransitionTime": CREATED, "message": ""},
            ],
            "resources": {"cpu": "0", "memory": "0", "nodes": "0",
                          "pods": "0", "nvidia.com/gpu": "0"},
        }
    elif kind == "Application":
        obj["status"] = {
            "sync": {"status": "Synced", "revision": "0.20.0"},
            "health": {"status": "Healthy"},
            "reconciledAt": CREATED,
        }
        if isinstance(spec, dict):
            spec.setdefault("revisionHistoryLimit", 10)
    elif kind == "MutatingPolicy" and isinstance(spec, dict):
        spec.setdefault("failurePolicy", "Fail")
        spec.setdefault("reinvocationPolicy", "Never")
        obj["status"] = {"conditionStatus": {"ready": True}}
    elif kind == "ClusterPolicy" and isinstance(spec, dict):
        spec.setdefault("validationFailureAction", "Audit")
        obj["status"] = {"ready": True}
    return obj


def read_applied(path):
    """JSON objects, one per line, a JSON array or a v1 List."""
    with open(path) as f:
        text = f.read()
    text = text.strip()
    if not text:
        return []
    if text.startswith("["):
        return json.loads(text)
    if text.startswith("{") and "\n" not in text:
        one = json.loads(text)
        return one.get("items", [one]) if one.get("kind") == "List" else [one]
    try:
        one = json.loads(text)
        return one.get("items", [one]) if one.get("kind") == "List" else [one]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def scenario_chain(d, seen=None):
    seen = seen or []
    d = os.path.normpath(d)
    if d in seen:
        raise SystemExit("fake-apiserver: include loop at " + d)
    with open(os.path.join(d, "cluster.json")) as f:
        spec = json.load(f)
    chain = []
    for inc in spec.get("include", []):
        chain += scenario_chain(os.path.join(d, inc), seen + [d])
    chain.append((d, spec))
    return chain


def load_scenario(d, applied_file):
    st = Store()
    if applied_file:
        for obj in read_applied(applied_file):
            st.put(decorate_applied(obj))
    for _, spec in scenario_chain(d):
        if "serverVersion" in spec:
            st.server_version = spec["serverVersion"]
        if "drill" in spec:
            st.drill = spec["drill"]
        st.absent.update(spec.get("absentGroups", []))
        for obj in spec.get("objects", []):
            st.put(copy.deepcopy(obj))
        if "generate" in spec:
            for obj in generate_objects(spec["generate"]):
                st.put(obj)
        for dl in spec.get("delete", []):
            if not st.delete(dl["kind"], dl.get("namespace", ""), dl["name"]):
                raise SystemExit("fake-apiserver: delete: no %s %s/%s" % (
                    dl["kind"], dl.get("namespace", ""), dl["name"]))
        for p in spec.get("patches", []):
            _, obj = st.find(p["kind"], p.get("namespace", ""), p["name"])
            if obj is None:
                raise SystemExit("fake-apiserver: patch: no %s %s/%s" % (
                    p["kind"], p.get("namespace", ""), p["name"]))
            apply_patch(obj, p)
    st.finish()
    return st


# ---------------------------------------------------------------- generated

def node_object(name, labels, taints, gpus, ready=True, provider_id=None,
                instance_type=None, arch="amd64"):
    alloc = {"cpu": "95", "memory": "2063162660Ki", "pods": "110",
             "ephemeral-storage": "3547024448Ki"}
    if gpus:
        alloc["nvidia.com/gpu"] = str(gpus)
    lab = {"kubernetes.io/arch": arch, "kubernetes.io/os": "linux",
           "kubernetes.io/hostname": name, "beta.kubernetes.io/arch": arch,
           "beta.kubernetes.io/os": "linux"}
    if instance_type:
        lab["node.kubernetes.io/instance-type"] = instance_type
    lab.update(labels)
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": lab,
                     "annotations": {
                         "node.alpha.kubernetes.io/ttl": "0",
                         "volumes.kubernetes.io/controller-managed-attach-detach": "true"}},
        "spec": {},
        "status": {
            "capacity": dict(alloc),
            "allocatable": dict(alloc),
            "conditions": [
                {"type": "MemoryPressure", "status": "False",
                 "reason": "KubeletHasSufficientMemory",
                 "lastHeartbeatTime": CREATED,
                 "lastTransitionTime": CREATED,
                 "message": "kubelet has sufficient memory available"},
                {"type": "Ready", "status": "True" if ready else "Unknown",
                 "reason": "KubeletReady" if ready else "NodeStatusUnknown",
                 "lastHeartbeatTime": CREATED,
                 "lastTransitionTime": CREATED,
                 "message": "kubelet is posting ready status" if ready
                 else "Kubelet stopped posting node status."},
            ],
            "nodeInfo": {"kubeletVersion": "v1.33.1-eks-1234567",
                         "containerRuntimeVersion": "containerd://1.7.27",
                         "operatingSystem": "linux", "architecture": arch,
                         "osImage": "Ubuntu 22.04.5 LTS",
                         "kernelVersion": "5.15.0-139-generic",
                         "kubeProxyVersion": "", "machineID": uid_for(name)[:32],
                         "systemUUID": uid_for("s" + name),
                         "bootID": uid_for("b" + name)},
            "addresses": [{"type": "InternalIP", "address": "10.80.0.1"},
                          {"type": "Hostname", "address": name}],
        },
    }
    if taints:
        node["spec"]["taints"] = taints
    if provider_id:
        node["spec"]["providerID"] = provider_id
    return node


def pod_object(name, ns, node, labels, phase="Running", owner=None,
               gpu=0, tolerations=None):
    res = {"requests": {"cpu": "100m"}, "limits": {}}
    if gpu:
        res["requests"]["nvidia.com/gpu"] = str(gpu)
        res["limits"]["nvidia.com/gpu"] = str(gpu)
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "labels": labels},
        "spec": {"containers": [{"name": "main", "image": "registry.k8s.io/pause:3.10",
                                 "resources": res}],
                 "tolerations": tolerations or [
                     {"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                      "effect": "NoExecute", "tolerationSeconds": 300},
                     {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
                      "effect": "NoExecute", "tolerationSeconds": 300}]},
        "status": {"phase": phase},
    }
    if node:
        pod["spec"]["nodeName"] = node
    if owner:
        pod["metadata"]["ownerReferences"] = [{
            "apiVersion": "apps/v1", "kind": owner[0], "name": owner[1],
            "uid": uid_for(owner[1]), "controller": True}]
    return pod


def generate_objects(g):
    """A big cluster made on the fly, so no huge file is stored.

    {"cluster": "my-hybrid-cluster", "region": "us-west-2",
     "site": "seoul-dc1", "gpuModel": "h200", "gpusPerNode": 8,
     "stackNamespace": "nvidia-device-plugin",
     "hybridGroups": [{"name": "rack-a", "count": 400}],
     "cloudNodes": 4600, "podsPerNode": 2,
     "untainted": [17, 400]}     # hybrid node indexes left without the taint
    """
    cluster = g["cluster"]
    region = g["region"]
    site = g["site"]
    ns = g.get("stackNamespace", "nvidia-device-plugin")
    untainted = set(g.get("untainted", []))
    objs = []
    idx = 0
    for grp in g.get("hybridGroups", []):
        for i in range(grp["count"]):
            idx += 1
            name = "mi-%017x" % (0x0a1b2c3d4e5f00000 + idx)
            labels = {
                "eks.amazonaws.com/compute-type": "hybrid",
                "eks.amazonaws.com/hybrid-credential-provider": "ssm",
                "gpu.model": g.get("gpuModel", "h200"),
                "gpusite.io/node-group": grp["name"],
                "gpusite.io/site": site,
                "node-type": "hybrid-gpu",
                "feature.node.kubernetes.io/pci-10de.present": "true",
                "nvidia.com/gpu.present": "true",
            }
            labels.update(grp.get("labels", {}))
            taints = [] if idx in untainted else [
                {"key": "nvidia.com/gpu", "value": "Exists",
                 "effect": "NoSchedule"}]
            objs.append(node_object(
                name, labels, taints, g.get("gpusPerNode", 8),
                provider_id="eks-hybrid:///%s/%s/%s" % (region, cluster, name)))
            objs.append(pod_object(
                "nvidia-device-plugin-%05d" % idx, ns, name,
                {"app.kubernetes.io/name": "nvidia-device-plugin",
                 "app.kubernetes.io/instance": "nvidia-device-plugin"},
                owner=("DaemonSet", "nvidia-device-plugin")))
    zones = ["a", "b", "c"]
    for i in range(g.get("cloudNodes", 0)):
        z = zones[i % 3]
        name = "ip-10-%d-%d-%d.%s.compute.internal" % (
            (i >> 16) & 255, (i >> 8) & 255, i & 255, region)
        objs.append(node_object(
            name,
            {"eks.amazonaws.com/nodegroup": "system",
             "topology.kubernetes.io/zone": region + z,
             "topology.kubernetes.io/region": region},
            [], 0, instance_type="m7i.4xlarge",
            provider_id="aws:///%s%s/i-%017x" % (region, z, 0x0f00000 + i)))
    pods_per_node = g.get("podsPerNode", 0)
    for i in range(g.get("cloudNodes", 0)):
        name = "ip-10-%d-%d-%d.%s.compute.internal" % (
            (i >> 16) & 255, (i >> 8) & 255, i & 255, region)
        for j in range(pods_per_node):
            objs.append(pod_object(
                "web-%05d-%d" % (i, j), "default", name,
                {"app": "web"}, owner=("ReplicaSet", "web-5d9c")))
    return objs


# ---------------------------------------------------------------- selectors

def parse_label_selector(sel):
    reqs = []
    if not sel:
        return reqs
    parts, depth, cur = [], 0, ""
    for ch in sel:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for p in parts:
        p = p.strip()
        if not p:
            continue
        if " notin " in p or " in " in p:
            op = "notin" if " notin " in p else "in"
            k, _, vals = p.partition(" " + op + " ")
            vals = vals.strip().strip("()")
            reqs.append((k.strip(), op, [v.strip() for v in vals.split(",")]))
        elif "!=" in p:
            k, _, v = p.partition("!=")
            reqs.append((k.strip(), "!=", [v.strip()]))
        elif "==" in p:
            k, _, v = p.partition("==")
            reqs.append((k.strip(), "=", [v.strip()]))
        elif "=" in p:
            k, _, v = p.partition("=")
            reqs.append((k.strip(), "=", [v.strip()]))
        elif p.startswith("!"):
            reqs.append((p[1:].strip(), "!", []))
        else:
            reqs.append((p, "exists", []))
    return reqs


def labels_match(labels, reqs):
    for k, op, vals in reqs:
        has = k in labels
        v = labels.get(k)
        if op == "=" and v != vals[0]:
            return False
        if op == "!=" and has and v == vals[0]:
            return False
        if op == "in" and v not in vals:
            return False
        if op == "notin" and has and v in vals:
            return False
        if op == "exists" and not has:
            return False
        if op == "!" and has:
            return False
    return True


FIELDS = {
    "metadata.name": lambda o: o["metadata"].get("name", ""),
    "metadata.namespace": lambda o: o["metadata"].get("namespace", ""),
    "spec.nodeName": lambda o: o.get("spec", {}).get("nodeName", ""),
    "status.phase": lambda o: o.get("status", {}).get("phase", ""),
    "spec.unschedulable": lambda o: str(o.get("spec", {}).get(
        "unschedulable", False)).lower(),
    "involvedObject.name": lambda o: o.get("involvedObject", {}).get(
        "name", ""),
    "involvedObject.kind": lambda o: o.get("involvedObject", {}).get(
        "kind", ""),
}


def parse_field_selector(sel):
    reqs = []
    for p in (sel or "").split(","):
        p = p.strip()
        if not p:
            continue
        if "!=" in p:
            k, _, v = p.partition("!=")
            neg = True
        else:
            k, _, v = p.partition("==") if "==" in p else p.partition("=")
            neg = False
        k = k.strip()
        if k not in FIELDS:
            return None, k
        reqs.append((k, neg, v.strip()))
    return reqs, None


def fields_match(obj, reqs):
    for k, neg, v in reqs:
        if (FIELDS[k](obj) == v) == neg:
            return False
    return True


# ---------------------------------------------------------------- faults

class Faults:
    def __init__(self, specs):
        self.lock = threading.Lock()
        self.rules = []
        for s in specs:
            name, _, prefix = s.partition("@")
            name, _, arg = name.partition("=")
            self.rules.append({"name": name, "arg": arg, "prefix": prefix,
                               "used": 0})

    def take(self, name, path, cont=False):
        """The fault rule NAME that applies to this request, counted."""
        with self.lock:
            for r in self.rules:
                if r["name"] != name or not path.startswith(r["prefix"]):
                    continue
                if name == "expire-continue" and not cont:
                    continue
                limit = r["arg"].split(":")[0]
                if name in ("throttle", "error", "unavailable", "drop",
                            "expire-continue"):
                    if r["used"] >= int(limit or 1):
                        continue
                if name == "unauthorized-once" and r["used"] >= 1:
                    continue
                r["used"] += 1
                return r
        return None


# ---------------------------------------------------------------- simulator

def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(t)))


def requests_gpu(pod):
    for c in pod.get("spec", {}).get("containers", []):
        if "nvidia.com/gpu" in c.get("resources", {}).get("requests", {}):
            return True
    return False


def pod_ready(pod):
    for c in pod.get("status", {}).get("conditions", []):
        if c.get("type") == "Ready":
            return c.get("status") == "True"
    return False


class Sim:
    """The drill's cluster: writes, PDBs, SelfSubjectAccessReview and the
    scripted recovery.  Time runs timeScale times faster from the first
    eviction on (sim_now); object timestamps are in that time."""

    def __init__(self, store):
        self.st = store
        d = store.drill
        self.scale = float(d.get("timeScale", 60))
        self.rights = d.get("rights")
        self.pdbs = d.get("pdbs", [])
        self.fb = d.get("fallback", {})
        self.script = d.get("script", {})
        self.ret = d.get("return", {})
        self.fail = d.get("failWrites", [])
        self.anchor = None          # real time of the first eviction
        self.events = []            # (sim time, seq, fn)
        self.seq = 0
        self.claimed = False
        self.uncordoned = set()
        for pod in self.pods():
            st = pod.setdefault("status", {})
            if st.get("phase") == "Running" and not st.get("conditions"):
                st["conditions"] = [
                    {"type": t, "status": "True",
                     "lastTransitionTime": CREATED}
                    for t in ("Initialized", "Ready", "ContainersReady",
                              "PodScheduled")]
        for p in self.pdbs:
            self.add({"apiVersion": "policy/v1",
                         "kind": "PodDisruptionBudget",
                         "metadata": {"name": p["name"],
                                      "namespace": p["namespace"],
                                      "creationTimestamp": CREATED},
                         "spec": {"minAvailable": p["minAvailable"],
                                  "selector": {"matchLabels":
                                               p["matchLabels"]}}})

    # -- the store
    def rk(self, kind):
        for r in self.st.resources:
            if r[3] == kind:
                return (r[0], r[1], r[2])
        raise KeyError(kind)

    def objs(self, kind):
        return self.st.lists.setdefault(self.rk(kind), [])

    def pods(self):
        return self.objs("Pod")

    def get(self, kind, ns, name):
        for o in self.objs(kind):
            md = o["metadata"]
            if md.get("name") == name and md.get("namespace", "") == (ns or ""):
                return o
        return None

    def add(self, obj):
        lst = self.objs(obj["kind"])
        md = obj["metadata"]
        self.st.rv += 1
        md.setdefault("uid", uid_for("%s/%s/%s" % (
            obj["kind"], md.get("namespace", ""), md["name"])))
        md["resourceVersion"] = str(self.st.rv)
        lst.append(obj)
        lst.sort(key=lambda o: (o["metadata"].get("namespace", ""),
                                o["metadata"]["name"]))

    def remove(self, obj):
        lst = self.objs(obj["kind"])
        if obj in lst:
            lst.remove(obj)

    def touch(self, obj):
        self.st.rv += 1
        obj["metadata"]["resourceVersion"] = str(self.st.rv)

    # -- time
    def now(self):
        real = time.time()
        if self.anchor is None:
            return real
        return self.anchor + (real - self.anchor) * self.scale

    def at(self, t, fn):
        self.seq += 1
        self.events.append((t, self.seq, fn))
        self.events.sort(key=lambda e: (e[0], e[1]))

    def tick(self):
        now = self.now()
        while self.events and self.events[0][0] <= now:
            t, _, fn = self.events.pop(0)
            fn(t)

    # -- writes
    def write(self, method, path, ctype, body):
        try:
            doc = json.loads(body or b"{}")
        except ValueError:
            return 400, status_body(400, "BadRequest", "the body is not JSON")
        parts = path.strip("/").split("/")
        for f in self.fail:
            if f["method"] == method and f["path"] == path:
                return self.failed(f["code"], method, path)
        if method == "PATCH" and parts[:3] == ["api", "v1", "nodes"] and \
                len(parts) == 4:
            return self.patch_node(parts[3], ctype, doc)
        if method == "POST" and len(parts) == 7 and parts[:3] == [
                "api", "v1", "namespaces"] and parts[4] == "pods" and \
                parts[6] == "eviction":
            return self.evict(parts[3], parts[5], doc)
        if method == "POST" and path == \
                "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews":
            return self.review(doc)
        return 405, status_body(405, "MethodNotAllowed",
                                "the simulator does not take %s %s" %
                                (method, path))

    def failed(self, code, method, path):
        if code == 500:
            return 500, status_body(500, "InternalError", "Internal error "
                                    "occurred: etcdserver: request timed out")
        if code == 403:
            return 403, status_body(403, "Forbidden", 'admission webhook '
                                    '"validate.policy.example.com" denied the '
                                    'request: %s %s is not allowed during the '
                                    'change freeze' % (method, path))
        return code, status_body(code, "Invalid", "the simulator refuses "
                                 "%s %s" % (method, path))

    def allowed(self, verb, resource, sub, ns):
        if self.rights is None:
            return True
        want = "%s %s%s" % (verb, resource, "/" + sub if sub else "")
        return want in self.rights or ("%s *" % verb) in self.rights

    def review(self, doc):
        ra = doc.get("spec", {}).get("resourceAttributes", {})
        ok = self.allowed(ra.get("verb", ""), ra.get("resource", ""),
                          ra.get("subresource", ""), ra.get("namespace", ""))
        out = dict(doc)
        out["metadata"] = {"creationTimestamp": None}
        out["status"] = {"allowed": ok}
        if not ok:
            out["status"]["reason"] = "no RBAC policy matched"
        return 201, out

    def patch_node(self, name, ctype, doc):
        if not self.allowed("patch", "nodes", "", ""):
            return 403, status_body(403, "Forbidden", 'nodes "%s" is '
                                    'forbidden: User "gpusite-drill" cannot '
                                    'patch resource "nodes" in API group "" '
                                    'at the cluster scope' % name)
        if ctype not in ("application/strategic-merge-patch+json",
                         "application/merge-patch+json"):
            return 415, status_body(415, "UnsupportedMediaType",
                                    "the body of the request was in an "
                                    "unknown format - accepted media types "
                                    "include: application/json-patch+json, "
                                    "application/merge-patch+json, "
                                    "application/apply-patch+yaml, "
                                    "application/strategic-merge-patch+json")
        node = self.get("Node", "", name)
        if node is None:
            return 404, status_body(404, "NotFound",
                                    'nodes "%s" not found' % name,
                                    {"name": name, "kind": "nodes"})
        spec = doc.get("spec", {})
        if set(doc) - {"spec"} or set(spec) - {"unschedulable"}:
            return 422, status_body(422, "Invalid", "the simulator patches "
                                    "spec.unschedulable only")
        cordon = bool(spec.get("unschedulable"))
        ns = node.setdefault("spec", {})
        taints = [t for t in ns.get("taints", []) if t.get("key") !=
                  "node.kubernetes.io/unschedulable"]
        if cordon:
            ns["unschedulable"] = True
            old = [t for t in ns.get("taints", []) if t.get("key") ==
                   "node.kubernetes.io/unschedulable"]
            taints.append(old[0] if old else {
                "key": "node.kubernetes.io/unschedulable",
                "effect": "NoSchedule", "timeAdded": iso(self.now())})
        else:
            ns.pop("unschedulable", None)
            if name not in self.uncordoned:
                self.uncordoned.add(name)
                self.restore_from(self.now())
        if taints:
            ns["taints"] = taints
        else:
            ns.pop("taints", None)
        self.touch(node)
        return 200, node

    def pdb_for(self, pod):
        labels = pod["metadata"].get("labels") or {}
        for p in self.pdbs:
            if p["namespace"] != pod["metadata"].get("namespace"):
                continue
            if all(labels.get(k) == v for k, v in p["matchLabels"].items()):
                return p
        return None

    def healthy(self, p):
        n = 0
        for o in self.pods():
            if o["metadata"].get("namespace") != p["namespace"]:
                continue
            lab = o["metadata"].get("labels") or {}
            if not all(lab.get(k) == v for k, v in p["matchLabels"].items()):
                continue
            if pod_ready(o) and "deletionTimestamp" not in o["metadata"]:
                n += 1
        return n

    def evict(self, ns, name, doc):
        if not self.allowed("create", "pods", "eviction", ns):
            return 403, status_body(403, "Forbidden", 'pods "%s" is '
                                    'forbidden: User "gpusite-drill" cannot '
                                    'create resource "pods/eviction" in API '
                                    'group "" in the namespace "%s"' %
                                    (name, ns))
        if doc.get("kind") != "Eviction" or doc.get("apiVersion") != \
                "policy/v1" or doc.get("metadata", {}).get("name") != name:
            return 400, status_body(400, "BadRequest", "not a policy/v1 "
                                    "Eviction of pod %s" % name)
        pod = self.get("Pod", ns, name)
        if pod is None:
            return 404, status_body(404, "NotFound",
                                    'pods "%s" not found' % name,
                                    {"name": name, "kind": "pods"})
        if "deletionTimestamp" in pod["metadata"]:
            return 201, self.evicted_status()
        p = self.pdb_for(pod)
        if p is not None:
            healthy = self.healthy(p)
            if healthy - p["minAvailable"] <= 0:
                return 429, status_body(
                    429, "TooManyRequests", "Cannot evict pod as it would "
                    "violate the pod's disruption budget.",
                    {"causes": [{"reason": "DisruptionBudget",
                                 "message": "The disruption budget %s needs "
                                 "%d healthy pods and has %d currently" % (
                                     p["name"], p["minAvailable"],
                                     healthy)}]})
        if self.anchor is None:
            self.anchor = time.time()
        t = int(self.now())
        sc = self.script
        md = pod["metadata"]
        md["deletionTimestamp"] = iso(t + sc.get("deleted", 30))
        md["deletionGracePeriodSeconds"] = sc.get("deleted", 30)
        self.touch(pod)
        def gone(tt, o=pod):
            # the kubelet's Killing event outlives the pod; here it dates
            # the end of the grace period, as deletionTimestamp does
            self.event(o, "Killing", "Normal", tt, "Stopping container main")
            self.remove(o)
        self.at(t + sc.get("deleted", 30), gone)
        owner = (md.get("ownerReferences") or [{}])[0]
        if owner.get("kind") == "ReplicaSet":
            self.replace(pod, t)
        return 201, self.evicted_status()

    def evicted_status(self):
        return {"kind": "Status", "apiVersion": "v1", "metadata": {},
                "status": "Success", "code": 201}

    # -- the scripted recovery
    def replace(self, old, t):
        sc = self.script
        omd = old["metadata"]
        name = "%s-%s" % (omd["ownerReferences"][0]["name"],
                          uid_for(omd["name"] + "r")[:5])
        pod = copy.deepcopy(old)
        md = pod["metadata"]
        for k in ("deletionTimestamp", "deletionGracePeriodSeconds", "uid",
                  "resourceVersion"):
            md.pop(k, None)
        md["name"] = name
        pod["spec"].pop("nodeName", None)
        fbnode = self.fb.get("node", "i-0f00000000000fa11")
        gpus = self.fb.get("gpus", 4)

        def pending(tt):
            md["creationTimestamp"] = iso(tt)
            pod["status"] = {"phase": "Pending", "conditions": [
                {"type": "PodScheduled", "status": "False",
                 "reason": "Unschedulable", "lastTransitionTime": iso(tt),
                 "message": "0/7 nodes are available: 1 node(s) were "
                 "unschedulable, 6 node(s) didn't match Pod's node affinity"
                 "/selector."}], "qosClass": "Burstable"}
            self.add(pod)
        self.at(t + sc.get("pending", 0), pending)
        if not self.claimed:
            self.claimed = True
            self.fallback_node(t)
        if not gpus:
            def stuck(tt):
                self.event(pod, "FailedScheduling", "Warning", tt,
                           "0/8 nodes are available: 1 Insufficient "
                           "nvidia.com/gpu.")
            self.at(t + sc.get("nodeReady", 170) + 1, stuck)
            return

        def cond(typ, tt):
            cs = pod["status"].setdefault("conditions", [])
            cs[:] = [c for c in cs if c["type"] != typ]
            cs.append({"type": typ, "status": "True",
                       "lastTransitionTime": iso(tt)})
            self.touch(pod)

        def scheduled(tt):
            pod["spec"]["nodeName"] = fbnode
            cond("PodScheduled", tt)
            self.event(pod, "Scheduled", "Normal", tt, "Successfully "
                       "assigned %s/%s to %s" % (md["namespace"], name,
                                                 fbnode))

        def pulling(tt):
            cond("Initialized", tt)
            img = pod["spec"]["containers"][0]["image"]
            self.event(pod, "Pulling", "Normal", tt,
                       'Pulling image "%s"' % img)

        def pulled(tt):
            img = pod["spec"]["containers"][0]["image"]
            self.event(pod, "Pulled", "Normal", tt, 'Successfully pulled '
                       'image "%s"' % img)

        def started(tt):
            pod["status"]["phase"] = "Running"
            pod["status"]["startTime"] = iso(tt)
            pod["status"]["containerStatuses"] = [{
                "name": c["name"], "ready": False, "restartCount": 0,
                "image": c["image"], "started": True,
                "state": {"running": {"startedAt": iso(tt)}}}
                for c in pod["spec"]["containers"]]
            self.touch(pod)
            self.event(pod, "Started", "Normal", tt,
                       "Started container main")

        def ready(tt):
            for c in pod["status"]["containerStatuses"]:
                c["ready"] = True
            cond("ContainersReady", tt)
            cond("Ready", tt)
        for key, fn in (("scheduled", scheduled), ("pulling", pulling),
                        ("pulled", pulled), ("started", started),
                        ("ready", ready)):
            self.at(t + sc.get(key, 0), fn)

    def event(self, pod, reason, typ, tt, msg):
        md = pod["metadata"]
        self.add({"apiVersion": "v1", "kind": "Event",
                  "metadata": {"name": "%s.%x" % (md["name"], self.seq),
                               "namespace": md["namespace"],
                               "creationTimestamp": iso(tt)},
                  "involvedObject": {"kind": "Pod", "apiVersion": "v1",
                                     "namespace": md["namespace"],
                                     "name": md["name"],
                                     "uid": md.get("uid", "")},
                  "reason": reason, "message": msg, "type": typ,
                  "source": {"component": "kubelet",
                             "host": pod.get("spec", {}).get("nodeName", "")},
                  "firstTimestamp": iso(tt), "lastTimestamp": iso(tt),
                  "count": 1})

    def fallback_node(self, t):
        sc = self.script
        pool = self.fb.get("nodePool", "gpu-fallback")
        name = self.fb.get("node", "i-0f00000000000fa11")
        gpus = self.fb.get("gpus", 4)
        claim = {"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
                 "metadata": {"name": pool + "-x7k2p",
                              "labels": {"karpenter.sh/nodepool": pool}},
                 "spec": {"nodeClassRef": {"group": "karpenter.k8s.aws",
                                           "kind": "EC2NodeClass",
                                           "name": pool}},
                 "status": {"conditions": []}}

        def ccond(typ, tt):
            cs = claim["status"]["conditions"]
            cs.append({"type": typ, "status": "True", "reason": typ,
                       "message": "", "lastTransitionTime": iso(tt)})
            self.touch(claim)

        def created(tt):
            claim["metadata"]["creationTimestamp"] = iso(tt)
            self.add(claim)
        labels = {"karpenter.sh/nodepool": pool,
                  "karpenter.sh/capacity-type": "on-demand",
                  "node.kubernetes.io/instance-type":
                  self.fb.get("instanceType", "g6.12xlarge")}
        labels.update(self.fb.get("labels", {}))
        node = node_object(name, labels,
                           [{"key": "karpenter.sh/unregistered",
                             "effect": "NoExecute"}], gpus, ready=False,
                           provider_id="aws:///us-west-2a/" + name)

        def registered(tt):
            ccond("Registered", tt)
            claim["status"]["nodeName"] = name
            node["metadata"]["creationTimestamp"] = iso(tt)
            for c in node["status"]["conditions"]:
                c["lastTransitionTime"] = iso(tt)
                c["lastHeartbeatTime"] = iso(tt)
                if c["type"] == "Ready":
                    c.update({"status": "False",
                              "reason": "KubeletNotReady",
                              "message": "container runtime network not "
                              "ready"})
            self.add(node)

        def node_ready(tt):
            node["spec"].pop("taints", None)
            for c in node["status"]["conditions"]:
                if c["type"] == "Ready":
                    c.update({"status": "True", "reason": "KubeletReady",
                              "message": "kubelet is posting ready status",
                              "lastTransitionTime": iso(tt),
                              "lastHeartbeatTime": iso(tt)})
            self.touch(node)
        self.at(t + sc.get("launched", 45) - 1, created)
        self.at(t + sc.get("launched", 45), lambda tt: ccond("Launched", tt))
        self.at(t + sc.get("registered", 140), registered)
        self.at(t + sc.get("initialized", 170),
                lambda tt: ccond("Initialized", tt))
        self.at(t + sc.get("nodeReady", 170), node_ready)
        self.claim = claim
        self.node = node

    def restore_from(self, t):
        """After an uncordon: the pods go back on-prem, the fallback node
        and its NodeClaim go once empty (consolidateAfter)."""
        if not self.claimed:
            return
        back = self.ret.get("podsBack", 30)
        gone = self.ret.get("nodeGone", 90)
        fbnode = self.fb.get("node", "i-0f00000000000fa11")
        target = sorted(self.uncordoned)[0]

        def move(tt):
            for o in self.pods():
                if o.get("spec", {}).get("nodeName") == fbnode:
                    o["spec"]["nodeName"] = target
                    self.touch(o)

        def drop(tt):
            self.remove(self.claim)
            self.remove(self.node)
        self.at(int(t) + back, move)
        self.at(int(t) + gone, drop)


# ---------------------------------------------------------------- server

def table_for(items, kind):
    cols = [{"name": "Name", "type": "string", "format": "name",
             "description": "Name must be unique within a namespace.",
             "priority": 0},
            {"name": "Age", "type": "string", "format": "",
             "description": "CreationTimestamp", "priority": 0}]
    rows = []
    for o in items:
        md = o["metadata"]
        rows.append({"cells": [md.get("name", ""), "<unknown>"],
                     "object": {"kind": "PartialObjectMetadata",
                                "apiVersion": "meta.k8s.io/v1",
                                "metadata": md}})
    return {"kind": "Table", "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": "1"},
            "columnDefinitions": cols, "rows": rows}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-apiserver/1"

    def log_message(self, fmt, *args):
        pass

    def log_request_line(self, code, auth, body=None):
        log = self.server.opts.get("log")
        if not log:
            return
        with self.server.log_lock, open(log, "a") as f:
            if body is None:
                f.write("%s %s %d %s\n" % (self.command, self.path, code,
                                           auth))
            else:
                f.write("%s %s %d %s %s %s\n" % (
                    self.command, self.path, code, auth,
                    self.headers.get("Content-Type", "-"),
                    body.decode("utf-8", "replace").replace("\n", " ")))

    def send_json(self, code, body, headers=None, auth="-", body_in=None):
        data = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Audit-Id", uid_for(self.path + str(time.time())))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.log_request_line(code, auth, body_in)

    def authenticate(self):
        tokens = self.server.opts["tokens"]
        h = self.headers.get("Authorization", "")
        if h.startswith("Bearer "):
            if h[7:] in tokens:
                return "bearer"
            return None
        try:
            cert = self.connection.getpeercert()
        except (AttributeError, ValueError):
            cert = None
        if cert:
            return "cert"
        return None

    def do_POST(self):
        sim = self.server.sim
        if sim is None or self.command not in ("POST", "PATCH"):
            self.refuse_write()
            return
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        auth = self.authenticate()
        if auth is None:
            self.send_json(401, status_body(401, "Unauthorized",
                                            "Unauthorized"), auth="none")
            return
        path = urllib.parse.urlsplit(self.path).path.rstrip("/")
        ctype = self.headers.get("Content-Type", "")
        with self.server.sim_lock:
            sim.tick()
            code, answer = sim.write(self.command, path, ctype, body)
        self.send_json(code, answer, auth=auth, body_in=body)

    do_PUT = do_PATCH = do_DELETE = do_POST

    def refuse_write(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        self.server.writes += 1
        self.send_json(405, status_body(405, "MethodNotAllowed",
                                        "the fake API server is read-only"),
                       auth="write")

    def do_GET(self):
        st = self.server.store
        faults = self.server.faults
        url = urllib.parse.urlsplit(self.path)
        path = url.path.rstrip("/") or "/"
        q = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))

        hlog = self.server.opts.get("header_log")
        if hlog:
            with self.server.log_lock, open(hlog, "a") as hf:
                for k, v in self.headers.raw_items():
                    hf.write("%s: %s\n" % (k, v))
                hf.write("--\n")
        f = faults.take("slow", path)
        if f:
            time.sleep(float(f["arg"] or 5))
        f = faults.take("redirect", path)
        if f:
            self.send_response(302)
            self.send_header("Location", f["arg"] + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.log_request_line(302, "-")
            return
        if faults.take("unauthorized", path):
            self.send_json(401, status_body(401, "Unauthorized",
                                            "Unauthorized"), auth="loop")
            return
        if faults.take("drop", path):
            self.log_request_line(0, "dropped")
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass
            return
        auth = self.authenticate()
        if auth is None:
            self.send_json(401, status_body(401, "Unauthorized",
                                            "Unauthorized"), auth="none")
            return
        if faults.take("unauthorized-once", path):
            self.send_json(401, status_body(401, "Unauthorized",
                                            "Unauthorized"), auth=auth)
            return
        f = faults.take("throttle", path)
        if f:
            secs = (f["arg"].split(":") + ["1"])[1]
            self.send_json(429, status_body(
                429, "TooManyRequests",
                "Too many requests, please try again later.",
                {"retryAfterSeconds": int(secs)}),
                headers={"Retry-After": secs}, auth=auth)
            return
        f = faults.take("unavailable", path)
        if f:
            secs = (f["arg"].split(":") + ["1"])[1]
            self.send_json(503, status_body(
                503, "ServiceUnavailable", "the server is currently unable "
                "to handle the request"), headers={"Retry-After": secs},
                auth=auth)
            return
        if faults.take("error", path):
            self.send_json(500, status_body(
                500, "InternalError", "Internal error occurred: etcdserver: "
                "request timed out"), auth=auth)
            return
        f = faults.take("status-long", path)
        if f:
            self.send_json(400, status_body(
                400, "BadRequest", "x" * int(f["arg"] or 1000000)), auth=auth)
            return
        f = faults.take("trickle", path)
        if f:
            self.trickle(float(f["arg"] or 1), auth)
            return
        if faults.take("gzip-bomb", path):
            self.gzip_bomb(auth)
            return

        if self.server.sim is not None:
            with self.server.sim_lock:
                self.server.sim.tick()
        if path == "/version":
            major, minor = st.server_version.split(".")[:2]
            self.send_json(200, {
                "major": major, "minor": minor,
                "gitVersion": "v%s.%s.1-eks-fake" % (major, minor),
                "gitCommit": "0" * 40, "gitTreeState": "clean",
                "buildDate": CREATED, "goVersion": "go1.24.4",
                "compiler": "gc", "platform": "linux/amd64"}, auth=auth)
            return
        if path.startswith("/openapi/v3") and st.openapi is not None:
            key = path[len("/openapi/v3"):].strip("/")
            foreign = self.server.faults.take("openapi-foreign", path)
            if not key and foreign:
                self.send_json(200, {"paths": {
                    k: {"serverRelativeURL": foreign["arg"]}
                    for k in sorted(st.openapi)}}, auth=auth)
                return
            if not key:
                self.send_json(200, {"paths": {
                    k: {"serverRelativeURL": "/openapi/v3/%s?hash=%s" % (
                        k, hashlib.sha256(json.dumps(v, sort_keys=True)
                                          .encode()).hexdigest()[:16].upper())}
                    for k, v in sorted(st.openapi.items())}}, auth=auth)
                return
            if key in st.openapi:
                self.send_json(200, st.openapi[key], auth=auth)
                return
            self.send_json(404, status_body(404, "NotFound", "the server could "
                                            "not find the requested resource"),
                           auth=auth)
            return
        if path == "/api":
            self.send_json(200, {"kind": "APIVersions", "versions": ["v1"],
                                 "serverAddressByClientCIDRs": [{
                                     "clientCIDR": "0.0.0.0/0",
                                     "serverAddress": "127.0.0.1:443"}]},
                           auth=auth)
            return
        if path == "/apis":
            self.send_json(200, self.group_list(), auth=auth)
            return
        parts = path.strip("/").split("/")
        if parts[0] == "api" and len(parts) == 2:
            self.discovery("", parts[1], auth)
            return
        if parts[0] == "apis" and len(parts) == 3:
            self.discovery(parts[1], parts[2], auth)
            return
        if parts[0] == "apis" and len(parts) == 2:
            groups = [g for g in self.group_list()["groups"]
                      if g["name"] == parts[1]]
            if groups:
                g = dict(groups[0])
                g.update({"kind": "APIGroup", "apiVersion": "v1"})
                self.send_json(200, g, auth=auth)
                return
        self.resource_request(parts, q, path, auth)

    def group_list(self):
        groups = {}
        for g, v, _, _, _, _ in self.server.store.served():
            if g == "":
                continue
            groups.setdefault(g, [])
            if v not in groups[g]:
                groups[g].append(v)
        out = []
        for g in sorted(groups):
            vs = [{"groupVersion": g + "/" + v, "version": v}
                  for v in groups[g]]
            out.append({"name": g, "versions": vs,
                        "preferredVersion": vs[0]})
        return {"kind": "APIGroupList", "apiVersion": "v1", "groups": out}

    def discovery(self, group, version, auth):
        f = self.server.faults.take("wrong-shape", "/api/" + version if
                                    group == "" else
                                    "/apis/%s/%s" % (group, version))
        if f and f["arg"] == "resources-map":
            self.send_json(200, {"kind": "APIResourceList",
                                 "groupVersion": group_version(group, version),
                                 "resources": {"a": 1}}, auth=auth)
            return
        res = []
        for g, v, plural, kind, namespaced, short in self.server.store.served():
            if g != group or v != version:
                continue
            ent = {"name": plural, "singularName": kind.lower(),
                   "namespaced": namespaced, "kind": kind,
                   "verbs": ["create", "delete", "deletecollection", "get",
                             "list", "patch", "update", "watch"],
                   "storageVersionHash": uid_for(plural)[:12]}
            if short:
                ent["shortNames"] = short
            if plural == "nodes":
                ent["categories"] = []
            if plural in ("pods", "daemonsets", "deployments"):
                ent["categories"] = ["all"]
            res.append(ent)
            if plural == "pods" and self.server.sim is not None:
                res.append({"name": "pods/eviction", "singularName": "",
                            "namespaced": True, "group": "policy",
                            "version": "v1", "kind": "Eviction",
                            "verbs": ["create"]})
        if not res:
            self.send_json(404, status_body(
                404, "NotFound", "the server could not find the requested "
                "resource"), auth=auth)
            return
        self.send_json(200, {"kind": "APIResourceList", "apiVersion": "v1",
                             "groupVersion": group_version(group, version),
                             "resources": res}, auth=auth)

    def resource_request(self, parts, q, path, auth):
        # /api/v1[/namespaces/NS]/PLURAL[/NAME]
        # /apis/G/V[/namespaces/NS]/PLURAL[/NAME]
        if parts[0] == "api":
            group, version, rest = "", parts[1] if len(parts) > 1 else "", \
                parts[2:]
        elif parts[0] == "apis" and len(parts) > 2:
            group, version, rest = parts[1], parts[2], parts[3:]
        else:
            return self.not_found(path, auth)
        ns = None
        if len(rest) >= 3 and rest[0] == "namespaces":
            ns = rest[1]
            rest = rest[2:]
        elif len(rest) == 2 and rest[0] == "namespaces":
            rest = ["namespaces", rest[1]]
        if not rest or len(rest) > 2:
            return self.not_found(path, auth)
        plural = rest[0]
        name = rest[1] if len(rest) == 2 else None
        res = None
        for r in self.server.store.served():
            if r[0] == group and r[1] == version and r[2] == plural:
                res = r
        if res is None or (ns is not None and not res[4]):
            return self.not_found(path, auth)
        verb = "get" if name else "list"
        if self.server.faults.take("forbidden", path):
            scope = ("in the namespace \"%s\"" % ns if ns
                     else "at the cluster scope")
            msg = ('%s is forbidden: User "system:serviceaccount:ci:gpusite-'
                   'reader" cannot %s resource "%s" in API group "%s" %s' %
                   (plural + ((' "%s"' % name) if name else ""), verb, plural,
                    group, scope))
            self.send_json(403, status_body(
                403, "Forbidden", msg,
                {"name": name or "", "group": group, "kind": plural}),
                auth=auth)
            return
        if self.server.sim is not None:
            with self.server.sim_lock:
                items = copy.deepcopy(self.server.store.items(
                    (res[0], res[1], res[2])))
        else:
            items = self.server.store.items((res[0], res[1], res[2]))
        f = self.server.faults.take("wrong-shape", path) if name else None
        if f and f["arg"] == "object-array":
            self.send_json(200, [{"kind": res[3]}], auth=auth)
            return
        if f and f["arg"] == "object-metadata-string":
            self.send_json(200, {"kind": res[3], "metadata": "x"}, auth=auth)
            return
        if name:
            for o in items:
                md = o["metadata"]
                if md.get("name") == name and (ns is None or
                                               md.get("namespace") == ns):
                    self.send_json(200, self.as_version(o, res), auth=auth)
                    return
            self.send_json(404, status_body(
                404, "NotFound", '%s%s "%s" not found' % (
                    plural, "." + group if group else "", name),
                {"name": name, "group": group, "kind": plural}), auth=auth)
            return
        self.list(res, ns, q, path, auth, items)

    def as_version(self, o, res):
        want = group_version(res[0], res[1])
        if o.get("apiVersion") != want:
            o = dict(o)
            o["apiVersion"] = want
        return o

    def not_found(self, path, auth):
        self.send_json(404, status_body(
            404, "NotFound", "the server could not find the requested "
            "resource"), auth=auth)

    def list(self, res, ns, q, path, auth, items):
        lreqs = parse_label_selector(q.get("labelSelector", ""))
        freqs, bad = parse_field_selector(q.get("fieldSelector", ""))
        if freqs is None:
            self.send_json(400, status_body(
                400, "BadRequest", 'field label not supported: %s' % bad),
                auth=auth)
            return
        if self.hostile_list(res, path, q, auth, items):
            return
        start = 0
        cont = q.get("continue", "")
        if cont:
            if self.server.faults.take("expire-continue", path, cont=True):
                self.send_json(410, status_body(
                    410, "Expired", "The provided continue parameter is too "
                    "old to display a consistent list result. You can start "
                    "a new list without the continue parameter, or use the "
                    "continue token in this response to retrieve the "
                    "remainder of the results. Continuing with the provided "
                    "token results in an inconsistent list - objects that "
                    "were created, modified, or deleted between the time the "
                    "first chunk was returned and now may show up in the "
                    "list.", extra_meta={"continue": cont}), auth=auth)
                return
            try:
                start = json.loads(base64.urlsafe_b64decode(
                    cont.encode()))["start"]
            except (ValueError, KeyError):
                self.send_json(400, status_body(
                    400, "BadRequest", "continue key is not valid: "
                    "incorrect encoded start resourceVersion (version "
                    "meta.k8s.io/v1)"), auth=auth)
                return
        limit = int(q.get("limit") or 0)
        out = []
        i = start
        n = len(items)
        while i < n:
            o = items[i]
            i += 1
            md = o["metadata"]
            if ns is not None and md.get("namespace") != ns:
                continue
            if lreqs and not labels_match(md.get("labels") or {}, lreqs):
                continue
            if freqs and not fields_match(o, freqs):
                continue
            out.append(o)
            if limit and len(out) >= limit:
                break
        meta = {"resourceVersion": str(self.server.store.rv)}
        if limit and i < n and len(out) >= limit:
            meta["continue"] = base64.urlsafe_b64encode(json.dumps(
                {"rv": self.server.store.rv, "start": i}).encode()).decode()
            rest = sum(1 for o in items[i:] if
                       (ns is None or o["metadata"].get("namespace") == ns))
            if not lreqs and not freqs:
                meta["remainingItemCount"] = rest
        if self.server.faults.take("endless", path):
            self.endless(res, auth)
            return
        accept = self.headers.get("Accept", "")
        if "as=Table" in accept:
            body = table_for(out, res[3])
            body["metadata"].update(meta)
            self.send_json(200, body, auth=auth)
            return
        body = {"kind": res[3] + "List",
                "apiVersion": group_version(res[0], res[1]),
                "metadata": meta,
                "items": [self.as_version(o, res) for o in out]}
        self.send_json(200, body, auth=auth)

    def send_raw(self, code, data, auth):
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.log_request_line(code, auth)

    def hostile_list(self, res, path, q, auth, items):
        """The LIST answers of a malicious server; True when sent."""
        faults = self.server.faults
        kind = res[3] + "List"
        f = faults.take("continue-endless", path)
        if f:
            n = int(f["arg"] or 20000)
            key = (kind, n)
            cache = self.server.page_cache
            with self.server.log_lock:
                if key not in cache:
                    objs = [node_object("endless-%06d" % i, {}, [], 0)
                            for i in range(n)]
                    body = json.dumps(objs, separators=(",", ":")).encode()
                    cache[key] = body[1:-1]
                    self.server.pages = 0
                self.server.pages += 1
                page = self.server.pages
            data = (b'{"kind":"%s","apiVersion":"v1","metadata":{"continue":'
                    b'"endless-%d"},"items":[' % (kind.encode(), page) +
                    cache[key] + b"]}")
            self.send_raw(200, data, auth)
            return True
        if faults.take("continue-repeat", path):
            self.send_json(200, {"kind": kind, "apiVersion": "v1",
                                 "metadata": {"continue": "again"},
                                 "items": [self.as_version(o, res)
                                           for o in items[:1]]}, auth=auth)
            return True
        f = faults.take("continue-long", path)
        if f:
            n = int(f["arg"] or 2000000)
            data = (b'{"kind":"%s","apiVersion":"v1","metadata":{"continue":"'
                    % kind.encode() + b"A" * n + b'"},"items":[]}')
            self.send_raw(200, data, auth)
            return True
        f = faults.take("wrong-shape", path)
        if f:
            one = self.as_version(items[0], res) if items else {
                "kind": res[3], "metadata": {"name": "x"}}
            shapes = {
                "items-map": {"kind": kind, "items": {"a": 1}},
                "items-missing": {"kind": kind, "apiVersion": "v1",
                                  "metadata": {}},
                "items-string": {"kind": kind, "metadata": {}, "items": "[]"},
                "item-string": {"kind": kind, "metadata": {},
                                "items": [one, "x"]},
                "metadata-string": {"kind": kind, "metadata": "x",
                                    "items": [one]},
                "continue-number": {"kind": kind,
                                    "metadata": {"continue": 7},
                                    "items": [one]},
                "root-array": [one],
                "kind-other": {"kind": res[3], "metadata": {},
                               "items": [one]},
            }
            if f["arg"] in shapes:
                self.send_json(200, shapes[f["arg"]], auth=auth)
                return True
        return False

    def trickle(self, secs, auth):
        """Slow loris: a valid answer, one byte at a time."""
        data = json.dumps(status_body(503, "ServiceUnavailable", "slow")).encode()
        self.log_request_line(200, auth)
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self.wfile.flush()
            for b in (b"Content-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n" % len(data) + data):
                time.sleep(secs)
                self.wfile.write(bytes([b]))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            pass
        self.close_connection = True

    def gzip_bomb(self, auth):
        """256 MiB of JSON once inflated, 250 KB on the wire."""
        cache = self.server.page_cache
        with self.server.log_lock:
            if "bomb" not in cache:
                z = zlib.compressobj(9, zlib.DEFLATED, 31)    # gzip
                chunk = b" " * (1 << 20)
                parts = [z.compress(b'{"kind":"NodeList","items":[')]
                for _ in range(256):
                    parts.append(z.compress(chunk))
                parts.append(z.compress(b"]}") + z.flush())
                cache["bomb"] = b"".join(parts)
        data = cache["bomb"]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.log_request_line(200, auth)
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            pass

    def endless(self, res, auth):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        self.log_request_line(200, auth)
        self.close_connection = True
        item = json.dumps({"kind": res[3], "metadata": {
            "name": "x" * 200, "labels": {"a": "b" * 1000}}}).encode()
        try:
            self.wfile.write(b'{"kind":"%sList","apiVersion":"v1",'
                             b'"metadata":{},"items":[' % res[3].encode())
            deadline = time.time() + 120
            while time.time() < deadline:
                self.wfile.write(item + b",")
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def make_certs(d):
    os.makedirs(d, exist_ok=True)

    def run(*args):
        subprocess.run(["openssl"] + list(args), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    for ca in ("ca", "wrong-ca"):
        run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "2",
            "-subj", "/CN=gpusite-test-%s" % ca, "-keyout",
            os.path.join(d, ca + ".key"), "-out", os.path.join(d, ca + ".crt"),
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    ext = os.path.join(d, "server.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                "extendedKeyUsage=serverAuth\n"
                "basicConstraints=CA:FALSE\n")
    cext = os.path.join(d, "client.ext")
    with open(cext, "w") as f:
        f.write("extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n")
    for who, subj, extfile in (("server", "/CN=kube-apiserver", ext),
                               ("client", "/O=system:masters/CN=gpusite-test",
                                cext)):
        run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-subj", subj,
            "-keyout", os.path.join(d, who + ".key"),
            "-out", os.path.join(d, who + ".csr"))
        run("x509", "-req", "-in", os.path.join(d, who + ".csr"),
            "-CA", os.path.join(d, "ca.crt"), "-CAkey",
            os.path.join(d, "ca.key"), "-CAcreateserial", "-days", "2",
            "-extfile", extfile, "-out", os.path.join(d, who + ".crt"))


CRD_RESOURCE = ("apiextensions.k8s.io", "v1", "customresourcedefinitions",
                "CustomResourceDefinition", False, ["crd", "crds"])


def openapi_key(name, doc):
    m = re.match(r"^(api|apis)__(.+)_openapi\.json$", name)
    if m:
        return m.group(1) + "/" + m.group(2).replace("__", "/")
    counts = {}
    for comp in (doc.get("components", {}).get("schemas", {}) or {}).values():
        for gvk in comp.get("x-kubernetes-group-version-kind", []) or []:
            gv = (gvk.get("group", ""), gvk.get("version", ""))
            counts[gv] = counts.get(gv, 0) + 1
    if not counts:
        return None
    g, v = max(sorted(counts), key=lambda k: counts[k])
    return "apis/%s/%s" % (g, v) if g else "api/" + v


def load_schemas(store, d):
    """CRDs into the store, OpenAPI v3 documents by key (see --schemas)."""
    crds, openapi = {}, {}
    for top, dirs, files in os.walk(d):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(top, name)
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if text.lstrip().startswith("{"):
                    docs = [json.loads(text)]
                else:
                    import yaml
                    docs = [x for x in yaml.safe_load_all(text) if x]
            except Exception:
                continue  # not YAML or JSON: no schema
            for doc in docs:
                if not isinstance(doc, dict):
                    continue
                items = doc.get("items", []) if doc.get("kind", "").endswith("List") else [doc]
                for it in items:
                    if it.get("kind") == "CustomResourceDefinition":
                        crds.setdefault(it["metadata"]["name"], it)
                if str(doc.get("openapi", "")).startswith("3"):
                    key = openapi_key(name, doc)
                    if key:
                        openapi.setdefault(key, doc)
    store.resources.append(CRD_RESOURCE)
    rk = CRD_RESOURCE[:3]
    items = []
    for name in sorted(crds):
        obj = copy.deepcopy(crds[name])
        md = obj.setdefault("metadata", {})
        store.rv += 1
        md.setdefault("uid", uid_for("crd/" + name))
        md.setdefault("resourceVersion", str(store.rv))
        md.setdefault("creationTimestamp", CREATED)
        items.append(obj)
    store.lists[rk] = items
    store.openapi = openapi


def serve(opts):
    store = load_scenario(opts["scenario"], opts.get("applied"))
    store.openapi = None
    if opts.get("schemas"):
        load_schemas(store, opts["schemas"])
    srv = Server(("127.0.0.1", int(opts.get("port") or 0)), Handler)
    srv.store = store
    srv.faults = Faults(opts["faults"])
    srv.opts = opts
    srv.log_lock = threading.Lock()
    srv.writes = 0
    srv.page_cache = {}
    srv.pages = 0
    srv.sim_lock = threading.Lock()
    srv.sim = Sim(store) if store.drill is not None else None
    tls = opts["tls"]
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(tls, "server.crt"),
                        os.path.join(tls, "server.key"))
    ctx.verify_mode = ssl.CERT_OPTIONAL
    ctx.load_verify_locations(os.path.join(tls, "ca.crt"))
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    port = srv.server_address[1]
    if opts.get("port_file"):
        tmp = opts["port_file"] + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, opts["port_file"])
    else:
        print(port, flush=True)
    parent = opts.get("parent")
    if parent:
        # never outlive the test that started us
        def watch():
            while True:
                time.sleep(0.5)
                try:
                    os.kill(parent, 0)
                except OSError:
                    os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    try:
        srv.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd = argv[1]
    if cmd == "certs":
        make_certs(argv[2])
        return 0
    opts = {"faults": [], "tokens": set()}
    i = 2
    while i < len(argv):
        a = argv[i]
        val = argv[i + 1] if i + 1 < len(argv) else None
        if val is None:
            sys.stderr.write("fake-apiserver: %s needs a value\n" % a)
            return 2
        if a == "--scenario":
            opts["scenario"] = val
        elif a == "--tls":
            opts["tls"] = val
        elif a == "--port":
            opts["port"] = val
        elif a == "--port-file":
            opts["port_file"] = val
        elif a == "--token":
            opts["tokens"].add(val)
        elif a == "--applied":
            opts["applied"] = val
        elif a == "--fault":
            opts["faults"].append(val)
        elif a == "--log":
            opts["log"] = val
        elif a == "--header-log":
            opts["header_log"] = val
        elif a == "--parent":
            opts["parent"] = int(val)
        elif a == "--schemas":
            opts["schemas"] = val
        else:
            sys.stderr.write("fake-apiserver: unknown option %s\n" % a)
            return 2
        i += 2
    if "scenario" not in opts:
        sys.stderr.write("fake-apiserver: --scenario is required\n")
        return 2
    if cmd == "dump":
        st = load_scenario(opts["scenario"], opts.get("applied"))
        items = [o for rk in sorted(st.lists) for o in st.lists[rk]]
        json.dump({"kind": "List", "apiVersion": "v1", "items": items},
                  sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    if cmd == "serve":
        serve(opts)
        return 0
    sys.stderr.write("fake-apiserver: unknown command %s\n" % cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
