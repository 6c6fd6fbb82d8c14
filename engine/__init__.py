"""Kartentisch's rules engine: pure Python, no web, no database.

The state of a game is derived by replaying its events (records.md).
"""
from .errors import EngineError, IllegalEvent, InvalidRecord, Phrase, Word
from .game import RECORD_FORMAT, Awaiting, Game, LegalEvents, Outcome
from .records import Replay, game_class, load_record, new_game, parse_record, replay, replay_until_illegal

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game known under ``cls.name``."""
    GAMES[cls.name] = cls
    return cls


def _load_games() -> None:
    from . import birds, rummy  # noqa: F401  (they register themselves)


_load_games()

__all__ = [
    "GAMES", "RECORD_FORMAT", "Awaiting", "EngineError", "Game", "IllegalEvent",
    "InvalidRecord", "LegalEvents", "Outcome", "Phrase", "Replay", "Word", "game_class", "load_record", "new_game",
    "parse_record", "register", "replay", "replay_until_illegal",
]
