"""The unchanged sync poll, answered before Flask: ``GET /t/<id>/sync?rev=R``
gets its ``204`` from one indexed SELECT on a pooled connection — and with
``hold=1`` not at once but when the table changes (then the ``play.sync``
view draws the regions) or when the hold ends (``SYNC_HOLD_SECONDS``).

A phone holds one poll open and asks again as soon as it is answered, so the
requests follow the entries, not the clock (see ``watch.py``). Polls beyond
``SYNC_HOLDS`` per process, and polls without ``hold``, get their 204 at once;
the page then asks again every 500 ms. In Flask (request context, session,
Babel, ORM session) an unchanged answer would cost about ten times the SELECT.
Anything else — a changed table, an unknown one, a malformed query — goes on
to the ``play.sync`` view unchanged.
"""
from __future__ import annotations

import re
import signal
import sqlite3
import threading
from urllib.parse import parse_qs

import sqlalchemy as sa
from flask import Flask, Response, current_app, g, has_app_context, has_request_context
from flask_sqlalchemy.session import Session

from .doorbell import doorbells_for
from .extensions import db
from .models import Table
from .store import REVISION_OF_TABLE
from .watch import LISTEN_SECONDS, Listen, Quiet, RevisionWatch

SYNC_PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,32})/sync")
REVISION_CHANNEL = "kartentisch_revisions"
WATCH = "kartentisch.watch"
COMMITTED = "kartentisch.committed"
POKE_WHEN_ANSWERED = "kt_poke_when_answered"
REVISIONS_OF_TABLES = sa.select(Table.id, Table.revision).where(
    Table.id.in_(sa.bindparam("table_ids", expanding=True)))


def init_app(app: Flask) -> None:
    with app.app_context():
        # No transaction around a single SELECT: on PostgreSQL that saves the BEGIN and
        # ROLLBACK round trips (a third of the cost under load); SQLite reads the same way.
        engine = db.engine.execution_options(isolation_level="AUTOCOMMIT")
    flask_wsgi = app.wsgi_app

    def current_revision(table_id: str) -> int | None:
        with engine.connect() as connection:
            return connection.execute(REVISION_OF_TABLE, {"table_id": table_id}).scalar_one_or_none()

    def read_revisions(table_ids: list[str]) -> dict[str, int]:
        with engine.connect() as connection:
            return dict(connection.execute(REVISIONS_OF_TABLES, {"table_ids": table_ids}).all())

    sqlite_file = _sqlite_file(engine)
    doorbells = doorbells_for(sqlite_file)
    listen = _listen_for_revisions(engine) if engine.dialect.name == "postgresql" else (
        doorbells.listen if doorbells is not None else None)
    watch = RevisionWatch(read_revisions, app.config["SYNC_HOLDS"], app.config["SYNC_WATCH_INTERVAL"],
                          listen, app.config["SYNC_WATCH_LISTENING_INTERVAL"], _sqlite_quiet(sqlite_file))
    app.extensions[WATCH] = watch

    def committed() -> None:
        """Something was committed in this process: this watch reads at once, and
        the other processes' watches hear of it (PostgreSQL's trigger or the doorbells)."""
        watch.poke()
        if doorbells is not None:
            doorbells.ring()

    app.extensions[COMMITTED] = committed
    hold_seconds = app.config["SYNC_HOLD_SECONDS"]

    def answered_unchanged(table_id: str, query: dict[str, list[str]]) -> bool:
        """True: the table is at ``rev`` (and stayed there for the hold) — a 204."""
        revision = current_revision(table_id)
        if revision is None or query.get("rev", [""])[0] != str(revision):
            return False
        if query.get("hold") == ["1"]:
            return not watch.wait(table_id, revision, hold_seconds)
        return True

    def wsgi_app(environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET":
            match = SYNC_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match and answered_unchanged(match.group(1), parse_qs(environ.get("QUERY_STRING", ""))):
                start_response("204 NO CONTENT", [])
                return []
        return flask_wsgi(environ, start_response)

    app.wsgi_app = wsgi_app
    _poke_after_commits()

    @app.after_request
    def poke_once_answered(response: Response) -> Response:
        poke = g.pop(POKE_WHEN_ANSWERED, None)
        if poke is not None:
            response.call_on_close(poke)
        return response

    @app.teardown_request
    def poke_if_not_answered(_error) -> None:
        poke = g.pop(POKE_WHEN_ANSWERED, None)  # no answer went out through after_request
        if poke is not None:
            poke()


def _listen_for_revisions(engine: sa.Engine) -> Listen:
    """PostgreSQL: the revisions as the database announces them (the trigger of
    migration a3e9c1f0b7d2), on a connection of its own while phones wait."""
    def listen(still_wanted, listening, tell, _poke) -> None:
        raw = engine.raw_connection()
        connection = raw.driver_connection
        raw.detach()  # never back into the pool: it listens
        try:
            connection.autocommit = True
            connection.execute(f"LISTEN {REVISION_CHANNEL}")
            listening()
            while still_wanted():
                for note in connection.notifies(timeout=LISTEN_SECONDS):
                    table_id, _, revision = note.payload.partition(" ")
                    tell(table_id, int(revision))
        finally:
            raw.close()

    return listen


def _sqlite_file(engine: sa.Engine) -> str | None:
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    return path if path and path != ":memory:" else None


def _sqlite_quiet(path: str | None) -> Quiet | None:
    """SQLite (a file): whether nothing was committed since the last call, from
    ``PRAGMA data_version`` on a connection of the calling thread's own (the
    number changes with every commit made through any other connection)."""
    if path is None:
        return None
    mine = threading.local()

    def quiet() -> bool:
        if not hasattr(mine, "connection"):
            mine.connection, mine.version = sqlite3.connect(path), None
        version = mine.connection.execute("PRAGMA data_version").fetchone()[0]
        unchanged, mine.version = version == mine.version, version
        return unchanged

    return quiet


_poking = threading.Lock()


def _poke_after_commits() -> None:
    """A commit in this process (an entry, a join, …) wakes the app's watch at
    once rather than at its next read. One listener for all apps of the process:
    it finds the app of the committing session."""
    with _poking:
        if not sa.event.contains(Session, "after_commit", _poke_watch):
            sa.event.listen(Session, "after_commit", _poke_watch)


def _poke_watch(_session) -> None:
    """In a request, once its answer is sent: the phones it wakes would otherwise
    hold up the answer of the entry that woke them (they share its process)."""
    committed = current_app.extensions.get(COMMITTED) if has_app_context() else None
    if committed is None:
        return
    if has_request_context():
        setattr(g, POKE_WHEN_ANSWERED, committed)
    else:
        committed()


def release_holds_on_sigterm(app: Flask) -> None:
    """In a gunicorn worker: on SIGTERM (graceful stop) answer the held polls
    at once, so the worker need not wait out their holds; then gunicorn's own
    handler. Call it where the worker loads the app (``wsgi.py``)."""
    watch = app.extensions[WATCH]
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame):
        watch.close()
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGTERM, on_sigterm)
