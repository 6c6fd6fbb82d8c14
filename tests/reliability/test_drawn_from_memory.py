"""What the server sends after each entry is what the database holds.

Real HTTP against the live server: threaded werkzeug on SQLite under ``./kt test``;
under ``./kt test-postgres`` gunicorn's two workers on PostgreSQL, which take turns
with a table's entries and draw their changes from memory — the table and entries an
entry left, and the entries the other worker announced (``store.latest``; a worker
hears of them while phones wait there). Watching phones hold their polls open
throughout, and the entries go out in turn over several keep-alive connections; each
group is opened at one moment so that both workers hold some (a worker keeps the
connections it accepted). After each entry the regions a watching phone is sent are
compared, byte for byte, with the regions an app of this test process draws from the
database.
"""
from __future__ import annotations

import http.client
import re
import socket
import sys
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from engine.randomplay import random_record
from tests.conftest import _dispose_engines, app_test_config
from webapp import create_app, play, store

sys.path.insert(0, str(Path(__file__).parent))
from phones import Phone, seat_players  # noqa: E402

ENTRIES = 40
CONNECTIONS = 32  # entering phones (at once, 32 connections end up on both workers; 8 often on one)
WATCHERS = 16
REVISION = re.compile(r"[?&;]rev=(\d+)")


def together(count: int, first_request) -> list:
    """``first_request()`` made ``count`` times at one moment, each in a thread of its own."""
    barrier = threading.Barrier(count, timeout=30)

    def one(_index):
        barrier.wait()
        return first_request()

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def entering_phones(url: str) -> list[Phone]:
    def opened() -> Phone:
        phone = Phone(url)
        assert phone.call("GET", "/api/tables/-/state")[0] == 401  # (no token: answered without any work)
        return phone

    return together(CONNECTIONS, opened)


class Watchers:
    """Phones holding their table's poll open (``hold=1``) until ``stop()``, as the page does."""

    def __init__(self, url: str, table_id: str):
        parts = urlsplit(url)
        self.path, self.stopping = f"/t/{table_id}/sync?phase=play&hold=1&rev=", threading.Event()
        self.connections = together(WATCHERS, lambda: http.client.HTTPConnection(parts.hostname, parts.port))
        self.threads = [threading.Thread(target=self._watch, args=(c,), daemon=True) for c in self.connections]
        for thread in self.threads:
            thread.start()

    def _watch(self, connection: http.client.HTTPConnection) -> None:
        revision = 0
        while not self.stopping.is_set():
            try:
                connection.request("GET", self.path + str(revision), headers={"HX-Request": "true"})
                answer = connection.getresponse()
                found = REVISION.search(answer.read().decode())
            except (OSError, http.client.HTTPException):
                return
            if answer.status == 200 and found:
                revision = int(found.group(1))

    def stop(self) -> None:
        self.stopping.set()
        for connection in self.connections:
            if connection.sock is not None:
                connection.sock.shutdown(socket.SHUT_RDWR)  # lets a held poll go
        for thread in self.threads:
            thread.join(timeout=10)


@pytest.mark.parametrize("game, names", [("cubirds", ["Anna", "Ben", "Carla"]), ("gemeinsame-sache", ["Anna", "Ben"])])
def test_every_change_is_sent_as_the_database_draws_it(live_server, game, names):
    record = random_record(game, {}, len(names), 11)
    table = seat_players(Phone(live_server.url), game, names)
    phones = entering_phones(live_server.url)
    watchers = Watchers(live_server.url, table.id)
    here = create_app(app_test_config(live_server.database_url))
    sync = here.extensions["sync"]
    try:
        for version, event in enumerate(record["events"][:ENTRIES]):
            status, answer = phones[version % CONNECTIONS].call(
                "POST", f"/api/tables/{table.id}/events", {"event": event, "version": version},
                token=table.tokens[version % len(table.tokens)])
            assert status == 200, answer
            revision = sync.current_revision(table.id)
            with urllib.request.urlopen(f"{live_server.url}/t/{table.id}/sync?rev={revision - 1}&phase=play") as sent:
                served = sent.read()
            store.clear_cache()  # (the threaded server shares this process's memory: nothing kept is used)
            for kept in (play._drawings, play._logs):
                kept.clear()
            from_database = sync._draw(sync.facts(table.id, revision), "de", None, None).body
            assert served == from_database, f"{game}: the drawing sent after entry {version + 1} ({event['type']})"
    finally:
        watchers.stop()
        _dispose_engines(here)
