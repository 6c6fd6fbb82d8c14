"""What one seat at a bird-game table may know, and nothing more.

A bot never sees the game object or the physical table: it gets an
``Observation`` built from the engine's public state (rows, collections, hand
counts, cards captured or flown in public, what the table has seen) and the
seat's own hand. Two tables that differ only in other hands or the order of the
draw pile give equal observations, so a bot cannot tell them apart.

Not remembered: the seat's own cards discarded unseen at a round end (a player
with perfect memory would know them; the engine counts them as hidden).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..birds.rules import Ruleset


@dataclass(frozen=True)
class Observation:
    """One seat's knowledge at a decision (``phase``: play, draw or flock).

    ``unseen`` counts per card (indexed like ``ruleset.cards``) the copies whose
    place this seat does not know: in the draw pile, in the unknown part of
    another hand, or discarded unseen. ``known`` are the cards each hand is
    publicly known to hold (captured), ``void`` the species the unknown part of
    each hand cannot hold (played or shown since its last draw)."""

    ruleset: Ruleset
    seat: int
    phase: str
    robin: int | None
    rows: tuple[tuple[str, ...], ...]
    collections: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[str, ...], ...]
    void: tuple[frozenset, ...]
    draw_pile: int
    discard_pile: int
    discard_known: tuple[int, ...]
    unseen: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.hand_sizes)


def observe(game, seat: int, hand) -> Observation:
    """The observation of ``seat`` in a bird game, given its real ``hand``."""
    rs = game.ruleset
    order = rs.card_index
    mine = Counter(hand)
    mine.subtract(game.known[seat])          # the part of the hand only this seat knows
    unseen = list(game.hidden)
    for card, n in mine.items():
        unseen[order[card]] -= n
    return Observation(
        ruleset=rs, seat=seat, phase=game.phase, robin=game.robin,
        rows=game.rows, collections=tuple(tuple(sorted(c, key=order.get)) for c in game.collections),
        hand=tuple(sorted(hand, key=order.get)), hand_sizes=game.hands,
        known=tuple(tuple(sorted(k, key=order.get)) for k in game.known), void=game.void,
        draw_pile=game.draw, discard_pile=game.discard, discard_known=game.discard_known,
        unseen=tuple(unseen),
    )
