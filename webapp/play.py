"""The table page: lobby or game, entering events, undo, live sync, export/import."""
from __future__ import annotations

import hashlib
import json
import threading
from typing import NamedTuple

from cachetools import LRUCache
from flask import Blueprint, Flask, Response, current_app, redirect, render_template, request, url_for
from flask_htmx import make_response as htmx_response

from . import client_json, nights, seats, store
from .errors import NOT_FOUND, Refusal
from .extensions import htmx, limiter
from .i18n import current_language, lazy_gettext as _l
from .models import Seat, Table
from .screens import screen_for, title
from .screens.generic import Around, Perspective, Screen
from .tables import CREATE_LIMIT, limits_off, lobby_context

bp = Blueprint("play", __name__)
NIGHT = "abend"  # the sync phase of a night page (webapp/nights.py)


def entry_key(table_id: str, version: int, event) -> str:
    """The idempotency key of entering ``event`` (any JSON value; ``"undo"`` for an
    undo) at ``version``: the same on every phone and for every tap, so a double tap
    or a second phone tapping the same button enters it once."""
    return _entry_key(table_id, version, json.dumps(event, sort_keys=True))


def _entry_key(table_id: str, version: int, event_json: str) -> str:
    """``entry_key`` of an event already written as ``json.dumps(event, sort_keys=True)``."""
    digest = hashlib.sha1(event_json.encode()).hexdigest()[:10]
    return f"{table_id}-{version}-{digest}"


def entry_vals(table: Table, event: dict, **selection) -> str:
    """``hx-vals`` of a button that enters ``event`` at the table's version (templates
    call it); ``selection`` travels along (kept if the entry is refused)."""
    event_json = json.dumps(event, sort_keys=True)
    return json.dumps({**selection, "event": event_json, "version": table.version,
                       "key": _entry_key(table.id, table.version, event_json)})


def undo_vals(table: Table) -> str:
    """``hx-vals`` of a button that takes back the last entry."""
    return json.dumps({"version": table.version, "key": entry_key(table.id, table.version, "undo")})


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(entry_vals=entry_vals, undo_vals=undo_vals)


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
    return render_template("play/table.html", lost_seat=seats.lost(table), **play_context(table))


@bp.get("/t/<table_id>/mitte")
def centre_page(table_id: str):
    """The table-centre view: status and board only, read-only, kept live by the poller."""
    table = store.get_table(table_id)
    if not table.started:
        return redirect(url_for("play.table_page", table_id=table.id))
    return render_template("play/centre.html", **play_context(table), view=CENTRE)


@bp.get("/t/<table_id>/controls")
def controls(table_id: str):
    """The controls region alone: a screen's multi-tap selection (kept in the query) redrawn.
    A selection made at a version (``at``: the setup wizard's cards, a play's count) goes
    into the page's address too, so a reload or a phone woken from sleep keeps it; once
    the table moves on, the page drops it as stale."""
    table = store.get_table(table_id)
    if not table.started:
        raise Refusal(409, "not-started", _l("Das Spiel hat noch nicht begonnen"))
    drawn = render_template("play/_controls.html", oob=False, **play_context(table))
    if "at" not in request.args:
        return drawn
    return htmx_response(drawn, replace_url=url_for("play.table_page", table_id=table.id, **request.args))


@bp.get("/t/<table_id>/sync")
def sync(table_id: str):
    """The sync poll (``webapp.sync`` answers it in front of Flask, the same way); a
    night page's poll (``phase=abend``, held there like any other) is drawn here."""
    if request.args.get("phase") == NIGHT:
        table = store.get_table(table_id)
        if request.args.get("rev") == str(table.revision):
            return Response(status=204)
        return nights.night_regions(table)
    answer = current_app.extensions["sync"].answer(
        table_id, request.args.to_dict(), seats.token(table_id), current_language(), gzip_ok=False)
    if answer is None:
        raise Refusal(404, "no-such-table", NOT_FOUND)
    return Response(answer.body, status=int(answer.status.split()[0]), headers=answer.headers)


def _form_int(name: str) -> int:
    """A whole number of ASCII digits (``int()`` alone would take "+1", "1_0" or "１")."""
    text = request.form.get(name, "").strip(" \t\r\n")  # ASCII blanks only: str.strip() also drops "\x1f", "\x85"
    if not (text.isascii() and text.isdigit()):
        raise Refusal(400, f"bad-{name}", _l("Das Feld „{field}“ muss eine ganze Zahl sein"), {"field": name})
    return int(text)


def _entered(table_id: str, action, by_known=None) -> str | Response:
    """Run an entry, ``action(seat)`` (which answers as the store does); answer with the
    regions (and the refusal in the controls). A seat this process looked up before enters
    by ``by_known(seat)`` without a read first (``store.submit_known``: None where it cannot
    settle the entry, which then goes the whole way, the seat and the table read)."""
    token = seats.token(table_id)
    known = store.known_seat(token, table_id) if token and by_known is not None else None
    answer = _settled_by_known(by_known, known) if known is not None else None
    if answer is None:
        table, seat = seats.table_and_seat(table_id)  # looked up here: known for the next entry
        if seat is None:
            raise Refusal(403, "not-seated", _l("Nur wer am Tisch sitzt, kann eintragen"))
        try:
            answer = action(seat)
        except Refusal as refusal:
            if not htmx:
                raise
            return Response(render_regions(store.get_table(table_id), error=refusal), status=refusal.status)
        known = store.known_seat(token, table_id) or seat
    page = url_for("play.table_page", table_id=table_id)
    if not htmx:
        return redirect(page, 303)
    regions = _regions_for(_entered_table(table_id, answer["version"]), known)
    # the selection in the address (``controls``) is entered now: the address is the table's again
    return htmx_response(regions, replace_url=page) if "?" in (htmx.current_url or "") else regions


def _settled_by_known(by_known, seat: store.KnownSeat) -> dict | None:
    """``by_known(seat)``'s answer, or None where only the reads can tell (a refusal
    included: the token may no longer hold the seat, which is refused first)."""
    try:
        return by_known(seat)
    except Refusal:
        return None


def _entered_table(table_id: str, version: int) -> Table:
    """The table as the entry that moved it to ``version`` left it: as it was made here,
    without a read, unless another entry came since."""
    revision = store.entered_revision(table_id, version)
    table = store.entered_table(table_id, revision) if revision is not None else None
    return table if table is not None else store.get_table(table_id)


@bp.post("/t/<table_id>/event")
def enter_event(table_id: str):
    """An entry from a button (``entry_vals``) or the typed JSON of the generic screen;
    without a key, the key of the same event tapped (``entry_key``)."""
    def entry() -> tuple:
        event = client_json.load(request.form.get("event", ""), _l("Das Ereignis ist kein gültiges JSON"))
        version = _form_int("version")
        return event, version, request.form.get("key") or entry_key(table_id, version, event)

    return _entered(table_id, lambda seat: store.submit(table_id, seat, *entry()),
                    lambda seat: store.submit_known(table_id, seat, *entry()))


@bp.post("/t/<table_id>/undo")
def undo(table_id: str):
    def action(seat):
        version = _form_int("version")
        return store.undo(table_id, seat, version, request.form.get("key") or entry_key(table_id, version, "undo"))
    return _entered(table_id, action)


@bp.post("/t/<table_id>/rematch")
def rematch(table_id: str):
    """The next game at this table with the same players, the new table's page
    loaded by htmx (``HX-Location``; a plain form post gets a redirect);
    ``options`` as JSON, else the old ones."""
    table = store.get_table(table_id)
    raw = request.form.get("options")
    options = client_json.load(raw, _l("Die Optionen sind kein gültiges JSON")) if raw else None
    follow, token = store.rematch(table.id, seats.current(table), options)
    seats.remember(follow.id, token)
    target = url_for("play.table_page", table_id=follow.id)
    if htmx:
        return Response(status=204, headers={"HX-Location": target})
    return redirect(target, 303)


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
    raw = upload.read() if upload and upload.filename else request.form.get("record", "")
    data = client_json.load(raw, _l("Die Datei ist kein gültiges JSON"))
    if nights.is_night_file(data):  # a whole game night (its export)
        return nights.import_night(data)
    table, _seat, token = store.import_table(data)
    seats.remember(table.id, token)
    return redirect(url_for("play.table_page", table_id=table.id), 303)


def play_context(table: Table, error: Refusal | None = None) -> dict:
    """The table page of a running game: the regions for this phone's perspective
    (with the selection kept in the query) and ``me``, the seat it holds (shown
    outside the regions: "Du bist …", ``<main data-me>``)."""
    me = seats.current(table)
    return _context(table, screen_for(table.game).perspective(me), request.values, error) | {"me": me}


def _context(table: Table, perspective: Perspective | None, values, error: Refusal | None = None) -> dict:
    """What the regions show: the same for every phone of one ``perspective`` (its
    ``seat`` in the templates: None for a phone that watches); ``values`` is the
    selection kept across taps, if any."""
    screen = screen_for(table.game)
    with store.game_at(table) as loaded:
        game = loaded.game
        awaiting = game.awaiting
        context = {
            "table": table, "seat": perspective, "screen": screen, "game_title": title(table.game),
            "awaiting": awaiting,
            "turn_name": table.players[awaiting.player] if awaiting and awaiting.player is not None else None,
            "outcome": game.outcome(), "can_undo": bool(game.events),
            "entry_url": url_for("play.enter_event", table_id=table.id),
            "controls_url": url_for("play.controls", table_id=table.id),
        }
        context.update(screen.view(game, table, perspective, values, around(table, screen, game)))
        undone_next = loaded.seqs[-1] if loaded.seqs else None
        undone_words = screen.event_label(game.events[-1]) if game.events else None
    log = _log(table, current_language())
    # what the next undo takes back: the log's line of the last entry in force
    undo_sentence = next((sentence for entry, sentence in log if entry.seq == undone_next), undone_words)
    context.update(error=error, log=log, undo_sentence=undo_sentence)
    return context


def around(table: Table, screen: Screen, game) -> Around | None:
    """What a finished game's screen shows of the games around it at the table
    (``Screen.earlier_games``), read here so that screens query no store (C8)."""
    if game.awaiting is not None or screen.earlier_games is None:
        return None
    earlier = []
    for previous in store.history(table, screen.earlier_games + 1)[1:]:
        with store.game_at(previous) as loaded:
            earlier.append(loaded.game.outcome())
    follow = store.next_game(table)
    return Around(tuple(earlier), follow.options if follow is not None else None)


class LoggedEntry(NamedTuple):
    """What the templates read of an entry in the log."""

    seq: int
    kind: str


# Each table's log in each language as last drawn, with the version it was drawn at: an
# entry never changes once made (entries are only appended, seats are fixed once the game
# runs), so the log of a later version is the entries made since, worded once, on top of it.
# Strings, not the entry rows they were worded from.
_logs: LRUCache[tuple[str, str], tuple[int, tuple[tuple[LoggedEntry, str], ...]]] = LRUCache(maxsize=4096)
_logs_lock = threading.Lock()


def _log(table: Table, language: str) -> tuple[tuple[LoggedEntry, str], ...]:
    """The newest entries with their sentences, the same on every phone: read and worded
    only where they are newer than the log kept for the table and language."""
    key = (table.id, language)
    with _logs_lock:
        version, log = _logs.get(key, (0, ()))
    if version == table.version:
        return log
    if version > table.version:  # an older version than the one kept: worded whole
        version, log = 0, ()
    screen, players = screen_for(table.game), list(table.players)
    made_since = tuple((LoggedEntry(entry.seq, entry.kind), str(screen.log_line(entry, players)))
                       for entry in store.log_rows(table, after=version))
    log = (made_since + log)[:store.LOG_LENGTH]
    with _logs_lock:
        if _logs.get(key, (-1,))[0] < table.version:
            _logs[key] = (table.version, log)
    return log


def render_regions(table: Table, error: Refusal | None = None) -> str:
    """The regions and the sync poller as out-of-band swaps, for this phone: the
    drawing of its perspective, or with a refusal, drawn for it alone."""
    return _regions_for(table, seats.current(table), error)


def _regions_for(table: Table, seat: Seat | None, error: Refusal | None = None, view: str | None = None) -> str:
    perspective = screen_for(table.game).perspective(seat)
    if error is not None:
        return _draw(_context(table, perspective, request.values, error))
    return shared_regions(table, perspective, view)


# Drawings, and the regions they share, by their length in characters (a bird table's are ~60 KB):
# old revisions age out.
_drawings: LRUCache = LRUCache(maxsize=32 * 2**20, getsizeof=len)
_drawings_lock = threading.Lock()
_DRAWING = tuple(threading.Lock() for _ in range(64))


def shared_regions(table: Table, perspective: Perspective | None, view: str | None) -> str:
    """The regions of ``view`` at the table's revision in this request's language, as
    every phone of ``perspective`` sees them: drawn once (phones woken together: one
    draws, the others wait for its drawing)."""
    key = (table.id, table.revision, current_language(), perspective, view)
    with _DRAWING[hash(key) % len(_DRAWING)]:
        return _drawn_once(key, lambda: _draw(_context(table, perspective, {}), view))


def _drawn_once(key: tuple, draw) -> str:
    """The text kept in ``_drawings`` under ``key``, drawn by ``draw()`` if none is."""
    with _drawings_lock:
        drawn = _drawings.get(key)
    if drawn is None:
        drawn = draw()
        with _drawings_lock:
            _drawings[key] = drawn
    return drawn


CENTRE = "centre"  # the table-centre view: read-only, status and board
REGIONS = {None: ("status", "board", "controls", "log", "sync"), CENTRE: ("status", "board", "sync")}
# The one region a perspective draws for itself; the others are the same for every phone (the
# page marks its own seat, <main data-me>): drawn once per table revision, language and view.
OWN_REGION = "controls"


def _draw(context: dict, view: str | None = None) -> str:
    return "".join(_region(region, context, view) for region in REGIONS[view])


def _region(region: str, context: dict, view: str | None) -> str:
    def draw() -> str:
        return render_template(f"play/_{region}.html", oob=True, view=view, **context)

    if region == OWN_REGION:
        return draw()
    table = context["table"]
    return _drawn_once(("region", table.id, table.revision, current_language(), view, region), draw)
