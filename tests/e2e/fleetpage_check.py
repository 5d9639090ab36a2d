#!/usr/bin/env python3
"""fleetpage_check.py - checks of the fleet page for t2081 and t2082.

  structure PAGE.html            well-formed (every element closed, in order),
                                 ids unique, no script, no external reference,
                                 every table with a caption and header scopes,
                                 every svg with role=img and a title
  numbers PAGE.html EXPLAIN.json the data-* figures of the page equal those of
                                 explain --format json
"""
import html.parser
import json
import sys

VOID = {"meta", "br", "hr", "img", "input", "link"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.errors = [], set(), []
        self.rows, self.tables, self.svgs = [], [], []
        self.totals = None

    def handle_starttag(self, tag, attrs):
        self.visit(tag, dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.visit(tag, dict(attrs))

    def visit(self, tag, a):
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append("duplicate id %r" % a["id"])
            self.ids.add(a["id"])
        if tag == "script":
            self.errors.append("a script element")
        for k, v in a.items():
            if k in ("src", "href") and v and not v.startswith("#"):
                self.errors.append("external reference %s=%r" % (k, v))
            if k.startswith("on"):
                self.errors.append("event handler %s" % k)
        if tag == "table":
            self.tables.append({"caption": False})
        if tag == "caption" and self.tables:
            self.tables[-1]["caption"] = True
        if tag == "th" and "scope" not in a:
            self.errors.append("th without scope")
        if tag == "svg":
            self.svgs.append(a)
            if a.get("role") != "img" or not a.get("aria-labelledby"):
                self.errors.append("svg without role=img and aria-labelledby")
        if tag == "tr" and any(k.startswith("data-") for k in a):
            self.rows.append(a)
        if tag == "p" and a.get("id") == "totals":
            self.totals = a

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %r" % (tag, self.stack[-1:]))
        else:
            self.stack.pop()


def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    p.close()
    if p.stack:
        p.errors.append("unclosed: %r" % p.stack)
    return p


def structure(path):
    p = parse(path)
    if "(null)" in open(path, encoding="utf-8").read():
        p.errors.append("a (null) on the page")
    for t in p.tables:
        if not t["caption"]:
            p.errors.append("a table without caption")
    for svg in p.svgs:
        for ref in svg.get("aria-labelledby", "").split():
            if ref not in p.ids:
                p.errors.append("aria-labelledby names a missing id %r" % ref)
    if not p.tables or not p.svgs:
        p.errors.append("no table or no chart")
    return p.errors


def numbers(path, explain):
    p, d, errors = parse(path), json.load(open(explain)), []
    sites = {s["name"]: s for s in d["sites"]}
    clusters = {c["name"]: c for c in d["clusters"]}
    seen = {"site": 0, "cluster": 0, "set": 0}

    def same(what, page, want):
        if str(page) != str(want):
            errors.append("%s: page %r, explain %r" % (what, page, want))

    for r in p.rows:
        if "data-cluster" in r:
            c = clusters[r["data-cluster"]]
            same(c["name"] + " on-prem", r["data-onprem-gpus"], c["onPremGpus"])
            same(c["name"] + " limit", r["data-fallback-limit"], c["fallbackGpuLimit"])
            same(c["name"] + " burst", r["data-burst-limit"], c["burstGpuLimit"] or 0)
            seen["cluster"] += 1
        elif "data-total-seconds" in r:
            s = sites[r["data-site"]]["recovery"]
            same(r["data-site"] + " total", r["data-total-seconds"], s["totalSeconds"])
            same(r["data-site"] + " target", r["data-target-seconds"],
                 s["targetRtoSeconds"] or 0)
            seen["site"] += 1
        elif "data-gpu-limit" in r:
            s = sites[r["data-site"]]
            same(r["data-site"] + " on-prem", r["data-onprem-gpus"], s["onPremGpus"])
            same(r["data-site"] + " gpuLimit", r["data-gpu-limit"],
                 s["fallback"].get("gpuLimit", 0))
            same(r["data-site"] + " burst", r["data-burst-limit"],
                 (s["burst"] or {}).get("gpuLimit", 0))
        elif "data-sites" in r:
            names = r["data-sites"].split(" ")
            want = [w for w in d["whatIf"]["sets"] if w["sites"] == names]
            if len(want) != 1:
                errors.append("set %r: %d in explain" % (names, len(want)))
                continue
            w = want[0]
            same("%s lost" % names, r["data-lost"], w["lostGpus"])
            same("%s launchable" % names, r["data-launchable"], w["launchableGpus"])
            same("%s shortfall" % names, r["data-shortfall"], w["shortfallGpus"])
            cost = "unknown" if w["costPerHour"] is None else "%.2f" % w["costPerHour"]
            same("%s cost" % names, r["data-cost"], cost)
            same("%s quota" % names, r["data-quota-over"], str(w["quotaExceeded"]).lower())
            seen["set"] += 1
    same("sites", seen["site"], len(d["sites"]))
    same("clusters", seen["cluster"], len(d["clusters"]))
    same("sets", seen["set"], len(d["whatIf"]["sets"]))
    if p.totals:
        same("total GPUs", p.totals["data-onprem-gpus"],
             sum(c["onPremGpus"] for c in d["clusters"]))
    return errors


def main():
    errors = structure(sys.argv[2]) if sys.argv[1] == "structure" else numbers(*sys.argv[2:4])
    for e in errors:
        print("fleetpage_check: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
