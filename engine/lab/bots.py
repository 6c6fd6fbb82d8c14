"""Bird-game bots that decide from an ``Observation`` only (observation.py).

Each bot answers the three questions of a turn: which species to play where
(``play`` → species id, row, side), whether to draw two after a play that
captured nothing (``draw`` → bool), and which flock to fly (``flock`` →
species id or None). They get nothing else, so they cannot use another hand or
the order of the draw pile.

- ``random``: a uniformly random legal choice.
- ``greedy``: the best immediate value (model.py: captured cards toward flocks,
  minus the cards played; the flock that brings the collection nearest a win).
- ``strong``: looks ahead by determinisation: samples tables consistent with the
  observation, plays each of its best candidates out with greedy playouts until
  its own next turn has been played, and keeps the candidate with the best mean
  value against the best other seat.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from ..birds.rules import ROWS, SIDES
from .model import (Rules, World, draw_bonus, flock_options, greedy_draw, greedy_flock, greedy_play, play_gain,
                    plays, rules_for, sample_world)
from .observation import Observation


def species_view(obs: Observation) -> tuple[Rules, list, list, list, list]:
    """The observation by species: rules, rows, own hand, own collection, unseen."""
    rules = rules_for(obs.ruleset)
    of_card = rules.of_card
    hand, coll, unseen = [0] * rules.count, [0] * rules.count, [0] * rules.count
    for card in obs.hand:
        hand[of_card[card]] += 1
    for card in obs.collections[obs.seat]:
        coll[of_card[card]] += 1
    for card, n in zip(obs.ruleset.cards, obs.unseen):
        unseen[of_card[card]] += n
    rows = [tuple(of_card[c] for c in row) for row in obs.rows]
    return rules, rows, hand, coll, unseen


def _others(obs: Observation) -> list[int]:
    return [n for q, n in enumerate(obs.hand_sizes) if q != obs.seat]


class RandomBot:
    """A uniformly random legal choice at every decision."""

    name = "random"

    def play(self, obs: Observation, rng: random.Random) -> tuple[str, int, str]:
        held = {obs.ruleset.species_of[c] for c in obs.hand}
        species = [s.id for s in obs.ruleset.species if s.id in held]
        return rng.choice(species), rng.randrange(ROWS), rng.choice(SIDES)

    def draw(self, obs: Observation, rng: random.Random) -> bool:
        return rng.random() < 0.5

    def flock(self, obs: Observation, rng: random.Random) -> str | None:
        rules = rules_for(obs.ruleset)
        _, _, hand, _, _ = species_view(obs)
        return rng.choice([None] + [rules.ids[s] for s in flock_options(rules, hand)])


class GreedyBot:
    """The best immediate value (model.greedy_play / greedy_flock / greedy_draw)."""

    name = "greedy"

    def play(self, obs: Observation, rng: random.Random) -> tuple[str, int, str]:
        rules, rows, hand, coll, unseen = species_view(obs)
        s, r, side, _ = greedy_play(rules, rows, hand, coll, unseen, rng)
        return rules.ids[s], r, side

    def draw(self, obs: Observation, rng: random.Random) -> bool:
        return greedy_draw(len(obs.hand), _others(obs))

    def flock(self, obs: Observation, rng: random.Random) -> str | None:
        rules, _, hand, coll, _ = species_view(obs)
        s = greedy_flock(rules, coll, hand)
        return None if s is None else rules.ids[s]


class StrongBot:
    """Determinised lookahead: ``worlds`` sampled tables, the ``candidates`` best
    plays by immediate value, each played out until the bot's next turn is over
    (every seat greedy, RobinBird as the rules say); the best mean value wins.
    Draws and flocks are decided the same way whenever there is a real choice."""

    name = "strong"

    def __init__(self, worlds: int = 8, candidates: int = 5):
        self.worlds, self.candidates = worlds, candidates

    def play(self, obs: Observation, rng: random.Random) -> tuple[str, int, str]:
        rules, rows, hand, coll, unseen = species_view(obs)
        outlook = rules.outlook(coll)
        bonus = draw_bonus(outlook, hand, unseen)
        scored = sorted(((play_gain(outlook, hand, s, captured, bonus), i, (s, r, side))
                         for i, (s, r, side, captured) in enumerate(plays(rows, hand))), reverse=True)
        options = [option for _, _, option in scored[:self.candidates]]

        def apply(world: World, option) -> None:
            s, r, side = option
            world.after_play(obs.seat, world.play(obs.seat, s, r, side))

        s, r, side = self._best(obs, rng, options, apply)
        return rules.ids[s], r, side

    def draw(self, obs: Observation, rng: random.Random) -> bool:
        if obs.hand:
            return True       # two more cards and the round goes on; passing only ends it with an empty hand

        def apply(world: World, draw: bool) -> None:
            if draw:
                world.draw(obs.seat)
            world.finish_turn(obs.seat)

        return self._best(obs, rng, [True, False], apply)

    def flock(self, obs: Observation, rng: random.Random) -> str | None:
        rules, _, hand, _, _ = species_view(obs)
        options = [None] + flock_options(rules, hand)
        if len(options) == 1:
            return None

        def apply(world: World, s) -> None:
            if s is not None:
                world.fly(obs.seat, s)
            world.end_turn(obs.seat)

        s = self._best(obs, rng, options, apply)
        return None if s is None else rules.ids[s]

    def _best(self, obs: Observation, rng: random.Random, options: list, apply: Callable) -> object:
        """The option with the best mean value over the sampled tables (the same
        tables and random streams for every option)."""
        if len(options) == 1:
            return options[0]
        rules = rules_for(obs.ruleset)
        horizon = obs.players + 1          # this turn, each other seat, and the bot's next turn
        totals = [0.0] * len(options)
        for _ in range(self.worlds):
            world = sample_world(obs, rules, rng)
            seed = rng.getrandbits(32)
            for i, option in enumerate(options):
                w = world.copy()
                w.rng = random.Random(seed)
                apply(w, option)
                while not w.over and w.turns < horizon:
                    w.step()
                totals[i] += w.value(obs.seat)
        return options[max(range(len(options)), key=totals.__getitem__)]


BOTS: dict[str, Callable[[], object]] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bot(name: str):
    """A bot by name (``random``, ``greedy``, ``strong``); ValueError for another."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None
