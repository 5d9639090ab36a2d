#!/usr/bin/env python3
"""serve-abuse.py - clients that misbehave against `gpusite serve`, over
loopback, bounded in count and time.

  serve-abuse.py early HOST:PORT
      POST headers announcing a 1 MiB body, no token, and
      "Expect: 100-continue"; prints the first status line the server
      sends before any byte of the body ("HTTP/1.1 401 ..."), or
      "nothing in 3 s"; then the same without Expect
  serve-abuse.py flood HOST:PORT COUNT [--token T] [--hold S]
      COUNT clients at once, spread over 127.0.0.1-10 (the server limits
      connections per address), each POSTs a 1 MiB body in 64 KiB writes
      (pausing --hold seconds half-way); prints "statuses {...}"
  serve-abuse.py slow HOST:PORT COUNT HEALTH-HOST:PORT
      COUNT connections spread over 127.0.0.1-9, each sending one header
      line every 2 s and never the end of the headers; once they are open,
      asks GET /healthz at HEALTH-HOST:PORT and prints "healthz STATUS in
      MS ms", then prints "closed by the server: N of COUNT within S s"
  serve-abuse.py per-address HOST:PORT COUNT
      COUNT idle connections from 127.0.0.1; prints "open N, refused M"
"""
import socket
import sys
import threading
import time

MIB = 1 << 20


def connect(hostport, source=None, timeout=10):
    host, port = hostport.rsplit(":", 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    if source:
        s.bind((source, 0))
    s.connect((host, int(port)))
    return s


def headers(token, length, expect=False):
    h = "POST /api/v1/getparams.execute HTTP/1.1\r\nHost: gpusite\r\n"
    h += "Content-Type: application/json\r\nContent-Length: %d\r\n" % length
    if token:
        h += "Authorization: Bearer %s\r\n" % token
    if expect:
        h += "Expect: 100-continue\r\n"
    return (h + "\r\n").encode()


def first_line(s, wait):
    s.settimeout(wait)
    data = b""
    try:
        while b"\r\n" not in data:
            got = s.recv(4096)
            if not got:
                break
            data += got
    except socket.timeout:
        pass
    except OSError as e:
        return "error %s" % e.__class__.__name__
    return data.split(b"\r\n", 1)[0].decode("latin-1") if data else None


def early(hostport):
    for expect in (True, False):
        s = connect(hostport)
        s.sendall(headers(None, MIB, expect))
        line = first_line(s, 3)
        print(line if line else "nothing in 3 s")
        s.close()


def flood(hostport, count, token, hold):
    statuses = {}
    lock = threading.Lock()
    chunk = b"x" * 65536

    def one(i):
        status = "none"
        try:
            s = connect(hostport, "127.0.0.%d" % (1 + i % 10), timeout=20)
            s.sendall(headers(token, MIB))
            for k in range(MIB // len(chunk)):
                if hold and k == 8:
                    time.sleep(hold)
                s.sendall(chunk)
            line = first_line(s, 20)
            status = line.split()[1] if line and line.startswith("HTTP/") else str(line)
        except OSError:
            # the server answered early and closed: read what it said
            try:
                line = first_line(s, 5)
                status = line.split()[1] if line and line.startswith("HTTP/") else "closed"
            except Exception:
                status = "closed"
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("statuses", dict(sorted(statuses.items())))


def slow(hostport, count, health):
    conns = []
    for i in range(count):
        try:
            s = connect(hostport, "127.0.0.%d" % (1 + i % 9))
            s.sendall(b"POST /api/v1/getparams.execute HTTP/1.1\r\nHost: gpusite\r\n")
            s.setblocking(False)
            conns.append(s)
        except OSError:
            pass
    t0 = time.monotonic()
    h = connect(health, timeout=5)
    h.sendall(b"GET /healthz HTTP/1.1\r\nHost: gpusite\r\nConnection: close\r\n\r\n")
    line = first_line(h, 5)
    took = (time.monotonic() - t0) * 1000
    h.close()
    status = line.split()[1] if line and line.startswith("HTTP/") else str(line)
    print("opened %d" % len(conns))
    print("healthz %s in %d ms" % (status, took))
    closed = set()
    start = time.monotonic()
    n = 0
    while len(closed) < len(conns) and time.monotonic() - start < 16:
        for k, s in enumerate(conns):
            if k in closed:
                continue
            try:
                if s.recv(4096) == b"":
                    closed.add(k)
                    continue
            except BlockingIOError:
                pass
            except OSError:
                closed.add(k)
                continue
            try:
                s.send(b"X-Slow-%d: %d\r\n" % (n, n))
            except OSError:
                closed.add(k)
        n += 1
        time.sleep(2)
    print("closed by the server: %d of %d within 16 s" % (len(closed), len(conns)))


def per_address(hostport, count):
    conns = [connect(hostport, "127.0.0.1") for _ in range(count)]
    time.sleep(0.5)
    refused = 0
    for s in conns:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                refused += 1
        except BlockingIOError:
            pass
        except OSError:
            refused += 1
    print("open %d, refused %d" % (count - refused, refused))


def main():
    a = sys.argv[1:]
    token, hold = None, 0
    if "--token" in a:
        i = a.index("--token")
        token = a[i + 1]
        del a[i:i + 2]
    if "--hold" in a:
        i = a.index("--hold")
        hold = float(a[i + 1])
        del a[i:i + 2]
    if a[0] == "early":
        early(a[1])
    elif a[0] == "flood":
        flood(a[1], int(a[2]), token, hold)
    elif a[0] == "slow":
        slow(a[1], int(a[2]), a[3])
    elif a[0] == "per-address":
        per_address(a[1], int(a[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
