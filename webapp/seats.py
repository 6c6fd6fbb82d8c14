"""Which seat this browser holds at a table (kept in the signed session cookie)."""
from __future__ import annotations

import json

from flask import session
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSessionInterface

from . import store
from .models import Seat, Table


SEATS_KEPT = 24  # about 90 bytes of cookie each; browsers drop a cookie over 4 KB (and with it every seat)


class _InOrder(TaggedJSONSerializer):
    """The session as JSON in insertion order: Flask's JSON sorts the keys, which would
    turn the seats' order (oldest first) into the table ids' order."""

    def dumps(self, value) -> str:
        return json.dumps(self.tag(value), separators=(",", ":"))


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, keeping the order of the seats held."""

    serializer = _InOrder()


def remember(table_id: str, token: str) -> None:
    """Hold the seat from now on; of the seats held, the newest SEATS_KEPT stay."""
    seats = dict(session.get("seats", {}))
    seats.pop(table_id, None)
    seats[table_id] = token
    session["seats"] = dict(list(seats.items())[-SEATS_KEPT:])
    session.permanent = True


def forget(table_id: str) -> None:
    """This browser no longer holds a seat at the table (e.g. after it was handed on)."""
    seats = dict(session.get("seats", {}))
    if seats.pop(table_id, None) is not None:
        session["seats"] = seats


def lost(table: Table) -> bool:
    """Whether this browser held a seat at ``table`` that was handed to another phone
    (or removed): it keeps a token that matches no seat any more."""
    held = token(table.id)
    return held is not None and store.seat_by_token(table, held) is None


def token(table_id: str) -> str | None:
    """The seat token this browser holds for the table, if any."""
    return session.get("seats", {}).get(table_id)


def current(table: Table) -> Seat | None:
    """The seat of this browser at ``table``, or None for a viewer."""
    return store.seat_by_token(table, token(table.id))


def table_and_seat(table_id: str) -> tuple[Table, Seat | None]:
    """The table and this browser's seat at it: one query when it holds one."""
    token = session.get("seats", {}).get(table_id)
    seat = store.seat_of_token(token) if token else None
    if seat is not None and seat.table_id == table_id:
        return seat.table, seat
    return store.get_table(table_id), None
