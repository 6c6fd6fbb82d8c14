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

A seat this process looked up before (``reads.KnownSeat``) enters without step (1):
its game is the one cached here at ``version`` (``cache.game_at_version``), and the
write (3) moves the version on only while the token still holds that seat. Whatever
that cannot settle (no game here at ``version``, a lost write, a refusal) goes the
whole way, reads included (``submit_known`` answers None).
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
from ..models import Event, Seat, Table, utcnow
from ..screens.generic import EnteredBy, LogEntry
from . import checks, latest
from .cache import Loaded, game_at, game_at_version
from .reads import KnownSeat, get_table, state_answer, stored_answer
from .writing import announce, committed, start_writing

# An entry's two statements, run as plain SQL on the session's connection (the ORM would keep the
# session's objects in step, which the entry never reads): the version moved on if it is still the
# one seen, returning the table's row as it leaves it; then the entry's row (on PostgreSQL both in
# one statement, ``ENTERING``).
_TABLES, _SEATS = Table.__table__, Seat.__table__
MOVE_ON = (sa.update(_TABLES)
           .where(_TABLES.c.id == sa.bindparam("table_id"), _TABLES.c.version == sa.bindparam("seen"))
           .values(version=sa.bindparam("seen", type_=sa.Integer) + 1, revision=_TABLES.c.revision + 1)
           .returning(*_TABLES.c))
# ... by a seat: only while its token still holds it, as it was when it was looked up
MOVE_ON_AS_SEAT = MOVE_ON.where(sa.exists().where(
    _SEATS.c.id == sa.bindparam("seat_id"), _SEATS.c.table_id == _TABLES.c.id,
    _SEATS.c.token_hash == sa.bindparam("token_hash"), _SEATS.c.position == sa.bindparam("position"),
    _SEATS.c.name == sa.bindparam("name")))
EVENT_ROW = sa.insert(Event.__table__)
_ROW_VALUES = ("seq", "kind", "event", "undoes", "effect", "seat_id", "key", "answer", "created_at")


def _entering(move_on: sa.Update) -> sa.Select:
    """PostgreSQL: ``move_on`` and the entry's row in one statement (a data-modifying WITH),
    which answers the moved table's row (none: not moved, nothing inserted)."""
    moved = move_on.cte("moved")
    # named apart from the columns of ``tables``: the UPDATE would take a parameter named like one into its SET
    values = [sa.bindparam(f"row_{name}", type_=Event.__table__.c[name].type) for name in _ROW_VALUES]
    row = sa.insert(Event.__table__).from_select(("table_id", *_ROW_VALUES), sa.select(moved.c.id, *values),
                                                include_defaults=False)
    return sa.select(moved).add_cte(row.cte("entered"))


ENTERING = {MOVE_ON: _entering(MOVE_ON), MOVE_ON_AS_SEAT: _entering(MOVE_ON_AS_SEAT)}
STALE = _l("Gerade hat jemand anderes etwas eingetragen – schau kurz hin und tipp noch einmal")


def submit(table_id: str, seat: Seat | None, event, version, key=None) -> dict:
    """Append one event; answer ``{"version", "state"}``."""
    return _append(table_id, seat, version, key, lambda loaded: _event_row(loaded, event))


def submit_known(table_id: str, seat: KnownSeat, event, version, key=None) -> dict | None:
    """``submit`` by a seat known here, without reading the table or the seat; None
    where that cannot settle the entry (then ``submit`` after the reads decides)."""
    try:
        version, key = checks.version(version), checks.key(key)
        checks.event_count(version + 1)
        with game_at_version(table_id, version) as loaded:
            written = None if loaded is None else \
                _written(loaded, table_id, seat, version, key, lambda: _event_row(loaded, event))
        return written if isinstance(written, dict) else None
    except (Refusal, _Lost):
        db.session.expire_all()
        return None


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
    with game_at(table) as loaded:
        written = _written(loaded, table.id, seat, version, key, lambda: change(loaded))
    if isinstance(written, Refusal):
        raise written
    return written


def _written(loaded: Loaded, table_id: str, seat: Seat | KnownSeat | None, version: int, key: str | None,
             change) -> dict | Refusal:
    """The entry ``change()`` makes of the game ``loaded`` (at ``version``), written: its answer.
    The engine's refusal is returned, not raised: the game is unchanged and stays in the cache
    when the caller leaves ``game_at``'s block; what is raised here takes the game out of it."""
    try:
        row = change()
    except IllegalEvent as err:
        return Refusal.from_engine(err)
    except Exception:  # an engine bug: the game may be half-changed, so it leaves the cache
        current_app.logger.exception("engine failed at table %s, version %s", table_id, version)
        raise Refusal(422, "not-understood", _l("Diese Eingabe wurde nicht verstanden")) from None
    answer = {"version": version + 1, "state": loaded.game.state()}
    _insert(table_id, seat, version, key, row, answer, loaded.game)
    loaded.version = version + 1
    if row["kind"] == "undo":
        loaded.seqs.pop()
    else:
        loaded.seqs.append(version + 1)
    return answer


def _insert(table_id: str, seat: Seat | KnownSeat | None, version: int, key: str | None,
            row: dict, answer: dict, game) -> None:
    """The entry's transaction: the version moved on (if still ``version``, and by ``seat``
    only while its token holds it) and the row inserted (with the summary of a game it ends,
    or taken back, C6); then kept as the table's newest entry made here (``latest``)."""
    move_on, moving = MOVE_ON, {"table_id": table_id, "seen": version}
    if seat is not None:
        move_on, moving = MOVE_ON_AS_SEAT, moving | {"seat_id": seat.id, "token_hash": seat.token_hash,
                                                     "position": seat.position, "name": seat.name}
    values = {"seq": version + 1, "kind": row["kind"], "event": row["event"], "undoes": row.get("undoes"),
              "effect": row.get("effect"), "seat_id": seat.id if seat is not None else None, "key": key,
              "answer": answer, "created_at": utcnow()}
    summary = nights_store.changes_summary(game, row["kind"])  # C6: written in the entry's transaction
    entered_by = EnteredBy(seat.name, seat.position) if seat is not None else None  # (a Seat expires with the commit)
    start_writing()
    try:
        with committed():
            # PostgreSQL, an entry that leaves the summary as it is: one statement, and none to begin
            # or commit a transaction where no read began one (the known seat's); else one by one
            one_statement = db.session.get_bind().dialect.name == "postgresql" and not summary
            if one_statement and not db.session().in_transaction():
                connection = db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
            else:
                connection = db.session.connection()  # the session's transaction, without the ORM's bookkeeping
            if one_statement:
                moved = connection.execute(ENTERING[move_on],
                                           moving | {f"row_{name}": value for name, value in values.items()}).first()
            else:
                moved = connection.execute(move_on, moving).first()
                if moved is not None:
                    connection.execute(EVENT_ROW, values | {"table_id": table_id})
            if moved is None:
                raise _Lost()
            if summary:
                nights_store.entry_appended(table_id, game, row["kind"])
    except IntegrityError:
        raise _Lost() from None
    latest.remember(dict(moved._mapping),
                    LogEntry(version + 1, row["kind"], row["event"], row.get("effect"), entered_by))
    announce(table_id, moved.revision)
