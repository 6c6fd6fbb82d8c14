"""Random, legal, complete records for tests, demos and benchmarks."""
from __future__ import annotations

from .errors import InvalidRecord
from .records import game_class


def random_record(game: str, options: dict, players: int | None, seed: int) -> dict:
    """A complete random game as a record (each registered game supplies its own players)."""
    cls = game_class(game)
    if not isinstance(options, dict):
        raise InvalidRecord("bad-options", "\"options\" muss ein Objekt sein")
    return cls.random_record(options, players, seed)
