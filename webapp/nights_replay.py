"""The replay of a finished game, ``/t/<id>/wiederholung?schritt=N`` (and
``/mitte`` for the centre view): the board exactly as after the first N events,
drawn by the game's own board partial from ``screen.view`` of a game replayed
to step N (contract C8), the log line of that step highlighted, and jumps to the
big moments (a capture of 5+, a flock, a round end, a pickup from the discard
pile, the last turn).

A step answers like an entry: the replayed game of a table is kept in a small
cache and moved to the asked step by ``apply``/``undo`` from where it stands.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import NamedTuple

from flask import Blueprint, render_template, request
from flask_babel import format_date

from engine import Game, new_game

from . import store
from .errors import Refusal
from .extensions import db, htmx
from .i18n import current_language, lazy_gettext as _l
from .models import Table
from .nights import local
from .nights_store import GameSummary, entries_in_force
from .play import around
from .screens import screen_for, title

bp = Blueprint("replay", __name__)

CACHE_SIZE = 64        # finished games being replayed at once, per worker process
LOG_AROUND = 3         # log lines shown before and after the step's line
BIG_CAPTURE = 5


class Moment(NamedTuple):
    """A step worth jumping to: the board after event ``step``."""

    step: int
    kind: str          # capture, flock, round, pickup, last-turn
    player: int | None
    size: int = 0


class Who(NamedTuple):
    name: str


class Entered(NamedTuple):
    """An event row in force, as a screen's ``log_sentence`` reads it (kept past the request)."""

    seq: int
    kind: str
    event: dict
    effect: dict | None
    seat: Who | None


class Step(NamedTuple):
    """What a board partial reads of a log entry (``log[0]``: the latest)."""

    seq: int
    kind: str


@dataclass
class Replay:
    """A finished game's events and what they did, and a game standing at ``step``."""

    version: int
    events: list[dict]
    effects: list[dict]
    entries: list[Entered]
    moments: list[Moment]
    game: Game
    step: int
    sentences: dict[str, list[str]] = field(default_factory=dict)  # per language

    def move_to(self, step: int) -> None:
        while self.step > step:
            self.game.undo()
            self.step -= 1
        while self.step < step:
            self.game.apply(self.events[self.step])
            self.step += 1

    def sentences_in(self, language: str, table: Table) -> list[str]:
        """Each step's log sentence, worded once per language by the game's screen."""
        if language not in self.sentences:
            screen = screen_for(table.game)
            self.sentences[language] = [str(screen.log_sentence(entry, list(table.players)))
                                        for entry in self.entries]
        return self.sentences[language]


_cache: OrderedDict[str, Replay] = OrderedDict()
_lock = threading.Lock()


def _take(table: Table) -> Replay:
    """The table's replay, taken out of the cache (one thread moves it at a time)."""
    with _lock:
        replay = _cache.pop(table.id, None)
    if replay is not None and replay.version == table.version:
        return replay
    entries = [Entered(row.seq, row.kind, row.event, row.effect, Who(row.seat.name) if row.seat else None)
               for row in entries_in_force(table.id)]
    effects = [entry.effect or {} for entry in entries]
    game = new_game(table.game, table.options, list(table.players))
    return Replay(table.version, [entry.event for entry in entries], effects, entries,
                  moments(effects, game.ends_turn), game, 0)


def _put(table_id: str, replay: Replay) -> None:
    with _lock:
        _cache[table_id] = replay
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def moments(effects: list[dict], ends_turn) -> list[Moment]:
    """The big moments, read from the engine's effects, in order (``ends_turn``: the
    game's ``Game.ends_turn``)."""
    found = []
    for step, effect in enumerate(effects, start=1):
        player, kind = effect.get("player"), effect.get("type")
        captured = effect.get("captured") or []
        if kind in ("play", "robin-draw") and len(captured) >= BIG_CAPTURE:
            found.append(Moment(step, "capture", player, len(captured)))
        if kind == "flock":
            found.append(Moment(step, "flock", player, len(effect.get("cards", []))))
        for flock in effect.get("robin_flocks", []):
            found.append(Moment(step, "flock", player, len(flock.get("cards", []))))
        if kind == "draw" and effect.get("from") == "discard":
            found.append(Moment(step, "pickup", player))
        if "round_over" in effect and "game_over" not in effect:
            found.append(Moment(step, "round", effect["round_over"].get("emptied_by")))
    ends = [step for step, effect in enumerate(effects[:-1], start=1) if ends_turn(effect)]
    if ends:  # the board as the last turn began
        last = effects[-1].get("player")
        found.append(Moment(ends[-1], "last-turn", last))
    return sorted(found, key=lambda m: m.step)


def _finished(table_id: str) -> Table:
    table = store.get_table(table_id)
    if not table.started or db.session.get(GameSummary, table.id) is None:
        raise Refusal(409, "not-over", _l("Eine Wiederholung gibt es erst, wenn das Spiel vorbei ist"))
    return table


def _step(total: int) -> int:
    raw = request.args.get("schritt", "0")
    try:
        step = int(raw)
    except ValueError:
        raise Refusal(400, "bad-step", _l("„schritt“ muss eine ganze Zahl sein")) from None
    return min(max(step, 0), total)


def replay_context(table: Table, centre: bool) -> dict:
    """The replay region's context at the asked step, drawn while the game stands there."""
    replay = _take(table)
    try:
        step = _step(len(replay.events))
        replay.move_to(step)
        game, screen = replay.game, screen_for(table.game)
        sentences = replay.sentences_in(current_language(), table)
        awaiting = game.awaiting
        context = {
            "table": table, "seat": None, "screen": screen, "game_title": title(table.game),
            "awaiting": awaiting, "outcome": game.outcome(),
            "turn_name": table.players[awaiting.player] if awaiting and awaiting.player is not None else None,
            "log": [(Step(step, "event"), sentences[step - 1])] if step else [],
            "key": "", "step": step, "total": len(replay.events), "centre": centre,
            "lines": [(n, sentences[n - 1]) for n in range(max(1, step - LOG_AROUND),
                                                          min(len(sentences), step + LOG_AROUND) + 1)],
            "moments": replay.moments, "sentences": sentences,
        }
        context.update(screen.view(game, table, None, {}, around(table, screen, game)))
        context["region"] = render_template("nights/_replay.html", **context)
    finally:
        _put(table.id, replay)
    return context


def _answer(table_id: str, centre: bool):
    table = _finished(table_id)
    context = replay_context(table, centre)
    if htmx:
        slider = "" if htmx.trigger_name == "schritt" else render_template("nights/_slider.html", oob=True, **context)
        return context["region"] + slider
    summary = db.session.get(GameSummary, table.id)
    return render_template("nights/replay.html", day=format_date(local(summary.started_at).date(), "full"),
                           **context)


@bp.get("/t/<table_id>/wiederholung")
def replay_page(table_id: str):
    return _answer(table_id, centre=False)


@bp.get("/t/<table_id>/wiederholung/mitte")
def replay_centre(table_id: str):
    return _answer(table_id, centre=True)
