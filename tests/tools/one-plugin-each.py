#!/usr/bin/env python3
"""one-plugin-each.py - the device plugin invariant on a verify-scope report.

  one-plugin-each.py REPORT_JSON [NODE=DAEMONSET ...]

REPORT_JSON is `gpusite verify-scope --format json`.  Exactly one device
plugin on every GPU node (the DaemonSets of the manifests plus the plugin
Bottlerocket and Auto Mode bring on the reference nodes that have one),
none on a CPU node, none on the node of a NodePool without nodeImage; each
NODE=DAEMONSET says which plugin that node runs.  Exit 0, or an assertion.
"""
import json
import sys

PLUGINS = ("nvidia-device-plugin", "nvidia-device-plugin-fallback",
           "nvidia-device-plugin-daemonset")
OWN = {"i-0c8f3a2b1d4e5f607",                           # Auto Mode
       "ip-10-0-42-17.us-west-2.compute.internal",      # Bottlerocket node group
       "ip-10-0-82-31.us-west-2.compute.internal"}      # Bottlerocket fallback
NO_IMAGE = "ip-10-0-77-204.us-west-2.compute.internal"  # a NodePool without nodeImage

r = json.load(open(sys.argv[1]))
count = {n["name"]: (1 if n["name"] in OWN else 0) for n in r["nodes"]}
on = {}
for d in r["daemonsets"]:
    if d["name"] not in PLUGINS:
        continue
    for p in d["placement"]:
        if p["runs"]:
            count[p["node"]] += 1
            on.setdefault(p["node"], []).append(d["name"])
classes = {n["name"]: n["class"] for n in r["nodes"]}
for name, c in sorted(count.items()):
    if name == NO_IMAGE or classes[name] == "cloud":
        assert c == 0, (name, on.get(name))
    else:
        assert c == 1, (name, classes[name], c, on.get(name))
for want in sys.argv[2:]:
    node, _, ds = want.partition("=")
    assert on.get(node) == [ds], (node, on.get(node))
print("one plugin on each of", sorted(n for n, c in count.items() if c == 1))
