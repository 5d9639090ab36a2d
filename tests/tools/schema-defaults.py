#!/usr/bin/env python3
"""defaults.py SCHEMA BASE OUTDIR: for every property of the GPUSite schema
that states a default, write two specs into OUTDIR/<n>/{absent,given}/sites:
BASE with every parent of the property present and the property left out,
and the same with the property set to its default.  Prints one line per
pair: n, the property's path and its default (JSON)."""
import copy, json, os, sys

schema = json.load(open(sys.argv[1]))
base = json.load(open(sys.argv[2]))
out = sys.argv[3]
defs = schema.get("definitions", {})

found = []

def walk(node, path, seen):
    if "default" in node:
        found.append((path, node["default"]))
    ref = node.get("$ref")
    if ref:
        name = ref.split("/")[-1]
        if name not in seen:
            walk(defs[name], path, seen | {name})
    for key, sub in node.get("properties", {}).items():
        walk(sub, path + [key], seen)
    items = node.get("items")
    if isinstance(items, dict):
        walk(items, path + [0], seen)
    for kw in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(kw, []):
            walk(sub, path, seen)

walk(schema, [], set())

def parent_of(doc, path):
    """The container of the last element of path, created as needed."""
    cur = doc
    for i, step in enumerate(path[:-1]):
        nxt = path[i + 1]
        if isinstance(step, int):
            cur = cur[step]
            continue
        if step not in cur or cur[step] is None:
            cur[step] = [{}] if isinstance(nxt, int) else {}
        cur = cur[step]
    return cur

for n, (path, default) in enumerate(found):
    absent = copy.deepcopy(base)
    par = parent_of(absent, path)
    par.pop(path[-1], None)
    given = copy.deepcopy(absent)
    parent_of(given, path)[path[-1]] = default
    for name, doc in (("absent", absent), ("given", given)):
        d = os.path.join(out, str(n), name, "sites")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "site.yaml"), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
    print(n, ".".join(str(p) for p in path), json.dumps(default, sort_keys=True))
