"""The event store: the log is the truth, versions and keys hold under races."""
from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from engine import GAMES, replay
from webapp import store
from webapp.errors import Refusal
from webapp.extensions import db
from webapp.models import Event

from .conftest import random_events


def submit_all(app, table_id, events, first_version=0):
    with app.app_context():
        for version, event in enumerate(events, start=first_version):
            store.submit(table_id, None, event, version)


def test_state_is_the_replay_of_the_log_not_the_cache(app, new_table):
    table = new_table(names=("Anna", "Ben", "Carla"))
    events = random_events("gleich-und-gleich", 3, seed=11)[:25]
    submit_all(app, table.id, events)
    with app.app_context():
        store.undo(table.id, None, 25)
        cached = store.state_answer(store.get_table(table.id))
        store.clear_cache()
        db.session.expire_all()
        replayed = store.state_answer(store.get_table(table.id))
    assert cached == replayed
    assert replayed["version"] == 26


def test_undo_is_a_row_of_its_own_and_the_record_keeps_the_events_in_force(app, new_table):
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=12)[:4]
    submit_all(app, table.id, events)
    with app.app_context():
        store.undo(table.id, None, 4)
        store.undo(table.id, None, 5)
        store.submit(table.id, None, events[2], 6)
        rows = db.session.execute(sa.select(Event.seq, Event.kind, Event.undoes)
                                  .where(Event.table_id == table.id).order_by(Event.seq)).all()
        record = store.record(store.get_table(table.id))
    assert [(r.kind, r.undoes) for r in rows[4:]] == [("undo", 4), ("undo", 3), ("event", None)]
    assert record["events"] == events[:3]


def test_two_racing_entries_at_one_version_only_one_applies(app, new_table):
    """Each round: two threads submit different keys at the same version."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=13)[:21]
    submit_all(app, table.id, events[:1])
    outcomes = []
    for version in range(1, 21):
        barrier = threading.Barrier(2)
        results = []

        def enter(name):
            with app.app_context():
                barrier.wait()
                try:
                    results.append(store.submit(table.id, None, events[version], version, key=f"{name}{version}"))
                except Refusal as refusal:
                    results.append(refusal.status)
        threads = [threading.Thread(target=enter, args=(name,)) for name in "ab"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        outcomes.append(sorted(r if isinstance(r, int) else 200 for r in results))
    assert outcomes == [[200, 409]] * 20
    with app.app_context():
        seqs = db.session.execute(sa.select(Event.seq).where(Event.table_id == table.id)).scalars().all()
        assert sorted(seqs) == list(range(1, 22))


def test_racing_retries_of_one_key_apply_once(app, new_table):
    """Ten tables; at each, four threads send the same entry with the same key at once."""
    setup = random_events("gleich-und-gleich", 2, seed=14)[0]
    for _round in range(10):
        table = new_table(names=("Anna", "Ben"))
        barrier = threading.Barrier(4)
        answers = []

        def tap():
            with app.app_context():
                barrier.wait()
                try:
                    answers.append(store.submit(table.id, None, setup, 0, key="double-tap"))
                except Exception as error:  # shown in the assertion below
                    answers.append(repr(error))
        threads = [threading.Thread(target=tap) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(answers) == 4 and all(answer == answers[0] for answer in answers), answers
        with app.app_context():
            assert store.get_table(table.id).version == 1


def test_sqlite_runs_in_wal_with_full_sync(app):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite pragmas")
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000


def test_an_engine_crash_is_a_422_and_changes_nothing(app, new_table, monkeypatch):
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=15)[:2]
    submit_all(app, table.id, events[:1])

    def crash(self, event):
        self.rows = "half-changed"
        raise TypeError("engine bug")
    monkeypatch.setattr(GAMES["gleich-und-gleich"], "_apply", crash)
    with app.app_context(), pytest.raises(Refusal) as refused:
        store.submit(table.id, None, events[1], 1)
    assert (refused.value.status, refused.value.code) == (422, "not-understood")
    monkeypatch.undo()
    with app.app_context():
        answer = store.submit(table.id, None, events[1], 1)
    expected = replay({"game": "gleich-und-gleich", "players": ["Anna", "Ben"], "events": events})
    assert answer == {"version": 2, "state": expected.state()}


def test_a_known_seat_enters_with_the_write_alone(app, new_table):
    """A seat looked up before enters without reading its seat or its table: the version
    moved on (while the token holds the seat) and the row inserted."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=16)[:2]
    statements = []
    with app.app_context():
        seat = store.seat_of_token(table.tokens[0])
        store.submit(table.id, seat, events[0], 0)
        known = store.known_seat(table.tokens[0], table.id)
        dialect = db.engine.dialect.name
        sa.event.listen(db.engine, "before_cursor_execute", record := lambda *args: statements.append(args[2]))
        try:
            answer = store.submit_known(table.id, known, events[1], 1)
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", record)
    assert answer is not None and answer["version"] == 2
    # the write first, nothing read before it (after it, the sync announces the new revision); on
    # PostgreSQL the version moved on and the row inserted by one statement, on SQLite by two
    writes = [statement for statement in statements
              if "UPDATE tables" in statement or "INSERT INTO events" in statement]
    one_statement = dialect == "postgresql"
    assert statements[:2 - one_statement] == writes, statements
    assert ("INSERT INTO events" in writes[0]) == one_statement
    assert not any(statement.startswith("SELECT") and "seats" in statement for statement in statements), statements
    assert store.known_seat(table.tokens[0], "another-table") is None


def test_a_known_seat_leaves_to_the_reads_what_it_cannot_settle(app, new_table):
    """A stale version, an illegal event and a token that no longer holds the seat are
    answered None (the reads decide) and write nothing; a refused event leaves the game cached."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=17)[:3]
    with app.test_request_context():  # a refusal is worded in the request's language
        seat = store.seat_of_token(table.tokens[1])
        store.submit(table.id, seat, events[0], 0)
        known = store.known_seat(table.tokens[1], table.id)
        assert store.submit_known(table.id, known, events[1], 0) is None  # stale
        assert store.submit_known(table.id, known, {"type": "play", "cards": ["K"], "row": 9}, 1) is None
        assert store.submit_known(table.id, known, events[1], 1)["version"] == 2  # the refusals left the game
        renamed = known._replace(token_hash="0" * 64)  # as if the token was replaced meanwhile
        assert store.submit_known(table.id, renamed, events[2], 2) is None
        assert store.get_table(table.id).version == 2
