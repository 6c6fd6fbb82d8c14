"""The JSON API (docs/api.md): the same store and engine as the HTML pages."""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, request

from . import client_json, store
from .errors import NOT_FOUND, Refusal
from .extensions import limiter
from .i18n import lazy_gettext as _l
from .models import Seat, Table
from .tables import CREATE_LIMIT, JOIN_LIMIT, join_url, limits_off, seat_url

bp = Blueprint("api", __name__, url_prefix="/api")


NOT_AN_OBJECT = _l("Der Inhalt muss ein JSON-Objekt sein")


def _body() -> dict:
    data = client_json.load(request.get_data(), NOT_AN_OBJECT) if request.is_json else None
    if not isinstance(data, dict):
        raise Refusal(400, "bad-json", NOT_AN_OBJECT)
    return data


def _bearer_token() -> str:
    """The request's bearer token (401 without one)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401)
    return token.strip()


def _authorised(table_id: str) -> tuple[Table, Seat]:
    """The table and the seat of the bearer token: 401 without a token; 403 for
    a token that holds no seat anywhere (a wrong, replaced or removed one); 404
    for an unknown table and, word for word the same, for the token of a seat at
    another table (a seat acts only at its own table and learns nothing of others)."""
    seat = store.seat_of_token(_bearer_token())
    if seat is not None and seat.table_id == table_id:
        return seat.table, seat
    store.get_table(table_id)  # 404 for an unknown table
    if seat is not None:
        raise Refusal(404, "no-such-table", NOT_FOUND)
    abort(403)


def _seat_answer(table: Table, seat: Seat, token: str) -> dict:
    return {"seat": seat.position, "token": token, "seat_url": seat_url(table, token)}


@bp.post("/tables")
@limiter.limit(CREATE_LIMIT, exempt_when=limits_off)
def create_table():
    data = _body()
    if "record" in data:
        table, seat, token = store.import_table(data["record"], data.get("name"))
    else:
        table, seat, token = store.create_table(data.get("game"), data.get("options"), data.get("name"))
    return jsonify(id=table.id, join_code=table.join_code, join_url=join_url(table),
                   **_seat_answer(table, seat, token)), 201


@bp.post("/tables/<table_id>/seats")
@limiter.limit(JOIN_LIMIT, exempt_when=limits_off)
def join(table_id: str):
    data = _body()
    seat, token = store.join(table_id, data.get("join_code"), data.get("name"))
    return jsonify(_seat_answer(seat.table, seat, token)), 201


@bp.get("/tables/<table_id>")
def table_info(table_id: str):
    """The lobby view: game, options, status, seats in order, version."""
    table, seat = _authorised(table_id)
    return jsonify(id=table.id, game=table.game, options=table.options, status=table.status,
                   join_code=table.join_code, players=table.players, version=table.version,
                   you=seat.position, seats=[{"seat": s.position, "name": s.name} for s in table.seats])


@bp.post("/tables/<table_id>/seats/order")
def reorder(table_id: str):
    """Move one seat by one place: ``{"seat": n, "offset": -1|1}`` (lobby only)."""
    _authorised(table_id)
    data = _body()
    store.move_seat(table_id, data.get("seat"), data.get("offset"))
    return table_info(table_id)


@bp.delete("/tables/<table_id>/seats/<int:position>")
def remove(table_id: str, position: int):
    _authorised(table_id)
    store.remove_seat(table_id, position)
    return table_info(table_id)


@bp.post("/tables/<table_id>/seats/<int:position>/token")
def new_token(table_id: str, position: int):
    """A new token and seat link for a seat (the old one stops working)."""
    table, _seat = _authorised(table_id)
    seat, token = store.new_seat_token(table_id, position)
    return jsonify(_seat_answer(table, seat, token))


@bp.post("/tables/<table_id>/start")
def start(table_id: str):
    _authorised(table_id)
    table = store.start(table_id)
    return jsonify(store.state_answer(table) | {"players": table.players})


@bp.post("/tables/<table_id>/events")
def events(table_id: str):
    """An entry: by a seat this process looked up before, without reading it again
    (``store.submit_known``); else, or where that cannot settle it, with the seat and the table read."""
    known = store.known_seat(_bearer_token(), table_id)
    answer = _entered_by_known(table_id, known) if known is not None else None
    if answer is not None:
        return jsonify(answer)
    _table, seat = _authorised(table_id)
    data = _body()
    if "event" not in data:
        raise Refusal(400, "missing-event", _l("Das Feld „event“ fehlt"))
    return jsonify(store.submit(table_id, seat, data["event"], data.get("version"), data.get("key")))


def _entered_by_known(table_id: str, known: store.KnownSeat) -> dict | None:
    """The answer to an entry by a known seat, or None where only the reads can tell (a
    refusal included: the token may no longer hold the seat, which is refused first)."""
    try:
        data = _body()
    except Refusal:
        return None
    if "event" not in data:
        return None
    return store.submit_known(table_id, known, data["event"], data.get("version"), data.get("key"))


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    _table, seat = _authorised(table_id)
    data = _body()
    return jsonify(store.undo(table_id, seat, data.get("version"), data.get("key")))


@bp.get("/tables/<table_id>/state")
def state(table_id: str):
    table, _seat = _authorised(table_id)
    return jsonify(store.state_answer(table))


@bp.get("/tables/<table_id>/record")
def record(table_id: str):
    table, _seat = _authorised(table_id)
    return jsonify(store.record(table))
