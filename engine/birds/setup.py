"""The setup wizard's logic: cards are entered one at a time as they are turned
up at the table, and the draft builds the ``setup`` event (rules/000
"Vorbereitung", rules/003 "Spielvorbereitung").

Order: rows 0→3 with three distinct species each (a duplicate goes to the
discard pile and is replaced); then the hidden hands are dealt (nothing to
enter); one collection card per seat; (solo) RobinBird's handicap cards
(option ``robin_handicap``) and her 8 open cards.
"""
from __future__ import annotations

from collections import Counter

from ..errors import IllegalEvent
from .knowledge import check_hidden
from .rules import HAND_SIZE, ROW_SETUP_SIZE, ROWS, Ruleset


class SetupDraft:
    """A ``setup`` event under construction."""

    def __init__(self, ruleset: Ruleset, players: int, options: dict, dealer: int = 0):
        self.ruleset = ruleset
        self.players = players
        self.solo = bool(options.get("solo"))
        self.bonus = list(options.get("robin_bonus", []))
        self.handicap = options.get("robin_handicap", 0)
        self.dealer = dealer
        self.rows: list[list[str]] = [[] for _ in range(ROWS)]
        self.discards: list[str] = []
        self.collections: list[str] = []
        self.robin_bonus: list[str] = []
        self.robin_hand: list[str] = []
        self._steps: list[str] = []   # where each added card went, for remove_last

    # --- what is needed -----------------------------------------------------
    def _target(self) -> tuple[str, int]:
        for i, row in enumerate(self.rows):
            if len(row) < ROW_SETUP_SIZE:
                return "row", i
        if len(self.collections) < self.players:
            return "collection", len(self.collections)
        if len(self.robin_bonus) < self.handicap:
            return "robin_bonus", len(self.robin_bonus)
        if self.solo and len(self.robin_hand) < HAND_SIZE:
            return "robin_hand", len(self.robin_hand)
        return "done", 0

    @property
    def complete(self) -> bool:
        return self._target()[0] == "done"

    def needs(self) -> dict:
        """What to turn up next (numbers from 1, for people): ``{"kind": "row", "row"
        (from 0), "card"}``, ``{"kind": "collection", "player"}``, ``{"kind":
        "robin_bonus" | "robin_hand", "card", "of"}`` or ``{"kind": "done"}``."""
        kind, index = self._target()
        if kind == "row":
            return {"kind": kind, "row": index, "card": len(self.rows[index]) + 1}
        if kind == "collection":
            return {"kind": kind, "player": index}
        if kind == "robin_bonus":
            return {"kind": kind, "card": index + 1, "of": self.handicap}
        if kind == "robin_hand":
            return {"kind": kind, "card": index + 1, "of": HAND_SIZE}
        return {"kind": "done"}

    def _used(self) -> list[str]:
        return ([c for row in self.rows for c in row] + self.discards + self.collections + self.robin_bonus
                + self.robin_hand + self.bonus)

    @property
    def hands_dealt(self) -> bool:
        """Whether the hidden hands lie dealt: once the rows are laid (the rule texts' order)."""
        return all(len(row) == ROW_SETUP_SIZE for row in self.rows)

    def counts(self) -> dict:
        """Draw and discard pile as they lie on the table now: before the rows are
        complete, the hands are not dealt yet (the deck still holds them)."""
        humans = self.players - (1 if self.solo else 0)
        dealt = HAND_SIZE * humans if self.hands_dealt else 0
        return {"draw_pile": self.ruleset.total - len(self._used()) - dealt, "discard_pile": len(self.discards),
                "hands_dealt": self.hands_dealt}

    def available(self) -> dict[str, int]:
        """Per card (catalogue order), how many copies may still be turned up: 0 for a
        card of which every copy is already entered (a ninth King), so a card pad can
        grey it out."""
        left = Counter(self.ruleset.card_counts)
        left.subtract(self._used())
        return {card: left[card] for card in self.ruleset.cards}

    # --- entering cards ------------------------------------------------------
    def add(self, card: str) -> dict:
        """Place the next card turned up; returns where it went (``to``: row,
        discard, collection, robin_bonus, robin_hand), what is needed next and the counts."""
        kind, index = self._target()
        if kind == "done":
            raise IllegalEvent("setup-complete", "Der Aufbau ist schon vollständig")
        if not isinstance(card, str) or card not in self.ruleset.card_index:
            raise IllegalEvent("no-such-card", "{value!r} ist keine Karte von {game} (Feld {field!r})",
                               {"value": card, "game": self.ruleset.name, "field": "card"})
        available = self.available()
        check_hidden(tuple(available.values()), (card,), self.ruleset)
        result = {"card": card, "to": kind}
        if kind == "row":
            species_of = self.ruleset.species_of
            result["row"] = index
            if any(species_of[c] == species_of[card] for c in self.rows[index]):
                self.discards.append(card)
                result.update(to="discard", replaced=True)
                kind = "discard"
            else:
                self.rows[index].append(card)
        elif kind == "collection":
            self.collections.append(card)
            result["player"] = index
        else:
            getattr(self, kind).append(card)
        self._steps.append(kind if kind != "row" else f"row{index}")
        result.update(next=self.needs(), **self.counts())
        return result

    def remove_last(self) -> str:
        """Take back the last card entered; returns it."""
        if not self._steps:
            raise IllegalEvent("setup-empty", "Es gibt noch keine Karte zum Zurücknehmen")
        step = self._steps.pop()
        if step.startswith("row"):
            return self.rows[int(step[3:])].pop()
        return {"discard": self.discards, "collection": self.collections, "robin_bonus": self.robin_bonus,
                "robin_hand": self.robin_hand}[step].pop()

    def missing(self) -> int:
        """How many cards are still to be entered (replacements of duplicates not counted)."""
        rows = sum(ROW_SETUP_SIZE - len(row) for row in self.rows)
        robin = HAND_SIZE - len(self.robin_hand) if self.solo else 0
        return (rows + self.players - len(self.collections) + self.handicap - len(self.robin_bonus) + robin)

    def event(self) -> dict:
        """The ``setup`` event (records.md), once complete."""
        if not self.complete:
            raise IllegalEvent("setup-incomplete", "Der Aufbau ist noch nicht fertig: es fehlen noch {n} Karten",
                               {"n": self.missing()})
        event = {"type": "setup", "dealer": self.dealer, "rows": [list(r) for r in self.rows],
                 "setup_discards": list(self.discards), "collections": list(self.collections)}
        if self.handicap:
            event["robin_bonus"] = list(self.robin_bonus)
        if self.solo:
            event["robin_hand"] = list(self.robin_hand)
        return event
