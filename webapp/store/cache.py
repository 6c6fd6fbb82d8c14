"""The replayed games: one per table and process, keyed by the table's version.

A request takes the game out of the cache while it uses it (no two threads touch
one game object) and puts it back after; a lock per table makes the requests of
one table take turns with it, so the phones woken by one entry read the game one
after another instead of each replaying it. A cached game behind the table's
version (another process wrote since) replays only the missing rows.
"""
from __future__ import annotations

import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field

import sqlalchemy as sa
from cachetools import LRUCache

from engine import Game, new_game

from ..errors import Refusal
from ..extensions import db
from ..i18n import lazy_gettext as _l
from ..models import Event, Table
from . import latest

CACHE_SIZE = 128  # replayed games per process (a game is a few KB to ~130 KB); a table beyond them replays again


@dataclass
class Loaded:
    """A table's game replayed up to ``version``; ``seqs`` are the seq numbers
    of the events in force (parallel to ``game.events``)."""

    version: int
    game: Game
    seqs: list[int] = field(default_factory=list)


_cache: LRUCache[str, Loaded] = LRUCache(maxsize=CACHE_SIZE)
_cache_lock = threading.Lock()
# One lock per table in use (gone with its last user).
_table_locks: weakref.WeakValueDictionary[str, threading.RLock] = weakref.WeakValueDictionary()


def _table_lock(table_id: str) -> threading.RLock:
    with _cache_lock:
        lock = _table_locks.get(table_id)
        if lock is None:
            lock = _table_locks[table_id] = threading.RLock()
        return lock


def _take(table_id: str, version: int) -> Loaded | None:
    """Take the cached game out: one at ``version`` or behind it, never ahead."""
    with _cache_lock:
        loaded = _cache.pop(table_id, None)
    return loaded if loaded is not None and loaded.version <= version else None


def put(table_id: str, loaded: Loaded) -> None:
    """Keep ``loaded`` (unless a newer game of the table is kept already)."""
    with _cache_lock:
        current = _cache.get(table_id)
        if current is None or current.version <= loaded.version:
            _cache[table_id] = loaded


def clear_cache() -> None:
    """Forget the replayed games and the newest entries (``latest``): all is read again."""
    with _cache_lock:
        _cache.clear()
    latest.clear()


def _replay(table: Table, loaded: Loaded | None = None) -> Loaded:
    """Replay the entries up to the table's version: all of them, or only those
    after ``loaded`` (a cached game that is behind); from ``latest`` where it knows
    them all, else their rows."""
    if loaded is None:
        loaded = Loaded(0, new_game(table.game, table.options, table.players))
    if loaded.version == table.version:
        return loaded
    rows = latest.entries(table.id, loaded.version, table.version)
    if rows is None:
        rows = db.session.execute(
            sa.select(Event.seq, Event.kind, Event.event)
            .where(Event.table_id == table.id, Event.seq > loaded.version, Event.seq <= table.version)
            .order_by(Event.seq))
    return _caught_up(loaded, rows, table.version)


def _caught_up(loaded: Loaded, rows, version: int) -> Loaded:
    """``loaded`` with the entries ``rows`` (the ones after its version, in order) replayed up to ``version``."""
    for row in rows:
        if row.kind == "undo":
            loaded.game.undo()
            loaded.seqs.pop()
        else:
            loaded.game.apply(row.event)
            loaded.seqs.append(row.seq)
    loaded.version = version
    return loaded


@contextmanager
def game_at(table: Table):
    """The table's game (a ``Loaded``) at its current version, for reading or
    for one change, held by one thread of this process at a time. The caller
    keeps ``loaded.version`` in step with its change; if the block fails the game
    is dropped from the cache. Never taken while holding the database's write
    lock: a change takes this lock first, then the database's."""
    if not table.started:
        raise Refusal(409, "not-started", _l("Das Spiel hat noch nicht begonnen"))
    table_id = table.id  # read before the block: a commit inside expires ``table``
    with _table_lock(table_id):
        loaded = _replay(table, _take(table_id, table.version))
        yield loaded
        put(table_id, loaded)


@contextmanager
def game_at_version(table_id: str, version: int):
    """Like ``game_at``, the table's game at ``version`` — if this process can have it there
    without asking the database: the cached game, caught up with the entries known here
    (``latest``). Else ``None`` (nothing taken). Whether ``version`` is still the table's
    is for the caller's write to find out."""
    with _table_lock(table_id):
        with _cache_lock:
            cached = _cache.get(table_id)
            if cached is None or cached.version > version:
                cached = None
            else:
                del _cache[table_id]
        rows = None if cached is None else () if cached.version == version \
            else latest.entries(table_id, cached.version, version)
        if rows is None:
            if cached is not None:
                put(table_id, cached)
            yield None
            return
        loaded = _caught_up(cached, rows, version)
        yield loaded
        put(table_id, loaded)
