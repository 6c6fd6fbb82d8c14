"""What every game offers, in the style of python-chess and OpenSpiel.

    game = GameClass(options, players)   # validates the header (InvalidRecord)
    game.awaiting                        # Awaiting: what comes next, or None when over
    game.legal_choices()                 # lazily: what may be entered now (per kind)
    game.entered_by()                    # the seat whose phone enters it (None: anyone)
    game.apply(event)                    # -> effect dict; IllegalEvent changes nothing
    game.undo()                          # back one event (returns it)
    game.state()                         # the public state of records.md
    game.outcome()                       # None, or Outcome(reason, winners)
    game.record()                        # the record of the events in force
    game.legal_events(rng)               # every complete legal event (chance steps sampled)
    game.numbers()                       # the numbers of the rules (hand size, …)
    game.ends_turn(effect)               # did that event end a player's turn?

A card turned up at the table is a chance event that a person enters (OpenSpiel):
the engine never shuffles or draws by itself.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .errors import IllegalEvent, InvalidRecord
from .shape import MAX_NAME, shape_error

RECORD_FORMAT = "kartentisch-record/1"


@dataclass(frozen=True)
class Awaiting:
    """What the game waits for: the event ``kind`` and from which ``player``
    (None for table-wide steps such as ``setup``). Cheap to compute; the
    detailed legal choices come lazily from ``Game.legal_choices()``."""

    kind: str
    player: int | None


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: a ``reason`` code, the winning seats, and ``won``:
    whether the people at the table won (the team of the cooperative game; in a game
    against a bot, a person among the winners)."""

    reason: str
    winners: tuple[int, ...]
    won: bool = True


class LegalEvents(NamedTuple):
    """The complete events that may be entered now (OpenSpiel's legal actions).
    ``exhaustive``: every legal choice is among them (once, up to ``event_key``);
    else they are a random sample (a setup, a dealt open hand: too many outcomes)."""

    events: list[dict]
    exhaustive: bool


def _copy_json(value):
    """A copy of JSON-shaped data (dicts, lists, scalars); faster than deepcopy."""
    if isinstance(value, dict):
        return {key: _copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_json(item) for item in value]
    return value


class Game(ABC):
    """Base of the three games. Subclasses keep their mutable state in
    attributes; ``apply`` must check everything before changing anything."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: ``legal_choices()`` once the game is over, the same for every game
    OVER_CHOICES: ClassVar[dict] = {"kind": None, "player": None, "over": True}
    #: the players win or lose together (``Outcome.won``; the winners are all or none)
    cooperative: ClassVar[bool] = False
    #: every ``Outcome.reason`` of the game, in the order to show them
    outcome_reasons: ClassVar[tuple[str, ...]] = ()
    #: the levels the game is played at (name → cards in the draw pile); empty: none
    levels: ClassVar[Mapping[str, int]] = {}

    def __init__(self, options: dict | None = None, players: list[str] | None = None):
        options = {} if options is None else options
        players = [] if players is None else players
        if not isinstance(options, dict):
            raise InvalidRecord("bad-options", "\"options\" muss ein Objekt sein")
        if not isinstance(players, list):
            raise InvalidRecord("bad-players", "\"players\" muss eine Liste sein")
        for field, value in (("options", options), ("players", players)):
            if error := shape_error(value, field, InvalidRecord):
                raise error
        self.options = self.validate_options(dict(options))
        self.players = self.validate_players(list(players))
        self.events: list[dict] = []
        self._history: list[Any] = []

    # --- header validation -------------------------------------------------
    @classmethod
    @abstractmethod
    def validate_options(cls, options: dict) -> dict:
        """Return the options (with defaults filled in) or raise InvalidRecord."""

    def validate_players(self, players: list) -> list[str]:
        for index, name in enumerate(players):
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
                raise InvalidRecord("bad-players", "Spielernamen müssen Texte mit 1 bis {max} Zeichen sein "
                                    "(Feld {field!r}: {value!r})",
                                    {"max": MAX_NAME, "field": f"players[{index}]", "value": name})
        lo, hi = self.player_range(self.options)
        if not lo <= len(players) <= hi:
            raise InvalidRecord(
                "player-count",
                "{game} braucht {lo} bis {hi} Spieler, nicht {n}",
                {"game": self.name, "lo": lo, "hi": hi, "n": len(players)},
            )
        return players

    @classmethod
    def player_range(cls, options: dict) -> tuple[int, int]:
        """Allowed number of players, bots included (the options may change it, e.g. solo)."""
        return cls.min_players, cls.max_players

    @classmethod
    def bot_names(cls, options: dict) -> list[str]:
        """The players the engine plays itself (e.g. RobinBird in solo), in seat
        order after the people; validated options."""
        return []

    @classmethod
    def human_player_range(cls, options: dict) -> tuple[int, int]:
        """How many people a table needs: the player range minus the bots."""
        lo, hi = cls.player_range(options)
        bots = len(cls.bot_names(options))
        return max(lo - bots, 1), hi - bots

    @property
    def bot_seats(self) -> tuple[int, ...]:
        """The seats the engine plays (the last ones)."""
        n = len(self.players)
        return tuple(range(n - len(self.bot_names(self.options)), n))

    def entered_by(self) -> int | None:
        """The seat whose phone enters the awaited event; None when anyone at the
        table does (a table-wide step such as the setup, or a bot's chance event:
        the people turn up her cards) or when the game is over."""
        awaiting = self.awaiting
        if awaiting is None or awaiting.player is None or awaiting.player in self.bot_seats:
            return None
        return awaiting.player

    @classmethod
    def random_record(cls, options: dict, players: int | None, seed: int) -> dict:
        """A complete, legal random game as a record (tests, demos, benchmarks)."""
        raise NotImplementedError(f"{cls.name} has no random games")

    # --- the verbs -----------------------------------------------------------
    def apply(self, event: dict) -> dict:
        """Apply one event; return its effect. On IllegalEvent nothing changed."""
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise IllegalEvent("bad-event", "Ein Ereignis braucht ein Feld \"type\"")
        if error := shape_error(event, "event", IllegalEvent):
            raise error
        snapshot = self._snapshot()
        try:
            effect = self._apply(event)
        except IllegalEvent:
            self._restore(snapshot)
            raise
        self._history.append(snapshot)
        self.events.append(_copy_json(event))
        return effect

    def undo(self) -> dict:
        """Take back the last event; return it."""
        if not self.events:
            raise IllegalEvent("nothing-to-undo", "Es gibt nichts zurückzunehmen")
        self._restore(self._history.pop())
        return self.events.pop()

    def record(self) -> dict:
        return {
            "format": RECORD_FORMAT,
            "game": self.name,
            "options": _copy_json(self.options),
            "players": list(self.players),
            "events": _copy_json(self.events),
        }

    def legal_choices(self) -> dict:
        """What may be entered now: ``kind``, ``player`` (as ``awaiting``) and
        ``over``, plus the game's details for that kind (JSON-serialisable).
        Once the game is over: ``OVER_CHOICES``."""
        awaiting = self.awaiting
        if awaiting is None:
            return dict(self.OVER_CHOICES)
        return {"kind": awaiting.kind, "player": awaiting.player, "over": False, **self._choices(awaiting.kind)}

    def legal_events(self, rng: random.Random | None = None) -> LegalEvents:
        """Every complete event that may be entered now, one per choice (see
        ``LegalEvents``); ``rng`` draws the samples of chance steps with too many
        outcomes. Nothing is empty while the game is playing."""
        return self._legal_events(rng or random.Random())

    def event_key(self, event) -> str:
        """A key shared by the entries that make the same choice (the fields the game
        reads; the order of cards where it changes nothing), for any input; an entry
        beyond the bounds of ``engine.shape`` makes no choice and gets a key of its own."""
        if not isinstance(event, dict) or (error := shape_error(event, "event", IllegalEvent)):
            return "!" + (error.code if isinstance(event, dict) else "bad-event")
        return self._event_key(event)

    # --- field readers: each refusal names the event and the field ---------------
    @staticmethod
    def _field(event: dict, name: str):
        """A required field of an event."""
        if name not in event:
            raise IllegalEvent("missing-field", "Dem Ereignis {type!r} fehlt das Feld {field!r}",
                               {"type": event["type"], "field": name})
        return event[name]

    # --- to be provided by each game ---------------------------------------------
    @abstractmethod
    def _apply(self, event: dict) -> dict:
        """Check and apply; may raise IllegalEvent (the base restores the snapshot)."""

    @abstractmethod
    def _snapshot(self) -> Any:
        """A copy of the mutable state, cheap enough to take before every event."""

    @abstractmethod
    def _restore(self, snapshot: Any) -> None:
        """Put a snapshot back."""

    @property
    @abstractmethod
    def awaiting(self) -> Awaiting | None:
        """What comes next; None once the game is over."""

    @abstractmethod
    def _choices(self, kind: str) -> dict:
        """The details of ``legal_choices()`` for the awaited ``kind``."""

    @abstractmethod
    def _legal_events(self, rng: random.Random) -> LegalEvents:
        """See ``legal_events``."""

    @abstractmethod
    def _event_key(self, event) -> str:
        """See ``event_key``."""

    @abstractmethod
    def ends_turn(self, effect: dict) -> bool:
        """Whether the event whose effect (``apply``'s answer) this is ended a player's
        turn; a game won or over in the middle of a turn ends that turn too."""

    def first_turn(self) -> int | None:
        """The seat that took the first turn (None before the setup)."""
        return self._first_turn() if self.events else None

    @abstractmethod
    def _first_turn(self) -> int:
        """See ``first_turn``; called once the setup is applied."""

    @abstractmethod
    def numbers(self) -> dict:
        """The numbers of the rules with these options (hand size, …), for screens."""

    @abstractmethod
    def state(self) -> dict:
        """The public state (records.md)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while playing, else the Outcome."""
