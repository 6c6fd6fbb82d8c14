"""The replay cache catching up: a cached game that is behind the table (another
worker wrote since) applies only the missing rows, events and undos, and ends
exactly where a full replay of the log ends."""
from __future__ import annotations

import random
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from engine import new_game
from webapp import store
from webapp.extensions import db
from webapp.models import Event

from .conftest import random_events


def write(app, table_id: str, events: list[dict], start: int, stop: int, undos_after=None) -> None:
    """Submit ``events[start:stop]`` in turn; after ``events[i]``, ``undos_after[i]``
    undos in a row, then the undone events again (so the game goes on legally)."""
    undos_after = undos_after or {}
    with app.app_context():
        version = store.get_table(table_id).version
        for index in range(start, stop):
            store.submit(table_id, None, events[index], version)
            version += 1
            undone = min(undos_after.get(index, 0), index + 1)
            for _ in range(undone):
                store.undo(table_id, None, version)
                version += 1
            for event in events[index + 1 - undone:index + 1]:
                store.submit(table_id, None, event, version)
                version += 1


def loaded_now(app, table_id: str) -> store.Loaded:
    """What ``game_at`` hands out for the table now (and puts back)."""
    with app.app_context():
        with store.game_at(store.get_table(table_id)) as loaded:
            return loaded


def full_replay(app, table_id: str) -> tuple[dict, dict, list[int], int]:
    """The store's replay from a cold cache."""
    with app.app_context():
        store.clear_cache()
        loaded = loaded_now(app, table_id)
        return loaded.game.state(), loaded.game.record(), list(loaded.seqs), loaded.version


def log_replay(app, table_id: str) -> tuple[dict, dict, list[int], int]:
    """The engine's replay of the rows, walked here, apart from the store's code."""
    with app.app_context():
        table = store.get_table(table_id)
        rows = db.session.execute(sa.select(Event.seq, Event.kind, Event.event)
                                  .where(Event.table_id == table_id).order_by(Event.seq)).all()
        in_force: list[tuple[int, dict]] = []
        for seq, kind, event in rows:
            if kind == "undo":
                in_force.pop()
            else:
                in_force.append((seq, event))
        game = new_game(table.game, table.options, table.players)
        for _seq, event in in_force:
            game.apply(event)
        return game.state(), game.record(), [seq for seq, _event in in_force], table.version


def assert_like_a_full_replay(app, table_id: str, caught: store.Loaded) -> None:
    now = (caught.game.state(), caught.game.record(), caught.seqs, caught.version)
    assert now == log_replay(app, table_id)
    assert now == full_replay(app, table_id)


def a_worker_behind(app, table_id: str) -> store.Loaded:
    """This worker's cached game, kept aside while "another worker" writes."""
    behind = loaded_now(app, table_id)
    store.clear_cache()  # the writes below replay and cache a copy of their own
    return behind


def catch_up(app, table_id: str, behind: store.Loaded) -> store.Loaded:
    """Put the old game back as the only cached copy and read the table."""
    store.clear_cache()
    store.cache.put(table_id, behind)
    return loaded_now(app, table_id)


def test_a_game_behind_catches_up_in_place_through_events_and_undos(app, new_table):
    table = new_table(names=("Anna", "Ben", "Carla"))
    events = random_events("gleich-und-gleich", 3, seed=21)
    write(app, table.id, events, 0, 12)
    behind = a_worker_behind(app, table.id)
    game_before = behind.game
    assert behind.version == 12
    # undos reaching back before the cached version, then new events on top
    with app.app_context():
        for version in (12, 13, 14):
            store.undo(table.id, None, version)
    write(app, table.id, events, 9, 16, {10: 1, 13: 2, 15: 3})
    caught = catch_up(app, table.id, behind)
    assert caught is behind and caught.game is game_before  # caught up in place, not replayed anew
    assert_like_a_full_replay(app, table.id, caught)
    with app.app_context():
        undo_rows = db.session.execute(sa.select(sa.func.count()).where(
            Event.table_id == table.id, Event.kind == "undo")).scalar_one()
    assert undo_rows == 9  # the premise: undos on both sides of the cached version


def test_undos_back_to_the_empty_game_then_a_new_start(app, new_table):
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=24)
    write(app, table.id, events, 0, 2)
    behind = a_worker_behind(app, table.id)
    with app.app_context():
        store.undo(table.id, None, 2)
        store.undo(table.id, None, 3)
    write(app, table.id, events, 0, 3)
    caught = catch_up(app, table.id, behind)
    assert caught is behind and caught.seqs == [5, 6, 7]
    assert_like_a_full_replay(app, table.id, caught)


def test_catching_up_reads_only_the_missing_rows(app, new_table):
    """Of the three entries the game lacks only the newest is known in memory: the rows are read."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=22)
    write(app, table.id, events, 0, 20)
    behind = a_worker_behind(app, table.id)
    write(app, table.id, events, 20, 23)
    with app.app_context():
        newest = store.log_rows(store.get_table(table.id))[0]
    store.clear_cache()
    store.heard(table.id, newest)
    store.cache.put(table.id, behind)
    with reading_event_rows(app) as fetched:
        applied = len(loaded_now(app, table.id).game.events)
    assert applied == 23
    assert len(fetched) == 1 and "seq >" in fetched[0]


def test_a_cached_game_ahead_of_the_table_is_not_used(app, new_table):
    """A worker that read the table before a write must not take a newer game."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=23)
    write(app, table.id, events, 0, 5)
    with app.app_context():
        old_table = store.get_table(table.id)
        assert old_table.version == 5
        db.session.expunge(old_table)
    write(app, table.id, events, 5, 7)
    with app.app_context():
        with store.game_at(old_table) as loaded:
            assert loaded.version == 5 and len(loaded.game.events) == 5


@pytest.mark.parametrize("game, players, options", [
    ("gleich-und-gleich", 4, {}),
    ("cubirds", 3, {}),
    ("gemeinsame-sache", 2, {}),
])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_gaps_of_events_and_undos_end_like_a_full_replay(app, new_table, game, players, options, seed):
    names = ("Anna", "Ben", "Carla", "Dora")[:players]
    table = new_table(game=game, names=names, options=options)
    events = random_events(game, players, seed=seed, options=options)
    pick = random.Random(seed)
    cut = pick.randrange(1, len(events) - 1)
    stop = min(cut + pick.randrange(1, 30), len(events))
    undos = {index: pick.choice([1, 1, 2, 3]) for index in range(cut, stop) if pick.random() < 0.3}
    write(app, table.id, events, 0, cut)
    behind = a_worker_behind(app, table.id)
    write(app, table.id, events, cut, stop, undos)
    caught = catch_up(app, table.id, behind)
    assert caught is behind
    assert_like_a_full_replay(app, table.id, caught)


@contextmanager
def reading_event_rows(app):
    """The statements that read event rows while the block runs."""
    fetched = []

    def note(_conn, _cursor, statement, *_args):
        if "FROM events" in statement:
            fetched.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        yield fetched
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)


@pytest.mark.parametrize("told", ["made here", "heard of"])
def test_a_game_behind_catches_up_from_the_entries_known_here_without_reading_them(app, new_table, told):
    """The entries made since the cached game (here, or announced by the process that
    made them: ``store.heard``) are replayed from memory, undos included."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=25)
    write(app, table.id, events, 0, 6)
    behind = a_worker_behind(app, table.id)
    write(app, table.id, events, 6, 8, {7: 1})  # four entries: two events, an undo, the event again
    if told == "heard of":
        with app.app_context():
            newest = store.log_rows(store.get_table(table.id), after=6)
        store.clear_cache()
        for entry in reversed(newest):
            store.heard(table.id, entry)
    store.cache._cache.clear()
    store.cache.put(table.id, behind)
    with reading_event_rows(app) as fetched:
        caught = loaded_now(app, table.id)
    assert fetched == []
    assert caught is behind and caught.version == 10
    assert_like_a_full_replay(app, table.id, caught)

