"""Reading, validating and replaying records (shared/spec/records.md)."""
from __future__ import annotations

import json
from pathlib import Path

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


def replay(data, stop_at_illegal: bool = False) -> Game:
    """Replay a record. An illegal event raises IllegalEvent located at its index,
    unless ``stop_at_illegal``: then the game before that event is returned and
    the error is kept in ``game.replay_error``."""
    record = parse_record(data)
    game = new_game(record["game"], record.get("options", {}), record["players"])
    game.replay_error = None
    for index, event in enumerate(record["events"]):
        try:
            game.apply(event)
        except IllegalEvent as err:
            if not stop_at_illegal:
                raise err.at(index) from None
            game.replay_error = err.at(index)
            break
    return game


def load_record(path: str | Path) -> dict:
    """Read a record file; InvalidRecord when it is not JSON."""
    try:
        return parse_record(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError) as err:
        raise InvalidRecord("unreadable", "Datei {path} ist kein lesbarer Spielbericht: {why}",
                            {"path": str(path), "why": str(err)}) from None
