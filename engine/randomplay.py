"""Random, legal, complete records for tests, demos and benchmarks."""
from __future__ import annotations

from .errors import InvalidRecord


def random_record(game: str, options: dict, players: int | None, seed: int) -> dict:
    """A complete random game as a record (each game supplies its own player)."""
    if game in ("gleich-und-gleich", "cubirds"):
        from .birds.randomplay import random_record as birds_random
        return birds_random(game, options, players, seed)
    if game == "gemeinsame-sache":
        from .rummy.simulate import random_record as rummy_random
        return rummy_random(options, seed)
    raise InvalidRecord("unknown-game", "Unbekanntes Spiel {game!r}", {"game": game})
