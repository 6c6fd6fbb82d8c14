"""A game night: the chain of games at one table (rematches). Its page
``/t/<id>/abend`` (the tally and one line per game, live like the table), its
exports (one JSON file of every record, re-imported by the start page's import
form; a CSV of the games; a
BG Stats link per game) and its deletion by whoever holds a seat of it."""
from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from urllib.parse import quote, urlencode

from flask import Blueprint, Response, redirect, render_template, session, url_for
from flask_babel import format_date

from engine import EngineError, game_class

from . import seats, store
from .errors import Refusal
from .extensions import limiter
from .i18n import lazy_gettext as _l
from .models import Table
from .nights_store import GameSummary, holds_seat, night_ids, night_tables
from .screens import screen_for, title
from .screens.rummy import level_text

bp = Blueprint("nights", __name__)

NIGHT_FORMAT = "kartentisch-night/1"
NIGHT_GAMES_MAX = 30  # games per night file (a long night has twenty); fits the create limit
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html"
BGG_IDS = {"cubirds": 245476}   # the house games go to BG Stats as named custom games
BGSTATS_NAMES = {"cubirds": "CuBirds", "gleich-und-gleich": "Gleich und gleich",
                 "gemeinsame-sache": "Gemeinsame Sache"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_COLUMNS = ("number", "game", "variant", "players", "winners", "won", "reason", "turns", "rounds",
               "entries", "started", "ended", "minutes")


# --- words ------------------------------------------------------------------------------
def variant_label(game: str, options: dict) -> str:
    """The variant in words, from the labels of the game's start-page options."""
    try:
        cls = game_class(game)
        options = cls.validate_options(dict(options))  # the defaults filled in
    except EngineError:
        cls = None
    parts = [level_text(options)] if has_levels(cls) and "level" in options else []
    for option in screen_for(game).option_fields:
        value = options.get(option.name)
        if option.number and value not in (None, option.number[0]):
            parts.append(f"{option.label}: {value}")
        elif not option.choices and not option.number and value == option.value:
            parts.append(str(option.label))
    if options.get("robin_bonus"):
        parts.append(f"RobinBird +{len(options['robin_bonus'])}")
    return ", ".join(parts)


def has_levels(cls) -> bool:
    """Whether the game (its engine class) is played at a level."""
    return cls is not None and bool(cls.levels)


def reason_label(game: str, reason: str) -> str:
    screen = screen_for(game)
    return str(screen.outcome_label(reason)) if hasattr(screen, "outcome_label") else reason


def local(moment: datetime) -> datetime:
    """A stored time (UTC; SQLite gives it without a zone) in the server's zone:
    the server stands at the table."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone()


def minutes(summary: GameSummary) -> int:
    return round((local(summary.ended_at) - local(summary.started_at)).total_seconds() / 60)


# --- the night ---------------------------------------------------------------------------
@dataclass
class NightGame:
    """One game of the night, as its line shows it."""

    number: int
    table: Table
    summary: GameSummary | None
    title: str
    variant: str

    @property
    def winners(self) -> list[str]:
        return [self.table.players[s] for s in self.summary.winners] if self.summary else []

    @property
    def cooperative(self) -> bool:
        return game_class(self.table.game).cooperative

    @property
    def reason(self) -> str:
        return reason_label(self.table.game, self.summary.reason) if self.summary else ""

    @property
    def started(self) -> datetime:
        return local(self.summary.started_at if self.summary else self.table.created_at)

    @property
    def minutes(self) -> int:
        return minutes(self.summary) if self.summary else 0


@dataclass
class Night:
    """The night of a table: its games in order and the tally of wins."""

    games: list[NightGame]
    names: list[str] = field(default_factory=list)
    titles: list[tuple[str, str, int]] = field(default_factory=list)  # game, title, finished games
    wins: dict[tuple[str, str], int] = field(default_factory=dict)    # (name, game) -> wins

    @property
    def newest(self) -> Table:
        return self.games[-1].table

    @property
    def ids(self) -> list[str]:
        return [g.table.id for g in self.games]

    @property
    def finished(self) -> list[NightGame]:
        return [g for g in self.games if g.summary]

    def total(self, name: str) -> int:
        return sum(n for (who, _game), n in self.wins.items() if who == name)

    @property
    def leader(self) -> int:
        return max((self.total(name) for name in self.names), default=0)


def load_night(table_id: str) -> Night:
    ids = night_ids(table_id) if store.is_table_id(table_id) else []
    if not ids:
        store.get_table(table_id)  # the store's 404
    games = [NightGame(n, table, summary, title(table.game), variant_label(table.game, table.options))
             for n, (table, summary) in enumerate(night_tables(ids), start=1)]
    night = Night(games)
    played = Counter()
    for game in games:
        for name in game.table.players or [seat.name for seat in game.table.seats]:
            if name not in night.names:
                night.names.append(name)
        if game.summary:
            played[game.table.game] += 1
            for name in game.winners:
                night.wins[(name, game.table.game)] = night.wins.get((name, game.table.game), 0) + 1
    night.titles = [(game, title(game), count) for game, count in played.items()]
    return night


def seated(night: Night) -> bool:
    """Whether this browser holds a seat at one of the night's tables."""
    tokens = session.get("seats", {})
    return holds_seat(night.ids, tokens if isinstance(tokens, dict) else {})


def night_context(table_id: str) -> dict:
    night = load_night(table_id)
    return {"night": night, "table": night.newest, "sync_phase": "abend", "may_delete": seated(night),
            "bgstats": {g.table.id: bgstats_url(g) for g in night.finished},
            "night_date": format_date(night.games[0].started.date(), "full")}


@bp.get("/t/<table_id>/abend")
def night_page(table_id: str):
    return render_template("nights/night.html", **night_context(table_id))


def night_regions(table: Table) -> str:
    """The sync answer of a night page (``phase=abend``): its region and a new poller."""
    context = night_context(table.id)
    return "".join(render_template(name, oob=True, **context) for name in ("nights/_night.html", "play/_sync.html"))


# --- exports ------------------------------------------------------------------------------
def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _iso(moment: datetime) -> str:
    return local(moment).isoformat(timespec="seconds")


@bp.get("/t/<table_id>/abend.json")
def export_night(table_id: str):
    """Every record of the night (finished or not) with its summary, in order."""
    night = load_night(table_id)
    games = []
    for game in night.games:
        entry = {"record": store.record(game.table) if game.table.started else None}
        if game.summary:
            entry["summary"] = summary_dict(game)
        games.append(entry)
    body = json.dumps({"format": NIGHT_FORMAT, "exported": _iso(datetime.now(timezone.utc)),
                       "games": [g for g in games if g["record"] is not None]}, ensure_ascii=False, indent=2)
    return _download(body, "application/json", f"kartentisch-abend-{night.games[0].table.join_code}.json")


def summary_dict(game: NightGame) -> dict:
    s = game.summary
    return {"game": game.table.game, "variant": game.variant, "players": list(game.table.players),
            "winners": game.winners, "won": s.won, "reason": s.reason, "turns": s.turns, "rounds": s.rounds,
            "entries": s.events, "started": _iso(s.started_at), "ended": _iso(s.ended_at), "minutes": game.minutes}


@bp.get("/t/<table_id>/abend.csv")
def export_games_csv(table_id: str):
    """One row per finished game (names as entered; open it in a spreadsheet)."""
    night = load_night(table_id)
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for game in night.finished:
        row = summary_dict(game)
        row = {**row, "number": game.number, "players": " | ".join(row["players"]),
               "winners": " | ".join(row["winners"])}
        writer.writerow({column: csv_cell(value) for column, value in row.items()})
    return _download(out.getvalue(), "text/csv", f"kartentisch-abend-{night.games[0].table.join_code}.csv")


def csv_cell(value):
    """A text a spreadsheet would run as a formula (it begins with = + - @, a tab or
    a CR) gets a leading ' (OWASP, CSV injection); numbers stay numbers."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def bgstats_url(game: NightGame) -> str:
    """BG Stats' documented "create play" link: players, winner, start player,
    duration and the game (CuBirds by its BGG id, the house games by name)."""
    table, summary = game.table, game.summary
    data = {
        "sourceName": "Kartentisch", "sourcePlayId": table.id,
        "playDate": local(summary.ended_at).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),  # UTC
        "game": {"name": BGSTATS_NAMES.get(table.game, table.game), "sourceGameId": f"kartentisch-{table.game}",
                 "highestWins": True, "noPoints": True, **({"bggId": BGG_IDS[table.game]} if table.game in BGG_IDS else {})},
        "players": [{"name": name, "sourcePlayerId": name, "winner": seat in summary.winners,
                     "startPlayer": seat == summary.first_seat} for seat, name in enumerate(table.players)],
        "comments": game.reason,
    }
    if game.variant:
        data["board"] = game.variant
    if game.minutes > 0:
        data["durationMin"] = game.minutes
    query = urlencode({"data": json.dumps(data, ensure_ascii=False, separators=(",", ":"))}, quote_via=quote)
    return f"{BGSTATS_URL}?{query}"


# --- import ---------------------------------------------------------------------------
def is_night_file(data) -> bool:
    return isinstance(data, dict) and data.get("format") == NIGHT_FORMAT


def import_night(data: dict) -> Response:
    """A night file (from the start page's import form) becomes a new chain of tables
    in one transaction (one bad record refuses the whole file and changes nothing),
    this browser holding the first seat of each. Each table counts against the
    create limit of the import (``charge_created``)."""
    records = _night_records(data)
    charge_created(len(records) - 1)  # the request itself counted one
    made: list[tuple[str, str]] = []
    with store.committed():
        for number, record in enumerate(records, start=1):
            try:
                table, _seat, token = store.import_table(record, previous_id=made[-1][0] if made else None)
            except Refusal as refusal:
                raise Refusal(refusal.status, "bad-night-game", _l("Spiel {number} der Datei: {why}"),
                              {"number": number, "why": refusal.message}) from None
            made.append((table.id, token))
    for table_id, token in made:
        seats.remember(table_id, token)
    return redirect(url_for("nights.night_page", table_id=made[-1][0]), 303)


def _night_records(data) -> list:
    """The records of a night file: one to NIGHT_GAMES_MAX of them."""
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise Refusal(422, "bad-night", _l("Das ist keine Spieleabend-Datei von Kartentisch"))
    if len(games) > NIGHT_GAMES_MAX:
        raise Refusal(413, "night-too-long", _l("Eine Spieleabend-Datei fasst höchstens {max} Spiele, "
                                                "diese hat {n}"), {"max": NIGHT_GAMES_MAX, "n": len(games)})
    return [game.get("record") if isinstance(game, dict) else None for game in games]


def charge_created(count: int) -> None:
    """Count ``count`` more new tables against the rate limits of this request (the
    create limit of the import): refused, before anything is made, past the limit."""
    if count <= 0:
        return
    for held in limiter.current_limits:
        if not limiter.limiter.test(held.limit, *held.request_args, cost=count):
            raise Refusal(429, "too-many-tables", _l("So viele neue Tische auf einmal sind gerade nicht möglich "
                                                     "– bitte kurz warten"))
    for held in limiter.current_limits:
        limiter.limiter.hit(held.limit, *held.request_args, cost=count)


# --- deleting -------------------------------------------------------------------------------
def _deletable(table_id: str) -> Night:
    night = load_night(table_id)
    if not seated(night):
        raise Refusal(403, "not-of-night", _l("Nur wer an diesem Spieleabend einen Platz hat, kann ihn löschen"))
    return night


@bp.get("/t/<table_id>/abend/loeschen")
def confirm_delete(table_id: str):
    return render_template("nights/delete.html", night=_deletable(table_id))


@bp.post("/t/<table_id>/abend/loeschen")
def delete(table_id: str):
    night = _deletable(table_id)
    deleted = store.delete_tables(night.ids)
    kept = {k: v for k, v in session.get("seats", {}).items() if k not in night.ids}
    session["seats"] = kept
    return render_template("nights/deleted.html", games=deleted)
