"""A backend for scripts/test-proxy that answers nothing: every request but GET /readyz is read whole, written
to the log as `METHOD PATH` (one line, flushed before the socket closes), and the connection is closed
without a response, as an instance that crashed mid-request would. GET /readyz answers 200 so haproxy's
checks keep the server in rotation. A PROXY protocol v2 header before the request (haproxy's send-proxy-v2, on
checks too) is skipped.

    python3 closing-backend.py LOG PORT_FILE     listens on 127.0.0.1, an ephemeral port written to PORT_FILE
"""

import os
import socketserver
import sys

PROXY_V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        head = []
        start = self.rfile.read(len(PROXY_V2_SIGNATURE))
        if start == PROXY_V2_SIGNATURE:
            rest = self.rfile.read(4)
            self.rfile.read(int.from_bytes(rest[2:4], "big"))
            start = b""
        while True:
            line = start + self.rfile.readline(65536)
            start = b""
            if not line or line in (b"\r\n", b"\n"):
                break
            head.append(line.decode("latin-1").rstrip("\r\n"))
        if not head:
            return
        method, path = (head[0].split(" ") + ["", ""])[:2]
        length = 0
        for field in head[1:]:
            name, _, value = field.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if length:
            self.rfile.read(length)
        if method == "GET" and path == "/readyz":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            return
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(f"{method} {path}\n")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


LOG, PORT_FILE = sys.argv[1], sys.argv[2]
with Server(("127.0.0.1", 0), Handler) as server:
    with open(PORT_FILE + ".tmp", "w", encoding="utf-8") as port_file:
        port_file.write(f"{server.server_address[1]}\n")
    os.replace(PORT_FILE + ".tmp", PORT_FILE)
    server.serve_forever()
