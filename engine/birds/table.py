"""Rows on the table: laying cards at an end, capturing, the refill condition.
One implementation for players, RobinBird and the play preview."""
from __future__ import annotations

from .rules import RIGHT


def place(row: tuple, cards: tuple, side: str, species_of: dict) -> tuple[tuple, tuple]:
    """Lay ``cards`` (one species) at ``side`` of ``row``. Returns the new row and
    the captured cards: those between the new cards and the nearest card of the
    same species on the other side (none when there is none, or it is adjacent)."""
    species = species_of[cards[0]]
    if side == RIGHT:
        for i in range(len(row) - 1, -1, -1):
            if species_of[row[i]] == species:
                return row[:i + 1] + cards, row[i + 1:]
        return row + cards, ()
    for i, card in enumerate(row):
        if species_of[card] == species:
            return cards + row[i:], row[:i]
    return cards + row, ()


def needs_refill(row: tuple, species_of: dict) -> bool:
    """A row with fewer than two species must be refilled (after a capture)."""
    if not row:
        return True
    first = species_of[row[0]]
    return all(species_of[card] == first for card in row)


def add_refill(row: tuple, card: str, side: str) -> tuple:
    """A refill card at ``side`` (records.md detail 1: left = new leftmost)."""
    return row + (card,) if side == RIGHT else (card,) + row
