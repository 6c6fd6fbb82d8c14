"""Start page, creating and joining tables, the lobby (seats, order, start), QR codes."""
from __future__ import annotations

import io
import json

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for

from engine import GAMES

from . import seats, store
from .errors import Refusal
from .extensions import htmx, limiter
from .i18n import lazy_gettext as _l
from .models import Table
from .nights import variant_label
from .screens import TITLES, screen_for, title
from .security import on_this_machine

bp = Blueprint("tables", __name__)

CREATE_LIMIT = "30 per minute"
_THIS_PHONE = object()  # lobby_context's default seat: the one this request's phone holds
JOIN_LIMIT = "60 per minute"


def limits_off() -> bool:
    """Whether the app at hand runs without rate limits (see ``_init_limiter``)."""
    return not current_app.config.get("RATELIMIT_ENABLED", True)


def qr_svg(data: str) -> str:
    """An SVG QR code (scales with CSS)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode()


def phone_url(endpoint: str, **values) -> str:
    """An absolute URL for the phones (a link, a QR code): on the LAN address the run
    command found (``LAN_URL``, contract C9) when this request came in on localhost,
    else on the address this request came in on."""
    lan = current_app.config.get("LAN_URL")
    if lan and on_this_machine():
        return lan.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def unreachable_for_phones() -> bool:
    """Opened on localhost, and no LAN address known: the links would reach no phone."""
    return on_this_machine() and not current_app.config.get("LAN_URL")


def join_url(table: Table) -> str:
    return phone_url("tables.join", code=table.join_code)


def seat_url(table: Table, token: str) -> str:
    return phone_url("play.take_seat", table_id=table.id, token=token)


@bp.get("/")
def start_page():
    order = [name for name in TITLES if name in GAMES] + sorted(set(GAMES) - set(TITLES))
    games = [(name, title(name), screen_for(name)) for name in order]
    return render_template("tables/start.html", games=games)


@bp.post("/tables")
@limiter.limit(CREATE_LIMIT, exempt_when=limits_off)
def create():
    game = request.form.get("game", "")
    options = screen_for(game).parse_options(request.form)
    table, _seat, token = store.create_table(game, options, request.form.get("name"))
    seats.remember(table.id, token)
    return redirect(url_for("play.table_page", table_id=table.id), 303)


@bp.get("/j")
def join_by_code():
    """The typed code (from the start page) leads to the join page."""
    code = request.args.get("code", "").strip().upper()
    if not code:
        return redirect(url_for("tables.start_page"))
    return redirect(url_for("tables.join", code=code))


@bp.route("/j/<code>", methods=["GET", "POST"])
@limiter.limit(JOIN_LIMIT, methods=["POST"], exempt_when=limits_off)
def join(code: str):
    table = store.table_by_code(code)
    held = seats.current(table)
    if held is not None or table.started:
        return redirect(url_for("play.table_page", table_id=table.id))
    if request.method == "POST":
        _seat, token = store.join(table.id, code, request.form.get("name"))
        seats.remember(table.id, token)
        return redirect(url_for("play.table_page", table_id=table.id), 303)
    return render_template("tables/join.html", table=table, game_title=title(table.game))


@bp.get("/t/<table_id>/qr.svg")
def join_qr(table_id: str):
    """The join link as a QR code; revalidated on every show (an ETag of the link), since
    the link changes with the LAN address the server was started on."""
    table = store.get_table(table_id)
    answer = Response(qr_svg(join_url(table)), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
    answer.add_etag()
    return answer.make_conditional(request)


def _seat_or_403(table: Table):
    seat = seats.current(table)
    if seat is None:
        abort(403)
    return seat


def _lobby_action(table_id: str, action):
    """Run a lobby change by a seat; answer with the lobby region (htmx; a
    refusal shows there) or the page again."""
    _seat_or_403(store.get_table(table_id))
    try:
        action()
    except Refusal as refusal:
        if not htmx:
            raise
        return Response(render_lobby(store.get_table(table_id), oob=True, error=refusal.message),
                        status=refusal.status)
    if htmx:
        return Response(render_lobby(store.get_table(table_id), oob=True))
    return redirect(url_for("play.table_page", table_id=table_id), 303)


def _position() -> int:
    """The form's seat: ASCII digits only (``int()`` alone would take "+0", "0_0" or "０")."""
    text = request.values.get("seat", "").strip(" \t\r\n")  # ASCII blanks only: str.strip() also drops "\x1f", "\x85"
    if not (text.isascii() and text.isdigit()):
        raise Refusal(400, "bad-seat", _l("Bitte einen Platz angeben"))
    return int(text)


@bp.post("/t/<table_id>/seats/move")
def move_seat(table_id: str):
    offset = -1 if request.form.get("direction") == "up" else 1
    return _lobby_action(table_id, lambda: store.move_seat(table_id, _position(), offset))


@bp.post("/t/<table_id>/seats/remove")
def remove_seat(table_id: str):
    return _lobby_action(table_id, lambda: store.remove_seat(table_id, _position()))


@bp.post("/t/<table_id>/seats/link")
def seat_link(table_id: str):
    """A new link (QR) for a seat, e.g. to move a lost phone's seat to another phone."""
    table = store.get_table(table_id)
    _seat_or_403(table)
    seat, token = store.new_seat_token(table_id, _position())
    url = seat_url(table, token)
    return render_template("tables/_seat_link.html", seat=seat, url=url, qr=qr_svg(url))


@bp.post("/t/<table_id>/watch")
def watch(table_id: str):
    """A phone whose seat went to another phone lets go of it and watches."""
    table = store.get_table(table_id)
    if seats.current(table) is None:
        seats.forget(table.id)
    return redirect(url_for("play.table_page", table_id=table.id), 303)


@bp.post("/t/<table_id>/start")
def start_game(table_id: str):
    target = url_for("play.table_page", table_id=table_id)
    answer = _lobby_action(table_id, lambda: store.start(table_id))
    if htmx and answer.status_code == 200:
        # the game page from its top: the step is there, wherever the lobby was scrolled to
        return Response(status=204, headers={"HX-Location": json.dumps({"path": target, "swap": "outerHTML show:window:top"})})
    return answer


def lobby_context(table: Table, seat=_THIS_PHONE) -> dict:
    """The lobby as ``seat`` sees it (by default this phone's seat)."""
    lo, hi = store.human_seat_range(table.game, table.options)
    seat = seats.current(table) if seat is _THIS_PHONE else seat
    return {"table": table, "game_title": title(table.game), "join_url": join_url(table), "screen": screen_for(table.game),
            "seat": seat, "seat_range": (lo, hi), "joinable": hi > 1,  # one seat: the creator's, nobody joins
            "bots": store.bot_names(table.game, table.options), "variant": variant_label(table.game, table.options),
            "can_start": lo <= len(table.seats) <= hi, "unreachable": unreachable_for_phones(),
            "lost_seat": seats.lost(table)}


def render_lobby(table: Table, oob: bool = False, error: str | None = None, seat=_THIS_PHONE) -> str:
    """The lobby region and the sync poller (as ``seat`` sees them; by default this phone)."""
    return render_template("tables/_lobby.html", oob=oob, error=error, **lobby_context(table, seat)) + \
        render_template("play/_sync.html", table=table, oob=oob)
