"""Reading, validating and replaying records (shared/spec/records.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from .errors import IllegalEvent, InvalidRecord
from .game import RECORD_FORMAT, Game


def game_class(name: str) -> type[Game]:
    """The Game subclass for a record's ``game`` field."""
    from . import GAMES

    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise InvalidRecord(
            "unknown-game", "Unbekanntes Spiel {game!r}; möglich: {known}",
            {"game": name, "known": ", ".join(sorted(GAMES))},
        ) from None


def new_game(name: str, options: dict | None = None, players: list[str] | None = None) -> Game:
    """A fresh game before its first event; raises InvalidRecord for a bad header."""
    if options is not None and not isinstance(options, dict):
        raise InvalidRecord("bad-options", "\"options\" muss ein Objekt sein")
    if players is not None and not isinstance(players, list):
        raise InvalidRecord("bad-players", "\"players\" muss eine Liste sein")
    return game_class(name)(options or {}, players or [])


def parse_record(data) -> dict:
    """Check a record's shape (not yet its events' legality); return it."""
    if not isinstance(data, dict):
        raise InvalidRecord("bad-record", "Ein Spielbericht muss ein JSON-Objekt sein")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise InvalidRecord("bad-format", "Unbekanntes Format {format!r}", {"format": data.get("format")})
    for key in ("game", "players", "events"):
        if key not in data:
            raise InvalidRecord("missing-field", "Dem Spielbericht fehlt das Feld {field!r}", {"field": key})
    if not isinstance(data["events"], list):
        raise InvalidRecord("bad-events", "\"events\" muss eine Liste sein")
    return data


def replay(data) -> Game:
    """Replay a record; an illegal event raises IllegalEvent located at its index."""
    game, error = replay_until_illegal(data)
    if error is not None:
        raise error
    return game


class Replay(NamedTuple):
    """A record replayed up to its first illegal event: the game before that
    event, and the refusal located at its index (None: every event applied)."""

    game: Game
    error: IllegalEvent | None


def replay_until_illegal(data) -> Replay:
    """Replay a record as far as it is legal (``python -m engine replay``)."""
    record = parse_record(data)
    game = new_game(record["game"], record.get("options", {}), record["players"])
    for index, event in enumerate(record["events"]):
        try:
            game.apply(event)
        except IllegalEvent as err:
            return Replay(game, err.at(index))
    return Replay(game, None)


def load_record(path: str | Path) -> dict:
    """Read a record file; InvalidRecord when it is not JSON."""
    try:
        return parse_record(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError) as err:
        raise InvalidRecord("unreadable", "Datei {path} ist kein lesbarer Spielbericht: {why}",
                            {"path": str(path), "why": str(err)}) from None
