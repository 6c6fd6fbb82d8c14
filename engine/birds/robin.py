"""RobinBird, the solo opponent (rules/003 "Solovariante", README CuBirds 4).
Pure decisions; the game applies them."""
from __future__ import annotations

from .rules import LEFT, RIGHT, Ruleset
from .table import place


def robin_placement(row: tuple, card: str, species_of: dict) -> tuple[str, tuple, tuple]:
    """Where her drawn card goes: right, or left when that captures strictly more.
    Returns (side, new row, captured)."""
    right_row, right_captured = place(row, (card,), RIGHT, species_of)
    left_row, left_captured = place(row, (card,), LEFT, species_of)
    if len(left_captured) > len(right_captured):
        return LEFT, left_row, left_captured
    return RIGHT, right_row, right_captured


def robin_flocks(hand: tuple, ruleset: Ruleset) -> list[dict]:
    """Every flock she can fly, in table order, keeping the lowest rank(s)
    (records.md detail 6). Each: species, cards (shown, lowest first), kept,
    discarded, size."""
    flocks = []
    order = ruleset.card_index
    for species in ruleset.species:
        shown = sorted((c for c in hand if ruleset.species_of[c] == species.id), key=order.__getitem__)
        size = ruleset.flock_size(species.id, len(shown))
        if size is None:
            continue
        keep = ruleset.flock_keeps(species.id, len(shown))
        flocks.append({"species": species.id, "cards": shown, "kept": shown[:keep],
                       "discarded": shown[keep:], "size": size})
    return flocks
