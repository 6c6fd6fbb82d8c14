"""The rule text's simple strategy, played through the real engine.

Two players who never see each other's hands and never talk: each lays
everything it can and discards the card that completes its own start. The
choices the rule text leaves open are fixed here (docs/difficulty.md lists them):

1. Draw: take the discard top if this player can lay it at once (it completes a
   partner start, fits a figure or frees a joker, or opens a start by rule 3);
   else draw from the pile; with an empty pile: give up (lost on the clock).
2. A card taken from the discard pile is laid first, the way that made it usable.
3. Then, until nothing changes: real cards first, each to the first place it
   fits (complete a partner start, lay off on a figure, swap a joker out — in
   a set, the card a joker says it is swaps that joker out rather than being laid
   off beside it, although a declared suit binds nothing there); a
   joker only completes a partner start, standing for a completing card not yet
   seen (so that card can swap it out later); then open a start while below the
   limit: pairs before neighbours before gaps, fewest completing cards seen
   first, and a start none of whose completing cards is unseen only with the
   last two cards of the hand. Jokers are laid off on figures only when the hand
   holds nothing else.
4. Discard: a card that completes one of the player's own starts; else the real
   card with the fewest start partners in the hand (ties: the first in the hand,
   dealt cards before drawn ones); a joker only if nothing else is left.

``mean_turns`` counts the turns begun (draws); a game won in the middle of a
turn counts that turn.
"""
from __future__ import annotations

import json
import math
import multiprocessing
import random
import sys
import time

from ..errors import InvalidRecord
from ..records import parse_options
from .game import GemeinsameSache
from .melds import DECK, JOKER, make_start, swap_index
from .rules import FULL_DRAW_PILE, HAND_SIZE, LEVELS

PLAYERS = ["Spieler 1", "Spieler 2"]


class Table:
    """One simulated game: the shuffled deck, the two secret hands, the engine."""

    def __init__(self, options: dict, seed: int):
        self.rng = random.Random(seed)
        self.game = GemeinsameSache(options, PLAYERS)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands = [deck[:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE]]
        first_discard = deck[2 * HAND_SIZE]
        size = self.game.options["draw_pile"]
        self.pile = deck[2 * HAND_SIZE + 1 + FULL_DRAW_PILE - size:]   # the rest is set aside, unseen
        self.draws = 0
        self.apply({"type": "setup", "first_discard": first_discard, "first_player": self.rng.randrange(2)})

    def apply(self, event: dict) -> dict:
        return self.game.apply(event)

    @property
    def over(self) -> bool:
        return self.game.awaiting is None

    def play(self) -> GemeinsameSache:
        while not self.over:
            self.turn(self.game.turn)
        return self.game

    # --- one turn ------------------------------------------------------------------------------
    def turn(self, player: int) -> None:
        hand = self.hands[player]
        game = self.game
        top = game.discard_pile[-1] if game.discard_pile else None
        if top is not None and self.placement(top, player, hand) is not None:
            self.apply({"type": "draw", "from": "discard"})
            hand.append(top)
            self.draws += 1
            self.lay(player, self.placement(top, player, hand[:-1]))   # the way that made it usable
        elif game.draw_pile:
            self.apply({"type": "draw", "from": "pile"})
            hand.append(self.pile.pop())
            self.draws += 1
        else:
            self.apply({"type": "give-up"})
            return
        self.lay_everything(player)
        if self.over:
            return
        if hand:
            card = self.choose_discard(player)
            hand.remove(card)
            self.apply({"type": "discard", "card": card})
        else:
            self.apply({"type": "end-turn"})

    def lay(self, player: int, event: dict) -> None:
        """Apply a laying event and take its cards out of the secret hand."""
        self.apply(event)
        hand = self.hands[player]
        for card in event.get("cards", [event.get("card")]):
            hand.remove(card)
        if event["type"] == "swap":
            hand.append(JOKER)

    def placement(self, card: str, player: int, hand: list[str]) -> dict | None:
        """An event that puts ``card`` onto the table now, or None (``hand``: the
        other cards it may open a start with)."""
        game = self.game
        ace_low_only = game.ace_low_only
        partner_starts = [s for s in game.open_starts if s.owner != player]
        if card == JOKER:
            if not partner_starts:
                return None
            completions = partner_starts[0].completions
            as_card = next((c for c in completions if not game.is_seen(c)), completions[0])
            return {"type": "complete", "start": partner_starts[0].id, "card": JOKER, "as": as_card}
        for start in partner_starts:
            if card in start.completions:
                return {"type": "complete", "start": start.id, "card": card}
        for figure in game.figures:
            if figure.kind == "set":
                if f"{JOKER}:{card}" in figure.cards:      # the joker that says it is this card comes back
                    return {"type": "swap", "figure": figure.id, "card": card}
                if len(figure.cards) < 4 and card in figure.missing():
                    return {"type": "lay-off", "figure": figure.id, "card": card}
            elif card in figure.run_ends(ace_low_only).values():
                return {"type": "lay-off", "figure": figure.id, "card": card}
            if swap_index(figure, card) is not None:
                return {"type": "swap", "figure": figure.id, "card": card}
        best = self.best_start(player, [(card, other) for other in hand if other != JOKER], len(hand) + 1)
        return {"type": "start", "cards": list(best)} if best else None

    def lay_everything(self, player: int) -> None:
        hand = self.hands[player]
        while not self.over:
            event = next(filter(None, (self.placement(card, player, [])
                                       for card in sorted(dict.fromkeys(hand), key=lambda c: c == JOKER))), None)
            if event is None:
                real = [c for c in hand if c != JOKER]
                best = self.best_start(player, [(a, b) for i, a in enumerate(real) for b in real[i + 1:]], len(hand))
                event = {"type": "start", "cards": list(best)} if best else None
            if event is None and hand and all(c == JOKER for c in hand):
                event = self.joker_lay_off()
            if event is None:
                return
            self.lay(player, event)

    def joker_lay_off(self) -> dict | None:
        for figure in self.game.figures:
            if figure.kind == "set" and len(figure.cards) < 4:
                return {"type": "lay-off", "figure": figure.id, "card": JOKER}
            if figure.kind == "run":
                ends = figure.run_ends(self.game.ace_low_only)
                if ends:
                    return {"type": "lay-off", "figure": figure.id, "card": JOKER, "as": next(iter(ends.values()))}
        return None

    def best_start(self, player: int, candidates: list[tuple[str, str]], hand_size: int) -> tuple[str, str] | None:
        """The start to open among ``candidates``, or None: pairs, then neighbours,
        then gaps, fewest completing cards seen first; a start none of whose
        completing cards is still unseen only with the last two cards of the hand."""
        game = self.game
        if sum(1 for s in game.open_starts if s.owner == player) >= game.max_starts:
            return None
        best, best_key = None, None
        for cards in candidates:
            start = make_start(0, player, cards, game.ace_low_only)
            if start is None:
                continue
            completions = start.completions
            seen = sum(1 for c in completions if game.is_seen(c))
            if seen == len(completions) and hand_size > 2:
                continue
            key = (start.kind == "run", start.high - start.low, seen)
            if best_key is None or key < best_key:
                best, best_key = cards, key
        return best

    def choose_discard(self, player: int) -> str:
        hand = self.hands[player]
        game = self.game
        for start in game.open_starts:
            if start.owner == player:
                for card in start.completions:
                    if card in hand:
                        return card
        real = [c for c in hand if c != JOKER]
        if not real:
            return hand[0]
        return min(real, key=lambda c: sum(1 for o in real if o != c
                                           and make_start(0, player, (c, o), game.ace_low_only)))


# --- many games -------------------------------------------------------------------------------
def game_options(draw_pile: int, options: dict | None) -> dict:
    merged = {k: v for k, v in (options or {}).items() if k != "level"}
    merged["draw_pile"] = draw_pile
    return merged


def play_one(options: dict, seed: int, table: type[Table] = Table) -> tuple[GemeinsameSache, int]:
    """One simulated game and its number of turns (draws); ``table`` is the
    players' strategy (a ``Table`` subclass, e.g. the lab's teams)."""
    played = table(options, seed)
    return played.play(), played.draws


def _game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def _run_chunk(args) -> tuple[int, int, int, int, int]:
    options, seed, first, count, table = args
    wins = turns = pickups = events = 0
    for index in range(first, first + count):
        game, draws = play_one(options, _game_seed(seed, index), table)
        wins += game.outcome().won
        turns += draws
        pickups += game.state()["discard_pickups"]
        events += len(game.events)
    return count, wins, turns, pickups, events


def run_games(draw_pile: int, games: int, seed: int, options: dict | None = None, processes: int | None = None,
              table: type[Table] = Table) -> dict:
    """Play ``games`` games with ``draw_pile`` cards (split over processes)."""
    opts = game_options(draw_pile, options)
    GemeinsameSache.validate_options(dict(opts))
    processes = processes or multiprocessing.cpu_count()
    chunks = max(1, min(games, processes * 4))
    bounds = [games * i // chunks for i in range(chunks + 1)]
    jobs = [(opts, seed, bounds[i], bounds[i + 1] - bounds[i], table) for i in range(chunks)]
    started = time.perf_counter()
    if processes > 1 and games >= 200:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.map(_run_chunk, jobs)
    else:
        parts = [_run_chunk(job) for job in jobs]
    seconds = time.perf_counter() - started
    total, wins, turns, pickups, events = (sum(p[i] for p in parts) for i in range(5))
    low, high = wilson(wins, total)
    return {"draw_pile": draw_pile, "games": total, "seed": seed, "win_rate": wins / total,
            "ci95": [low, high], "mean_turns": turns / total, "mean_discard_pickups": pickups / total,
            "events": events, "seconds": round(seconds, 3)}


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson 95 % interval of a win rate."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def random_record(options: dict, seed: int, players: int | None = None) -> dict:
    """A complete, legal record of one game played by the simulated players."""
    names = PLAYERS if players is None else [f"Spieler {seat + 1}" for seat in range(players)]
    GemeinsameSache(options, names)          # the header's checks (InvalidRecord)
    game, _ = play_one(options, seed)
    return game.record()


def main(args) -> int:
    """``python -m engine simulate gemeinsame-sache``: one size, or ``--sweep`` 1..33."""
    try:
        options = parse_options(args.options)
        if args.sweep:
            sizes = range(1, FULL_DRAW_PILE + 1)
        else:
            level_size = GemeinsameSache.validate_options(dict(options))["draw_pile"]
            sizes = [args.draw_pile or level_size]
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        results = [run_games(size, args.games, args.seed, options, args.processes) for size in sizes]
    except (ValueError, InvalidRecord) as err:
        print(f"invalid arguments: {getattr(err, 'message', err)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results if args.sweep else results[0]))
        return 0
    print("draw_pile  games   win_rate  95% interval     turns  pickups  games/s")
    for r in results:
        level = next((name for name, size in LEVELS.items() if size == r["draw_pile"]), "")
        print(f"{r['draw_pile']:>9}  {r['games']:>5}  {r['win_rate']:>8.1%}  {r['ci95'][0]:.1%}–{r['ci95'][1]:.1%}"
              f"  {r['mean_turns']:>6.1f}  {r['mean_discard_pickups']:>7.2f}  {r['games'] / r['seconds']:>7.0f} {level}")
    return 0
