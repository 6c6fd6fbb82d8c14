"""Reading, validating and replaying records (shared/spec/records.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from .errors import IllegalEvent, InvalidRecord
from .game import RECORD_FORMAT, Game
from .shape import MAX_EVENTS, MAX_RECORD_BYTES, json_int, shape_error


def game_class(name: str) -> type[Game]:
    """The Game subclass for a record's ``game`` field."""
    from . import GAMES

    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise InvalidRecord(
            "unknown-game", "Unbekanntes Spiel {game!r}; möglich: {known}",
            {"game": name, "known": ", ".join(sorted(GAMES))},
        ) from None


def new_game(name: str, options: dict | None = None, players: list[str] | None = None) -> Game:
    """A fresh game before its first event; raises InvalidRecord for a bad header."""
    return game_class(name)(options, players)


def parse_record(data) -> dict:
    """Check a record's shape (not yet its events' legality); return it. Wrong
    types anywhere in the header or the events' container, and values nested too
    deep or too big (``engine.shape``), are InvalidRecord naming the field."""
    if not isinstance(data, dict):
        raise InvalidRecord("bad-record", "Ein Spielbericht muss ein JSON-Objekt sein")
    for key in ("game", "players", "events"):
        if key not in data:
            raise InvalidRecord("missing-field", "Dem Spielbericht fehlt das Feld {field!r}", {"field": key})
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise InvalidRecord("bad-format", "Unbekanntes Format {format!r}; möglich: {known}",
                            {"format": data.get("format"), "known": RECORD_FORMAT})
    if not isinstance(data.get("options", {}), dict):
        raise InvalidRecord("bad-options", "\"options\" muss ein Objekt sein")
    events = data["events"]
    if not isinstance(events, list):
        raise InvalidRecord("bad-events", "\"events\" muss eine Liste sein")
    if len(events) > MAX_EVENTS:
        raise InvalidRecord("too-large", "Feld {field!r} enthält zu viele Werte (höchstens {limit})",
                            {"field": "events", "limit": MAX_EVENTS})
    for key, value in data.items():
        if key != "events" and (error := shape_error(value, key, InvalidRecord)):
            raise error
    for index, event in enumerate(events):
        if error := shape_error(event, f"events[{index}]", InvalidRecord):
            raise error
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


def parse_options(text: str) -> dict:
    """Options given as JSON text (the command line's ``--options``); InvalidRecord
    when it is no JSON object."""
    try:
        options = json.loads(text, parse_int=json_int) if text else {}
    except ValueError as err:
        raise InvalidRecord("bad-options", "--options ist kein JSON: {why}", {"why": str(err)}) from None
    except RecursionError:
        raise InvalidRecord("too-deep", "--options ist zu tief verschachtelt") from None
    if not isinstance(options, dict):
        raise InvalidRecord("bad-options", "\"options\" muss ein Objekt sein")
    return options


def load_record(path: str | Path) -> dict:
    """Read a record file; InvalidRecord when it is no readable, well-formed record."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise InvalidRecord("too-large", "Datei {path} ist zu groß für einen Spielbericht (höchstens {limit} Bytes)",
                                {"path": str(path), "limit": MAX_RECORD_BYTES})
        data = json.loads(path.read_text(encoding="utf-8"), parse_int=json_int)
    except (OSError, ValueError) as err:
        raise InvalidRecord("unreadable", "Datei {path} ist kein lesbarer Spielbericht: {why}",
                            {"path": str(path), "why": str(err)}) from None
    except RecursionError:
        raise InvalidRecord("too-deep", "Datei {path}: der Spielbericht ist zu tief verschachtelt",
                            {"path": str(path)}) from None
    return parse_record(data)
