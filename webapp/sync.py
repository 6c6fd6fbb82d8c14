"""Live sync: the poll ``GET /t/<id>/sync?rev=R`` (the route of ``play.sync``),
answered in front of Flask.

A phone holds one poll open (``hold=1``) until its table moves past revision R
(``watch.RevisionWatch``), then gets the regions of its perspective — or a 204
when the hold runs out, or at once when no hold is free. What a change costs is
one drawing per perspective and language, kept with its gzip (``Sync.drawing``),
and per waiting phone a few dictionary look-ups and the send: the phone's seat
comes from its session cookie (decoded once per cookie) and the table's seats
(read once per table revision, ``Sync.facts``), not from a Flask request with its
session and a seat query each; the table's revision comes from what the watch heard
(``Sync.revision``: read only for a table it heard nothing of lately). Flask's view
``play.sync`` gives the same answers through ``Sync.answer`` (it only sees what this
leaves: an unknown table).

A change is announced by the store (``store.writing.changed``) and published where it
was made (``Sync.publish``; in a request just before its answer goes out): the new
regions are drawn for every perspective, language and view that the table's phones asked
for at earlier revisions (on PostgreSQL every seat's too, ``_ahead``), then the phones
waiting in this process are woken, and all a woken phone's poll does is send a drawing
already made. So the phones see the change when the entering phone gets its answer, and
the drawing is paid once, by the change; an entry's drawing reads nothing (the table and
the log's new entry are as the entry left them, ``store.latest``). On PostgreSQL
(several processes) the drawings are stored in the database (``shared_drawings``) by the
statement that announces the change to the other processes (``NOTIFY``, heard by their
watches' LISTEN), and travel with the announcement where they fit: their phones find the
drawing in memory or there and draw only what no process drew, and their seats are not
read again while the announcement's digest of them matches. On SQLite other processes,
if any, learn of a change from ``PRAGMA data_version``, read every
``SYNC_WATCH_INTERVAL`` while phones wait (it changes with every commit of another
connection), and draw for their phones when the first of them asks.

A phone whose session holds a token that no longer holds a seat at the table (the
seat went to another phone) is sent to the table page (``HX-Location``, C10).
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import os
import secrets
import signal
import sqlite3
import threading
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qsl

import sqlalchemy as sa
from cachetools import LRUCache
from flask import Flask, g, has_request_context
from flask.testing import EnvironBuilder
from itsdangerous import BadSignature
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Request

from . import shared_drawings, store
from .extensions import LANGUAGE_COOKIE, db, language
from .models import PLAYING, Seat, Table, token_hash
from .screens import screen_for
from .screens.generic import LogEntry, Perspective
from .security import SECURITY_HEADERS
from .store.writing import changed
from .watch import LISTEN_SECONDS, Listen, Quiet, RevisionWatch

ENDPOINT = "play.sync"
CENTRE = "centre"
NIGHT = "abend"  # the phase of a night page's poll (webapp/nights.py draws it)
REVISIONS_OF_TABLES = sa.select(Table.id, Table.revision).where(
    Table.id.in_(sa.bindparam("table_ids", expanding=True)))
TABLE_AND_SEATS = (sa.select(Table.game, Table.status, Table.revision, Seat.token_hash, Seat.position)
                   .outerjoin(Seat, Seat.table_id == Table.id).where(Table.id == sa.bindparam("table_id")))
HTML_HEADERS = [("Content-Type", "text/html; charset=utf-8"), ("Vary", "Accept-Encoding, Cookie"),
                *SECURITY_HEADERS.items()]
GZIP_MIN_BYTES = 512


@dataclass(frozen=True)
class Facts:
    """A table at one revision as the sync needs it: started or not, and the
    perspective of each seat's token (by its hash); ``seats`` is a digest of what
    they were worked out from (the same in every process)."""

    table_id: str
    revision: int
    started: bool
    perspectives: dict[str, Perspective | None] = field(default_factory=dict)
    seats: str = ""


@dataclass(frozen=True)
class Answer:
    status: str
    headers: list[tuple[str, str]]
    body: bytes = b""


NOTHING_NEW = Answer("204 NO CONTENT", [])


@dataclass(frozen=True)
class Drawing:
    revision: int
    body: bytes
    gzipped: bytes | None

    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")

    def stored(self) -> bytes:
        """What the database keeps of it: its gzip (made now for a small one, sent plain)."""
        return self.gzipped or _gzip(self.body)


DRAWINGS_BYTES = 32 * 2**20  # per process
# A phone sends the same path, cookies and Accept-Encoding at every poll: parsed once each, kept by their
# text (for eight times the phones of 100 tables; headers of up to 8 KB keep that under 32 MB each).
ROUTES_KEPT, COOKIES_KEPT, ENCODINGS_KEPT = 4096, 4096, 256
ASKED_PER_TABLE = 16  # (language, perspective, view) kept per table for drawing ahead


class Sync:
    """The sync of one app in one process (``app.extensions["sync"]``)."""

    def __init__(self, app: Flask):
        self.app = app
        with app.app_context():
            engine = db.engine
        self._shared = engine.dialect.name == "postgresql"  # several processes: drawings and changes shared
        self._token = secrets.token_hex(8)  # with the process id, the sender of this process's notes
        # PostgreSQL: no transaction around a single SELECT saves the BEGIN and ROLLBACK round trips.
        # (SQLite begins none for a SELECT, and there switching the level costs a PRAGMA per read.)
        self._engine = engine.execution_options(isolation_level="AUTOCOMMIT") if self._shared else engine
        sqlite_file = _sqlite_file(self._engine)
        listen = _listen_for_changes(self._engine, self._heard) if self._shared else None
        self.watch = RevisionWatch(self._read_revisions, app.config["SYNC_HOLDS"], app.config["SYNC_WATCH_INTERVAL"],
                                   listen, app.config["SYNC_WATCH_LISTENING_INTERVAL"], _sqlite_quiet(sqlite_file))
        self._hold_seconds = app.config["SYNC_HOLD_SECONDS"]
        self._adapter = app.url_map.bind("localhost")
        self._sync_table = functools.lru_cache(maxsize=ROUTES_KEPT)(self._table_of_sync)
        self._environ = EnvironBuilder(app, "/").get_environ()  # of a drawing's request (made once: it takes long)
        self._serializer = app.session_interface.get_signing_serializer(app)
        self._cookie = app.config["SESSION_COOKIE_NAME"]
        self._lock = threading.Lock()
        self._facts: LRUCache[str, Facts] = LRUCache(maxsize=4096)
        # Drawings by their bytes (body and gzip), so that old revisions age out: bounded by size, not count.
        self._drawings: LRUCache[tuple, Drawing] = LRUCache(maxsize=DRAWINGS_BYTES, getsizeof=Drawing.size)
        self._tokens: LRUCache[str, dict] = LRUCache(maxsize=16384)
        # What each table's phones asked for lately, newest last: drawn ahead at its next change.
        self._asked: LRUCache[str, dict[tuple, None]] = LRUCache(maxsize=4096)
        self._stripes = tuple(threading.Lock() for _ in range(64))

    # --- the database ---------------------------------------------------------------
    def _read_revisions(self, table_ids: list[str]) -> dict[str, int]:
        with self._engine.connect() as connection:
            return dict(connection.execute(REVISIONS_OF_TABLES, {"table_ids": table_ids}).all())

    def revision(self, table_id: str, asked: str) -> int | None:
        """The table's revision for a held poll at revision ``asked``: as the watch heard
        of it (no database read for the polls that follow a change: one held at a revision
        already passed is woken by the watch), or, where it heard of none or of an older
        one than the phone's, read (None: no such table)."""
        known = self.watch.known(table_id)
        if known is not None and not _past(asked, known):
            return known
        revision = self.current_revision(table_id)
        if revision is not None:
            self.watch.tell(table_id, revision)
        return revision

    def current_revision(self, table_id: str) -> int | None:
        if not store.is_table_id(table_id):
            return None
        with self._engine.connect() as connection:
            return connection.execute(store.REVISION_OF_TABLE, {"table_id": table_id}).scalar_one_or_none()

    # --- answering ----------------------------------------------------------------
    def answer(self, table_id: str, query: dict[str, str], token: str | None, language: str,
               gzip_ok: bool) -> Answer | None:
        """The answer to a poll (None: for Flask: no such table, or a night page)."""
        held = query.get("hold") == "1"
        revision = self.revision(table_id, query.get("rev", "")) if held else self.current_revision(table_id)
        if revision is None:
            return None
        if query.get("rev") == str(revision):
            if not held or not self.watch.wait(table_id, revision, self._hold_seconds):
                return NOTHING_NEW
            revision += 1  # the watch saw it move on
        if query.get("phase") == NIGHT:
            return None  # a night page's regions: drawn by the play.sync view
        facts = self.facts(table_id, revision)
        if facts is None:
            return None
        own = token_hash(token) if token else None
        if (own is not None and own not in facts.perspectives) or (facts.started and query.get("phase") == "lobby"):
            return Answer("204 NO CONTENT", [("HX-Location", self._page(table_id))])  # seat gone (C10), or started
        if query.get("rev") == str(facts.revision):
            return NOTHING_NEW
        view = CENTRE if query.get("view") == CENTRE else None
        perspective = facts.perspectives.get(own)
        self._remember_asked(table_id, (language, perspective, view))
        drawing = self.drawing(facts, language, perspective, view)
        headers = list(HTML_HEADERS)
        body = drawing.body
        if gzip_ok and drawing.gzipped is not None:
            body = drawing.gzipped
            headers.append(("Content-Encoding", "gzip"))
        return Answer("200 OK", headers + [("Content-Length", str(len(body)))], body)

    def facts(self, table_id: str, revision: int) -> Facts | None:
        """The table's facts at ``revision`` or later, read once per revision (the phones
        woken by one change share them, without asking the database again)."""
        with self._stripes[hash(table_id) % len(self._stripes)]:
            with self._lock:
                known = self._facts.get(table_id)
            if known is not None and known.revision >= revision:
                return known
            return self._read_facts(table_id)

    def _read_facts(self, table_id: str) -> Facts | None:
        """The table's facts as the database has them now, kept for the phones that follow
        (called with the table's stripe held: reads of one table come one after another)."""
        if not store.is_table_id(table_id):
            return None
        with self._engine.connect() as connection:
            rows = connection.execute(TABLE_AND_SEATS, {"table_id": table_id}).all()
        if not rows:
            return None
        started = rows[0].status == PLAYING
        screen = screen_for(rows[0].game)
        perspectives = {seat.token_hash: screen.perspective(seat) if started else Perspective(seat.position)
                        for seat in rows if seat.token_hash is not None}
        facts = Facts(table_id, rows[0].revision, started, perspectives, _seats_digest(rows) if self._shared else "")
        with self._lock:
            known = self._facts.get(table_id)
            if known is None or known.revision <= facts.revision:  # a read that took long keeps no older facts
                self._facts[table_id] = facts
        return facts

    def drawing(self, facts: Facts, language: str, perspective: Perspective | None, view: str | None,
                ahead: bool = False) -> Drawing:
        """The regions (or the lobby) of one perspective, view and language at the facts'
        revision, drawn once: by this process, or on PostgreSQL by whichever process drew
        it first (``shared_drawings``). ``ahead``: drawn by the process that made the change
        before it is announced: no other process has been told of it yet (nothing to look up),
        and the announcement stores it (``publish``).
        Lock order: a stripe, then a database connection (the drawing's), never the other
        way round: a thread that held a connection while it waited for a stripe would wait
        for the threads that hold the stripes and wait for a connection (the pool's few)."""
        key = (facts.table_id, facts.revision, language, perspective, view)
        with self._stripes[hash(key) % len(self._stripes)]:
            with self._lock:
                drawn = self._drawings.get(key)
            if drawn is None:
                row = shared_drawings.row_key(facts.table_id, language, perspective, view) if self._shared else None
                drawn = self._fetch_shared(row, facts.revision) if row and not ahead else None
                if drawn is None:
                    drawn = self._draw(facts, language, perspective, view)
                    if row and not ahead:
                        self._share(row, drawn)
                with self._lock:
                    self._drawings[key] = drawn
        return drawn

    def _fetch_shared(self, row: dict, revision: int) -> Drawing | None:
        with self._engine.connect() as connection:
            gzipped = shared_drawings.fetch(connection, row, revision)
        if gzipped is None:
            return None
        return _drawing(revision, gzip.decompress(gzipped), gzipped)

    def _share(self, row: dict, drawn: Drawing) -> None:
        try:
            with self._engine.connect() as connection:
                shared_drawings.store(connection, row, drawn.revision, drawn.stored())
        except sa.exc.SQLAlchemyError:  # e.g. the table was deleted meanwhile: the others draw for themselves
            self.app.logger.warning("sharing the drawing of table %s failed", row["table_id"], exc_info=True)

    def _draw(self, facts: Facts, language: str, perspective: Perspective | None, view: str | None) -> Drawing:
        from . import play, tables

        # An app context of its own: inside a request (``publish``) the request's ``g`` holds its language.
        environ = self._environ | {"PATH_INFO": f"/t/{facts.table_id}", "QUERY_STRING": f"lang={language}"}
        with self.app.app_context(), self.app.request_context(environ):
            table = store.entered_table(facts.table_id, facts.revision)  # an entry's change: nothing to read
            if table is None:
                if self._shared:  # read only, statement by statement as in a transaction of READ COMMITTED
                    db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})  # (no BEGIN, no ROLLBACK)
                table = store.get_table(facts.table_id)
            if table.started:
                html = play.shared_regions(table, perspective, view)
            else:
                seat = next((s for s in table.seats if perspective and s.position == perspective.position), None)
                html = tables.render_lobby(table, oob=True, seat=seat)
        return _drawing(table.revision, html.encode())

    def _page(self, table_id: str) -> str:
        return self._adapter.build("play.table_page", {"table_id": table_id})

    # --- in front of Flask -----------------------------------------------------------
    def token_of(self, cookie: str | None, table_id: str) -> str | None:
        """The seat token the session cookie holds for the table (decoded once per cookie; one
        that is not this server's is not kept, so made-up cookies cannot fill the memory)."""
        if not cookie:
            return None
        with self._lock:
            seats = self._tokens.get(cookie)
        if seats is None:
            try:
                session = self._serializer.loads(cookie, max_age=int(self.app.permanent_session_lifetime.total_seconds()))
            except BadSignature:
                return None
            seats = session.get("seats", {}) if isinstance(session, dict) else {}
            with self._lock:
                self._tokens[cookie] = seats
        token = seats.get(table_id) if isinstance(seats, dict) else None
        return token if isinstance(token, str) else None

    def wsgi(self, flask_wsgi):
        def wsgi_app(environ, start_response):
            if environ.get("REQUEST_METHOD") == "GET":
                table_id = self._sync_table(environ.get("PATH_INFO", ""))
                if table_id is not None:
                    answer = self._answer_environ(table_id, environ)
                    if answer is not None:
                        start_response(answer.status, answer.headers)
                        return [answer.body]
            return flask_wsgi(environ, start_response)
        return wsgi_app

    def _table_of_sync(self, path: str) -> str | None:
        """The table of a sync poll's path, by Flask's URL map (None: another route)."""
        try:
            endpoint, args = self._adapter.match(path, "GET")
        except HTTPException:
            return None
        return args["table_id"] if endpoint == ENDPOINT else None

    def _answer_environ(self, table_id: str, environ) -> Answer | None:
        query = _first_values(environ.get("QUERY_STRING", ""))
        cookies = _cookies(environ.get("HTTP_COOKIE", ""))
        return self.answer(table_id, query, self.token_of(cookies.get(self._cookie), table_id),
                           language(query.get("lang"), cookies.get(LANGUAGE_COOKIE)),
                           _gzip_accepted(environ.get("HTTP_ACCEPT_ENCODING", "")))

    # --- publishing a change ------------------------------------------------------------
    def announce(self, _app, table_id: str, entered_revision: int | None = None) -> None:
        """The store committed a change of the table here (``entered_revision``: an entry's,
        see ``store.announce``). In a request it is published once the request's own work
        is done (``after_request``: not while the request still holds the table's game);
        elsewhere the waiting phones are woken at once."""
        if has_request_context():
            changes = g.setdefault("kt_changed_tables", {})
            # two changes of one table in a request: its seats are read again
            changes[table_id] = entered_revision if table_id not in changes else None
        else:
            self.wake(table_id)

    def publish(self, table_id: str, entered_revision: int | None = None) -> None:
        """Draw the table's regions at its new revision for what its phones asked for
        lately, then wake the phones waiting for it in this process. After an entry
        (``entered_revision``) the seats known here at the revision before are moved on
        without reading them again (an entry leaves them as they were)."""
        with self._stripes[hash(table_id) % len(self._stripes)]:
            facts = self._entered(table_id, entered_revision) or self._read_facts(table_id)
        if facts is None:
            return
        drawn = []
        try:
            for language, perspective, view in self._ahead(table_id, facts):
                drawing = self.drawing(facts, language, perspective, view, ahead=True)
                if self._shared:  # stored and sent with the announcement
                    drawn.append((shared_drawings.row_key(table_id, language, perspective, view), drawing.stored()))
        except Exception:  # noqa: BLE001 — the change is committed: its answer must not fail for a drawing
            self.app.logger.exception("drawing table %s at revision %s ahead failed", table_id, facts.revision)
        entry = store.entered(table_id, entered_revision) if self._shared and entered_revision is not None else None
        self._tell(table_id, facts.revision, facts.seats, drawn, entry)

    def _ahead(self, table_id: str, facts: Facts) -> list[tuple]:
        """What a change of the table is drawn for ahead: what its phones here asked for
        lately (a perspective the table still has, or watching); on PostgreSQL also every
        seat's perspective of the players' view in those languages, since that seat's phones
        may wait in another process, which then finds the drawing made instead of drawing it."""
        asked = self._asked_keys(table_id)
        seated = set(facts.perspectives.values())
        keys = dict.fromkeys(key for key in asked if key[1] is None or key[1] in seated)
        if self._shared:
            for language in dict.fromkeys(language for language, _perspective, _view in asked):
                keys.update(dict.fromkeys((language, perspective, None) for perspective in seated))
        return list(keys)

    def _entered(self, table_id: str, revision: int | None) -> Facts | None:
        """The facts at ``revision``, an entry's, if those of the revision just before are
        known here (None: they must be read)."""
        if revision is None:
            return None
        return self._moved_on(table_id, revision, lambda known: known.revision == revision - 1)

    def _moved_on(self, table_id: str, revision: int, same_seats) -> Facts | None:
        """The facts known here moved on to a later ``revision``, where ``same_seats(known)``
        says that the change left the seats as they were (None: nothing moved)."""
        with self._lock:
            known = self._facts.get(table_id)
            if known is None or known.revision >= revision or not same_seats(known):
                return None
            facts = self._facts[table_id] = replace(known, revision=revision)
        return facts

    def wake(self, table_id: str) -> None:
        """Wake the phones waiting for the table (they draw what they need)."""
        revision = self.current_revision(table_id)
        if revision is not None:
            self._tell(table_id, revision)

    def _tell(self, table_id: str, revision: int, seats: str | None = None,
              drawn: list[tuple[dict, bytes]] | None = None, entry: LogEntry | None = None) -> None:
        """Wake the phones waiting for the table here and, on PostgreSQL, in every other
        process, by the statement that stores the drawings made here (so theirs find them)
        and tells of the ``entry`` that made the change, if one did."""
        self.watch.tell(table_id, revision)
        if not self._shared:
            return
        # If storing the drawings fails (the table deleted meanwhile, say), the change is announced without them;
        # if that fails too, it is committed all the same: the other processes' reads (once a second) find it.
        for drawings in (drawn, []) if drawn else ([],):
            try:
                with self._engine.connect() as connection:
                    shared_drawings.publish(connection, table_id, revision, seats, drawings, entry, self.sender)
                return
            except sa.exc.SQLAlchemyError:
                self.app.logger.warning("announcing table %s at revision %s with %d drawings failed",
                                        table_id, revision, len(drawings), exc_info=True)

    @property
    def sender(self) -> str:
        """This process's name on its notes (``shared_drawings.note_prefix``; a worker forked
        from the process that made the app has a process id of its own)."""
        return f"{self._token}{os.getpid()}"

    def _heard(self, payload: str) -> tuple[str, int] | None:
        """A note of another process's change (this process's own, heard back, are passed over
        unread: it made them): a drawing is kept if phones here asked for it and it is not here
        yet; the announcement's entry is kept for the table's log and replay
        (``store.heard``), the announcement moves the table's seats on to its revision
        where they are the same, and is the (table, revision) to wake the phones for."""
        if payload.startswith(shared_drawings.note_prefix(self.sender)):
            return None
        note = shared_drawings.read_note(payload)
        table_id, revision = note["table_id"], note["revision"]
        if "gzipped" in note:
            asked = shared_drawings.drawing_key(note)
            key = (table_id, revision, *asked)
            with self._lock:
                wanted = asked in self._asked.get(table_id, ()) and key not in self._drawings
            if wanted:
                drawing = _drawing(revision, gzip.decompress(note["gzipped"]), note["gzipped"])
                with self._lock:
                    self._drawings.setdefault(key, drawing)
            return None
        if "entry" in note:
            store.heard(table_id, note["entry"])
        self._moved_on(table_id, revision, lambda known: known.seats == note["seats"])
        return table_id, revision

    def _remember_asked(self, table_id: str, key: tuple) -> None:
        with self._lock:
            asked = self._asked.get(table_id)
            if asked is None:
                asked = self._asked[table_id] = {}
            asked.pop(key, None)
            asked[key] = None
            if len(asked) > ASKED_PER_TABLE:
                del asked[next(iter(asked))]

    def _asked_keys(self, table_id: str) -> list[tuple]:
        with self._lock:
            return list(self._asked.get(table_id, ()))


def init_app(app: Flask) -> None:
    sync = app.extensions["sync"] = Sync(app)
    app.wsgi_app = sync.wsgi(app.wsgi_app)
    changed.connect(sync.announce, app)

    @app.after_request
    def publish_changes(response):
        changed_tables = g.pop("kt_changed_tables", {})
        if changed_tables:
            db.session.close()  # the answer is drawn: its connection goes back before a drawing takes a stripe
        for table_id, entered_revision in changed_tables.items():
            sync.publish(table_id, entered_revision)
        return response

    @app.teardown_request
    def wake_if_not_answered(_error) -> None:
        for table_id in g.pop("kt_changed_tables", ()):  # no answer went out through after_request
            sync.wake(table_id)


def release_holds_on_sigterm(app: Flask) -> None:
    """In a gunicorn worker: on SIGTERM (graceful stop, once or more) the held polls
    are answered at once, so the worker need not wait out their holds; then
    gunicorn's own handler. The handler itself only writes a byte to a pipe (a
    signal handler must take no lock); a thread reads it and lets the polls go.
    Call it where the worker loads the app (``wsgi.py``)."""
    watch = app.extensions["sync"].watch
    reader, writer = os.pipe()
    os.set_blocking(writer, False)

    def release() -> None:
        os.read(reader, 1)
        watch.close()

    threading.Thread(target=release, name="release-holds", daemon=True).start()
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame):
        try:
            os.write(writer, b"!")
        except BlockingIOError:
            pass  # a byte is there already
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGTERM, on_sigterm)


def _first_values(query_string: str) -> dict[str, str]:
    """A query's first value of each name, blanks kept: what Flask's view reads with
    ``request.args.to_dict()`` (so that ``hold=&hold=1`` asks for no hold there either)."""
    first: dict[str, str] = {}
    for name, value in parse_qsl(query_string, keep_blank_values=True):
        first.setdefault(name, value)
    return first


@functools.lru_cache(maxsize=COOKIES_KEPT)
def _cookies(header: str):
    """A ``Cookie`` header's cookies, read as Flask reads them (werkzeug's ``Request``:
    ``werkzeug.http.parse_cookie`` alone fails on bytes that are not UTF-8)."""
    return Request({"HTTP_COOKIE": header}).cookies


@functools.lru_cache(maxsize=ENCODINGS_KEPT)
def _gzip_accepted(header: str) -> bool:
    return parse_accept_header(header)["gzip"] > 0


def _drawing(revision: int, body: bytes, gzipped: bytes | None = None) -> Drawing:
    """A drawing of ``body``, sent gzipped unless it is small (``gzipped``: its gzip, if made already)."""
    if len(body) < GZIP_MIN_BYTES:
        return Drawing(revision, body, None)
    return Drawing(revision, body, gzipped or _gzip(body))


def _gzip(body: bytes) -> bytes:
    """Level 3: a third of level 6's CPU for a bird table's drawing (a few % of a change's) at
    11–14 % more bytes (3.0 → 3.4 KB), which a phone on a home network does not notice."""
    return gzip.compress(body, compresslevel=3, mtime=0)


def _seats_digest(rows) -> str:
    """A digest of a table's seats as ``TABLE_AND_SEATS`` read them, the same in every process."""
    seated = sorted((row.token_hash, row.position) for row in rows if row.token_hash is not None)
    return hashlib.blake2b(repr((rows[0].game, rows[0].status, seated)).encode(), digest_size=8).hexdigest()


def _past(asked: str, known: int) -> bool:
    """Whether a poll's ``rev`` is a revision past ``known`` (one too long to read is)."""
    return asked.isascii() and asked.isdigit() and (len(asked) > 18 or int(asked) > known)


def _listen_for_changes(engine: sa.Engine, heard) -> Listen:
    """PostgreSQL: the changes as the processes announce them (``shared_drawings.publish``),
    each note handed to ``heard`` (which names the change to tell of, if it is an
    announcement), on a connection of its own while phones wait."""
    def listen(still_wanted, listening, tell) -> None:
        raw = engine.raw_connection()
        connection = raw.driver_connection
        raw.detach()  # never back into the pool: it listens
        try:
            connection.autocommit = True
            connection.execute(f"LISTEN {shared_drawings.CHANNEL}")
            listening()
            while still_wanted():
                for note in connection.notifies(timeout=LISTEN_SECONDS):
                    change = heard(note.payload)
                    if change is not None:
                        tell(*change)
        finally:
            raw.close()

    return listen


def _sqlite_file(engine: sa.Engine) -> str | None:
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    return path if path and path != ":memory:" else None


def _sqlite_quiet(path: str | None) -> Quiet | None:
    """SQLite (a file): whether nothing was committed since the last call, from
    ``PRAGMA data_version`` on a connection of the calling thread's own (the number
    changes with every commit made through any other connection)."""
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
