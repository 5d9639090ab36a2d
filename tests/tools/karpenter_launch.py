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

Pods (kubernetes-sigs/karpenter v1.14.1, pkg/controllers/provisioning/
scheduling/):
  - taints: NodeClaim.CanAdd (nodeclaim.go) first asks
    scheduling.Taints(n.Spec.Taints).ToleratesPod(pod) (pkg/scheduling/
    taints.go, Taints.Tolerates: every taint tolerated by some toleration,
    core/v1 ToleratesTaint with the comparison operators on).  n.Spec.Taints
    are the template's spec.taints (NewNodeClaimTemplate in
    nodeclaimtemplate.go); spec.startupTaints are not looked at;
  - requirements: PodData.Requirements is NewPodRequirements(pod)
    (scheduler.go, pkg/scheduling/requirements.go newPodRequirements): the
    nodeSelector, the heaviest preferred nodeAffinity term as if required,
    and the first required nodeSelectorTerm.  When the Pod cannot
    schedule, Preferences.Relax (preferences.go) drops the first required
    term while more than one is left (the terms are alternatives), then
    the preferred terms one at a time, heaviest first, then (when some
    NodePool has a PreferNoSchedule taint, NewScheduler) tolerates
    PreferNoSchedule.  A pool launches for the Pod when one of these
    attempts yields an offering; the line says what was relaxed;
  - resources: filterInstanceTypesByRequirements / fits (nodeclaim.go)
    keep an instance type only when the Pod's requests fit it: the Pod's
    nvidia.com/gpu (resources.RequestsForPods: the containers' sum, or an
    init container's if larger) against the type's nvidia.com/gpu column.

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
    Reserved offerings exist only with the ReservedCapacity feature gate
    on (reserved_capacity_resolver.go ResolveOfferings; its default is in
    pkg/operator/options/options.go: off in v1.3.0-v1.5.x, on from
    v1.6.0).
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
  --pod JSON            a Pod (JSON, as it comes out of admission), or a
                        list of NodeSelectorRequirements (no taint check);
                        repeat for several Pods: each line then starts
                        with the file's name without .json and ": "
  --gpus N|largest      the Pods' nvidia.com/gpu request instead of their
                        own; largest: the most any type the pool can
                        launch has
  --karpenter-version V the release whose ReservedCapacity default holds
  --feature-gates G     Karpenter's FEATURE_GATES (ReservedCapacity=...)
  --zones Z,Z           the zones offered (default: the pool's zone
                        requirement's values, else us-west-2a,b,c)
  --region R            default us-west-2
STREAM.json is `gpusite render --format json` output (one object a line),
a JSON list or one object; every NodePool in it is judged.

Output, one line per NodePool and capacity type the pool lists:
  POOL CAPACITY: launches TYPE in ZONE[ (reservation ID)][ [RELAXED]]
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


def node_selector_terms(affinity_part):
    return (affinity_part or {}).get("nodeSelectorTerms") or []


class Pod:
    """A pending Pod as Karpenter's scheduler reads it: its tolerations,
    its nodeSelector, its required nodeSelectorTerms (alternatives, tried
    in order), its preferred terms (heaviest first, each tried as a
    requirement and then dropped) and its nvidia.com/gpu request; or a
    plain list of NodeSelectorRequirements (no tolerations, no request)."""

    def __init__(self, doc, name="pod"):
        self.name = name
        if isinstance(doc, list):
            self.selector, self.required, self.preferred = {}, [{"matchExpressions": doc}], []
            self.tolerations, self.gpus = None, 0
            return
        spec = doc.get("spec") or {}
        node_aff = (spec.get("affinity") or {}).get("nodeAffinity") or {}
        self.selector = spec.get("nodeSelector") or {}
        self.required = node_selector_terms(
            node_aff.get("requiredDuringSchedulingIgnoredDuringExecution"))
        # sort.SliceStable by weight, descending (preferences.go)
        self.preferred = sorted(node_aff.get("preferredDuringSchedulingIgnoredDuringExecution")
                                or [], key=lambda t: -int(t.get("weight") or 0))
        self.tolerations = list(spec.get("tolerations") or [])
        self.gpus = gpu_request(spec)

    def attempts(self, tolerate_prefer_no_schedule):
        """(requirements, tolerations, what was relaxed) in the order
        Preferences.Relax (preferences.go) gives them: required terms
        dropped one at a time while more than one is left, then preferred
        terms one at a time, then a PreferNoSchedule toleration when some
        NodePool has such a taint.  newPodRequirements (requirements.go)
        reads the nodeSelector, the heaviest preferred term and the first
        required term of each."""
        required, preferred = list(self.required), list(self.preferred)
        tolerations = list(self.tolerations or [])
        relaxed = []
        while True:
            r = label_requirements(self.selector)
            if preferred:
                r.add(*requirements_of((preferred[0].get("preference") or {})
                                       .get("matchExpressions")).values())
            if required:
                r.add(*requirements_of(required[0].get("matchExpressions")).values())
            yield r, tolerations, list(relaxed)
            if len(required) > 1:
                relaxed.append("required term dropped")
                required = required[1:]
            elif preferred:
                relaxed.append("preferred term dropped")
                preferred = preferred[1:]
            elif tolerate_prefer_no_schedule and not any(
                    t.get("operator") == "Exists" and not t.get("key") and
                    t.get("effect") == "PreferNoSchedule" for t in tolerations):
                relaxed.append("PreferNoSchedule tolerated")
                tolerations = tolerations + [{"operator": "Exists", "effect": "PreferNoSchedule"}]
            else:
                return


def gpu_request(spec):
    """resources.RequestsForPods for nvidia.com/gpu: the containers' sum
    (a limit stands for a missing request, as the API server defaults it),
    or an init container's if larger."""
    def one(c):
        res = c.get("resources") or {}
        v = (res.get("requests") or {}).get("nvidia.com/gpu",
                                             (res.get("limits") or {}).get("nvidia.com/gpu", 0))
        return int(str(v), 10)
    total = sum(one(c) for c in spec.get("containers") or ())
    return max([total] + [one(c) for c in spec.get("initContainers") or ()])


def tolerates(t, taint):
    """core/v1 Toleration.ToleratesTaint, with the comparison operators
    Karpenter enables (taints.go Tolerates passes true)."""
    if t.get("effect") and t["effect"] != taint.get("effect"):
        return False
    if t.get("key") and t["key"] != taint.get("key"):
        return False
    op = t.get("operator") or "Equal"
    if op == "Exists":
        return True
    if op == "Equal":
        return (t.get("value") or "") == (taint.get("value") or "")
    if op in ("Gt", "Lt") and is_int(t.get("value")) and is_int(taint.get("value")):
        a, b = int(taint["value"], 10), int(t["value"], 10)
        return a > b if op == "Gt" else a < b
    return False


def untolerated(taints, tolerations):
    """Taints.Tolerates (pkg/scheduling/taints.go): the first taint no
    toleration tolerates, as KEY=VALUE:EFFECT, or None."""
    for taint in taints or ():
        if not any(tolerates(t, taint) for t in tolerations or ()):
            return "%s=%s:%s" % (taint.get("key"), taint.get("value", ""), taint.get("effect"))
    return None


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


_IT_CACHE = {}


def instance_requirements(row, zones, region, reservations, vocab):
    """computeRequirements for one row, the same answer for the same
    arguments (kept: a run asks it for every Pod, pool and type again)."""
    key = (row["instance_type"], tuple(zones), region, vocab,
           tuple((x["id"], x["type"], x["zone"], str(x.get("interruptible", False)))
                 for x in reservations))
    if key not in _IT_CACHE:
        _IT_CACHE[key] = compute_requirements(row, zones, region, reservations, vocab)
    return _IT_CACHE[key]


def compute_requirements(row, zones, region, reservations, vocab):
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


def search(claim, ct, rows, names, zones, reservations, opts, vocab, gpus):
    """The first (type, zone, reservation) with an offering of capacity type
    ct compatible with claim, the instance type intersecting it
    (nodeclaim.go filterInstanceTypesByRequirements: compatible and fits),
    and gpus nvidia.com/gpu fitting; else None and why not."""
    why = []
    for n in sorted(rows):
        mine = [x for x in reservations if x["instanceType"] == n]
        it = instance_requirements(rows[n], zones, opts["region"], mine, vocab)
        bad = it.intersects(claim)
        if bad:
            if n in names:
                why.append("%s: instance type: %s" % (n, bad))
            continue
        have = atoi(rows[n].get("resource_nvidia_com_gpu") or "0")
        if gpus > have:
            why.append("%s: %d nvidia.com/gpu requested, the type has %d" % (n, gpus, have))
            continue
        for (oct_, z, rid, req) in offerings(zones, mine):
            if oct_ != ct:
                continue
            bad = claim.compatible(req)
            if not bad:
                return (n, z, rid), why
            why.append("%s %s offering: %s" % (n, ct, bad))
    return None, why


def pool_reservations(opts, names, zones, listed):
    """The reservations the pool's node class selects (see --reservations);
    none while the ReservedCapacity feature gate is off: the provider's
    nodeclass controller then resolves no reservation
    (pkg/controllers/nodeclass/controller.go) and the reserved resolver
    offers nothing (reserved_capacity_resolver.go ResolveOfferings)."""
    if not opts["reserved_gate"]:
        return []
    if opts["reservations"] is not None:
        return opts["reservations"]
    if "reserved" not in listed:
        return []
    return [{"id": "cr-%s-%s" % (n, t), "instanceType": n, "zone": zones[0],
             "type": t, "interruptible": False} for n in names for t in RESERVATION_TYPES]


def judge_pool(pool, rows, opts, pod=None):
    """The lines for one NodePool (for a Pod, or for the pool alone) and
    whether every listed capacity type launches."""
    name = pool["metadata"]["name"]
    tspec = pool["spec"]["template"]["spec"]
    ref = tspec.get("nodeClassRef") or {}
    vocab = "eks.amazonaws.com/" if ref.get("group") == "eks.amazonaws.com" else AWS
    tmpl = template_requirements(pool)
    written = requirements_of(tspec.get("requirements"))
    listed = [r["values"] for r in tspec.get("requirements") or ()
              if r["key"] == CAPACITY and r["operator"] == "In"]
    listed = list(dict.fromkeys(listed[0])) if listed else ["on-demand"]
    zones = opts["zones"] or (sorted(written[ZONE].values) if ZONE in written and
                              not written[ZONE].complement else
                              ["us-west-2a", "us-west-2b", "us-west-2c"])
    names = sorted(written[INSTANCE_TYPE].values) if INSTANCE_TYPE in written and \
        not written[INSTANCE_TYPE].complement else sorted(rows)
    reservations = pool_reservations(opts, names, zones, listed)
    # spec.template.spec.taints only: startupTaints are not the Pod's to
    # tolerate (nodeclaim.go CanAdd checks n.Spec.Taints)
    taints = tspec.get("taints") or []
    gpus = pod.gpus if pod else 0
    if opts["gpus"] == "largest":
        gpus = max([atoi(rows[n].get("resource_nvidia_com_gpu") or "0") for n in sorted(rows)
                    if not instance_requirements(rows[n], zones, opts["region"], [], vocab)
                    .intersects(tmpl)] or [0])
    elif opts["gpus"] is not None:
        gpus = atoi(opts["gpus"])
    if pod is None:
        attempts = [(Requirements(), None, [])]
    else:
        attempts = list(pod.attempts(opts["prefer_no_schedule"]))
    lines, ok = [], True
    for ct in listed:
        found, why = None, []
        for preq, tols, relaxed in attempts:
            if tols is not None:
                bad = untolerated(taints, tols)
                if bad:
                    why.append("the Pod: does not tolerate taint %s" % bad)
                    continue
            bad = tmpl.compatible(preq)
            if bad:
                why.append("the Pod: %s" % bad)
                continue
            claim = tmpl.copy().add(*preq.values())
            found, more = search(claim, ct, rows, names, zones, reservations, opts, vocab, gpus)
            why += more
            if found:
                found += (relaxed,)
                break
        if found:
            lines.append("%s %s: launches %s in %s%s%s" % (
                name, ct, found[0], found[1],
                " (reservation %s)" % found[2] if found[2] else "",
                " [%s]" % ", ".join(found[3]) if found[3] else ""))
        else:
            ok = False
            if ct == "reserved" and not opts["reserved_gate"]:
                why.insert(0, "the ReservedCapacity feature gate is off: the node class"
                           " resolves no reservation")
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


def release(text):
    """"1.5" or "v1.5.2" as (1, 5)."""
    m = re.fullmatch(r"v?([0-9]+)\.([0-9]+)(\.[0-9]+)?", text or "")
    if not m:
        raise ValueError("--karpenter-version wants MAJOR.MINOR, got %r" % text)
    return int(m.group(1)), int(m.group(2))


def reserved_gate(opts):
    """The ReservedCapacity feature gate: as --feature-gates says, else its
    default in the release (pkg/operator/options/options.go: false in
    v1.3.0-v1.5.x, true from v1.6.0; no such gate, and no reserved
    capacity, before v1.3.0), else v1.14.1's (true)."""
    if opts["feature_gates"] is not None:
        for kv in opts["feature_gates"].split(","):
            k, _, v = kv.partition("=")
            if k.strip() == "ReservedCapacity":
                return v.strip().lower() == "true"
    if opts["karpenter_version"]:
        return release(opts["karpenter_version"]) >= (1, 6)
    return True


def read_pod(path):
    with open(path) as f:
        doc = json.load(f)
    base = re.sub(r"\.json$", "", path.rsplit("/", 1)[-1])
    return Pod(doc, base)


def main(argv):
    opts = {"instance_types": None, "local_nvme": None, "reservations": None, "pod": [],
            "zones": None, "region": "us-west-2", "karpenter_version": None,
            "feature_gates": None, "prefer_no_schedule": False, "gpus": None}
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
                     "--region", "--karpenter-version", "--feature-gates", "--gpus"):
                value = args.pop(0)
                key = a[2:].replace("-", "_")
                if key in ("reservations",):
                    with open(value) as f:
                        value = json.load(f)
                elif key == "pod":
                    value = opts["pod"] + [read_pod(value)]
                elif key == "zones":
                    value = value.split(",")
                opts[key] = value
            elif a.startswith("-"):
                raise ValueError("unknown option %s" % a)
            else:
                files.append(a)
        if not opts["instance_types"] or not files:
            raise ValueError("need --instance-types CSV and a stream")
        opts["reserved_gate"] = reserved_gate(opts)
        rows = instance_rows(opts["instance_types"], opts["local_nvme"])
        pools = [d for f in files for d in read_stream(f)
                 if isinstance(d, dict) and d.get("kind") == "NodePool"]
    except (ValueError, IndexError, OSError, KeyError) as e:
        print("karpenter_launch.py: %s" % e, file=sys.stderr)
        return 2
    # NewScheduler (scheduler.go): a PreferNoSchedule taint on any pool
    # lets preference relaxation tolerate them all
    opts["prefer_no_schedule"] = any(
        t.get("effect") == "PreferNoSchedule" for p in pools
        for t in ((p.get("spec") or {}).get("template") or {}).get("spec", {}).get("taints") or ())
    all_ok = True
    pods = opts["pod"] or [None]
    for pod in pods:
        prefix = "%s: " % pod.name if len(pods) > 1 else ""
        for p in pools:
            try:
                lines, ok = judge_pool(p, rows, opts, pod)
            except (ValueError, IndexError, KeyError, TypeError) as e:
                print("karpenter_launch.py: NodePool %s: %s" % (
                    (p.get("metadata") or {}).get("name"), e), file=sys.stderr)
                return 2
            all_ok &= ok
            for line in lines:
                print(prefix + line)
    if not pools:
        print("no NodePool")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
