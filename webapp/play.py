"""The table page: lobby or game, entering events, undo, live sync, export/import."""
from __future__ import annotations

import functools
import json
import secrets
import threading
import uuid
from dataclasses import dataclass, field
from typing import NamedTuple

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import get_locale, lazy_gettext as _l
from flask_wtf.csrf import generate_csrf
from markupsafe import escape

from . import seats, store
from .errors import Refusal
from .extensions import htmx, limiter
from .models import Event, Seat, Table
from .screens import screen_for, title
from .screens.generic import Screen
from .tables import CREATE_LIMIT, limits_off, lobby_context, render_lobby

bp = Blueprint("play", __name__)


@bp.get("/t/<table_id>/s/<token>")
def take_seat(table_id: str, token: str):
    """A seat link: this browser holds the seat from now on."""
    table = store.get_table(table_id)
    if store.seat_by_token(table, token) is None:
        raise Refusal(403, "bad-seat-link", _l("Dieser Platz-Link gilt nicht (mehr)"))
    seats.remember(table.id, token)
    return redirect(url_for("play.table_page", table_id=table.id))


@bp.get("/t/<table_id>")
def table_page(table_id: str):
    table = store.get_table(table_id)
    if not table.started:
        return render_template("tables/lobby.html", **lobby_context(table))
    return render_template("play/table.html", **play_context(table))


@bp.get("/t/<table_id>/mitte")
def centre_page(table_id: str):
    """The table-centre view: status and board only, read-only, kept live by the poller."""
    table = store.get_table(table_id)
    if not table.started:
        return redirect(url_for("play.table_page", table_id=table.id))
    return render_template("play/centre.html", **play_context(table))


@bp.get("/t/<table_id>/controls")
def controls(table_id: str):
    """The controls region alone: a screen's multi-tap selection (kept in the query) redrawn."""
    table = store.get_table(table_id)
    if not table.started:
        raise Refusal(409, "not-started", _l("Das Spiel hat noch nicht begonnen"))
    return render_template("play/_controls.html", oob=False, **play_context(table))


@bp.get("/t/<table_id>/sync")
def sync(table_id: str):
    """204 while nothing changed (answered by ``fastsync`` before Flask); else the changed regions."""
    table, seat = seats.table_and_seat(table_id)
    if request.args.get("rev") == str(table.revision):
        return Response(status=204)
    if not table.started:
        return render_lobby(table, oob=True)
    if request.args.get("phase") == "lobby":
        return Response(status=204, headers={"HX-Location": url_for("play.table_page", table_id=table_id)})
    return _regions_for(table, seat)


def _form_int(name: str):
    try:
        return int(request.form.get(name, ""))
    except ValueError:
        raise Refusal(400, f"bad-{name}", _l("Das Feld „{field}“ muss eine ganze Zahl sein"), {"field": name}) from None


def _entered(table_id: str, action) -> str | Response:
    """Run an entry; answer with the regions (and the refusal in the controls)."""
    table = store.get_table(table_id)
    seat = seats.current(table)
    if seat is None:
        raise Refusal(403, "not-seated", _l("Nur wer am Tisch sitzt, kann eintragen"))
    try:
        action(seat)
    except Refusal as refusal:
        if not htmx:
            raise
        return Response(render_regions(store.get_table(table_id), error=refusal.message), status=refusal.status)
    if not htmx:
        return redirect(url_for("play.table_page", table_id=table_id), 303)
    return render_regions(store.get_table(table_id))


@bp.post("/t/<table_id>/event")
def enter_event(table_id: str):
    def action(seat):
        try:
            event = json.loads(request.form.get("event", ""))
        except ValueError:
            raise Refusal(400, "bad-json", _l("Das Ereignis ist kein gültiges JSON")) from None
        store.submit(table_id, seat, event, _form_int("version"), request.form.get("key") or None)
    return _entered(table_id, action)


@bp.post("/t/<table_id>/undo")
def undo(table_id: str):
    return _entered(table_id, lambda seat: store.undo(
        table_id, seat, _form_int("version"), request.form.get("key") or None))


@bp.post("/t/<table_id>/rematch")
def rematch(table_id: str):
    """The next game at this table with the same players (a plain form: a full page
    load of the new table); ``options`` as JSON, else the old ones."""
    table = store.get_table(table_id)
    raw = request.form.get("options")
    try:
        options = json.loads(raw) if raw else None
    except ValueError:
        raise Refusal(400, "bad-json", _l("Die Optionen sind kein gültiges JSON")) from None
    follow, token = store.rematch(table.id, seats.current(table), options)
    seats.remember(follow.id, token)
    return redirect(url_for("play.table_page", table_id=follow.id), 303)


@bp.get("/t/<table_id>/record.json")
def export_record(table_id: str):
    table = store.get_table(table_id)
    body = json.dumps(store.record(table), ensure_ascii=False, indent=2)
    filename = f"kartentisch-{table.game}-{table.join_code}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.post("/import")
@limiter.limit(CREATE_LIMIT, exempt_when=limits_off)
def import_record():
    """A record file (or pasted JSON) becomes a new table; this browser holds seat 0."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get("record", "")
    try:
        data = json.loads(text)
    except ValueError:
        raise Refusal(400, "bad-json", _l("Die Datei ist kein gültiges JSON")) from None
    table, _seat, token = store.import_table(data)
    seats.remember(table.id, token)
    return redirect(url_for("play.table_page", table_id=table.id), 303)


def play_context(table: Table, error: str | None = None) -> dict:
    """Everything the regions of a running game show, for this phone."""
    return _context(table, seats.current(table), request.values, error)


# What differs between phones that see the same (``Screen.perspective``): drawn as
# stand-ins, filled in per phone. Random per process, so no name can spell one.
KEY_STAND_IN, CSRF_STAND_IN, NAME_STAND_IN = (f"kt{secrets.token_hex(8)}" for _ in range(3))


def _context(table: Table, seat: Seat | None, values, error: str | None = None, shared: bool = False) -> dict:
    """The regions' context; ``values`` is the selection kept across taps, if any;
    ``shared`` puts stand-ins where the phones of one perspective differ."""
    screen = screen_for(table.game)
    with store.game_at(table) as loaded:
        game = loaded.game
        awaiting = game.awaiting
        legal = game.legal_choices() if awaiting and seat else {}
        context = {
            "table": table, "seat": seat, "screen": screen, "game_title": title(table.game),
            "state": game.state(), "awaiting": awaiting,
            "turn_name": table.players[awaiting.player] if awaiting and awaiting.player is not None else None,
            "outcome": game.outcome(), "can_undo": bool(game.events),
            "choices": screen.choices(legal), "legal_choices": legal,
            "event_template": screen.event_template(game),
        }
        context.update(screen.view(game, table, seat, values))
    context.update(error=error, log=_log(table.id, table.revision, str(get_locale())))
    if shared:
        context.update(key=KEY_STAND_IN, seat_name=NAME_STAND_IN, csrf_token=lambda: CSRF_STAND_IN)
    else:
        context.update(key=uuid.uuid4().hex, seat_name=seat.name if seat is not None else "")
    return context


class LoggedEntry(NamedTuple):
    """What the templates read of an entry in the log."""

    seq: int
    kind: str


@functools.lru_cache(maxsize=1024)
def _log(table_id: str, revision: int, language: str) -> tuple[tuple[LoggedEntry, str], ...]:
    """The newest entries with their sentences: the same on every phone, so built
    once per table revision and language (every change counts up the revision)."""
    table = store.get_table(table_id)
    screen, players = screen_for(table.game), tuple(table.players)
    return tuple((LoggedEntry(entry.seq, entry.kind),
                  _sentence(_Worded(table_id, entry.seq, language, entry, players, screen)))
                 for entry in store.log_rows(table))


@dataclass(frozen=True)
class _Worded:
    """An entry to put into words, known by table, seq and language — its sentence never
    changes (entries are only appended; seats are fixed once the game runs) — and carrying
    what the wording needs, which is left out of comparing and hashing."""

    table_id: str
    seq: int
    language: str
    entry: Event = field(compare=False)
    players: tuple[str, ...] = field(compare=False)
    screen: Screen = field(compare=False)


@functools.lru_cache(maxsize=16384)
def _sentence(worded: _Worded) -> str:
    """An entry's sentence, worded once: a new revision words only its new entry."""
    return str(worded.screen.log_sentence(worded.entry, list(worded.players)))


def render_regions(table: Table, error: str | None = None) -> str:
    """The four regions and the sync poller as out-of-band swaps. Without a refusal
    to show they are drawn once per table revision, language and perspective, and
    filled in for this phone: its idempotency key, CSRF token and name."""
    return _regions_for(table, seats.current(table), error)


def _regions_for(table: Table, seat: Seat | None, error: str | None = None) -> str:
    if error is not None:
        return _draw(_context(table, seat, request.values, error))
    with store.game_at(table) as loaded:
        perspective = screen_for(table.game).perspective(loaded.game, seat)
    key = (table.id, table.revision, str(get_locale()), perspective)
    with _DRAWING[hash(key) % len(_DRAWING)]:  # phones woken together: one draws, the others find it drawn
        drawn = _shared_regions(*key)
    drawn = drawn.replace(KEY_STAND_IN, uuid.uuid4().hex)
    if CSRF_STAND_IN in drawn:
        drawn = drawn.replace(CSRF_STAND_IN, generate_csrf())
    return drawn.replace(NAME_STAND_IN, str(escape(seat.name)) if seat is not None else "")


_DRAWING = tuple(threading.Lock() for _ in range(64))


@functools.lru_cache(maxsize=1024)
def _shared_regions(table_id: str, revision: int, language: str, perspective) -> str:
    """The regions with stand-ins, drawn for the asking phone and valid for every
    phone of the same perspective at this revision and language."""
    table = store.get_table(table_id)
    return _draw(_context(table, seats.current(table), {}, shared=True))


def _draw(context: dict) -> str:
    return "".join(render_template(f"play/_{region}.html", oob=True, **context)
                   for region in ("status", "board", "controls", "log", "sync"))
