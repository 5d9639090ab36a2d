#!/usr/bin/env python3
"""appset-client.py - play Argo CD's ApplicationSet controller against a
plugin generator (`gpusite serve`).

The request is what the controller's plugin generator sends
(applicationset/services/plugin and services/internal/http): POST
<baseUrl>/api/v1/getparams.execute, Content-Type: application/json,
User-Agent: argocd-applicationset, Authorization: Bearer <token>, and a
body {"applicationSetName": NAME, "input": {"parameters": {...}}} written
by Go's encoder (a final newline).  A status outside 200-299 is an error
to the controller, which then keeps the Applications it has.

  appset-client.py BASE [--token-file F | --token T | --no-token]
                   [--param NAME=JSON]... [--appset NAME]
                   [--body-file F] [--body-bytes N] [--chunked]
                   [--method M] [--path P] [--concurrent N]
      prints "STATUS" on the first line, then the body (--concurrent N:
      N requests at once, from 127.0.0.1-4 when BASE is on loopback)
  appset-client.py BASE --check-template APPSET.yaml --token-file F
      for each plugin generator of each ApplicationSet in the file: asks
      with its input parameters, then checks that every {{ .key }} its
      template uses is in every element; prints one line per generator
"""
import argparse
import http.client
import json
import re
import sys
import threading
import urllib.parse


def request(base, args, body, source=None):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30,
                                      source_address=(source, 0) if source else None)
    headers = {"User-Agent": "argocd-applicationset"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if args.token is not None:
        headers["Authorization"] = "Bearer " + args.token
    path = args.path or (u.path.rstrip("/") + "/api/v1/getparams.execute")
    if args.chunked and body is not None:
        conn.putrequest(args.method, path)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        for i in range(0, len(body), 65536):
            part = body[i:i + 65536]
            try:
                conn.send(b"%x\r\n%s\r\n" % (len(part), part))
            except (BrokenPipeError, ConnectionResetError):
                break
        try:
            conn.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
    else:
        try:
            conn.request(args.method, path, body=body, headers=headers)
        except (BrokenPipeError, ConnectionResetError):
            pass
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, data


def body_of(args, params):
    if args.body_file:
        with open(args.body_file, "rb") as f:
            return f.read()
    if args.body_bytes is not None:
        return b"x" * args.body_bytes
    if args.method != "POST":
        return None
    # Go's json.Encoder: compact, a final newline
    doc = {"applicationSetName": args.appset, "input": {"parameters": params}}
    return (json.dumps(doc, separators=(",", ":")) + "\n").encode()


def template_keys(node, out):
    if isinstance(node, dict):
        for v in node.values():
            template_keys(v, out)
    elif isinstance(node, list):
        for v in node:
            template_keys(v, out)
    elif isinstance(node, str):
        for expr in re.findall(r"\{\{(.*?)\}\}", node):
            for key in re.findall(r"(?<![\w$])\.([A-Za-z_]\w*)", expr):
                out.add(key)


def check_template(base, args):
    import yaml
    bad = 0
    with open(args.check_template) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    for doc in docs:
        if doc.get("kind") != "ApplicationSet":
            continue
        spec = doc["spec"]
        for g in spec["generators"]:
            if "plugin" not in g:
                continue
            params = g["plugin"].get("input", {}).get("parameters", {})
            keys = set()
            template_keys(spec["template"], keys)
            template_keys(g["plugin"].get("template", {}), keys)
            # the controller adds these; the plugin does not
            keys -= {"generator", "values"}
            args.appset = doc["metadata"]["name"]
            status, data = request(base, args, body_of(args, params))
            if status != 200:
                print("%s: status %d: %s" % (args.appset, status, data.decode()))
                bad += 1
                continue
            elems = json.loads(data)["output"]["parameters"]
            if not elems:
                print("%s: no element" % args.appset)
                bad += 1
            for e in elems:
                missing = sorted(keys - set(e))
                if missing:
                    print("%s: element %s lacks %s" % (args.appset, json.dumps(e), missing))
                    bad += 1
            print("%s: %d elements, keys %s" % (args.appset, len(elems), sorted(keys)))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("base")
    p.add_argument("--token")
    p.add_argument("--token-file")
    p.add_argument("--no-token", action="store_true")
    p.add_argument("--param", action="append", default=[])
    p.add_argument("--appset", default="gpusite-spokes")
    p.add_argument("--body-file")
    p.add_argument("--body-bytes", type=int)
    p.add_argument("--chunked", action="store_true")
    p.add_argument("--method", default="POST")
    p.add_argument("--path")
    p.add_argument("--concurrent", type=int, default=0)
    p.add_argument("--check-template")
    args = p.parse_args()
    if args.token_file and not args.no_token:
        with open(args.token_file) as f:
            args.token = f.read().strip()
    if args.no_token:
        args.token = None
    params = {}
    for kv in args.param:
        k, _, v = kv.partition("=")
        params[k] = json.loads(v)
    if args.check_template:
        return check_template(args.base, args)
    body = body_of(args, params)
    if args.concurrent:
        results = [None] * args.concurrent
        start = threading.Barrier(args.concurrent)

        def one(i):
            start.wait()
            try:
                # from 127.0.0.1-4 on loopback: serve takes at most 32
                # connections from one client address
                src = "127.0.0.%d" % (1 + i % 4) if args.base.startswith("http://127.") else None
                results[i] = request(args.base, args, body, src)
            except Exception as e:  # a refused or reset connection
                results[i] = (0, str(e).encode())
        threads = [threading.Thread(target=one, args=(i,)) for i in range(args.concurrent)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(set(r[0] for r in results))
        bodies = set(r[1] for r in results)
        print("statuses %s, %d distinct bodies" % (statuses, len(bodies)))
        sys.stdout.write(results[0][1].decode())
        return 0
    status, data = request(args.base, args, body)
    print(status)
    sys.stdout.write(data.decode(errors="replace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
