"""Bird games played by bots through the real engine.

The physical table (deck, hands, discard pile) is the engine's own random-game
table (engine/birds/randomplay.py: ``TableSimulation``); here its players are
bots. Every decision goes to a bot as an ``Observation`` of that seat, every
event through ``game.apply``: a finished game is a legal record. In solo the
last seat is RobinBird, whom the engine plays.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ..birds.randomplay import TableSimulation
from ..birds.rules import RIGHT
from .bots import make_bot
from .observation import observe
from .variants import make_game


@dataclass
class GameResult:
    """What a finished bird game says about balance. Seats are counted from the
    first player (the first dealer): ``winners`` and ``think`` use that order."""

    reason: str
    winners: tuple[int, ...]
    turns: int           # player turns (plays; RobinBird's turns too in solo)
    rounds: int
    reshuffles: int
    events: int
    seats: tuple[str, ...]        # the bot of each seat ("robin" for RobinBird)
    think: tuple[float, ...]      # CPU seconds each seat's bot spent deciding
    decided_turns: tuple[int, ...]


class BotTable(TableSimulation):
    """The engine's simulated table, with bots (one per seat; None for RobinBird)."""

    def __init__(self, game, rng: random.Random, bots: list, bot_rng: random.Random):
        super().__init__(game, rng)
        self.styles = [replace(style, pass_chance=0.0) for style in self.styles]   # the bots decide
        self.bots, self.bot_rng = bots, bot_rng
        self.think = [0.0] * len(bots)

    def _ask(self, player: int, question: str):
        bot = self.bots[player]
        started = time.process_time()
        answer = getattr(bot, question)(observe(self.game, player, self.hands[player]), self.bot_rng)
        self.think[player] += time.process_time() - started
        return answer

    def _cards_of(self, player: int, species: str) -> list[str]:
        order, species_of = self.rs.card_index, self.rs.species_of
        return sorted((c for c in self.hands[player] if species_of[c] == species), key=order.__getitem__)

    def next_event(self) -> dict:
        if self.game.awaiting.kind == "refill":          # the bots leave refills at the default end
            return {"type": "refill", "card": self.take(), "side": RIGHT}
        return super().next_event()

    def choose_play(self, player: int) -> dict:
        species, row, side = self._ask(player, "play")
        return {"type": "play", "cards": self._cards_of(player, species), "row": row, "side": side}

    def choose_draw(self, player: int) -> dict:
        if not self._ask(player, "draw"):
            return {"type": "pass"}
        return super().choose_draw(player)      # the table's styles never pass (see __init__)

    def choose_flock(self, player: int) -> dict:
        species = self._ask(player, "flock")
        if species is None:
            return {"type": "no-flock"}
        return self.flock_event(self._cards_of(player, species))


def play_game(game_name: str, options: dict, lineup: list[str], seed: int, handicap: int = 0,
              keep_record: bool = False):
    """One bot game: ``lineup`` names the bot of each seat (solo: the human seat
    only; RobinBird is the engine's). Returns (GameResult, record or None)."""
    rng = random.Random(seed)
    solo = bool(options.get("solo"))
    options = {**options, "robin_handicap": handicap} if solo and handicap else dict(options)
    names = [f"Spieler {i + 1}" for i in range(len(lineup))] + (["RobinBird"] if solo else [])
    game = make_game(game_name, options, names)
    bots = [make_bot(name) for name in lineup] + ([None] if solo else [])
    table = BotTable(game, rng, bots, random.Random(seed * 7919 + 17))
    n = len(names)
    plays = [0] * n
    while game.awaiting is not None:
        awaiting = game.awaiting
        if awaiting.kind == "play" or (awaiting.kind == "robin-draw" and game.robin_row == 0):
            plays[awaiting.player] += 1
        event = table.next_event()
        table.follow(event, game.apply(event))
    first = game.events[0]["dealer"]
    relative = [(first + k) % n for k in range(n)]    # seat k counted from the first player
    result = GameResult(
        reason=game.outcome().reason,
        winners=tuple(sorted((w - first) % n for w in game.outcome().winners)),
        turns=sum(plays), rounds=game.round, reshuffles=game.reshuffles, events=len(game.events),
        seats=tuple((lineup + ["robin"])[s] for s in relative), think=tuple(table.think[s] for s in relative),
        decided_turns=tuple(plays[s] for s in relative),
    )
    return result, (game.record() if keep_record else None)

