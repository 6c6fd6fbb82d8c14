"""The minimal screen every game can use: the state as readable HTML, the next
event from the engine's ``legal_choices()`` (complete events become buttons)
or typed as JSON, and one log sentence per entry."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import NamedTuple

from engine import Game

from ..i18n import gettext as _, lazy_gettext as _l


@dataclass(frozen=True)
class OptionField:
    """One option of a game on the start page: a checkbox that sets ``value``
    (``choices`` empty), a select (``choices`` = (value, label) pairs; the
    empty value leaves the option unset) or a whole number from ``number``'s
    (lowest, highest), its lowest leaving the option unset."""

    name: str
    label: object
    choices: tuple = ()
    value: object = True
    number: tuple[int, int] | None = None


@dataclass(frozen=True)
class Perspective:
    """What a phone's regions depend on besides table, revision and language: a seat
    (``position``), or any seat where the screen draws every seat alike (None).
    A phone that watches has no perspective (None)."""

    position: int | None = None


@dataclass(frozen=True)
class Choice:
    """A button: a label and the complete event it enters."""

    label: str
    event: dict


@dataclass(frozen=True)
class Around:
    """The games around a finished one at its table, read by the route (C8: screens
    query no store): the ``earlier`` games' outcomes, newest first (None: never
    finished), and the options of the rematch that follows, if one was made."""

    earlier: tuple = ()
    next_options: dict | None = None


class EnteredBy(NamedTuple):
    """The seat an entry was made from, as the log names it."""

    name: str
    position: int


class LogEntry(NamedTuple):
    """An entry as the log words it: the fields of its row that the screens read
    (``seq`` None for an entry taken back, worded from the undo's row)."""

    seq: int | None
    kind: str
    event: dict | None
    effect: dict | None
    seat: EnteredBy | None  # None: imported


@dataclass
class Screen:
    """How a game is shown; ``folder`` holds ``_board.html`` and ``_controls.html``."""

    folder: str = "generic"
    option_fields: list[OptionField] = field(default_factory=list)
    stylesheet: str | None = None   # an extra file under static/, linked on the game pages
    own_undo: bool = False          # the screen's controls offer undo themselves (e.g. with a confirmation)
    tools: bool = False             # ``_tools.html`` in ``folder``: what a seated phone may do besides the step
    earlier_games: int | None = None   # a finished game's view shows this many games before it (``Around``)

    def view(self, game: Game, table, seat: Perspective | None, values, around: Around | None = None) -> dict:
        """Extra template context of a game's own screen, for the phones of one
        perspective (``seat``; None: watching); ``values``: the request's query or
        form, e.g. a selection kept across taps; ``around``: for a finished game of a
        screen with ``earlier_games``, the games around it. Here (a game without a screen of
        its own): the public state, and for a seated phone the engine's legal choices, their
        complete events as buttons and a start for the JSON field."""
        legal = game.legal_choices() if game.awaiting and seat else {}
        return {"state": game.state(), "legal_choices": legal, "choices": self.choices(legal),
                "event_template": self.event_template(game)}

    def perspective(self, seat) -> Perspective | None:
        """The perspective of a phone holding ``seat`` (None: watching): phones with
        the same one see the same regions, drawn once. Here: each seat its own."""
        return Perspective(seat.position) if seat is not None else None

    def parse_options(self, form) -> dict:
        """The options chosen in the start page's form (the engine validates them)."""
        options = {}
        for option in self.option_fields:
            value = form.get(f"option-{option.name}", "").strip()
            if option.number and value:
                number = int(value) if value.lstrip("-").isdigit() else value   # the engine names a bad one
                if number != option.number[0]:
                    options[option.name] = number
            elif value:
                options[option.name] = value if option.choices else option.value
        return options

    def choices(self, legal: dict) -> list[Choice]:
        """Every complete event found in ``legal_choices()`` as a button."""
        found = []
        _collect_events(legal, found)
        return [Choice(self.event_label(event), event) for event in found]

    def step_label(self, kind: str) -> str:
        """The awaited step in words (the engine's ``awaiting.kind``)."""
        return str(STEP_LABELS.get(kind, kind))

    def event_label(self, event: dict) -> str:
        details = ", ".join(f"{k}: {_short(v)}" for k, v in event.items() if k != "type")
        return f"{event['type']} ({details})" if details else event["type"]

    def event_template(self, game: Game) -> str:
        """A start for the JSON field: the awaited event type."""
        awaiting = game.awaiting
        return json.dumps({"type": awaiting.kind}) if awaiting else ""

    def log_line(self, entry, players: list[str]) -> str:
        """The log's line for an Event row: the screen's sentence, and who entered it
        when that was someone else than whose move it was ("Carla für Ben: …")."""
        actor = self.actor(entry)
        if entry.kind == "event" and entry.seat is not None and actor is not None and entry.seat.position != actor:
            return _("%(by)s für %(player)s: %(what)s", by=entry.seat.name, player=players[actor],
                     what=self.log_action(entry, players))
        return self.log_sentence(entry, players)

    def actor(self, entry) -> int | None:
        """Whose move an entry was: the player the engine's effect names (None for a
        step of the whole table)."""
        return (entry.effect or {}).get("player")

    def log_action(self, entry, players: list[str]) -> str:
        """The sentence after "Carla für Ben:"; screens whose sentences begin with the
        player's name give it without."""
        return self.log_sentence(entry, players)

    def log_sentence(self, entry, players: list[str]) -> str:
        """One line of the log for an Event row."""
        who = entry.seat.name if entry.seat is not None else _("Import")
        label = self.event_label(entry.event or {"type": "?"})
        if entry.kind == "undo":
            return _("%(who)s hat „%(event)s“ zurückgenommen", who=who, event=label)
        return _("%(who)s hat „%(event)s“ eingetragen", who=who, event=label)


STEP_LABELS = {
    "setup": _l("Austeilen"), "play": _l("Ausspielen"), "refill": _l("Reihe auffüllen"),
    "draw": _l("Ziehen"), "flock": _l("Schwarm"), "deal": _l("Neu geben"),
    "robin-draw": _l("Karte für RobinBird"), "act": _l("Auslegen oder Abwerfen"),
}


def _short(value) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


def _collect_events(node, found: list) -> None:
    """Dicts with a ``type`` are complete events; look through lists and dicts."""
    if isinstance(node, dict):
        if isinstance(node.get("type"), str):
            found.append(node)
            return
        for value in node.values():
            _collect_events(value, found)
    elif isinstance(node, list):
        for value in node:
            _collect_events(value, found)


screen = Screen()
