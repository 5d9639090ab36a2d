#!/usr/bin/env python3
"""http-backend.py - Git's smart HTTP protocol on a loopback port, for tests.

Every request is handed to `git http-backend` as a CGI program (the way a
web server would run it), so clients talk to the real Git server code.

usage: http-backend.py --root DIR --port-file FILE [--log FILE]
                       [--auth USER:PASSWORD] [--tls DIR] [--parent PID]

  --root DIR        GIT_PROJECT_ROOT: repositories under DIR (all exported)
  --port-file FILE  the port chosen (0 = any free port) is written here
  --log FILE        one line per request: METHOD PATH STATUS auth=...
                    (auth=none|ok|missing|bad; the user name when ok; never
                    the password)
  --auth U:P        HTTP basic authentication required; 401 otherwise
  --tls DIR         HTTPS with DIR/server.crt and DIR/server.key
  --parent PID      exit when process PID is gone
Python 3 standard library only.
"""
import base64
import http.server
import os
import socketserver
import ssl
import subprocess
import sys
import threading
import time


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass    # requests go to --log, in our own format

    def record(self, status, auth):
        log = self.server.opts.get("log")
        if not log:
            return
        with self.server.log_lock:
            with open(log, "a") as f:
                f.write("%s %s %d auth=%s\n" % (self.command, self.path, status, auth))

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def check_auth(self):
        want = self.server.opts.get("auth")
        if not want:
            return "none", None
        got = self.headers.get("Authorization", "")
        if not got.startswith("Basic "):
            return "missing", None
        try:
            user_pass = base64.b64decode(got[6:]).decode()
        except Exception:
            return "bad", None
        if user_pass != want:
            return "bad", None
        return "ok:" + user_pass.split(":", 1)[0], user_pass.split(":", 1)[0]

    def deny(self, auth):
        msg = b"authentication required\n"
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="git"')
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(msg)))
        self.end_headers()
        self.wfile.write(msg)
        self.record(401, auth)

    def handle_git(self):
        data = self.body()
        auth, user = self.check_auth()
        if auth in ("missing", "bad"):
            self.deny(auth)
            return
        path, _, query = self.path.partition("?")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": self.server.opts["root"],
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(data)),
            "REMOTE_ADDR": self.client_address[0],
        }
        if user:
            env["REMOTE_USER"] = user
        if self.headers.get("Content-Encoding"):
            env["HTTP_CONTENT_ENCODING"] = self.headers["Content-Encoding"]
        if self.headers.get("Git-Protocol"):
            env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        proc = subprocess.run(["git", "http-backend"], input=data, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = proc.stdout
        head, sep, payload = out.partition(b"\r\n\r\n")
        if not sep:
            head, sep, payload = out.partition(b"\n\n")
        status = 200
        headers = []
        for line in head.decode("latin-1").splitlines():
            if not line.strip():
                continue
            k, _, v = line.partition(":")
            if k.lower() == "status":
                status = int(v.strip().split()[0])
            else:
                headers.append((k.strip(), v.strip()))
        self.send_response(status)
        for k, v in headers:
            if k.lower() not in ("content-length", "transfer-encoding"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)
        self.record(status, auth)

    do_GET = handle_git
    do_POST = handle_git


def main(argv):
    opts = {}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--root", "--port-file", "--log", "--auth", "--tls", "--parent",
                 "--port"):
            opts[a[2:].replace("-", "_")] = argv[i + 1]
            i += 2
        else:
            sys.stderr.write("http-backend.py: unknown argument %r\n" % a)
            return 2
    if "root" not in opts:
        sys.stderr.write("http-backend.py: --root is required\n")
        return 2
    srv = Server(("127.0.0.1", int(opts.get("port") or 0)), Handler)
    srv.opts = opts
    srv.log_lock = threading.Lock()
    if opts.get("tls"):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(opts["tls"], "server.crt"),
                            os.path.join(opts["tls"], "server.key"))
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    port = srv.server_address[1]
    if opts.get("port_file"):
        tmp = opts["port_file"] + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, opts["port_file"])
    else:
        print(port, flush=True)
    if opts.get("parent"):
        parent = int(opts["parent"])

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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
