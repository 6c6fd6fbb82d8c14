"""Looking things up: tables, seats, the log, a table's history."""
from __future__ import annotations

import re
import threading
from typing import NamedTuple

import sqlalchemy as sa
from cachetools import LRUCache
from sqlalchemy.orm import joinedload

from engine import game_class

from ..errors import NOT_FOUND, Refusal
from ..extensions import db
from ..i18n import lazy_gettext as _l
from ..models import Event, Seat, Table, token_hash
from ..screens.generic import EnteredBy, LogEntry
from . import latest
from .cache import game_at

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes
JOIN_CODE_LENGTH = 6
REVISION_OF_TABLE = sa.select(Table.revision).where(Table.id == sa.bindparam("table_id"))


def is_table_id(table_id) -> bool:
    """Table ids are ``token_urlsafe``; anything else is no table and never reaches
    the database (PostgreSQL refuses e.g. a NUL byte with an error, not a miss)."""
    return isinstance(table_id, str) and TABLE_ID.fullmatch(table_id) is not None


def get_table(table_id: str) -> Table:
    table = db.session.get(Table, table_id) if is_table_id(table_id) else None
    if table is None:
        raise Refusal(404, "no-such-table", NOT_FOUND)
    return table


def table_by_code(join_code: str) -> Table:
    code = (join_code or "").strip().upper()
    table = None
    if len(code) == JOIN_CODE_LENGTH and code.isascii() and code.isalnum():  # codes made before may hold vowels
        table = db.session.execute(sa.select(Table).where(Table.join_code == code)).scalar_one_or_none()
    if table is None:
        raise Refusal(404, "no-such-code", _l("Den Tisch-Code {code} gibt es nicht"), {"code": code or "–"})
    return table


def join_code_taken(code: str) -> bool:
    return db.session.execute(sa.select(Table.id).where(Table.join_code == code)).first() is not None


def seat_by_token(table: Table, token: str | None) -> Seat | None:
    if not token:
        return None
    return db.session.execute(
        sa.select(Seat).where(Seat.table_id == table.id, Seat.token_hash == token_hash(token))
    ).scalar_one_or_none()


SEAT_OF_TOKEN = (sa.select(Seat).where(Seat.token_hash == sa.bindparam("token_hash"))
                 .options(joinedload(Seat.table)))


def seat_of_token(token: str) -> Seat | None:
    """The seat a token holds at any table, its table loaded in the same query
    (kept as a ``KnownSeat`` for the token's next entries)."""
    seat = db.session.execute(SEAT_OF_TOKEN, {"token_hash": token_hash(token)}).scalar_one_or_none()
    if seat is not None:
        with _known_lock:
            _known_seats[seat.token_hash] = KnownSeat(seat.id, seat.table_id, seat.position, seat.name, seat.token_hash)
    return seat


class KnownSeat(NamedTuple):
    """A seat as a token's last lookup here found it: what an entry needs of it. Whether the
    token still holds it is checked by the entry's write (``events.MOVE_ON_AS_SEAT``), not by a read."""

    id: int
    table_id: str
    position: int
    name: str
    token_hash: str


KNOWN_SEATS = 4096  # tokens (a few hundred bytes each)
_known_seats: LRUCache[str, KnownSeat] = LRUCache(maxsize=KNOWN_SEATS)
_known_lock = threading.Lock()


def known_seat(token: str, table_id: str) -> KnownSeat | None:
    """The seat at ``table_id`` that ``token`` held when it was last looked up here
    (``seat_of_token``), without asking the database (None: not known here)."""
    with _known_lock:
        seat = _known_seats.get(token_hash(token))
    return seat if seat is not None and seat.table_id == table_id else None


def bot_names(game: str, options: dict) -> list[str]:
    """Players the engine plays itself (RobinBird in solo); the server seats them last."""
    return game_class(game).bot_names(options)


def human_seat_range(game: str, options: dict) -> tuple[int, int]:
    """How many human seats a table needs (the engine's player range minus bots)."""
    return game_class(game).human_player_range(options)


LOG_LENGTH = 30  # the newest entries the log lists
LOG_ROWS = (sa.select(Event.seq, Event.kind, Event.event, Event.effect, Seat.name, Seat.position)
            .outerjoin(Seat, Event.seat_id == Seat.id)
            .where(Event.table_id == sa.bindparam("table_id"), Event.seq > sa.bindparam("after"),
                   Event.seq <= sa.bindparam("version"))
            .order_by(Event.seq.desc()).limit(LOG_LENGTH))


def log_rows(table: Table, after: int = 0) -> list[LogEntry]:
    """The newest entries up to the table's version and after seq ``after``, with who
    entered them, newest first, at most ``LOG_LENGTH`` (plain rows: the log reads no
    stored answer, a whole game state each); entries known here are not read again (``latest``)."""
    known = latest.entries(table.id, after, table.version)
    if known is not None:
        return list(reversed(known))[:LOG_LENGTH]
    rows = db.session.connection().execute(LOG_ROWS, {"table_id": table.id, "after": after, "version": table.version})
    return [LogEntry(row.seq, row.kind, row.event, row.effect,
                     EnteredBy(row.name, row.position) if row.position is not None else None) for row in rows]


def record(table: Table) -> dict:
    with game_at(table) as loaded:
        return loaded.game.record()


def state_answer(table: Table) -> dict:
    with game_at(table) as loaded:
        return {"version": loaded.version, "state": loaded.game.state()}


def stored_answer(table_id: str, key: str | None) -> dict | None:
    """The answer an entry with idempotency ``key`` got, if one was made."""
    if key is None:
        return None
    return db.session.execute(
        sa.select(Event.answer).where(Event.table_id == table_id, Event.key == key)).scalar_one_or_none()


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
