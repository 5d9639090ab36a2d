#!/usr/bin/env python3
"""karpenter_launch.py - can a NodePool launch a node of each capacity type it lists?

  karpenter_launch.py [options] STREAM.json...
  karpenter_launch.py --pair EXISTING INCOMING

A model of how Karpenter v1.14.1 decides that a NodePool can launch: the
NodePool's requirements (spec.template.spec.requirements plus its template
labels), a pending Pod's, and each instance type's and each offering's
requirements are intersected as kubernetes-sigs/karpenter does in
pkg/scheduling/requirement.go and requirements.go (tag v1.14.1):

  - a Requirement is (key, complement, values, gte, lte): In is the set,
    NotIn the complement of the set, Exists the complement of nothing,
    DoesNotExist the empty set; Gt N becomes gte N+1 (Gt MaxInt is
    DoesNotExist), Lt N becomes lte N-1, Gte N is gte N and Lte N is lte N
    (bounds inclusive; a value outside them, or not an integer, is out);
  - Requirements.Add intersects the requirements of one key;
  - Intersects (for the keys both sides have) fails a key whose
    intersection is empty unless both sides are NotIn or DoesNotExist: both
    admit the label's absence, so In never meets DoesNotExist and NotIn
    does; a key one side lacks is not looked at;
  - Compatible(r, other) also fails a key of other that r lacks unless it
    is a well-known label or other's operator is NotIn or DoesNotExist.

The scheduler (pkg/controllers/provisioning/scheduling/nodeclaim.go) keeps
an instance type when it.Requirements.Intersects(nodeClaim) holds and it
has an offering with nodeClaim.IsCompatible(offering,
AllowUndefinedWellKnownLabels); a Pod first needs
template.Compatible(pod, AllowUndefinedWellKnownLabels), and its
requirements are then added to the NodeClaim's.

Instance types and offerings are the AWS provider's (aws/karpenter-provider-aws
v1.14.1, pkg/providers/instancetype/types.go computeRequirements and
pkg/providers/instancetype/offering/base_resolver.go and
reserved_capacity_resolver.go):
  - instance-type labels from --instance-types (the columns of
    gpu-instance-types.csv) and --local-nvme: instance-type, arch, os linux,
    zone, region, capacity-type (on-demand, spot, and reserved when a
    reservation names the type), instance-cpu, -memory, -family, -category,
    -generation, -size, -local-nvme, -network-bandwidth, -gpu-name,
    -gpu-manufacturer, -gpu-count, -gpu-memory (DoesNotExist where the
    column is empty), accelerator labels DoesNotExist, tenancy
    default/dedicated, capability-flex; capacity-reservation-id, -type and
    -interruptible In the values of the reservations of that type, or
    DoesNotExist without one.  Labels the files do not give (hypervisor, CPU
    manufacturer and clock, EBS bandwidth, encryption in transit, zone ID)
    are left out, so a requirement on them is not judged;
  - offerings: per zone, on-demand and spot with capacity-type In [type],
    zone In [zone] and capacity-reservation-id, -type and -interruptible
    DoesNotExist; per reservation of the type, reserved with capacity-type
    In [reserved], zone In [its zone], -id In [id], -type In [its type],
    -interruptible In [true|false].  Every offering is taken as available.
  - With EKS Auto Mode (nodeClassRef group eks.amazonaws.com) the
    instance labels are spelled eks.amazonaws.com/instance-* instead of
    karpenter.k8s.aws/instance-* (an assumption: Auto Mode's controller is
    not public).

Options:
  --instance-types CSV  gpu-instance-types.csv (required unless --pair)
  --local-nvme CSV      gpu-instance-local-nvme.csv
  --reservations JSON   a list of {"id", "instanceType", "zone", "type",
                        "interruptible"}; default: for a pool that lists
                        reserved, one reservation of each type (default,
                        capacity-block) for each instance type the pool
                        names, in its first zone
  --pod JSON            a Pod (its nodeSelector and first required
                        nodeSelectorTerm, as Karpenter's strict Pod
                        requirements) or a list of NodeSelectorRequirements
  --zones Z,Z           the zones offered (default: the pool's zone
                        requirement's values, else us-west-2a,b,c)
  --region R            default us-west-2
STREAM.json is `gpusite render --format json` output (one object a line),
a JSON list or one object; every NodePool in it is judged.

Output, one line per NodePool and capacity type the pool lists:
  POOL CAPACITY: launches TYPE in ZONE[ (reservation ID)]
  POOL CAPACITY: no offering: TYPE: WHY; ...
Exit 0 when every listed capacity type of every pool launches, 1 when one
does not, 2 on bad input.

--pair EXISTING INCOMING prints Karpenter's answer for
Requirements{EXISTING}.Compatible(Requirements{INCOMING},
AllowUndefinedWellKnownLabels): "compatible" or "incompatible: WHY".  Each
is "KEY OP [V,V...]", or "KEY -" for no requirement on the key.
"""
import csv
import json
import re
import sys

MAX_INT = (1 << 63) - 1

# karpenter.sh/v1 NormalizedLabels (pkg/apis/v1/labels.go)
NORMALIZED = {
    "failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
    "beta.kubernetes.io/arch": "kubernetes.io/arch",
    "beta.kubernetes.io/os": "kubernetes.io/os",
    "beta.kubernetes.io/instance-type": "node.kubernetes.io/instance-type",
    "failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
}

AWS = "karpenter.k8s.aws/"
RES_ID = AWS + "capacity-reservation-id"
RES_TYPE = AWS + "capacity-reservation-type"
RES_INTERRUPTIBLE = AWS + "capacity-reservation-interruptible"
CAPACITY = "karpenter.sh/capacity-type"
ZONE = "topology.kubernetes.io/zone"
INSTANCE_TYPE = "node.kubernetes.io/instance-type"

# WellKnownLabels: the core's (pkg/apis/v1/labels.go) and those the AWS
# provider adds (pkg/apis/v1/labels.go of the provider, init)
WELL_KNOWN = {
    "karpenter.sh/nodepool", ZONE, "topology.kubernetes.io/region", INSTANCE_TYPE,
    "kubernetes.io/arch", "kubernetes.io/os", CAPACITY, "node.kubernetes.io/windows-build",
    RES_ID, RES_TYPE, RES_INTERRUPTIBLE,
} | {AWS + k for k in (
    "instance-hypervisor", "instance-encryption-in-transit-supported", "instance-category",
    "instance-capability-flex", "instance-family", "instance-generation", "instance-size",
    "instance-local-nvme", "instance-cpu", "instance-cpu-manufacturer",
    "instance-cpu-sustained-clock-speed-mhz", "instance-memory", "instance-ebs-bandwidth",
    "instance-network-bandwidth", "instance-gpu-name", "instance-gpu-manufacturer",
    "instance-gpu-count", "instance-gpu-memory", "instance-accelerator-name",
    "instance-accelerator-manufacturer", "instance-accelerator-count", "instance-tenancy",
    "placement-group-id", "placement-group-partition")} | {"topology.k8s.aws/zone-id"}

RESERVATION_TYPES = ("default", "capacity-block")


def is_int(s):
    """strconv.Atoi would take s: an optional sign and decimal digits (no
    space, no underscore, unlike Python's int), within 64 bits."""
    if not isinstance(s, str) or not re.fullmatch(r"[+-]?[0-9]+", s):
        return False
    return -MAX_INT - 1 <= int(s, 10) <= MAX_INT


def atoi(s):
    """strconv.Atoi on a prevalidated value: 0 when it is not an integer."""
    return int(s, 10) if is_int(s) else 0


class Requirement:
    def __init__(self, key, complement, values, gte=None, lte=None):
        self.key, self.complement, self.values = key, complement, set(values)
        self.gte, self.lte = gte, lte

    @staticmethod
    def new(key, op, values=()):
        """NewRequirementWithFlexibility."""
        key = NORMALIZED.get(key, key)
        values = list(values or ())
        if op == "In":
            return Requirement(key, False, values)
        r = Requirement(key, op != "DoesNotExist", values if op == "NotIn" else ())
        if op == "Gt":
            v = atoi(values[0])
            if v == MAX_INT:
                return Requirement(key, False, ())
            r.gte = v + 1
        elif op == "Lt":
            r.lte = atoi(values[0]) - 1
        elif op == "Gte":
            r.gte = atoi(values[0])
        elif op == "Lte":
            r.lte = atoi(values[0])
        elif op not in ("NotIn", "Exists", "DoesNotExist"):
            raise ValueError("unknown operator %r" % op)
        return r

    def operator(self):
        if self.complement:
            return "NotIn" if self.values else "Exists"
        return "In" if self.values else "DoesNotExist"

    def within(self, v, gte, lte):
        if gte is None and lte is None:
            return True
        if not is_int(v):
            return False
        n = int(v, 10)
        return (gte is None or n >= gte) and (lte is None or n <= lte)

    def intersection(self, o):
        complement = self.complement and o.complement
        gte = max_opt(self.gte, o.gte, max)
        lte = max_opt(self.lte, o.lte, min)
        if gte is not None and lte is not None and gte > lte:
            return Requirement(self.key, False, ())
        if self.complement and o.complement:
            values = self.values | o.values
        elif self.complement:
            values = o.values - self.values
        elif o.complement:
            values = self.values - o.values
        else:
            values = self.values & o.values
        values = {v for v in values if self.within(v, gte, lte)}
        if not complement:
            gte = lte = None
        return Requirement(self.key, complement, values, gte, lte)

    def has_intersection(self, o):
        gte = max_opt(self.gte, o.gte, max)
        lte = max_opt(self.lte, o.lte, min)
        if gte is not None and lte is not None and gte > lte:
            return False
        if self.complement and o.complement:
            return True
        if self.complement:
            return any(v not in self.values and self.within(v, gte, lte) for v in o.values)
        if o.complement:
            return any(v not in o.values and self.within(v, gte, lte) for v in self.values)
        return any(v in o.values and self.within(v, gte, lte) for v in self.values)

    def __str__(self):
        op = self.operator()
        s = "%s %s" % (self.key, op)
        if op in ("In", "NotIn"):
            s += " [%s]" % " ".join(sorted(self.values))
        if self.gte is not None:
            s += " >=%d" % self.gte
        if self.lte is not None:
            s += " <=%d" % self.lte
        return s


def max_opt(a, b, pick):
    if a is None:
        return b
    if b is None:
        return a
    return pick(a, b)


class Requirements(dict):
    def add(self, *reqs):
        for r in reqs:
            if r.key in self:
                r = r.intersection(self[r.key])
            self[r.key] = r
        return self

    def copy(self):
        return Requirements(self)

    def intersects(self, incoming):
        """Requirements.Intersects: the first key that fails, or None."""
        for key in sorted(set(self) & set(incoming)):
            existing, inc = self[key], incoming[key]
            if existing.has_intersection(inc):
                continue
            if inc.operator() in ("NotIn", "DoesNotExist") and \
                    existing.operator() in ("NotIn", "DoesNotExist"):
                continue
            return "%s never meets %s" % (inc, existing)
        return None

    def compatible(self, incoming, allow_undefined=WELL_KNOWN):
        """Requirements.Compatible with AllowUndefinedWellKnownLabels."""
        for key in sorted(incoming):
            if key in allow_undefined or key in self or \
                    incoming[key].operator() in ("NotIn", "DoesNotExist"):
                continue
            return "label %s does not have known values" % key
        return self.intersects(incoming)


def requirements_of(terms):
    r = Requirements()
    for t in terms or ():
        r.add(Requirement.new(t["key"], t["operator"], t.get("values")))
    return r


def label_requirements(labels):
    return Requirements().add(*(Requirement.new(k, "In", [v]) for k, v in (labels or {}).items()))


def pod_requirements(doc):
    """NewStrictPodRequirements, or a plain list of NodeSelectorRequirements."""
    if isinstance(doc, list):
        return requirements_of(doc)
    spec = doc.get("spec") or {}
    r = label_requirements(spec.get("nodeSelector"))
    req = (((spec.get("affinity") or {}).get("nodeAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = req.get("nodeSelectorTerms") or []
    if terms:
        r.add(*requirements_of(terms[0].get("matchExpressions")).values())
    return r


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def instance_rows(path, nvme_path):
    rows = {r["instance_type"]: r for r in read_csv(path)}
    if nvme_path:
        for r in read_csv(nvme_path):
            if r["instance_type"] in rows:
                rows[r["instance_type"]]["instance_local_nvme_gib"] = r["instance_local_nvme_gib"]
    return rows


def instance_requirements(row, zones, region, reservations, vocab):
    """computeRequirements for one row of gpu-instance-types.csv."""
    def label(name, value):
        key = vocab + name
        if value in (None, ""):
            return Requirement.new(key, "DoesNotExist")
        return Requirement.new(key, "In", [value])

    name = row["instance_type"]
    family, _, size = name.partition(".")
    capacity = ["on-demand", "spot"] + (["reserved"] if reservations else [])
    r = Requirements().add(
        Requirement.new(INSTANCE_TYPE, "In", [name]),
        Requirement.new("kubernetes.io/arch", "In", [row["arch"]]),
        Requirement.new("kubernetes.io/os", "In", ["linux"]),
        Requirement.new(ZONE, "In", zones),
        Requirement.new("topology.kubernetes.io/region", "In", [region]),
        Requirement.new("node.kubernetes.io/windows-build", "DoesNotExist"),
        Requirement.new(CAPACITY, "In", capacity),
        label("instance-cpu", row["instance_cpu"]),
        label("instance-memory", row["instance_memory_mib"]),
        label("instance-category", row["instance_category"]),
        label("instance-generation", row["instance_generation"]),
        label("instance-family", row.get("instance_family") or family),
        label("instance-size", size),
        label("instance-local-nvme", row.get("instance_local_nvme_gib")),
        label("instance-network-bandwidth", row.get("instance_network_bandwidth_mbps")),
        label("instance-capability-flex", "true" if "-flex" in family else "false"),
        label("instance-gpu-name", row["instance_gpu_name"]),
        label("instance-gpu-manufacturer", row["instance_gpu_manufacturer"]),
        label("instance-gpu-count", row["instance_gpu_count"]),
        label("instance-gpu-memory", row["instance_gpu_memory_mib"]),
        label("instance-accelerator-name", None),
        label("instance-accelerator-manufacturer", None),
        label("instance-accelerator-count", None),
        Requirement.new(vocab + "instance-tenancy", "In", ["default", "dedicated"]),
    )
    for key, field in ((RES_ID, "id"), (RES_TYPE, "type"), (RES_INTERRUPTIBLE, "interruptible")):
        values = [str(x[field]).lower() if field == "interruptible" else x[field]
                  for x in reservations]
        r.add(Requirement.new(key, "In", values) if values else
              Requirement.new(key, "DoesNotExist"))
    return r


def offerings(zones, reservations):
    """(capacity type, zone, reservation id or None, requirements) of one type."""
    out = []
    for z in zones:
        for ct in ("on-demand", "spot"):
            out.append((ct, z, None, Requirements().add(
                Requirement.new(CAPACITY, "In", [ct]), Requirement.new(ZONE, "In", [z]),
                Requirement.new(RES_ID, "DoesNotExist"), Requirement.new(RES_TYPE, "DoesNotExist"),
                Requirement.new(RES_INTERRUPTIBLE, "DoesNotExist"))))
    for x in reservations:
        out.append(("reserved", x["zone"], x["id"], Requirements().add(
            Requirement.new(CAPACITY, "In", ["reserved"]), Requirement.new(ZONE, "In", [x["zone"]]),
            Requirement.new(RES_ID, "In", [x["id"]]), Requirement.new(RES_TYPE, "In", [x["type"]]),
            Requirement.new(RES_INTERRUPTIBLE, "In", [str(x.get("interruptible", False)).lower()]))))
    return out


def template_requirements(pool):
    """NewNodeClaimTemplate: requirements, template labels, pool and class labels."""
    t = pool["spec"]["template"]
    r = requirements_of(t["spec"].get("requirements"))
    labels = dict((t.get("metadata") or {}).get("labels") or {})
    ref = t["spec"].get("nodeClassRef") or {}
    labels["karpenter.sh/nodepool"] = pool["metadata"]["name"]
    if ref.get("group") and ref.get("kind"):
        labels["%s/%s" % (ref["group"], ref["kind"].lower())] = ref.get("name", "")
    r.add(*label_requirements(labels).values())
    r.add(Requirement.new("karpenter.sh/registered", "In", ["true"]),
          Requirement.new("karpenter.sh/initialized", "In", ["true"]))
    return r


def judge_pool(pool, rows, opts):
    """The lines for one NodePool and whether every listed capacity type launches."""
    name = pool["metadata"]["name"]
    ref = pool["spec"]["template"]["spec"].get("nodeClassRef") or {}
    vocab = "eks.amazonaws.com/" if ref.get("group") == "eks.amazonaws.com" else AWS
    tmpl = template_requirements(pool)
    written = requirements_of(pool["spec"]["template"]["spec"].get("requirements"))
    listed = [r["values"] for r in pool["spec"]["template"]["spec"].get("requirements") or ()
              if r["key"] == CAPACITY and r["operator"] == "In"]
    listed = list(dict.fromkeys(listed[0])) if listed else ["on-demand"]
    zones = opts["zones"] or (sorted(written[ZONE].values) if ZONE in written and
                              not written[ZONE].complement else
                              ["us-west-2a", "us-west-2b", "us-west-2c"])
    names = sorted(written[INSTANCE_TYPE].values) if INSTANCE_TYPE in written and \
        not written[INSTANCE_TYPE].complement else sorted(rows)
    reservations = opts["reservations"]
    if reservations is None:
        reservations = [{"id": "cr-%s-%s" % (n, t), "instanceType": n, "zone": zones[0],
                         "type": t, "interruptible": False}
                        for n in names for t in RESERVATION_TYPES] if "reserved" in listed else []
    claim = tmpl.copy()
    why_pod = None
    if opts["pod"] is not None:
        why_pod = tmpl.compatible(opts["pod"])
        claim.add(*opts["pod"].values())
    lines, ok = [], True
    for ct in listed:
        if why_pod:
            lines.append("%s %s: no offering: the Pod: %s" % (name, ct, why_pod))
            ok = False
            continue
        found, why = None, []
        for n in sorted(rows):
            mine = [x for x in reservations if x["instanceType"] == n]
            it = instance_requirements(rows[n], zones, opts["region"], mine, vocab)
            bad = it.intersects(claim)
            if bad:
                if n in names:
                    why.append("%s: instance type: %s" % (n, bad))
                continue
            for (oct_, z, rid, req) in offerings(zones, mine):
                if oct_ != ct:
                    continue
                bad = claim.compatible(req)
                if not bad:
                    found = (n, z, rid)
                    break
                why.append("%s %s offering: %s" % (n, ct, bad))
            if found:
                break
        if found:
            lines.append("%s %s: launches %s in %s%s" % (
                name, ct, found[0], found[1], " (reservation %s)" % found[2] if found[2] else ""))
        else:
            ok = False
            lines.append("%s %s: no offering: %s" % (
                name, ct, "; ".join(dict.fromkeys(why)) or "no instance type of --instance-types"))
    return lines, ok


def read_stream(path):
    with open(path) as f:
        text = f.read()
    try:
        doc = json.loads(text)
        return doc if isinstance(doc, list) else [doc]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def parse_side(text):
    parts = text.split(None, 2)
    if len(parts) < 2:
        raise ValueError("want KEY OP [V,V...], got %r" % text)
    if parts[1] == "-":
        return Requirements()
    values = parts[2].split(",") if len(parts) > 2 else []
    return Requirements().add(Requirement.new(parts[0], parts[1], values))


def main(argv):
    opts = {"instance_types": None, "local_nvme": None, "reservations": None, "pod": None,
            "zones": None, "region": "us-west-2"}
    files = []
    args = list(argv)
    try:
        while args:
            a = args.pop(0)
            if a == "--pair":
                existing, incoming = parse_side(args[0]), parse_side(args[1])
                bad = existing.compatible(incoming)
                print("incompatible: %s" % bad if bad else "compatible")
                return 0
            if a in ("--instance-types", "--local-nvme", "--reservations", "--pod", "--zones",
                     "--region"):
                value = args.pop(0)
                key = a[2:].replace("-", "_")
                if key in ("reservations",):
                    with open(value) as f:
                        value = json.load(f)
                elif key == "pod":
                    with open(value) as f:
                        value = pod_requirements(json.load(f))
                elif key == "zones":
                    value = value.split(",")
                opts[key] = value
            elif a.startswith("-"):
                raise ValueError("unknown option %s" % a)
            else:
                files.append(a)
        if not opts["instance_types"] or not files:
            raise ValueError("need --instance-types CSV and a stream")
        rows = instance_rows(opts["instance_types"], opts["local_nvme"])
        pools = [d for f in files for d in read_stream(f)
                 if isinstance(d, dict) and d.get("kind") == "NodePool"]
    except (ValueError, IndexError, OSError, KeyError) as e:
        print("karpenter_launch.py: %s" % e, file=sys.stderr)
        return 2
    all_ok = True
    for p in pools:
        try:
            lines, ok = judge_pool(p, rows, opts)
        except (ValueError, IndexError, KeyError, TypeError) as e:
            print("karpenter_launch.py: NodePool %s: %s" % (
                (p.get("metadata") or {}).get("name"), e), file=sys.stderr)
            return 2
        all_ok &= ok
        for line in lines:
            print(line)
    if not pools:
        print("no NodePool")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
