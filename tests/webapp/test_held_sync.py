"""Held sync polls (``?hold=1``): answered when the table changes — by an entry
in this process or in another one on the same database — or with a 204 when
the hold runs out; beyond the free holds, at once."""
from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
import sqlalchemy as sa

from tests.conftest import _dispose_engines, app_test_config
from webapp import create_app, migrate_database, play, shared_drawings, store
from webapp.extensions import db
from webapp.models import token_hash
from webapp.screens.generic import EnteredBy, LogEntry
from .conftest import TableAtHand, random_events
from .test_sync import revision_of

HOLD_SECONDS = 2.0  # long enough for the first entry of a process on a busy machine
HOLDS = 3


@pytest.fixture
def app(make_app):
    return make_app(SYNC_HOLDS=HOLDS, SYNC_HOLD_SECONDS=HOLD_SECONDS)


def held_poll(app, table_id: str, rev: int):
    """A phone's held poll in a thread of its own: the future of (status, body, seconds)."""
    def poll():
        started = time.monotonic()
        answer = app.test_client().get(f"/t/{table_id}/sync?rev={rev}&phase=play&hold=1")
        return answer.status_code, answer.get_data(as_text=True), time.monotonic() - started

    pool = ThreadPoolExecutor(1)
    held_before = app.extensions["sync"].watch.held
    future = pool.submit(poll)
    deadline = time.monotonic() + 5
    while app.extensions["sync"].watch.held == held_before and not future.done():
        assert time.monotonic() < deadline, "the poll was never held"
        time.sleep(0.005)
    pool.shutdown(wait=False)
    return future


def enter_first_event(client, table) -> None:
    state = client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json
    first = random_events("gleich-und-gleich", 3, seed=3)[0]
    entered = client.post(f"/api/tables/{table.id}/events", headers=table.auth(), buffered=True,
                          json={"event": first, "version": state["version"]})  # closed, as a server does once it is sent
    assert entered.status_code == 200, entered.json


def test_an_entry_answers_the_held_polls_with_the_new_regions(app, client, new_table):
    table = new_table()
    rev = revision_of(app, table.id)
    polls = [held_poll(app, table.id, rev) for _ in range(2)]
    time.sleep(0.1)
    assert not any(p.done() for p in polls)  # nothing changed: they wait
    enter_first_event(client, table)
    for poll in polls:
        status, body, seconds = poll.result(timeout=5)
        assert status == 200
        assert f"rev={rev + 1}" in body and 'id="board"' in body
        assert seconds < HOLD_SECONDS


def test_a_change_is_drawn_before_its_phones_are_woken(app, client, new_table, monkeypatch):
    """What the table's phones asked for before is drawn at the new revision by the
    entry's request, before it wakes them: a woken poll only sends it."""
    table = new_table()
    rev = revision_of(app, table.id)
    sync = app.extensions["sync"]
    assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200  # asked: German, seated
    drawn, told, entering = [], [], threading.get_ident()

    def tell(table_id, revision, tell=sync.watch.tell):
        if threading.get_ident() == entering:  # not PostgreSQL's listener, which hears the commit's NOTIFY too
            told.append((table_id, revision, list(drawn)))
        tell(table_id, revision)

    monkeypatch.setattr(sync, "_draw", lambda *args, draw=sync._draw: drawn.append(args[0].revision) or draw(*args))
    monkeypatch.setattr(sync.watch, "tell", tell)
    poll = held_poll(app, table.id, rev)
    enter_first_event(client, table)
    assert [(table_id, revision) for table_id, revision, _drawn in told] == [(table.id, rev + 1)]
    ahead = told[0][2]  # on PostgreSQL the seats' perspective too (their phones may wait in another process)
    assert set(ahead) == {rev + 1} and len(ahead) == (2 if sync._shared else 1)  # drawn, then the phones woken
    status, body, _seconds = poll.result(timeout=5)
    assert status == 200 and f"rev={rev + 1}" in body
    assert drawn == ahead  # nothing drawn after: the woken poll sent a drawing made ahead


def test_a_change_is_drawn_in_the_language_its_phones_asked_for(app, client, new_table):
    table = new_table()
    rev = revision_of(app, table.id)
    assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play&lang=en").status_code == 200
    client.set_cookie("lang", "de")  # the entering phone reads German
    enter_first_event(client, table)
    drawings = app.extensions["sync"]._drawings
    english = [key for key in drawings if key[:3] == (table.id, rev + 1, "en")]
    assert english, "the English phones' regions were not drawn ahead"
    assert ">History<" in drawings[english[0]].body.decode()  # the log's title ("Verlauf")


def test_a_change_is_drawn_for_every_seat_where_other_processes_may_hold_its_phones(app, client, new_table):
    """Gemeinsame Sache draws each seat for itself. A phone of seat 0 asked here for the
    players' view and the centre view; on PostgreSQL seat 1's players' view is drawn too
    (its phones may wait in another process, which finds it instead of drawing it), on
    SQLite only what was asked here."""
    table = new_table("gemeinsame-sache", ("Anna", "Ben"))
    rev = revision_of(app, table.id)
    client.set_cookie("lang", "de")
    assert client.get(f"/t/{table.id}/s/{table.tokens[0]}").status_code == 302  # this phone holds seat 0
    assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200
    assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play&view=centre").status_code == 200
    state = client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json
    first = random_events("gemeinsame-sache", 2, seed=3)[0]
    assert client.post(f"/api/tables/{table.id}/events", headers=table.auth(),
                       json={"event": first, "version": state["version"]}).status_code == 200
    sync = app.extensions["sync"]
    drawn = {key[3:] for key in sync._drawings if key[:3] == (table.id, rev + 1, "de")}
    perspectives = sync.facts(table.id, rev + 1).perspectives
    own, other = perspectives[token_hash(table.tokens[0])], perspectives[token_hash(table.tokens[1])]
    assert own != other
    assert drawn == {(own, None), (own, "centre")} | ({(other, None)} if sync._shared else set())


def test_an_entry_moves_the_seats_on_and_any_other_change_reads_them(app, client, new_table, monkeypatch):
    """An entry leaves the seats as they were: its publish moves the seats known here at
    the revision before on to its own instead of reading them again. Any other change
    reads them (a new seat link: the old token no longer holds the seat)."""
    table = new_table()
    rev = revision_of(app, table.id)
    sync = app.extensions["sync"]
    assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200  # the seats read at rev
    reads = []
    monkeypatch.setattr(sync, "_read_facts", lambda table_id, read=sync._read_facts:
                        reads.append(table_id) or read(table_id))
    enter_first_event(client, table)
    replaced = token_hash(table.tokens[1])
    moved_on = sync.facts(table.id, rev + 1)
    assert reads == [] and moved_on.revision == rev + 1 and replaced in moved_on.perspectives
    assert client.post(f"/api/tables/{table.id}/seats/1/token", headers=table.auth()).status_code == 200
    assert reads == [table.id]
    assert replaced not in sync.facts(table.id, rev + 2).perspectives


def test_an_entry_holds_no_connection_while_its_change_is_drawn_ahead(app, client, new_table, monkeypatch):
    """The lock order of ``Sync.drawing`` (a stripe, then a connection): the entering
    phone's request gives its database connection back before it publishes, or a
    publish waiting for a stripe would hold a connection that the stripe's holder waits for."""
    table = new_table("cubirds", ("Anna", "Ben"))
    assert client.get(f"/t/{table.id}/s/{table.tokens[0]}").status_code == 302
    sync = app.extensions["sync"]
    checked_out = []
    monkeypatch.setattr(sync, "publish", lambda table_id, entered_revision, publish=sync.publish:
                        checked_out.append(db.engine.pool.checkedout()) or publish(table_id, entered_revision))
    first = random_events("cubirds", 2, seed=3)[0]
    entered = client.post(f"/t/{table.id}/event", data={"event": json.dumps(first), "version": 0},
                          headers={"HX-Request": "true"})
    assert entered.status_code == 200 and 'id="board"' in entered.get_data(as_text=True)
    assert checked_out == [0]


@pytest.mark.parametrize("game", ["cubirds", "gemeinsame-sache"])
def test_an_entrys_change_is_drawn_from_what_the_entry_left_as_from_the_database(app, client, new_table, game,
                                                                                monkeypatch):
    """Drawing an entry's change ahead reads neither the table nor the log's new entry
    (``store.latest``: the entry just made left them) and draws what a drawing from the
    database draws, an undo's change included."""
    table = new_table(game, ("Anna", "Ben"))
    assert client.get(f"/t/{table.id}/s/{table.tokens[0]}").status_code == 302  # this phone holds seat 0
    sync = app.extensions["sync"]
    publishing, reads = threading.local(), []

    def publish(table_id, entered_revision, publish=sync.publish):
        publishing.now = True
        try:
            publish(table_id, entered_revision)
        finally:
            publishing.now = False

    def note(_connection, _cursor, statement, *_args):
        if getattr(publishing, "now", False) and ("FROM tables" in statement or "FROM events" in statement):
            reads.append(statement)

    events = random_events(game, 2, seed=5)
    with app.app_context():
        engine = db.engine
    monkeypatch.setattr(sync, "publish", publish)
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        version = client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"]
        for entry in [*events[:4], "undo", events[3]]:
            rev = revision_of(app, table.id)
            assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200  # asked for
            path, body = ("undo", {}) if entry == "undo" else ("events", {"event": entry})
            entered = client.post(f"/api/tables/{table.id}/{path}", headers=table.auth(),
                                  json=body | {"version": version})
            assert entered.status_code == 200, entered.json
            version = entered.json["version"]
            ahead = {key: drawn.body for key, drawn in sync._drawings.items() if key[:2] == (table.id, rev + 1)}
            assert ahead, f"nothing drawn ahead at revision {rev + 1}"
            store.clear_cache()  # the replayed games and what the entries left
            for kept in (play._drawings, play._logs, sync._drawings):
                kept.clear()
            facts = sync.facts(table.id, rev + 1)
            assert {key: sync._draw(facts, *key[2:]).body for key in ahead} == ahead, entry  # drawn here, read
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)
    assert reads == []


def test_an_unchanged_table_answers_204_when_the_hold_runs_out(app, new_table):
    table = new_table()
    status, body, seconds = held_poll(app, table.id, revision_of(app, table.id)).result(timeout=10)
    assert (status, body) == (204, "")
    assert HOLD_SECONDS <= seconds < HOLD_SECONDS + 2


def test_a_stale_revision_is_answered_at_once_also_when_it_asks_to_be_held(app, client, new_table, monkeypatch):
    table = new_table()
    rev = revision_of(app, table.id)
    assert client.get(f"/t/{table.id}").status_code == 200  # the process's first drawing (templates) is not timed
    watch = app.extensions["sync"].watch
    waits = []
    monkeypatch.setattr(watch, "wait", lambda *args, wait=watch.wait: waits.append(args) or wait(*args))
    started = time.monotonic()
    answer = client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play&hold=1")
    assert answer.status_code == 200 and f"rev={rev}" in answer.get_data(as_text=True)
    assert time.monotonic() - started < HOLD_SECONDS
    assert waits == []  # never held


def test_beyond_the_free_holds_a_poll_gets_its_204_at_once(app, client, new_table):
    table = new_table()
    rev = revision_of(app, table.id)
    polls = [held_poll(app, table.id, rev) for _ in range(HOLDS)]
    started = time.monotonic()
    assert client.get(f"/t/{table.id}/sync?rev={rev}&phase=play&hold=1").status_code == 204
    assert time.monotonic() - started < HOLD_SECONDS / 2
    assert not any(p.done() for p in polls)
    enter_first_event(client, table)
    assert [p.result(timeout=5)[0] for p in polls] == [200] * HOLDS


def test_an_entry_in_another_process_is_noticed(app, new_table):
    """Two apps on one database stand for two gunicorn workers: the entry in the
    other one reaches this one's held poll through the database."""
    table = new_table()
    rev = revision_of(app, table.id)
    other = create_app(app_test_config(app.config["SQLALCHEMY_DATABASE_URI"]))
    try:
        poll = held_poll(app, table.id, rev)
        enter_first_event(other.test_client(), table)
        status, body, seconds = poll.result(timeout=5)
        assert status == 200 and f"rev={rev + 1}" in body
        assert seconds < HOLD_SECONDS
    finally:
        _dispose_engines(other)


def test_the_polls_that_follow_a_change_read_no_revision_from_the_database(app, client, new_table, monkeypatch):
    """The change was published here: its revision is known, and a held poll at it is
    held without a read; a poll that knows a newer revision than the watch reads it."""
    table = new_table()
    rev = revision_of(app, table.id)
    sync = app.extensions["sync"]
    enter_first_event(client, table)
    reads = []
    monkeypatch.setattr(sync, "current_revision", lambda table_id, read=sync.current_revision:
                        reads.append(table_id) or read(table_id))
    assert client.get(f"/t/{table.id}/sync?rev={rev}&phase=play&hold=1").status_code == 200  # the change
    assert held_poll(app, table.id, rev + 1).result(timeout=5)[0] == 204  # held: nothing new
    assert reads == []
    assert client.get(f"/t/{table.id}/sync?rev={rev + 2}&phase=play&hold=1").status_code == 200  # not heard of
    assert reads == [table.id]


def test_an_entry_in_another_process_reaches_a_poll_at_a_revision_known_here(app, client, new_table):
    """This process knows the table at ``rev`` (it published it); the next change is made
    in another process while no phone waits here: a poll held at ``rev`` still gets it."""
    table = new_table()
    rev = revision_of(app, table.id)
    enter_first_event(client, table)
    assert app.extensions["sync"].watch.known(table.id) == rev + 1
    other = create_app(app_test_config(app.config["SQLALCHEMY_DATABASE_URI"]))
    try:
        state = other.test_client().get(f"/api/tables/{table.id}/state", headers=table.auth()).json
        second = random_events("gleich-und-gleich", 3, seed=3)[1]
        assert other.test_client().post(f"/api/tables/{table.id}/events", headers=table.auth(),
                                        json={"event": second, "version": state["version"]}).status_code == 200
        status, body, seconds = held_poll(app, table.id, rev + 1).result(timeout=5)
        assert status == 200 and f"rev={rev + 2}" in body
        assert seconds < HOLD_SECONDS
    finally:
        _dispose_engines(other)


def test_polls_without_hold_are_never_held(app, client, new_table):
    table = new_table()
    started = time.monotonic()
    assert client.get(f"/t/{table.id}/sync?rev={revision_of(app, table.id)}&phase=play").status_code == 204
    assert time.monotonic() - started < HOLD_SECONDS / 2


def test_a_poll_reads_its_query_as_flasks_views_do(app, client, new_table):
    """Of a name given twice the first value counts, a blank one too (werkzeug's
    ``request.args``): ``hold=&hold=1`` asks for no hold."""
    table = new_table()
    started = time.monotonic()
    answer = client.get(f"/t/{table.id}/sync?rev={revision_of(app, table.id)}&phase=play&hold=&hold=1")
    assert answer.status_code == 204
    assert time.monotonic() - started < HOLD_SECONDS / 2


def started_table_of_three(client) -> TableAtHand:
    made = client.post("/api/tables", json={"game": "gleich-und-gleich", "options": {}, "name": "Anna"}).json
    table = TableAtHand(made["id"], made["join_code"], [made["token"]])
    for name in ("Ben", "Carla"):
        table.tokens.append(client.post(f"/api/tables/{table.id}/seats",
                                        json={"join_code": table.join_code, "name": name}).json["token"])
    assert client.post(f"/api/tables/{table.id}/start", headers=table.auth()).status_code == 200
    return table


def wait_until_listening(app) -> None:
    """Until the app's watch hears every change (its LISTEN is up, with a phone waiting)."""
    watch, deadline = app.extensions["sync"].watch, time.monotonic() + 5
    while not watch.listening:
        assert time.monotonic() < deadline, "the watch never listened"
        time.sleep(0.01)


def assert_held_poll_answered_at_once_by_an_entry_there(here, there) -> None:
    """A poll held by ``here`` (listening, its reads once a minute) is answered within
    seconds by an entry made through ``there``."""
    table = started_table_of_three(here.test_client())
    poll = held_poll(here, table.id, revision_of(here, table.id))
    wait_until_listening(here)
    time.sleep(0.1)  # past the reader's last quick read: from here on it reads once a minute
    enter_first_event(there.test_client(), table)
    status, body, seconds = poll.result(timeout=10)
    assert status == 200 and "rev=" in body
    assert seconds < 2


@pytest.mark.postgres
def test_postgres_announces_a_change_to_the_other_processes_at_once(postgres_url):
    """On PostgreSQL the watch listens (the NOTIFY that publishing a change sends): with
    the reads slowed to one per minute, another process's entry still answers the held poll."""
    def make(**config):
        return create_app(app_test_config(postgres_url, SYNC_HOLDS=HOLDS, SYNC_HOLD_SECONDS=5.0, **config))

    migrate_database(make())

    here, there = make(SYNC_WATCH_LISTENING_INTERVAL=60.0), make()
    try:
        assert_held_poll_answered_at_once_by_an_entry_there(here, there)
    finally:
        for app in (here, there):
            app.extensions["sync"].watch.close()
            _dispose_engines(app)


@pytest.fixture
def two_processes(postgres_url):
    """Two apps on one PostgreSQL database that hear of each other's changes by NOTIFY
    alone: their reads of the revisions, a safety net, come once a minute (one could
    come between the commit and the stored drawing, and then its process draws itself)."""
    def make():
        return create_app(app_test_config(postgres_url, SYNC_HOLDS=HOLDS, SYNC_HOLD_SECONDS=5.0,
                                          SYNC_WATCH_INTERVAL=60.0, SYNC_WATCH_LISTENING_INTERVAL=60.0))

    migrate_database(make())
    here, there = make(), make()
    yield here, there
    for app in (here, there):
        app.extensions["sync"].watch.close()
        _dispose_engines(app)


def held_here_entered_there(here, there, table, rev: int) -> str:
    """A poll held ``here`` at ``rev``, answered by an entry made ``there``: its body,
    which is the drawing ``there`` made."""
    poll = held_poll(here, table.id, rev)
    wait_until_listening(here)
    enter_first_event(there.test_client(), table)
    status, body, _seconds = poll.result(timeout=10)
    assert status == 200 and f"rev={rev + 1}" in body
    sync_there = there.extensions["sync"]
    assert body == sync_there.drawing(sync_there.facts(table.id, rev + 1), "de", None, None).body.decode()
    return body


@pytest.mark.postgres
def test_postgres_draws_a_change_once_for_all_processes(two_processes, monkeypatch):
    """One drawing per perspective (#17 point 7): the process where the change is made
    draws it and stores it with its announcement, so a phone held in another process
    gets that very drawing without a drawing of its own."""
    here, there = two_processes
    table = started_table_of_three(here.test_client())
    rev = revision_of(here, table.id)
    assert there.test_client().get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200
    drawn_here, sync_here = [], here.extensions["sync"]
    monkeypatch.setattr(sync_here, "_draw", lambda *args, draw=sync_here._draw: drawn_here.append(args) or draw(*args))
    held_here_entered_there(here, there, table, rev)
    assert drawn_here == []


@pytest.mark.postgres
def test_postgres_a_change_travels_with_its_announcement(two_processes, monkeypatch):
    """The drawing of a change and the digest of the table's seats travel with its
    NOTIFY: a process whose phone asked before keeps the drawing from the note and
    moves the seats it read on to the new revision, so answering its held poll costs
    no drawing, no fetch of the stored drawing and no read of the seats."""
    here, there = two_processes
    table = started_table_of_three(here.test_client())
    rev = revision_of(here, table.id)
    for app in (here, there):  # a phone of each process asked before (German, watching)
        assert app.test_client().get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200
    sync_here, costs = here.extensions["sync"], []
    for name in ("_draw", "_fetch_shared", "_read_facts"):
        monkeypatch.setattr(sync_here, name, lambda *args, name=name, done=getattr(sync_here, name):
                            costs.append(name) or done(*args))
    held_here_entered_there(here, there, table, rev)
    assert costs == []


@pytest.mark.postgres
def test_postgres_an_entry_travels_with_its_announcement(two_processes, monkeypatch):
    """The announcement of an entry's change carries the entry as the log reads it from
    the database: another process words its log and catches its game up without reading it."""
    here, there = two_processes
    table = started_table_of_three(here.test_client())
    rev = revision_of(here, table.id)
    heard = []
    monkeypatch.setattr(store, "heard", lambda table_id, entry: heard.append((table_id, entry)))
    held_here_entered_there(here, there, table, rev)
    store.clear_cache()
    with here.app_context():
        newest = store.log_rows(store.get_table(table.id))[0]
    assert heard and all(told == (table.id, newest) for told in heard)


@pytest.mark.postgres
def test_postgres_stores_every_drawing_and_sends_those_that_fit_a_note(postgres_url):
    """One statement stores a change's drawings and sends its notes: a drawing too
    long for a NOTIFY (8,000 bytes) is only stored, and the announcement comes last,
    with the entry that made the change where it fits."""
    app = create_app(app_test_config(postgres_url))
    migrate_database(app)
    try:
        table = started_table_of_three(app.test_client())
        small, large = b"small drawing", os.urandom(shared_drawings.NOTE_BYTES)
        rows = [shared_drawings.row_key(table.id, language, None, None) for language in ("de", "en")]
        with (app.app_context(), db.engine.connect() as connection,
              psycopg.connect(postgres_url.replace("+psycopg", ""), autocommit=True) as listener):
            listener.execute(f"LISTEN {shared_drawings.CHANNEL}")
            with connection.begin():
                shared_drawings.publish(connection, table.id, 7, "digest", [(rows[0], small), (rows[1], large)])
            notes = [shared_drawings.read_note(note.payload) for note in listener.notifies(timeout=2, stop_after=2)]
            assert notes == [{**rows[0], "revision": 7, "gzipped": small},
                             {"table_id": table.id, "revision": 7, "seats": "digest"}]
            entered = LogEntry(7, "event", {"type": "pass"}, {"passed": True}, EnteredBy("Anna", 0))
            too_long = entered._replace(event={"type": "x" * shared_drawings.NOTE_BYTES})
            for entry in (entered, too_long):
                with connection.begin():
                    shared_drawings.publish(connection, table.id, 8, "digest", [], entry)
            notes = [shared_drawings.read_note(note.payload) for note in listener.notifies(timeout=2, stop_after=2)]
            assert notes == [{"table_id": table.id, "revision": 8, "seats": "digest", "entry": entered},
                             {"table_id": table.id, "revision": 8, "seats": "digest"}]  # too long: left out
            assert [shared_drawings.fetch(connection, row, 7) for row in rows] == [small, large]
    finally:
        _dispose_engines(app)


@pytest.mark.postgres
def test_postgres_keeps_the_drawings_out_of_its_write_ahead_log(postgres_url):
    """The drawings are a cache that any process draws again where it finds none: unlogged,
    so storing them writes no log and the statement that sends the notes waits for no disk."""
    app = create_app(app_test_config(postgres_url))
    migrate_database(app)
    try:
        with app.app_context():
            persistence = db.session.execute(
                sa.text("SELECT relpersistence FROM pg_class WHERE relname = 'drawings'")).scalar_one()
        assert persistence == "u"
    finally:
        _dispose_engines(app)


def test_a_process_passes_over_its_own_notes_unread(app, monkeypatch):
    """A process hears the notes it sent back (LISTEN hears every NOTIFY) and knows their
    news already: they are passed over before they are read; another process's are read."""
    sync = app.extensions["sync"]
    read = []
    monkeypatch.setattr(shared_drawings, "read_note",
                        lambda payload, read_note=shared_drawings.read_note: read.append(payload) or read_note(payload))
    drawing = [(shared_drawings.row_key("t1", "de", None, None), b"drawn")]
    own = shared_drawings.notes("t1", 3, "digest", drawing, sender=sync.sender)
    # a worker forked from the same app: the same token, another process id (one digit longer, say)
    other = shared_drawings.notes("t1", 3, "digest", drawing, sender=sync.sender + "0")
    assert len(own) == 2 and [sync._heard(note) for note in own] == [None, None] and read == []
    assert [sync._heard(note) for note in other] == [None, ("t1", 3)] and read == other


def test_an_entry_is_answered_and_its_phones_woken_when_drawing_ahead_fails(app, client, new_table, monkeypatch):
    """The change is committed: a failing drawing must not turn its answer into an error."""
    table = new_table()
    rev = revision_of(app, table.id)
    sync = app.extensions["sync"]
    assert client.get(f"/t/{table.id}/sync?rev={rev - 1}&phase=play").status_code == 200  # asked for
    told = []
    monkeypatch.setattr(sync.watch, "tell", lambda table_id, revision: told.append((table_id, revision)))

    def broken(*_args):
        raise RuntimeError("a template bug")

    monkeypatch.setattr(sync, "_draw", broken)
    enter_first_event(client, table)  # asserts a 200
    assert told == [(table.id, rev + 1)]
    monkeypatch.undo()
    answer = client.get(f"/t/{table.id}/sync?rev={rev}&phase=play")
    assert answer.status_code == 200 and f"rev={rev + 1}" in answer.text  # a phone draws for itself
