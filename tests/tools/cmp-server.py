#!/usr/bin/env python3
"""cmp-server.py - plays Argo CD's config-management-plugin server for tests.

It does what argocd-cmp-server and the repo-server do around a plugin
command (docs/design/upstream.md, "Argo CD"), so the tests
exercise gpusite exactly as Argo CD runs it:

  run     read plugin.yaml, refuse spec.version as Argo CD 4.0 does,
          match the Application's plugin name (metadata.name; a
          `discover` rule must match too), copy the
          repository the way the server unpacks it (a fresh
          <tmp>/_cmp_server/<uuid>/ directory, files 0644, directories 0755
          unless preserveFileMode, symlinks leaving the copy refused), build
          the environment the repo-server builds (ARGOCD_APP_*, KUBE_*,
          ARGOCD_ENV_* with $VAR expansion, ARGOCD_APP_PARAMETERS as Go's
          json.Marshal writes it, PARAM_*), run init then generate (or the
          dynamic parameters command) exactly as written - argv, no shell -
          with the working directory at the app path, stdin closed, in its
          own process group, killed as a group at the 60 s deadline.  Then
          split stdout the way Argo CD does and check every document is a
          Kubernetes object; check the command wrote nothing anywhere.
  split   split a manifest stream the way Argo CD does; print the objects
          as JSON.
  expand  instantiate an ApplicationSet's Git files generator over a
          repository: one Application per matched file (Go templates,
          restricted to `{{ .a.b }}` field references and sprig's `dig`,
          missingkey=error).

Exit status: 0 when the server side went as Argo CD would accept it (the
command's own exit status is written to <out>/rc), 2 on a usage error,
3 when the run broke the plugin contract (invalid stream, files written,
timeout, plugin not matched).
"""
import argparse
import copy
import glob
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import uuid

import yaml

DEADLINE = 60.0


class ContractError(Exception):
    pass


def load_yaml_file(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


# ---------------------------------------------------------------- split

def split_manifests(text):
    """kube.SplitYAMLToString after cmpserver's TrimSuffix(out, "\\n")."""
    if text.endswith("\n"):
        text = text[:-1]
    stripped = text.lstrip(" \t\r\n")
    docs = []
    if stripped.startswith("{"):
        # Concatenated JSON values (NewYAMLOrJSONDecoder's JSON mode).
        dec = json.JSONDecoder()
        pos = 0
        while True:
            while pos < len(stripped) and stripped[pos] in " \t\r\n":
                pos += 1
            if pos >= len(stripped):
                break
            obj, pos = dec.raw_decode(stripped, pos)
            docs.append(obj)
    else:
        # sigs.k8s.io/yaml is YAML 1.1 (go-yaml v2); so is PyYAML.
        docs = list(yaml.safe_load_all(text))
    objects = []
    for i, doc in enumerate(docs):
        if doc is None:
            continue
        if not isinstance(doc, dict):
            raise ContractError("document %d is not an object but %s" % (i, type(doc).__name__))
        if not doc.get("kind"):
            raise ContractError("document %d has no kind" % i)
        if doc["kind"].endswith("List") and isinstance(doc.get("items"), list):
            items = doc["items"]
        else:
            items = [doc]
        for obj in items:
            for key in ("apiVersion", "kind"):
                if not isinstance(obj.get(key), str) or not obj[key]:
                    raise ContractError("document %d has no %s" % (i, key))
            meta = obj.get("metadata")
            if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
                raise ContractError("document %d (%s) has no metadata.name" % (i, obj["kind"]))
            objects.append(obj)
    return objects


# ---------------------------------------------------------------- environment

def go_json(value):
    """encoding/json.Marshal: compact, HTML-escaped, map keys sorted."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    for ch, esc in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def escaped(name):
    """types.go escaped(): strings.ToUpper, then [^A-Z0-9_] -> '_' per rune."""
    up = "".join(c.upper() if len(c.upper()) == 1 else c for c in name)
    return re.sub(r"[^A-Z0-9_]", "_", up)


def parameters_environ(params):
    """ApplicationSourcePluginParameters.Environ()."""
    marshalled = []
    for p in params:
        entry = {"name": p.get("name", "")}
        for kind in ("string", "array", "map"):
            if kind in p and p[kind] is not None:
                entry[kind] = p[kind]
        marshalled.append(entry)
    env = [("ARGOCD_APP_PARAMETERS", go_json(marshalled))]
    for p in marshalled:
        base = "PARAM_" + escaped(p["name"])
        if "string" in p:
            env.append((base, str(p["string"])))
        if "map" in p:
            for k, v in p["map"].items():
                env.append(("%s_%s" % (base, escaped(k)), str(v)))
        if "array" in p:
            for i, v in enumerate(p["array"]):
                env.append(("%s_%d" % (base, i), str(v)))
    return env


_EXPAND = re.compile(r"\$(\{([^}]*)\}|([*#$@!?\-0-9])|([A-Za-z0-9_]+))")


def envsubst(value, build):
    """Env.Envsubst: os.Expand with `$$` -> `$`, unknown -> ''."""
    def repl(m):
        name = m.group(2) if m.group(2) is not None else (m.group(3) or m.group(4))
        if name == "$":
            return "$"
        return build.get(name, "")
    return _EXPAND.sub(repl, value)


def normalise_kube_version(text):
    """version.ParseGeneric(...).String(): numbers only, 'v' and suffix dropped."""
    if not text:
        return ""
    m = re.match(r"\s*v?([0-9]+(?:\.[0-9]+)+)", text)
    if not m:
        raise SystemExit("cmp-server: cannot parse kube version %r" % text)
    return ".".join(str(int(x)) for x in m.group(1).split("."))


def build_env(app, args, revision, reduced):
    """repository.go newEnv + getPluginEnvs + getPluginParamEnvs."""
    spec = app.get("spec", {})
    src = spec.get("source", {})
    meta = app.get("metadata", {})
    name = meta.get("name", "")
    ns = meta.get("namespace", "argocd")
    if ns and ns != "argocd":
        name = "%s_%s" % (ns, name)      # InstanceName outside the control plane
    build = [
        ("ARGOCD_APP_NAME", name),
        ("ARGOCD_APP_NAMESPACE", spec.get("destination", {}).get("namespace", "")),
        ("ARGOCD_APP_PROJECT_NAME", spec.get("project", "")),
        ("ARGOCD_APP_REVISION", revision),
        ("ARGOCD_APP_REVISION_SHORT", revision[:7]),
        ("ARGOCD_APP_REVISION_SHORT_8", revision[:8]),
        ("ARGOCD_APP_SOURCE_PATH", src.get("path", "")),
        ("ARGOCD_APP_SOURCE_REPO_URL", src.get("repoURL", "")),
        ("ARGOCD_APP_SOURCE_TARGET_REVISION", src.get("targetRevision", "")),
        ("KUBE_VERSION", normalise_kube_version(args.kube_version)),
        ("KUBE_API_VERSIONS", ",".join(sorted(set(
            x for x in (args.api_versions or "").split(",") if x)))),
    ]
    lookup = dict(build)
    plugin = src.get("plugin")
    env = []
    if reduced:
        # populatePluginAppDetails: no namespace, revision or KUBE_*.
        keep = {"ARGOCD_APP_NAME", "ARGOCD_APP_SOURCE_REPO_URL",
                "ARGOCD_APP_SOURCE_PATH", "ARGOCD_APP_SOURCE_TARGET_REVISION"}
        env += [kv for kv in build if kv[0] in keep]
    else:
        env += build
    if plugin is not None:
        for e in plugin.get("env") or []:
            env.append(("ARGOCD_ENV_" + e["name"], envsubst(str(e.get("value", "")), lookup)))
        params = plugin.get("parameters")
        if params is None:
            env.append(("ARGOCD_APP_PARAMETERS", "null"))
        else:
            env += parameters_environ(params)
    return env


# ---------------------------------------------------------------- the copy

def copy_repo(repo, dest, preserve_mode):
    """Untar as cmp.ReceiveRepoStream does: files 0644, dirs 0755."""
    dest_real = os.path.realpath(dest)
    for root, dirs, files in os.walk(repo):
        rel = os.path.relpath(root, repo)
        target_dir = os.path.join(dest, rel) if rel != "." else dest
        os.makedirs(target_dir, exist_ok=True)
        for name in sorted(dirs + files):
            src = os.path.join(root, name)
            dst = os.path.join(target_dir, name)
            st = os.lstat(src)
            if stat.S_ISLNK(st.st_mode):
                link = os.readlink(src)
                if os.path.isabs(link):
                    # Re-rooted inside the work directory, made relative.
                    link = os.path.relpath(os.path.join(dest, link.lstrip("/")), target_dir)
                resolved = os.path.realpath(os.path.join(target_dir, link))
                if not (resolved == dest_real or resolved.startswith(dest_real + os.sep)):
                    raise ContractError("illegal filepath in symlink: %s" % os.path.relpath(src, repo))
                os.symlink(link, dst)
                if name in dirs:
                    dirs.remove(name)
            elif stat.S_ISDIR(st.st_mode):
                os.makedirs(dst, exist_ok=True)
                os.chmod(dst, stat.S_IMODE(st.st_mode) if preserve_mode else 0o755)
            elif stat.S_ISREG(st.st_mode):
                shutil.copyfile(src, dst)
                os.chmod(dst, stat.S_IMODE(st.st_mode) if preserve_mode else 0o644)
    os.chmod(dest, 0o755)


def snapshot(top):
    """Everything under top: path -> (kind, size, mtime, mode)."""
    out = {}
    for root, dirs, files in os.walk(top):
        for name in dirs + files:
            p = os.path.join(root, name)
            st = os.lstat(p)
            out[os.path.relpath(p, top)] = (stat.S_IFMT(st.st_mode), st.st_size,
                                           st.st_mtime_ns, stat.S_IMODE(st.st_mode))
    return out


def repo_revision(repo):
    """A stable stand-in for the commit SHA: hash of the tree's bytes."""
    import hashlib
    h = hashlib.sha1()
    for root, dirs, files in sorted(os.walk(repo)):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(root, name)
            h.update(os.path.relpath(p, repo).encode())
            if not os.path.islink(p):
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


# ---------------------------------------------------------------- running

def resolve_argv(argv, path):
    """exec.Command: a bare name is looked up in the sidecar's PATH."""
    if "/" in argv[0]:
        return argv
    found = shutil.which(argv[0], path=path)
    if not found:
        raise ContractError("exec: %r: executable file not found in $PATH" % argv[0])
    return [found] + argv[1:]


def run_command(command, cwd, env, deadline):
    """cmpserver/plugin.runCommand: argv, own process group, stdin closed."""
    argv = list(command.get("command") or []) + list(command.get("args") or [])
    if not argv:
        raise ContractError("Command is empty")
    argv = resolve_argv(argv, env.get("PATH", ""))
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=deadline)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise ContractError("deadline exceeded: killed after %.0f s" % deadline)
    finally:
        # The server kills the whole group when the request ends.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return proc.returncode, out, err


def match_plugin(plugin, app, appdir):
    meta = plugin.get("metadata") or {}
    if plugin.get("kind") != "ConfigManagementPlugin":
        raise ContractError("plugin.yaml kind is %r, not ConfigManagementPlugin" % plugin.get("kind"))
    if not meta.get("name"):
        raise ContractError("plugin.yaml has no metadata.name")
    spec = plugin.get("spec") or {}
    if not (spec.get("generate") or {}).get("command"):
        raise ContractError("plugin.yaml has no spec.generate.command")
    # Argo CD 4.0 (docs/operator-manual/upgrading/3.6-4.0.md): the cmp-server
    # does not start when spec.version is set; the version belongs in the name.
    if "version" in spec:
        raise ContractError("plugin.yaml sets spec.version, which Argo CD 4.0 no longer "
                            "supports: append the version to metadata.name")
    full = meta["name"]
    want = (((app.get("spec") or {}).get("source") or {}).get("plugin") or {}).get("name", "")
    discover = spec.get("discover")
    if want and want != full:
        raise ContractError("could not find cmp-server plugin with name %r (this server is %r)" % (want, full))
    if discover:
        ok = False
        if discover.get("fileName"):
            ok = bool(glob.glob(os.path.join(appdir, discover["fileName"])))
        elif (discover.get("find") or {}).get("glob"):
            ok = bool(glob.glob(os.path.join(appdir, discover["find"]["glob"]), recursive=True))
        else:
            raise ContractError("discover.find.command is not emulated")
        if not ok:
            raise ContractError("could not find cmp-server plugin with name %r supporting the given repository" % full)
    elif not want:
        raise ContractError("plugin %r has no discover rule: Applications must name it" % full)
    return spec


def one_run(args, plugin, app, base, env_pairs, results, index):
    spec = plugin["spec"]
    work = os.path.join(base, "tmp", "_cmp_server")
    copy_root = os.path.join(work, str(uuid.uuid4()))
    os.makedirs(copy_root, mode=0o700)
    copy_repo(args.repo, copy_root, bool(spec.get("preserveFileMode")))
    for item in args.inject_symlink or []:
        link, target = item.split("=", 1)
        os.symlink(target, os.path.join(copy_root, link))
    app_rel = ((app.get("spec") or {}).get("source") or {}).get("path", "") or "."
    appdir = os.path.normpath(os.path.join(copy_root, app_rel))
    if not (appdir + os.sep).startswith(copy_root + os.sep):
        raise ContractError("illegal appPath: out of workDir bound")
    match_plugin(plugin, app, appdir)
    results[index] = {"copy_root": copy_root, "appdir": appdir}


def add_plugin_inputs(app, args):
    """--param, --param-array and --plugin-env: entries appended to the
    Application's spec.source.plugin.parameters / .env, so they reach the
    command through the same Environ() and plugin-env code as the rest."""
    if not (args.param or args.param_array or args.plugin_env):
        return app
    app = copy.deepcopy(app)
    plugin = app.setdefault("spec", {}).setdefault("source", {}).setdefault("plugin", {})
    if args.param or args.param_array:
        params = plugin.get("parameters") or []
        for item in args.param or []:
            k, v = item.split("=", 1)
            params.append({"name": k, "string": v})
        for item in args.param_array or []:
            k, v = item.split("=", 1)
            params.append({"name": k, "array": [x for x in v.split(",") if x]})
        plugin["parameters"] = params
    for item in args.plugin_env or []:
        k, v = item.split("=", 1)
        plugin.setdefault("env", []).append({"name": k, "value": v})
    return app


def main_run(args):
    plugin = load_yaml_file(args.plugin)
    app = add_plugin_inputs(load_app(args), args)
    if args.command == "parameters":
        if not ((plugin.get("spec") or {}).get("parameters") or {}).get("dynamic"):
            raise ContractError("plugin.yaml has no spec.parameters.dynamic")
    base = tempfile.mkdtemp(prefix="cmp-server.")
    try:
        home = os.path.join(base, "home")
        tmp = os.path.join(base, "tmp")
        os.makedirs(home)
        os.makedirs(tmp)
        env = {
            "PATH": os.pathsep.join([os.path.dirname(os.path.abspath(args.gpusite)),
                                     "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": home,
            "TMPDIR": tmp,
            "LANG": "C.UTF-8",
        }
        for item in args.sidecar_env or []:
            k, v = item.split("=", 1)
            env[k] = v
        pairs = build_env(app, args, repo_revision(args.repo), args.command == "parameters")
        for item in args.set_env or []:
            k, v = item.split("=", 1)
            pairs.append((k, v))
        for k, v in pairs:          # exec keeps the last duplicate
            env[k] = v
        for k in args.unset_env or []:
            env.pop(k, None)
        if args.dump_env:
            with open(args.dump_env, "w", encoding="utf-8") as f:
                for k in sorted(env):
                    f.write("%s=%s\n" % (k, env[k]))

        copies = max(1, args.copies)
        prepared = [None] * copies
        os.makedirs(os.path.join(tmp, "_cmp_server"))
        for item in args.outside or []:
            name, src = item.split("=", 1)
            shutil.copyfile(src, os.path.join(tmp, "_cmp_server", name))
        for i in range(copies):
            one_run(args, plugin, app, base, pairs, prepared, i)
        before = snapshot(base)

        spec = plugin["spec"]
        commands = []
        if args.command == "generate":
            if (spec.get("init") or {}).get("command"):
                commands.append(("init", spec["init"]))
            commands.append(("generate", spec["generate"]))
        else:
            commands.append(("parameters", spec["parameters"]["dynamic"]))

        outcome = [None] * copies

        def worker(i):
            try:
                rc, out, err = 0, b"", b""
                for label, cmd in commands:
                    rc, out, err = run_command(cmd, prepared[i]["appdir"], env, DEADLINE)
                    if rc != 0:
                        break
                outcome[i] = (rc, out, err, None)
            except ContractError as e:
                outcome[i] = (None, b"", b"", str(e))

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(copies)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        after = snapshot(base)

        broken = []
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if changed:
            broken.append("the command wrote to the filesystem: " + ", ".join(changed[:10]))
        for i, (rc, out, err, problem) in enumerate(outcome):
            d = args.out if copies == 1 else os.path.join(args.out, str(i))
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "stdout"), "wb") as f:
                f.write(out)
            with open(os.path.join(d, "stderr"), "wb") as f:
                f.write(err)
            with open(os.path.join(d, "rc"), "w") as f:
                f.write("%s\n" % ("none" if rc is None else rc))
            if problem:
                broken.append("copy %d: %s" % (i, problem))
                continue
            if rc == 0 and args.command == "generate":
                try:
                    objs = split_manifests(out.decode("utf-8"))
                except (ContractError, yaml.YAMLError, ValueError) as e:
                    broken.append("copy %d: stream Argo CD cannot read: %s" % (i, e))
                    continue
                if not objs:
                    broken.append("copy %d: exit 0 with no object: Argo CD would prune the app" % i)
                with open(os.path.join(d, "manifests.json"), "w", encoding="utf-8") as f:
                    json.dump(objs, f, indent=1, sort_keys=True)
            elif rc == 0:
                try:
                    ann = json.loads(out.decode("utf-8"))
                    if not isinstance(ann, list):
                        raise ValueError("not a JSON array")
                except ValueError as e:
                    broken.append("copy %d: dynamic parameters output is not a JSON array: %s" % (i, e))
                    continue
                # getParametersAnnouncement: dynamic first, static after.
                ann += copy.deepcopy(spec["parameters"].get("static") or [])
                with open(os.path.join(d, "announcements.json"), "w", encoding="utf-8") as f:
                    json.dump(ann, f, indent=1, sort_keys=True)
        for b in broken:
            print("cmp-server: " + b, file=sys.stderr)
        return 3 if broken else 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


def load_app(args):
    with open(args.app, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    apps = doc if isinstance(doc, list) else [doc]
    if args.app_name:
        apps = [a for a in apps if (a.get("metadata") or {}).get("name") == args.app_name]
    if len(apps) != 1:
        raise SystemExit("cmp-server: %s: want exactly one Application, found %d" % (args.app, len(apps)))
    return apps[0]


# ---------------------------------------------------------------- expand

_TEMPLATE = re.compile(r"\{\{-?\s*(.*?)\s*-?\}\}")
_FIELD = re.compile(r"^\.[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$")
# sprig's dig: dig "k1" "k2" ... "default" .  (the keys, the default, the map)
_DIG = re.compile(r'^dig((?:\s+"[^"]*")+)\s+\.$')


def render_string(s, params):
    def repl(m):
        expr = m.group(1)
        dig = _DIG.match(expr)
        if dig:
            *keys, default = re.findall(r'"([^"]*)"', dig.group(1))
            v = params
            for key in keys:
                v = v.get(key) if isinstance(v, dict) else None
            return default if v is None else str(v)
        if not _FIELD.match(expr):
            raise SystemExit("cmp-server: template construct %r is not emulated" % expr)
        v = params
        for key in expr[1:].split("."):
            if not isinstance(v, dict) or key not in v:
                raise SystemExit("cmp-server: map has no entry for key %r (missingkey=error)" % key)
            v = v[key]
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (dict, list)) or v is None:
            raise SystemExit("cmp-server: %s is not a scalar" % expr)
        return str(v)
    return _TEMPLATE.sub(repl, s)


def render_template(node, params):
    if isinstance(node, dict):
        return {render_string(k, params): render_template(v, params) for k, v in node.items()}
    if isinstance(node, list):
        return [render_template(v, params) for v in node]
    if isinstance(node, str):
        return render_string(node, params)
    return node


def normalize(s):
    return re.sub(r"[^a-z0-9.-]", "-", s.lower())


def main_expand(args):
    appset = load_yaml_file(args.appset)
    spec = appset["spec"]
    if not spec.get("goTemplate") or "missingkey=error" not in (spec.get("goTemplateOptions") or []):
        raise SystemExit("cmp-server: the ApplicationSet must use goTemplate with missingkey=error")
    apps = []
    for gen in spec["generators"]:
        git = gen["git"]
        for f in git.get("files") or []:
            for path in sorted(glob.glob(os.path.join(args.repo, f["path"]))):
                rel = os.path.relpath(path, args.repo)
                with open(path, encoding="utf-8") as fh:
                    data = yaml.safe_load(fh)
                items = data if isinstance(data, list) else [data]
                for item in items:
                    params = dict(item)
                    d = os.path.dirname(rel)
                    params["path"] = {
                        "path": d,
                        "basename": os.path.basename(d),
                        "filename": os.path.basename(rel),
                        "basenameNormalized": normalize(os.path.basename(d)),
                        "filenameNormalized": normalize(os.path.basename(rel)),
                        "segments": d.split("/") if d else [],
                    }
                    app = render_template(copy.deepcopy(spec["template"]), params)
                    app = {"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
                           "metadata": dict(app.get("metadata") or {}), "spec": app.get("spec")}
                    app["metadata"].setdefault("namespace", appset["metadata"].get("namespace", "argocd"))
                    apps.append(app)
    json.dump(apps, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def main_split(args):
    with open(args.file, encoding="utf-8") as f:
        objs = split_manifests(f.read())
    json.dump(objs, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("--plugin", required=True)
    r.add_argument("--repo", required=True)
    r.add_argument("--app", required=True, help="Application YAML/JSON (one, or a list)")
    r.add_argument("--app-name")
    r.add_argument("--gpusite", required=True, help="binary whose directory goes first on PATH")
    r.add_argument("--command", choices=["generate", "parameters"], default="generate")
    r.add_argument("--kube-version", default="")
    r.add_argument("--api-versions", default="")
    r.add_argument("--sidecar-env", action="append", help="NAME=VALUE in the sidecar's own env")
    r.add_argument("--set-env", action="append", help="NAME=VALUE added after Argo CD's")
    r.add_argument("--param", action="append",
                   help="NAME=VALUE: a string parameter appended to the Application's plugin.parameters")
    r.add_argument("--param-array", action="append",
                   help="NAME=A,B: an array parameter appended to plugin.parameters (NAME= for [])")
    r.add_argument("--plugin-env", action="append",
                   help="NAME=VALUE appended to the Application's plugin.env (ARGOCD_ENV_NAME, as written)")
    r.add_argument("--unset-env", action="append", help="NAME removed from the final env")
    r.add_argument("--inject-symlink", action="append",
                   help="LINK=TARGET made in the copy after unpacking (a link the server's own check missed)")
    r.add_argument("--outside", action="append",
                   help="NAME=SRC: copy SRC to <tmp>/_cmp_server/NAME, beside the repository copies")
    r.add_argument("--copies", type=int, default=1, help="run this many at once, each in its own copy")
    r.add_argument("--dump-env", help="write the final environment here")
    r.add_argument("--out", required=True)
    s = sub.add_parser("split")
    s.add_argument("file")
    e = sub.add_parser("expand")
    e.add_argument("--appset", required=True)
    e.add_argument("--repo", required=True)
    args = ap.parse_args()
    try:
        if args.mode == "run":
            args.repo = os.path.abspath(args.repo)
            return main_run(args)
        if args.mode == "split":
            return main_split(args)
        return main_expand(args)
    except ContractError as e:
        print("cmp-server: %s" % e, file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
