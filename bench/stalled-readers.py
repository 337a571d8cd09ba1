#!/usr/bin/env python3
"""Clients that pipeline requests and never read the answers, against a running `dppx serve`.

Each of CONNECTIONS sockets (receive buffer REVCBUF bytes, set before connecting) sends TARGET
with `Sec-CH-DPR: 2` REPEAT times in one go every 50 ms, as far as the socket takes it without
blocking, and reads nothing. The server's resident memory (VmRSS of PID) is sampled every 100 ms.
Prints one line: connections, RSS before, peak and at the end, and the growth per connection.

    bench/stalled-readers.py PORT PID CONNECTIONS SECONDS [--target /hero.jpg] [--repeat 200]
"""
import argparse
import socket
import time


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("pid", type=int)
    parser.add_argument("connections", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--target", default="/hero.jpg")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rcvbuf", type=int, default=4096)
    args = parser.parse_args()

    request = f"GET {args.target} HTTP/1.1\r\nHost: x\r\nSec-CH-DPR: 2\r\n\r\n".encode() * args.repeat
    before = rss_kb(args.pid)
    sockets = []
    for _ in range(args.connections):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, args.rcvbuf)
        connection.connect(("127.0.0.1", args.port))
        connection.setblocking(False)
        sockets.append(connection)

    sent = 0
    closed = 0
    peak = before
    deadline = time.monotonic() + args.seconds
    next_sample = 0.0
    while time.monotonic() < deadline:
        for connection in sockets:
            if connection.fileno() < 0:
                continue
            try:
                sent += connection.send(request)
            except BlockingIOError:
                pass
            except OSError:
                connection.close()  # the server gave up on this client
                closed += 1
        now = time.monotonic()
        if now >= next_sample:
            peak = max(peak, rss_kb(args.pid))
            next_sample = now + 0.1
        time.sleep(0.05)
    end = rss_kb(args.pid)
    peak = max(peak, end)
    for connection in sockets:
        connection.close()
    growth = (peak - before) / 1024
    print(f"{args.connections} stalled readers, {args.seconds:.0f} s: RSS {before / 1024:.1f} MB before, "
          f"{peak / 1024:.1f} MB peak, {end / 1024:.1f} MB at the end; +{growth:.1f} MB "
          f"({(peak - before) / max(1, args.connections):.0f} KB per connection); "
          f"{sent / 1024 / 1024:.1f} MB of requests sent, {closed} connections closed by the server")


if __name__ == "__main__":
    main()
