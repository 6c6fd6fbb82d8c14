"""Random, legal, complete bird games, entered as the table would enter them.

The simulation keeps the real (hidden) cards: a shuffled deck, the hands and the
discard pile; the players follow a random *style* (greedy or shy capturing,
eager or patient flocks, sometimes passing on the draw) so that every ending
occurs. Only the events go to the engine. With ``unranked_flocks``, some flocks of
a pair species leave the discarded cards' ranks out (their species id instead, as
a table may enter it, C3).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..records import new_game
from .rules import HAND_SIZE, LEFT, RIGHT, ROWS, SIDES
from .table import place


@dataclass(frozen=True)
class Style:
    capture: str        # "greedy", "shy" or "random" placement
    pass_chance: float  # pass on the optional draw
    flock: str          # "eager", "big" (wait for big flocks) or "rare"


def random_style(rng: random.Random, stalling: bool) -> Style:
    if stalling:
        return Style("shy", rng.uniform(0.5, 1.0), "rare")
    return Style(rng.choice(("greedy", "greedy", "shy", "random")), rng.choice((0.0, 0.2, 0.5, 0.9)),
                 rng.choice(("eager", "eager", "big", "rare")))


class TableSimulation:
    """The physical table behind a game: deck, hands, discard pile."""

    def __init__(self, game, rng: random.Random, unranked_flocks: bool = False):
        self.game, self.rng, self.rs = game, rng, game.ruleset
        self.unranked_flocks = unranked_flocks
        n = len(game.players)
        self.deck = [c for c in self.rs.cards for _ in range(self.rs.card_counts[c])]
        for card in game.options["robin_bonus"]:
            self.deck.remove(card)
        rng.shuffle(self.deck)
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.shown: list[str] = []     # the real cards of the last flock entered
        stalling = not game.solo and rng.random() < 0.12
        self.styles = [random_style(rng, stalling) for _ in range(n)]
        if game.solo and rng.random() < 0.5:   # a keen human against RobinBird
            self.styles[0] = Style("greedy", 0.0, "eager")

    def take(self, reshuffle: bool = True) -> str | None:
        """The top card of the deck, shuffling the discard pile in when allowed."""
        if not self.deck:
            if not (reshuffle and self.discard):
                return None
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    # --- choosing the next event ---------------------------------------------------
    def setup_event(self) -> dict:
        game = self.game
        draft = game.setup_draft(0 if game.solo else self.rng.randrange(len(game.players)))
        while draft.needs()["kind"] == "row":
            card = self.take()
            if draft.add(card)["to"] == "discard":
                self.discard.append(card)
        for seat in range(len(game.players)):
            if seat != game.robin:
                self.hands[seat] = [self.take() for _ in range(HAND_SIZE)]
        while not draft.complete:
            card = self.take()
            if draft.needs()["kind"] == "robin_hand":
                self.hands[game.robin].append(card)
            draft.add(card)
        return draft.event()

    def next_event(self) -> dict:
        awaiting = self.game.awaiting
        kind, player = awaiting.kind, awaiting.player
        if kind == "setup":
            return self.setup_event()
        if kind == "play":
            return self.choose_play(player)
        if kind == "refill":
            return {"type": "refill", "card": self.take(), "side": RIGHT if self.rng.random() < 0.7 else LEFT}
        if kind == "robin-draw":
            return {"type": "robin-draw", "card": self.take()}
        if kind == "draw":
            return self.choose_draw(player)
        if kind == "flock":
            return self.choose_flock(player)
        return self.deal()

    def species_cards(self, player: int) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for card in self.hands[player]:
            groups.setdefault(self.rs.species_of[card], []).append(card)
        return groups

    def choose_play(self, player: int) -> dict:
        style = self.styles[player]
        cards = tuple(self.rng.choice(list(self.species_cards(player).values())))
        options = [(row, side) for row in range(ROWS) for side in SIDES]
        if style.capture == "random":
            row, side = self.rng.choice(options)
        else:
            rows = self.game.rows
            gains = {opt: len(place(rows[opt[0]], cards, opt[1], self.rs.species_of)[1]) for opt in options}
            best = (max if style.capture == "greedy" else min)(gains.values())
            row, side = self.rng.choice([opt for opt in options if gains[opt] == best])
        return {"type": "play", "cards": self.rng.sample(cards, len(cards)), "row": row, "side": side}

    def choose_draw(self, player: int) -> dict:
        if self.rng.random() < self.styles[player].pass_chance:
            return {"type": "pass"}
        for _ in range(2):
            card = self.take(self.rs.reshuffle_on_draw)
            if card is None:
                break
            self.hands[player].append(card)
        return {"type": "draw"}

    def choose_flock(self, player: int) -> dict:
        style = self.styles[player]
        flocks = {sid: cards for sid, cards in self.species_cards(player).items()
                  if self.rs.flock_size(sid, len(cards))}
        if flocks and not (style.flock == "rare" and self.rng.random() < 0.9):
            if style.flock == "big":
                big = [c for s, c in flocks.items() if self.rs.flock_size(s, len(c)) == "big"]
                if big or self.rng.random() < 0.3:
                    return self.flock_event(self.rng.choice(big or list(flocks.values())))
            else:
                return self.flock_event(self.rng.choice(list(flocks.values())))
        return {"type": "no-flock"}

    def flock_event(self, cards: list[str]) -> dict:
        """Show ``cards`` in a random order; for a pair species, sometimes without the
        ranks of the discarded ones (C3)."""
        self.shown = self.rng.sample(cards, len(cards))
        species = self.rs.species_of[cards[0]]
        entered = list(self.shown)
        if self.unranked_flocks and species in self.rs.unranked and self.rng.random() < 0.3:
            keep = self.rs.flock_keeps(species, len(cards))
            entered[keep:] = [species] * (len(cards) - keep)
        return {"type": "flock", "cards": entered}

    def deal(self) -> dict:
        game = self.game
        if len(self.deck) < HAND_SIZE * len(game.players):
            self.deck, self.discard = self.deck + self.discard, []
            self.rng.shuffle(self.deck)
        for seat in range(len(game.players)):
            self.hands[seat] = [self.deck.pop() for _ in range(HAND_SIZE)]
        event = {"type": "deal"}
        if game.solo:
            event["robin_hand"] = list(self.hands[game.robin])
        return event

    # --- following the engine's effects ----------------------------------------------
    def follow(self, event: dict, effect: dict) -> None:
        """Move the real cards as the effect says (captures, flocks, round end)."""
        player = effect.get("player")
        if effect["type"] == "play":
            for card in event["cards"]:
                self.hands[player].remove(card)
        if effect["type"] == "flock":
            for card in self.shown:
                self.hands[player].remove(card)
            self.discard.extend(self.shown[len(effect["kept"]):])
        if effect.get("captured"):
            self.hands[player].extend(effect["captured"])
        for flock in effect.get("robin_flocks", ()):
            for card in flock["cards"]:
                self.hands[self.game.robin].remove(card)
            self.discard.extend(flock["discarded"])
        round_over = effect.get("round_over")
        if round_over:
            for seat, hand in enumerate(self.hands):
                if seat != round_over["emptied_by"]:
                    self.discard.extend(hand)
                    hand.clear()


def play_random_game(game_name: str, options: dict, players: int | None, seed: int, on_event=None,
                     unranked_flocks: bool = False):
    """Play one random game to its end; ``on_event(game, event, effect, sim)`` is
    called after each event. Returns the finished game."""
    rng = random.Random(seed)
    solo = bool(options.get("solo"))
    if players is None:
        players = 2 if solo else rng.randint(2, 5)
    names = [f"Spieler {i + 1}" for i in range(players)]
    if solo:
        names[-1] = "RobinBird"
    game = new_game(game_name, options, names)
    sim = TableSimulation(game, rng, unranked_flocks)
    while game.awaiting is not None:
        event = sim.next_event()
        effect = game.apply(event)
        sim.follow(event, effect)
        if on_event is not None:
            on_event(game, event, effect, sim)
    return game


def random_record(game: str, options: dict, players: int | None, seed: int) -> dict:
    """A random, legal, complete record (``python -m engine random``)."""
    return play_random_game(game, options, players, seed).record()
