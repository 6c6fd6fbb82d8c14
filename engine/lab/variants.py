"""Rule changes tried in the lab only (docs/balance.md, "Recommendation").

A variant is Gleich und gleich with other flock sizes: the engine's own game
class, given a changed ruleset. Its records name the game the engine knows, so
they are not records of the app's rules and are never kept.
"""
from __future__ import annotations

from dataclasses import replace

from ..birds.game import GleichUndGleich
from ..birds.rules import GLEICH_UND_GLEICH, Ruleset
from ..records import new_game


def gleich_und_gleich_with(numbers: tuple[int, int], faces: tuple[int, int]) -> Ruleset:
    """Gleich und gleich with (small, big) flock sizes for the number and the face species."""
    species = tuple(replace(s, small=(faces if len(s.cards) == 1 else numbers)[0],
                            big=(faces if len(s.cards) == 1 else numbers)[1])
                    for s in GLEICH_UND_GLEICH.species)
    return replace(GLEICH_UND_GLEICH, species=species)


def _variant(ruleset: Ruleset):
    class Variant(GleichUndGleich):
        def __init__(self, options=None, players=None):
            super().__init__(options, players)
            self.ruleset = ruleset
    return Variant


RECOMMENDATIONS = {
    "gleich-und-gleich/numbers-6-8": _variant(gleich_und_gleich_with((6, 8), (2, 3))),
}


def make_game(name: str, options: dict, players: list[str]):
    """A fresh game of the engine, or of a lab variant by its name."""
    variant = RECOMMENDATIONS.get(name)
    if variant is not None:
        return variant(options, players)
    return new_game(name, options, players)
