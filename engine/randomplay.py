"""Random, legal, complete records for tests, demos and benchmarks."""
from __future__ import annotations

from .records import game_class


def random_record(game: str, options: dict, players: int | None, seed: int) -> dict:
    """A complete random game as a record (each registered game supplies its own players)."""
    return game_class(game).random_record(options, players, seed)
