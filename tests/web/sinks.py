"""Receivers of the server's turn alerts on loopback, each in a thread of the test process:
a webhook receiver (HTTP, records every JSON body) and an SMTP sink (records every message,
and the login it was sent with)."""

from __future__ import annotations

import base64
import json
import socketserver
import ssl
import subprocess
import threading
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# How often a receiver's loop looks whether it is to stop: ``close()`` waits up to this long
# (socketserver's default, 0.5 s, was half a second of every close).
POLL = 0.02


def loopback_certificate(folder: Path) -> tuple[Path, ssl.SSLContext]:
    """A self-signed certificate for 127.0.0.1 (openssl, an EC key: cheap): its file (a
    client trusts it with ``SSL_CERT_FILE``) and a server context holding it."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return cert, context


class WebhookReceiver:
    """``url``: where to post; ``bodies``: every JSON body received (path, body)."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, Any]] = []
        received = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                received.append((self.path, json.loads(raw)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, args=(POLL,), daemon=True).start()

    def to(self, path: str) -> list[Any]:
        return [body for p, body in self.bodies if p == path]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class SmtpSink:
    """A minimal SMTP server (EHLO, STARTTLS when given a certificate, AUTH PLAIN/LOGIN, MAIL,
    RCPT, DATA, QUIT): ``messages`` holds every message received, ``encrypted`` whether each
    came over TLS, ``logins`` the (user, password) each session gave."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.messages: list[Message] = []
        self.encrypted: list[bool] = []
        self.logins: list[tuple[str, str]] = []
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            secure = False

            def reply(self, line: str) -> None:
                self.wfile.write(line.encode() + b"\r\n")

            def starttls(self) -> None:
                assert tls is not None
                self.reply("220 go ahead")
                self.connection = tls.wrap_socket(self.connection, server_side=True)
                self.rfile = self.connection.makefile("rb")
                self.wfile = self.connection.makefile("wb", buffering=0)
                self.secure = True

            def handle(self) -> None:
                self.reply("220 sink ESMTP")
                while True:
                    raw = self.rfile.readline()
                    if not raw:
                        return
                    verb, _, arg = raw.decode().strip().partition(" ")
                    verb = verb.upper()
                    if verb == "EHLO":
                        self.reply("250-sink")
                        if tls is not None and not self.secure:
                            self.reply("250-STARTTLS")
                        self.reply("250 AUTH PLAIN LOGIN")
                    elif verb == "STARTTLS" and tls is not None:
                        self.starttls()
                    elif verb == "AUTH":
                        kind, _, initial = arg.partition(" ")
                        if kind.upper() == "PLAIN":
                            if not initial:
                                self.reply("334 ")
                                initial = self.rfile.readline().decode().strip()
                            _, user, password = base64.b64decode(initial).decode().split("\0")
                        else:
                            self.reply("334 VXNlcm5hbWU6")
                            user = base64.b64decode(self.rfile.readline().strip()).decode()
                            self.reply("334 UGFzc3dvcmQ6")
                            password = base64.b64decode(self.rfile.readline().strip()).decode()
                        sink.logins.append((user, password))
                        self.reply("235 ok")
                    elif verb == "DATA":
                        self.reply("354 go on")
                        data = bytearray()
                        while True:
                            line = self.rfile.readline()
                            if line in (b".\r\n", b".\n", b""):
                                break
                            data += line[1:] if line.startswith(b"..") else line
                        sink.messages.append(message_from_bytes(bytes(data)))
                        sink.encrypted.append(self.secure)
                        self.reply("250 queued")
                    elif verb == "QUIT":
                        self.reply("221 bye")
                        return
                    else:  # HELO, MAIL, RCPT, RSET, NOOP
                        self.reply("250 ok")

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, args=(POLL,), daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class HangingReceiver:
    """A webhook receiver that reads a request and answers nothing until ``release()``
    (then closes the connection without a response): ``held`` counts the requests it holds,
    ``closed_by_client`` those whose sender gave up first."""

    def __init__(self) -> None:
        self.held = 0
        self.closed_by_client = 0
        self._release = threading.Event()
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass  # the headers; the body may stay unread
                sink.held += 1
                self.request.settimeout(POLL)
                while not sink._release.is_set():
                    try:
                        if self.request.recv(1) == b"":
                            sink.closed_by_client += 1
                            return
                    except TimeoutError:
                        continue
                    except OSError:
                        return

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, args=(POLL,), daemon=True).start()

    def release(self) -> None:
        self._release.set()

    def close(self) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()
