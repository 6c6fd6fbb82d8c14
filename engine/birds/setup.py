"""The setup wizard's logic: cards are entered one at a time as they are turned
up at the table, and the draft builds the ``setup`` event (rules/000
"Vorbereitung", rules/003 "Spielvorbereitung").

Order: rows 0→3 with three distinct species each (a duplicate goes to the
discard pile and is replaced), then one collection card per seat, then (solo)
RobinBird's 8 open cards.
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
        self.dealer = dealer
        self.rows: list[list[str]] = [[] for _ in range(ROWS)]
        self.discards: list[str] = []
        self.collections: list[str] = []
        self.robin_hand: list[str] = []
        self._steps: list[str] = []   # where each added card went, for remove_last

    # --- what is needed -----------------------------------------------------
    def _target(self) -> tuple[str, int]:
        for i, row in enumerate(self.rows):
            if len(row) < ROW_SETUP_SIZE:
                return "row", i
        if len(self.collections) < self.players:
            return "collection", len(self.collections)
        if self.solo and len(self.robin_hand) < HAND_SIZE:
            return "robin_hand", len(self.robin_hand)
        return "done", 0

    @property
    def complete(self) -> bool:
        return self._target()[0] == "done"

    def needs(self) -> dict:
        """What to turn up next, with a German description (1-based for people)."""
        kind, index = self._target()
        if kind == "row":
            card = len(self.rows[index]) + 1
            return {"kind": kind, "row": index, "card": card, "text": f"Reihe {index + 1}, Karte {card}"}
        if kind == "collection":
            return {"kind": kind, "player": index, "text": f"Sammlung von Spieler {index + 1}"}
        if kind == "robin_hand":
            return {"kind": kind, "card": index + 1, "text": f"RobinBirds Hand, Karte {index + 1} von {HAND_SIZE}"}
        return {"kind": "done", "text": "Aufbau vollständig"}

    def _used(self) -> list[str]:
        return [c for row in self.rows for c in row] + self.discards + self.collections + self.robin_hand + self.bonus

    def counts(self) -> dict:
        """Draw and discard pile as they will be once the hands are dealt."""
        humans = self.players - (1 if self.solo else 0)
        return {"draw_pile": self.ruleset.total - len(self._used()) - HAND_SIZE * humans,
                "discard_pile": len(self.discards)}

    # --- entering cards ------------------------------------------------------
    def add(self, card: str) -> dict:
        """Place the next card turned up; returns where it went (``to``: row,
        discard, collection, robin_hand) and what is needed next."""
        kind, index = self._target()
        if kind == "done":
            raise IllegalEvent("setup-complete", "Der Aufbau ist schon vollständig")
        if card not in self.ruleset.card_index:
            raise IllegalEvent("no-such-card", "{value!r} ist keine Karte von {game} (Feld {field!r})",
                               {"value": card, "game": self.ruleset.name, "field": "card"})
        full = Counter({c: n for c, n in self.ruleset.card_counts.items()})
        full.subtract(self._used())
        check_hidden(tuple(full[c] for c in self.ruleset.cards), (card,), self.ruleset)
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
            self.robin_hand.append(card)
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
        return {"discard": self.discards, "collection": self.collections, "robin_hand": self.robin_hand}[step].pop()

    def event(self) -> dict:
        """The ``setup`` event (records.md), once complete."""
        if not self.complete:
            raise IllegalEvent("setup-incomplete", "Der Aufbau ist noch nicht fertig: es fehlt {text}",
                               {"text": self.needs()["text"]})
        event = {"type": "setup", "dealer": self.dealer, "rows": [list(r) for r in self.rows],
                 "setup_discards": list(self.discards), "collections": list(self.collections)}
        if self.solo:
            event["robin_hand"] = list(self.robin_hand)
        return event
