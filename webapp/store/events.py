"""The append protocol: an entry (an event or an undo) is appended only at the
version the phone saw.

(1) The table's version is read; if the entry's ``version`` is not it, the entry
is a retry whose first try landed (it gets that try's stored answer, found by its
idempotency ``key``) or comes from a stale phone (409 with the current state).
(2) The engine applies the event to the game replayed up to ``version``; an
illegal event is refused (422) and nothing is written. (3) One transaction moves
the version on only if it is still ``version`` (``UPDATE … WHERE version = v``)
and inserts the event row with its key and answer; the unique (table, seq) and
(table, key) back this up. A writer that loses either way answers with the stored
answer of its key, or a 409.
"""
from __future__ import annotations

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.exc import IntegrityError

from engine import IllegalEvent

from .. import nights_store
from ..errors import Refusal
from ..extensions import db
from ..i18n import lazy_gettext as _l
from ..models import Event, Seat, Table
from ..screens.generic import EnteredBy, LogEntry
from . import checks, latest
from .cache import Loaded, game_at
from .reads import get_table, state_answer, stored_answer
from .writing import announce, committed, start_writing

# An entry's two statements, run as plain SQL on the session's connection (the ORM would keep the
# session's objects in step, which the entry never reads): the version moved on if it is still the
# one seen, returning the table's row as it leaves it; then the entry's row.
_TABLES = Table.__table__
MOVE_ON = (sa.update(_TABLES)
           .where(_TABLES.c.id == sa.bindparam("table_id"), _TABLES.c.version == sa.bindparam("seen"))
           .values(version=sa.bindparam("seen", type_=sa.Integer) + 1, revision=_TABLES.c.revision + 1)
           .returning(*_TABLES.c))
EVENT_ROW = sa.insert(Event.__table__)
STALE = _l("Gerade hat jemand anderes etwas eingetragen – schau kurz hin und tipp noch einmal")


def submit(table_id: str, seat: Seat | None, event, version, key=None) -> dict:
    """Append one event; answer ``{"version", "state"}``."""
    return _append(table_id, seat, version, key, lambda loaded: _event_row(loaded, event))


def undo(table_id: str, seat: Seat | None, version, key=None) -> dict:
    """Take back the last event in force; the undo is an entry of its own."""
    return _append(table_id, seat, version, key, lambda loaded: _undo_row(table_id, loaded))


def stale(table: Table) -> Refusal:
    """The 409 of an entry made at a version the table has left (its answer holds the current state)."""
    return Refusal(409, "stale-version", STALE, extra=state_answer(table))


def _event_row(loaded: Loaded, event) -> dict:
    effect = loaded.game.apply(event)
    return {"kind": "event", "event": event, "effect": effect}


def _undo_row(table_id: str, loaded: Loaded) -> dict:
    """The undo's row; its effect keeps what the entry taken back was: the engine's
    effect and the position of the seat that entered it (None: imported), so that
    the log can say whose entry was taken back."""
    undone_event = loaded.game.undo()
    undoes = loaded.seqs[-1]
    undone = db.session.execute(sa.select(Event.effect, Seat.position).outerjoin(Seat, Event.seat_id == Seat.id)
                                .where(Event.table_id == table_id, Event.seq == undoes)).one()
    return {"kind": "undo", "undoes": undoes, "event": undone_event,
            "effect": {"undone": {"effect": undone.effect, "seat": undone.position}}}


class _Lost(Exception):
    """Another writer came first (turned into the stored answer or a 409)."""


def _append(table_id: str, seat: Seat | None, version, key, change) -> dict:
    version, key = checks.version(version), checks.key(key)
    table = get_table(table_id)
    if version != table.version:  # read before the key, so a first try's commit is seen here
        return _stored_or_stale(table_id, key)
    checks.event_count(version + 1)
    try:
        return _write(table, seat, version, key, change)
    except _Lost:
        db.session.expire_all()
        return _stored_or_stale(table_id, key)


def _stored_or_stale(table_id: str, key: str | None) -> dict:
    stored = stored_answer(table_id, key)
    if stored is None:
        raise stale(get_table(table_id))
    return stored


def _write(table: Table, seat: Seat | None, version: int, key: str | None, change) -> dict:
    table_id = table.id
    seat_id, entered_by = (seat.id, EnteredBy(seat.name, seat.position)) if seat is not None else (None, None)
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
            # _Lost: the changed game leaves the cache
            _insert(table_id, seat_id, entered_by, version, key, row, answer, loaded.game)
            loaded.version = version + 1
            if row["kind"] == "undo":
                loaded.seqs.pop()
            else:
                loaded.seqs.append(version + 1)
    if refusal is not None:
        raise refusal
    return answer


def _insert(table_id: str, seat_id: int | None, entered_by: EnteredBy | None, version: int, key: str | None,
            row: dict, answer: dict, game) -> None:
    """The entry's transaction: the version moved on (if still ``version``) and the row inserted
    (with the summary of a game it ends, or taken back, C6); then kept as the table's newest
    entry made here (``latest``)."""
    start_writing()
    try:
        with committed():
            connection = db.session.connection()  # the session's transaction, without the ORM's bookkeeping
            moved = connection.execute(MOVE_ON, {"table_id": table_id, "seen": version}).first()
            if moved is None:
                raise _Lost()
            connection.execute(EVENT_ROW, {"table_id": table_id, "seq": version + 1, "kind": row["kind"],
                                           "event": row["event"], "undoes": row.get("undoes"),
                                           "effect": row.get("effect"), "seat_id": seat_id, "key": key,
                                           "answer": answer})
            nights_store.entry_appended(table_id, game, row["kind"])  # C6: a finished game's summary
    except IntegrityError:
        raise _Lost() from None
    latest.remember(dict(moved._mapping),
                    LogEntry(version + 1, row["kind"], row["event"], row.get("effect"), entered_by))
    announce(table_id, moved.revision)
