"""The zero-work floor of the load benchmark (``gunicorn bench.floor:app``).

A push server that speaks what the load generator speaks (create, seat and start
tables through the API, seat links with a session cookie, the table page, held
sync polls, entries) and does nothing else: an entry moves its table's revision
on, and every poll held for that table — in this worker at once, in the other
workers through a datagram — is answered with a fixed 3 KB body carrying the new
revision; a hold runs out after 20 s with a 204, like the app's. No database,
no rendering, no sessions: what is left is the cost of gunicorn, HTTP and the
wake-up itself, which is what the app's figures are divided by.

Served with the same gunicorn settings as the app (``bench.server.floor``). The
workers find each other through UNIX datagram sockets in ``$KT_FLOOR_PEERS``.
"""
from __future__ import annotations

import json
import os
import secrets
import socket
import threading
from pathlib import Path
from urllib.parse import parse_qs

from .bare import BARE_PATH

HOLD_SECONDS = 20
PADDING = "<p>" + "Kartentisch " * 250 + "</p>"  # 3 KB, about what a drawing of the regions weighs gzipped
JSON = [("Content-Type", "application/json")]


class Revisions:
    """The tables' revisions in this worker, and the polls waiting for them to move."""

    def __init__(self):
        self._lock = threading.Lock()
        self._revisions: dict[str, int] = {}
        self._moved: dict[str, threading.Condition] = {}

    def wait(self, table: str, revision: int) -> int | None:
        """The table's revision once it is past ``revision``; None when the hold ran out."""
        with self._lock:
            moved = self._moved.setdefault(table, threading.Condition(self._lock))
            if moved.wait_for(lambda: self._revisions.get(table, 0) > revision, HOLD_SECONDS):
                return self._revisions[table]
            return None

    def tell(self, table: str, revision: int) -> None:
        with self._lock:
            if revision > self._revisions.get(table, 0):
                self._revisions[table] = revision
                moved = self._moved.get(table)
                if moved is not None:
                    moved.notify_all()


class Peers:
    """The other workers: a datagram ``"<table> <revision>"`` to each one's socket."""

    def __init__(self, folder: Path, revisions: Revisions):
        self.folder, self._revisions = folder, revisions
        self.own = str(folder / f"{os.getpid()}.sock")
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(self.own)
        threading.Thread(target=self._listen, name="floor-peers", daemon=True).start()

    def tell(self, table: str, revision: int) -> None:
        message = f"{table} {revision}".encode()
        for entry in os.scandir(self.folder):
            if entry.path != self.own:
                try:
                    self._socket.sendto(message, entry.path)
                except OSError:
                    pass  # a worker that is gone

    def _listen(self) -> None:
        while True:
            table, _, revision = self._socket.recv(200).decode().partition(" ")
            self._revisions.tell(table, int(revision))


revisions = Revisions()
peers = Peers(Path(os.environ["KT_FLOOR_PEERS"]), revisions) if os.environ.get("KT_FLOOR_PEERS") else None


def _body(environ) -> dict:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    return json.loads(environ["wsgi.input"].read(length) or b"{}")


def _seat(base: str, table: str, position: int) -> dict:
    return {"id": table, "join_code": "FLOOR", "seat": position, "token": f"{table}.{position}",
            "seat_url": f"{base}/t/{table}/s/{position}"}


def app(environ, start_response):
    method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
    parts = path.strip("/").split("/")
    base = f"http://{environ['HTTP_HOST']}"
    if path == BARE_PATH:
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]
    if method == "POST" and parts[0] == "api":
        body = _body(environ)
        if parts == ["api", "tables"]:
            start_response("201 CREATED", JSON)
            return [json.dumps(_seat(base, secrets.token_hex(8), 0)).encode()]
        table = parts[2]
        if parts[3:] == ["seats"]:
            start_response("201 CREATED", JSON)
            return [json.dumps(_seat(base, table, secrets.randbelow(1000) + 1)).encode()]
        if parts[3:] == ["start"]:
            start_response("200 OK", JSON)
            return [b'{"version": 0}']
        if parts[3:] == ["events"]:
            version = body["version"] + 1
            revisions.tell(table, version)
            if peers is not None:
                peers.tell(table, version)
            start_response("200 OK", JSON)
            return [json.dumps({"version": version}).encode()]
    if method == "GET" and parts[0] == "t":
        table = parts[1]
        if parts[2:3] == ["s"]:
            start_response("302 FOUND", [("Location", f"/t/{table}"), ("Set-Cookie", f"session={table}.{parts[3]}")])
            return []
        if parts[2:] == []:
            start_response("200 OK", [("Content-Type", "text/html")])
            return [_poller(table, 0).encode()]
        if parts[2:] == ["sync"]:
            query = parse_qs(environ.get("QUERY_STRING", ""))
            moved = revisions.wait(table, int(query["rev"][0]))
            if moved is None:
                start_response("204 NO CONTENT", [])
                return []
            start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
            return [(_poller(table, moved) + PADDING).encode()]
    start_response("404 NOT FOUND", [])
    return []


def _poller(table: str, revision: int) -> str:
    return f'<div id="sync" hx-get="/t/{table}/sync?rev={revision}&amp;phase=play&amp;hold=1"></div>'
