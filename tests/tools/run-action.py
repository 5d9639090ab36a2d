#!/usr/bin/env python3
"""run-action.py - run the steps of a composite action.yml as the GitHub
runner would, in a simulated job, for tests.

Usage: run-action.py ACTION_DIR WORKDIR EVENT_JSON OUT_DIR [NAME=VALUE...]
                     [--unset-env=NAME...]

Each `run:` step runs with bash (-e -o pipefail, as `shell: bash`) in
WORKDIR, with GITHUB_* and RUNNER_* set (GITHUB_EVENT_PATH=EVENT_JSON,
GITHUB_OUTPUT a fresh file per step, GITHUB_STEP_SUMMARY and GITHUB_PATH
shared, the lines of GITHUB_PATH put before PATH for the next steps),
its env: values with ${{ inputs.X }}, ${{ github.event.* }},
${{ steps.ID.outputs.X }} and ${{ runner.* }} expanded (anything else,
github.action_ref included, stops the run).  `uses:` steps are recorded,
not run: OUT_DIR/with holds one JSON line per such step, its name, uses
and `with:` values expanded.  --unset-env=NAME runs every step without
NAME (RUNNER_TEMP, say, as no runner would).  `if:` understands always(), success(),
inputs.X == / != 'V', steps.ID.outputs.X != '' and steps.ID.outcome ==
'success', joined with &&.  Writes OUT_DIR/steps ("NAME rc" lines,
"NAME uses ..." for uses steps), OUT_DIR/outputs (the action's outputs,
NAME=VALUE), OUT_DIR/summary, OUT_DIR/log.
"""
import json
import os
import re
import subprocess
import sys

import yaml


def main(argv):
    action_dir, work, event_path, out = argv[1:5]
    unset = [a.split("=", 1)[1] for a in argv[5:] if a.startswith("--unset-env=")]
    given = dict(a.split("=", 1) for a in argv[5:] if not a.startswith("--unset-env="))
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml")))
    assert action["runs"]["using"] == "composite", action["runs"]
    inputs = {k: str(v.get("default", "")) for k, v in action.get("inputs", {}).items()}
    for k, v in given.items():
        assert k in inputs, "no input %s" % k
        inputs[k] = v
    event = json.load(open(event_path))
    os.makedirs(out, exist_ok=True)
    temp = os.path.join(out, "runner-temp")
    os.makedirs(temp, exist_ok=True)
    summary = os.path.join(out, "summary")
    gpath = os.path.join(out, "github-path")
    open(summary, "w").close()
    open(gpath, "w").close()
    steps = {}
    failed = False

    def lookup(expr):
        expr = expr.strip()
        if expr.startswith("inputs."):
            return inputs[expr[7:]]
        if expr.startswith("github.event."):
            cur = event
            for p in expr[13:].split("."):
                cur = cur.get(p, "") if isinstance(cur, dict) else ""
            return "" if isinstance(cur, dict) else str(cur)
        m = re.match(r"steps\.([\w-]+)\.outputs\.([\w-]+)$", expr)
        if m:
            return steps.get(m.group(1), {}).get("outputs", {}).get(m.group(2), "")
        m = re.match(r"steps\.([\w-]+)\.outcome$", expr)
        if m:
            return steps.get(m.group(1), {}).get("outcome", "")
        if expr in ("runner.os", "runner.arch"):
            return {"runner.os": "Linux", "runner.arch": "X64"}[expr]
        raise SystemExit("run-action.py: cannot evaluate ${{ %s }}" % expr)

    def expand(s):
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: lookup(m.group(1)), str(s))

    def cond(c):
        if c is None:
            return not failed
        ok = True
        for part in str(c).split("&&"):
            part = part.strip()
            if part == "always()":
                continue
            if part == "success()":
                ok = ok and not failed
                continue
            m = re.match(r"^(\S+) (==|!=) '(.*)'$", part)
            if not m:
                raise SystemExit("run-action.py: cannot evaluate if: %s" % part)
            v = lookup(m.group(1))
            ok = ok and ((v == m.group(3)) == (m.group(2) == "=="))
        if "always()" not in str(c) and "success()" not in str(c):
            ok = ok and not failed
        return ok

    with open(os.path.join(out, "steps"), "w") as sf, open(os.path.join(out, "log"), "w") as log, \
            open(os.path.join(out, "with"), "w") as wf:
        for i, s in enumerate(action["runs"]["steps"]):
            name = s.get("name", "step %d" % i)
            sid = s.get("id", "_%d" % i)
            if not cond(s.get("if")):
                steps[sid] = {"outcome": "skipped", "outputs": {}}
                sf.write("%s skipped\n" % name)
                continue
            if "uses" in s:
                sf.write("%s uses %s\n" % (name, s["uses"]))
                wf.write(json.dumps({"name": name, "uses": s["uses"],
                                     "with": {k: expand(v) for k, v in (s.get("with") or {}).items()}},
                                    sort_keys=True) + "\n")
                steps[sid] = {"outcome": "success", "outputs": {}}
                continue
            assert s.get("shell") == "bash", "a run step needs shell: bash"
            gout = os.path.join(out, "output-%d" % i)
            open(gout, "w").close()
            extra = [l.strip() for l in open(gpath) if l.strip()]
            env = dict(os.environ)
            env.update({
                "PATH": os.pathsep.join(extra[::-1] + [os.environ["PATH"]]),
                "GITHUB_ACTIONS": "true", "CI": "true",
                "GITHUB_WORKSPACE": work, "GITHUB_EVENT_NAME": "pull_request",
                "GITHUB_EVENT_PATH": event_path, "GITHUB_ACTION_PATH": action_dir,
                "GITHUB_OUTPUT": gout, "GITHUB_STEP_SUMMARY": summary,
                "GITHUB_PATH": gpath, "GITHUB_REPOSITORY": "example-org/fleet",
                "GITHUB_SHA": event["pull_request"]["head"]["sha"],
                "RUNNER_TEMP": temp, "RUNNER_OS": "Linux",
            })
            for k, v in (s.get("env") or {}).items():
                env[k] = expand(v)
            for k in unset:
                env.pop(k, None)
            log.write("## %s\n" % name)
            log.flush()
            rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                  s["run"]], cwd=work, env=env, stdout=log,
                                 stderr=subprocess.STDOUT)
            outputs = {}
            for line in open(gout):
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    outputs[k] = v
            steps[sid] = {"outcome": "success" if rc == 0 else "failure", "outputs": outputs}
            sf.write("%s %d\n" % (name, rc))
            failed = failed or rc != 0
    with open(os.path.join(out, "outputs"), "w") as f:
        for k, v in action.get("outputs", {}).items():
            f.write("%s=%s\n" % (k, expand(v["value"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
