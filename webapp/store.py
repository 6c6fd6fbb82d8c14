"""The event store: tables, seats, and the append-only event log.

Every write locks the table row first (``UPDATE tables … WHERE id``), so SQLite
takes its write lock at once and PostgreSQL serialises writers per table.
An entry is appended only if the client's ``version`` is still current (checked
by the conditional UPDATE inside the transaction, backed by the unique
(table_id, seq)); an idempotency ``key`` is unique per table and keeps the
answer it got, so a repeated submission gets the very same answer.

The state is always the engine's replay of the events in force. A per-process
cache keeps the replayed game keyed by (table id, version); it can be thrown
away at any time.
"""
from __future__ import annotations

import re
import secrets
import threading
import weakref
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field

import sqlalchemy as sa
from flask import current_app
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer, joinedload

from engine import EngineError, Game, IllegalEvent, game_class, new_game, parse_record

from .errors import NOT_FOUND, Refusal
from .extensions import db
from .models import LOBBY, PLAYING, Event, Seat, Table, token_hash

# no vowels (a code never spells a word), no 0/O, 1/I/L
JOIN_ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789"
JOIN_CODE_LENGTH = 6
NAME_MAX = 40
KEY_MAX = 64
EVENTS_MAX = 5000  # entries per table (undos included); a long real game has a few hundred
CACHE_SIZE = 1024  # replayed games per worker process; a game is a few KB to ~100 KB


# --- the replay cache ----------------------------------------------------------
@dataclass
class Loaded:
    """A table's game replayed up to ``version``; ``seqs`` are the seq numbers
    of the events in force (parallel to ``game.events``)."""

    version: int
    game: Game
    seqs: list[int] = field(default_factory=list)


_cache: OrderedDict[str, Loaded] = OrderedDict()
_cache_lock = threading.Lock()
# One lock per table in use (gone with its last user): the phones woken by an entry read
# the game one after another instead of each replaying it while another has it out.
_table_locks: weakref.WeakValueDictionary[str, threading.RLock] = weakref.WeakValueDictionary()


def _table_lock(table_id: str) -> threading.RLock:
    with _cache_lock:
        lock = _table_locks.get(table_id)
        if lock is None:
            lock = _table_locks[table_id] = threading.RLock()
        return lock


def _cache_take(table_id: str, version: int) -> Loaded | None:
    """Take the cached game out (so no other thread mutates it meanwhile); one
    at ``version`` or behind it (another worker wrote since), never ahead."""
    with _cache_lock:
        loaded = _cache.pop(table_id, None)
    return loaded if loaded is not None and loaded.version <= version else None


def _cache_put(table_id: str, loaded: Loaded) -> None:
    with _cache_lock:
        current = _cache.get(table_id)
        if current is None or current.version <= loaded.version:
            _cache[table_id] = loaded
            _cache.move_to_end(table_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def _replay(table: Table, loaded: Loaded | None = None) -> Loaded:
    """Replay the event rows up to the table's version: all of them, or only
    those after ``loaded`` (a cached game that is behind)."""
    if loaded is None:
        loaded = Loaded(0, new_game(table.game, table.options, table.players))
    if loaded.version == table.version:
        return loaded
    rows = db.session.execute(
        sa.select(Event.seq, Event.kind, Event.event)
        .where(Event.table_id == table.id, Event.seq > loaded.version, Event.seq <= table.version)
        .order_by(Event.seq))
    for seq, kind, event in rows:
        if kind == "undo":
            loaded.game.undo()
            loaded.seqs.pop()
        else:
            loaded.game.apply(event)
            loaded.seqs.append(seq)
    loaded.version = table.version
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
        loaded = _replay(table, _cache_take(table_id, table.version))
        yield loaded
        _cache_put(table_id, loaded)


# --- reading -----------------------------------------------------------------
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _is_table_id(table_id) -> bool:
    """Table ids are ``token_urlsafe``; anything else is no table and never reaches
    the database (PostgreSQL refuses e.g. a NUL byte with an error, not a miss)."""
    return isinstance(table_id, str) and TABLE_ID.fullmatch(table_id) is not None


def get_table(table_id: str) -> Table:
    table = db.session.get(Table, table_id) if _is_table_id(table_id) else None
    if table is None:
        raise Refusal(404, "no-such-table", NOT_FOUND)
    return table


def table_by_code(join_code: str) -> Table:
    code = (join_code or "").strip().upper()
    table = None
    if len(code) == JOIN_CODE_LENGTH and code.isascii() and code.isalnum():  # older codes had vowels
        table = db.session.execute(sa.select(Table).where(Table.join_code == code)).scalar_one_or_none()
    if table is None:
        raise Refusal(404, "no-such-code", _l("Den Tisch-Code {code} gibt es nicht"), {"code": code or "–"})
    return table


REVISION_OF_TABLE = sa.select(Table.revision).where(Table.id == sa.bindparam("table_id"))


def seat_by_token(table: Table, token: str | None) -> Seat | None:
    if not token:
        return None
    return db.session.execute(
        sa.select(Seat).where(Seat.table_id == table.id, Seat.token_hash == token_hash(token))
    ).scalar_one_or_none()


def seat_of_token(token: str) -> Seat | None:
    """The seat a token holds at any table, its table loaded in the same query."""
    return db.session.execute(
        sa.select(Seat).where(Seat.token_hash == token_hash(token)).options(joinedload(Seat.table))
    ).scalar_one_or_none()


def bot_names(game: str, options: dict) -> list[str]:
    """Players the engine plays itself (RobinBird in solo); the server seats them last."""
    return game_class(game).bot_names(options)


def human_seat_range(game: str, options: dict) -> tuple[int, int]:
    """How many human seats a table needs (the engine's player range minus bots)."""
    return game_class(game).human_player_range(options)


def log_rows(table: Table, limit: int = 30) -> list[Event]:
    """The newest entries first (without their stored answers: a whole game state each)."""
    return list(db.session.execute(
        sa.select(Event).where(Event.table_id == table.id).order_by(Event.seq.desc()).limit(limit)
        .options(defer(Event.answer, raiseload=True))
    ).scalars())


def record(table: Table) -> dict:
    with game_at(table) as loaded:
        return loaded.game.record()


def state_answer(table: Table) -> dict:
    with game_at(table) as loaded:
        return {"version": loaded.version, "state": loaded.game.state()}


# --- checks of input -------------------------------------------------------------
NAME_RULE = _l("Bitte einen Namen mit 1 bis {max} Zeichen eingeben")


def clean_name(name) -> str:
    """The name with its whitespace collapsed: 1 to NAME_MAX printable characters."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX \
            or not "".join(name.split()).isprintable():
        raise Refusal(422, "bad-name", NAME_RULE, {"max": NAME_MAX})
    return " ".join(name.split())


def _check_version(version) -> int:
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise Refusal(400, "bad-version", _l("\"version\" muss eine ganze Zahl ab 0 sein"))
    return version


def _check_key(key) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_MAX or not key.isprintable():
        raise Refusal(400, "bad-key", _l("\"key\" muss ein Text mit 1 bis {max} Zeichen sein"), {"max": KEY_MAX})
    return key


def _check_event_count(count: int) -> None:
    """Refuse a table that would hold more than EVENTS_MAX entries."""
    if count > EVENTS_MAX:
        raise Refusal(413, "too-many-events",
                      _l("Ein Tisch fasst höchstens {max} Einträge"), {"max": EVENTS_MAX})


# --- writing -------------------------------------------------------------------
def _lock_table(table_id: str) -> Table:
    """Begin a write: lock the table row and count the change."""
    if not _is_table_id(table_id):
        raise Refusal(404, "no-such-table", NOT_FOUND)
    db.session.rollback()
    locked = db.session.execute(
        sa.update(Table).where(Table.id == table_id).values(revision=Table.revision + 1))
    if locked.rowcount == 0:
        db.session.rollback()
        raise Refusal(404, "no-such-table", NOT_FOUND)
    return db.session.get(Table, table_id, populate_existing=True)


def _new_seat(table: Table, position: int, name: str) -> tuple[Seat, str]:
    token = secrets.token_urlsafe(32)
    seat = Seat(table_id=table.id, position=position, name=name, token_hash=token_hash(token))
    db.session.add(seat)
    return seat, token


def _insert_table(game: str, options: dict, players: list | None, status: str) -> Table:
    """Add a table with a fresh id and an unused join code."""
    for _attempt in range(20):
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if current_revision_by_code(code) is None:
            table = Table(id=secrets.token_urlsafe(16), join_code=code, game=game, options=options,
                          players=players, status=status, version=0, revision=0)
            db.session.add(table)
            return table
    raise RuntimeError("no free join code")  # 26^6 codes: practically unreachable


def current_revision_by_code(code: str) -> int | None:
    return db.session.execute(sa.select(Table.revision).where(Table.join_code == code)).scalar_one_or_none()


def create_table(game, options, creator_name) -> tuple[Table, Seat, str]:
    """A new table in the lobby; the creator holds seat 0."""
    if not isinstance(game, str):
        raise Refusal(422, "bad-game", _l("\"game\" muss der Name eines Spiels sein"))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Refusal(422, "bad-options", _l("\"options\" muss ein Objekt sein"))
    name = clean_name(creator_name)
    try:
        options = game_class(game).validate_options(dict(options))
    except EngineError as err:
        raise Refusal.from_engine(err) from None
    table = _insert_table(game, options, None, LOBBY)
    seat, token = _new_seat(table, 0, name)
    db.session.commit()
    return table, seat, token


def import_table(data, creator_name=None) -> tuple[Table, Seat, str]:
    """A record becomes a new table, already playing; the caller holds seat 0.
    Every event is checked by the engine; one illegal event refuses the import."""
    try:
        data = parse_record(data)
        _check_event_count(len(data["events"]))
        for name in data["players"]:
            if clean_name(name) != name:  # stored as it is: 1 to NAME_MAX characters, as when joining
                raise Refusal(422, "bad-name", NAME_RULE, {"max": NAME_MAX})
        game = new_game(data["game"], data.get("options", {}), data["players"])
        effects = []
        for index, event in enumerate(data["events"]):
            try:
                effects.append(game.apply(event))
            except IllegalEvent as err:
                raise err.at(index) from None
    except EngineError as err:
        raise Refusal.from_engine(err) from None
    table = _insert_table(game.name, game.options, list(game.players), PLAYING)
    table.version = len(game.events)
    humans = game.players[:len(game.players) - len(game.bot_seats)]
    seats = [_new_seat(table, position, name) for position, name in enumerate(humans)]
    if creator_name:
        seats[0][0].name = clean_name(creator_name)
    for seq, (event, effect) in enumerate(zip(game.events, effects), start=1):
        db.session.add(Event(table_id=table.id, seq=seq, kind="event", event=event, effect=effect))
    db.session.commit()
    _cache_put(table.id, Loaded(table.version, game, list(range(1, table.version + 1))))
    seat, token = seats[0]
    return table, seat, token


def join(table_id: str, join_code, name) -> tuple[Seat, str]:
    """A new seat at the end of the order, before the game starts."""
    name = clean_name(name)
    table = _lock_table(table_id)
    if not isinstance(join_code, str) or join_code.strip().upper() != table.join_code:
        db.session.rollback()
        raise Refusal(404, "no-such-table", NOT_FOUND)
    _refuse_unless_lobby(table)
    _lo, hi = human_seat_range(table.game, table.options)
    if len(table.seats) >= hi:
        db.session.rollback()
        raise Refusal(409, "table-full", _l("Der Tisch ist voll: höchstens {max} Plätze"), {"max": hi})
    seat, token = _new_seat(table, len(table.seats), name)
    db.session.commit()
    return seat, token


def _refuse_unless_lobby(table: Table) -> None:
    if table.started:
        db.session.rollback()
        raise Refusal(409, "already-started", _l("Das Spiel hat schon begonnen; die Plätze stehen fest"))


def _seat_at(table: Table, position) -> Seat:
    for seat in table.seats:
        if seat.position == position:
            return seat
    db.session.rollback()
    raise Refusal(404, "no-such-seat", _l("Platz {seat} gibt es nicht"), {"seat": position})


def move_seat(table_id: str, position, offset) -> None:
    """Swap a seat with its neighbour (offset -1 or +1) in the lobby."""
    table = _lock_table(table_id)
    _refuse_unless_lobby(table)
    seat = _seat_at(table, position)
    if offset not in (-1, 1):
        db.session.rollback()
        raise Refusal(422, "bad-move", _l("Ein Platz rückt nur um eins nach vorn oder hinten"))
    if not 0 <= position + offset < len(table.seats):
        db.session.rollback()
        raise Refusal(422, "cannot-move", _l("Platz {seat} kann nicht weiter rücken"), {"seat": position})
    other = _seat_at(table, position + offset)
    seat.position, other.position = other.position, seat.position
    db.session.commit()


def remove_seat(table_id: str, position) -> None:
    """Remove a seat in the lobby; the others close up. The last seat stays."""
    table = _lock_table(table_id)
    _refuse_unless_lobby(table)
    seat = _seat_at(table, position)
    if len(table.seats) == 1:
        db.session.rollback()
        raise Refusal(409, "last-seat", _l("Der letzte Platz kann nicht entfernt werden"))
    table.seats.remove(seat)
    for other in table.seats:
        if other.position > position:
            other.position -= 1
    db.session.commit()


def new_seat_token(table_id: str, position) -> tuple[Seat, str]:
    """A new link for a seat (e.g. for a lost phone); the old link stops working."""
    table = _lock_table(table_id)
    seat = _seat_at(table, position)
    token = secrets.token_urlsafe(32)
    seat.token_hash = token_hash(token)
    db.session.commit()
    return seat, token


def start(table_id: str) -> Table:
    """Fix the players (names in seat order, bots last) into the game header."""
    table = _lock_table(table_id)
    _refuse_unless_lobby(table)
    players = [seat.name for seat in table.seats] + bot_names(table.game, table.options)
    try:
        game = new_game(table.game, table.options, players)
    except EngineError as err:
        db.session.rollback()
        raise Refusal.from_engine(err, status=409) from None
    table.players = players
    table.status = PLAYING
    db.session.commit()
    _cache_put(table.id, Loaded(0, game))
    return table


def rematch(table_id: str, seat: Seat | None, options=None) -> tuple[Table, str]:
    """The next game at a finished table: same game, players and seat order, the
    old options unless ``options`` are given. The first seat to ask creates it,
    the others find it; each gets a new token for its seat there."""
    if seat is None or seat.table_id != table_id:
        raise Refusal(403, "not-seated", _l("Nur wer am Tisch sitzt, kann eintragen"))
    with game_at(get_table(table_id)) as loaded:  # before the write lock (see game_at)
        over, seen = loaded.game.awaiting is None, loaded.version
    if not over:
        raise Refusal(409, "not-over", _l("Eine Revanche gibt es erst, wenn das Spiel vorbei ist"))
    table = _lock_table(table_id)
    if table.version != seen:  # an undo came in between: look again
        db.session.rollback()
        raise _stale(table)
    follow = next_game(table)
    if follow is None:
        if options is None:
            options = table.options
        if not isinstance(options, dict):
            db.session.rollback()
            raise Refusal(422, "bad-options", _l("\"options\" muss ein Objekt sein"))
        try:
            game = new_game(table.game, options, list(table.players))
        except EngineError as err:
            db.session.rollback()
            raise Refusal.from_engine(err) from None
        follow = _insert_table(table.game, game.options, list(table.players), PLAYING)
        follow.previous_id = table.id
        for other in table.seats:
            _new_seat(follow, other.position, other.name)
        db.session.flush()
    mine = _seat_at(follow, seat.position)
    token = secrets.token_urlsafe(32)
    mine.token_hash = token_hash(token)
    follow_id = follow.id
    db.session.commit()
    return get_table(follow_id), token


def next_game(table: Table) -> Table | None:
    """The rematch that follows this table, if there is one."""
    return db.session.execute(sa.select(Table).where(Table.previous_id == table.id)).scalar_one_or_none()


def history(table: Table, limit: int) -> list[Table]:
    """This table and the games before it (rematches), newest first, at most ``limit``."""
    found = [table]
    while len(found) < limit and found[-1].previous_id is not None:
        previous = db.session.get(Table, found[-1].previous_id)
        if previous is None:
            break
        found.append(previous)
    return found


def submit(table_id: str, seat: Seat | None, event, version, key=None) -> dict:
    """Append one event; answer ``{"version", "state"}``."""
    return _append(table_id, seat, version, key, lambda loaded: _apply_event(loaded, event))


def undo(table_id: str, seat: Seat | None, version, key=None) -> dict:
    """Take back the last event in force; the undo is an entry of its own."""
    return _append(table_id, seat, version, key, _apply_undo)


def _apply_event(loaded: Loaded, event) -> dict:
    effect = loaded.game.apply(event)
    return {"kind": "event", "event": event, "effect": effect}


def _apply_undo(loaded: Loaded) -> dict:
    undone_event = loaded.game.undo()
    return {"kind": "undo", "undoes": loaded.seqs[-1], "event": undone_event}


def _stored_answer(table_id: str, key: str | None) -> dict | None:
    if key is None:
        return None
    return db.session.execute(
        sa.select(Event.answer).where(Event.table_id == table_id, Event.key == key)).scalar_one_or_none()


def _stale(table: Table) -> Refusal:
    answer = state_answer(table)
    return Refusal(409, "stale-version",
                   _l("Der Tisch hat sich geändert (jetzt Version {version}) – bitte noch einmal"),
                   {"version": answer["version"]}, extra=answer)


def _append(table_id: str, seat: Seat | None, version, key, change) -> dict:
    version, key = _check_version(version), _check_key(key)
    table = get_table(table_id)
    if version != table.version:  # a retry whose first try landed, or a stale phone;
        stored = _stored_answer(table_id, key)  # the version read first, so the
        if stored is not None:  # first try's commit is seen here
            return stored
        raise _stale(table)
    _check_event_count(version + 1)
    try:
        return _write(table, seat, version, key, change)
    except _Lost:
        stored = _stored_answer(table_id, key)
        if stored is not None:
            return stored
        db.session.expire_all()
        raise _stale(get_table(table_id)) from None


def _write(table: Table, seat: Seat | None, version: int, key: str | None, change) -> dict:
    table_id, seat_id = table.id, (seat.id if seat is not None else None)
    refusal = None
    with game_at(table) as loaded:
        try:
            row = change(loaded)
        except IllegalEvent as err:
            refusal = Refusal.from_engine(err)  # the engine left the game unchanged
        except Exception:  # an engine bug: the game may be half-changed, so it leaves the cache
            current_app.logger.exception("engine failed at table %s, version %s", table_id, version)
            raise Refusal(422, "not-understood", _l("Diese Eingabe wurde nicht verstanden")) from None
        else:
            answer = {"version": version + 1, "state": loaded.game.state()}
            db.session.rollback()
            try:
                moved = db.session.execute(
                    sa.update(Table).where(Table.id == table_id, Table.version == version)
                    .values(version=version + 1, revision=Table.revision + 1))
                if moved.rowcount != 1:
                    raise _Lost()
                db.session.add(Event(table_id=table_id, seq=version + 1, kind=row["kind"],
                                     event=row["event"], undoes=row.get("undoes"), effect=row.get("effect"),
                                     seat_id=seat_id, key=key, answer=answer))
                db.session.commit()
            except (IntegrityError, _Lost):
                db.session.rollback()
                raise _Lost() from None  # leaves the changed game out of the cache
            loaded.version = version + 1
            if row["kind"] == "undo":
                loaded.seqs.pop()
            else:
                loaded.seqs.append(version + 1)
    if refusal is not None:
        raise refusal
    return answer


class _Lost(Exception):
    """Another writer came first (turned into the stored answer or a 409)."""
