"""What a finished game leaves for the night and the statistics: its summary.

Pure (engine and standard library only), so that the store's append path, the
import and the backfill migration compute it the same way. Everything is read
from the engine: ``outcome()``, ``state()`` and the effects its ``apply`` returned.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from engine import EngineError, Game, game_class

@dataclass(frozen=True)
class Summary:
    """One finished game. ``winner_mask`` bit k: the k-th player in turn order
    (counted from the one who began) won. ``won``: the engine's ``Outcome.won``
    (the team won; else somebody won), in solo only when a person is among the
    winners (the engine's Outcome does not say whether the people beat the bot)."""

    game: str
    variant: str
    players: int
    solo: bool
    first_seat: int
    winners: list[int]
    winner_mask: int
    won: bool
    reason: str
    turns: int
    rounds: int | None
    events: int
    started_at: datetime
    ended_at: datetime


def variant_key(game: str, options: dict) -> str:
    """The variant as canonical JSON: the engine's normalised options minus their
    defaults (the lab's figures name theirs the same way, contract C5)."""
    try:
        cls = game_class(game)
        normalised, defaults = cls.validate_options(dict(options)), cls.validate_options({})
    except EngineError:
        normalised, defaults = dict(options), {}
    return json.dumps({k: v for k, v in normalised.items() if defaults.get(k, _MISSING) != v},
                      sort_keys=True, separators=(",", ":"))


_MISSING = object()


def turns_and_rounds(game: Game, effects: list[dict]) -> tuple[int, int | None]:
    """Player turns played (the effects that the engine says ended one), and rounds
    (bird games only)."""
    return sum(1 for e in effects if game.ends_turn(e)), game.state().get("round")


def first_seat(game: Game) -> int:
    """Who began (the engine's ``first_turn``; 0 before the setup)."""
    seat = game.first_turn()
    return 0 if seat is None else seat


def summarize(game: Game, effects: list[dict], started_at: datetime, ended_at: datetime) -> Summary | None:
    """The summary of ``game`` (None while it is not over); ``effects`` are those
    of its events in force, in order."""
    outcome = game.outcome()
    if outcome is None:
        return None
    n, first = len(game.players), first_seat(game)
    winners = sorted(outcome.winners)
    mask = sum(1 << ((seat - first) % n) for seat in winners)
    solo = bool(game.bot_seats)
    turns, rounds = turns_and_rounds(game, effects)
    return Summary(game=game.name, variant=variant_key(game.name, game.options), players=n, solo=solo,
                   first_seat=first, winners=winners, winner_mask=mask, won=outcome.won, reason=outcome.reason,
                   turns=turns, rounds=rounds, events=len(game.events), started_at=started_at,
                   ended_at=ended_at)
