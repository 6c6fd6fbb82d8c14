"""The two bird rulesets as data: species, cards, counts, flock sizes, win
thresholds and the few named rule switches in which they differ.

Gleich und gleich: rules/000 + README "Gaps" 1–6. CuBirds: rules/003 appendix +
README "CuBirds" 1–5.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import Word

LEFT, RIGHT = "left", "right"
SIDES = (LEFT, RIGHT)
ROWS = 4
HAND_SIZE = 8
ROW_SETUP_SIZE = 3
DRAW_AFTER_NO_CAPTURE = 2      # "die obersten 2 Karten des Ziehstapels"
ROBIN_NAME = "RobinBird"
TRIPLES_TO_WIN = 2             # the second win: this many species ...
TRIPLE_SIZE = 3                # ... with at least this many cards each
MAX_ROBIN_HANDICAP = 8         # extra cards in RobinBird's collection (option robin_handicap)
FLOCK_KEEPS = {"big": 2, "small": 1, None: 0}


@dataclass(frozen=True)
class Species:
    """One bird species: its id, German label, the cards that belong to it
    (lowest rank first) and its small/big flock sizes."""

    id: str
    label: str
    cards: tuple[str, ...]
    small: int
    big: int


@dataclass(frozen=True)
class Ruleset:
    """Everything in which the bird games differ, as data and named switches."""

    name: str
    species: tuple[Species, ...]           # in table order (A-2 … K; flamingo … robin)
    card_counts: dict[str, int]            # copies of each card in the deck
    card_labels: dict[str, str]            # German display name of a card
    card_accusative: dict[str, str]        # "eine 9", "einen König" (for messages)
    distinct_to_win: int                   # 7, or 6 in Schnelles Spiel
    triples_to_win: int = TRIPLES_TO_WIN
    triple_size: int = TRIPLE_SIZE
    reshuffle_on_draw: bool = True         # the optional draw of 2 may shuffle the discard pile in

    def __post_init__(self):
        object.__setattr__(self, "cards", tuple(c for s in self.species for c in s.cards))
        object.__setattr__(self, "species_of", {c: s.id for s in self.species for c in s.cards})
        object.__setattr__(self, "by_id", {s.id: s for s in self.species})
        object.__setattr__(self, "card_index", {c: i for i, c in enumerate(self.cards)})
        object.__setattr__(self, "total", sum(self.card_counts.values()))
        # species ids that are no card (pairs of ranks): a flock may show them for a card whose rank
        # nobody entered (C3); they stand for themselves here
        object.__setattr__(self, "unranked", {s.id: s.id for s in self.species if s.id not in self.card_index})

    def species_label(self, species_id: str) -> str:
        return self.by_id[species_id].label

    def flock_size(self, species_id: str, count: int) -> str | None:
        """"big", "small" or None (too few to show) for ``count`` cards of a species."""
        species = self.by_id[species_id]
        if count >= species.big:
            return "big"
        if count >= species.small:
            return "small"
        return None

    def flock_keeps(self, species_id: str, count: int) -> int:
        """How many of ``count`` shown cards go to the collection: 2 (big flock), 1 (small) or 0 (too few)."""
        return FLOCK_KEEPS[self.flock_size(species_id, count)]

    def progress(self, collection) -> dict:
        """A collection's progress toward each win condition: ``species`` (cards per
        species, table order), ``cards``, and ``goals`` in the order the win check
        reads them, each ``{"reason", "have", "need", "missing"}`` (two-triples also
        names its ``species``); ``win`` is the reason it wins with, or None."""
        per_species = Counter(self.species_of[card] for card in collection)
        triples = [s.id for s in self.species if per_species[s.id] >= self.triple_size]
        goals = [{"reason": "distinct-species", "have": len(per_species), "need": self.distinct_to_win},
                 {"reason": "two-triples", "have": len(triples), "need": self.triples_to_win, "species": triples}]
        for goal in goals:
            goal["missing"] = max(0, goal["need"] - goal["have"])
        return {"species": {s.id: per_species[s.id] for s in self.species if per_species[s.id]},
                "cards": len(collection), "goals": goals,
                "win": next((goal["reason"] for goal in goals if not goal["missing"]), None)}

    def win_reason(self, collection) -> str | None:
        """``distinct-species``, ``two-triples`` or None for a collection (the
        first reason wins when both hold, records.md detail 4)."""
        return self.progress(collection)["win"]


_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_FACE_LABELS = {"J": Word("Bube"), "Q": Word("Dame"), "K": Word("König")}
_RANK_ACCUSATIVE = {  # spelt out: each is a message id
    "A": Word("ein Ass"), "2": Word("eine 2"), "3": Word("eine 3"), "4": Word("eine 4"), "5": Word("eine 5"),
    "6": Word("eine 6"), "7": Word("eine 7"), "8": Word("eine 8"), "9": Word("eine 9"), "10": Word("eine 10"),
    "J": Word("einen Buben"), "Q": Word("eine Dame"), "K": Word("einen König"),
}


def _gleich_und_gleich(rarer_faces: bool, fast: bool) -> Ruleset:
    face_small, face_big = (3, 4) if rarer_faces else (2, 3)
    pairs = [("A", "2"), ("3", "4"), ("5", "6"), ("7", "8"), ("9", "10")]
    species = [Species(f"{lo}-{hi}", f"{lo}–{hi}", (lo, hi), 5, 7) for lo, hi in pairs]
    species += [Species(face, _FACE_LABELS[face], (face,), face_small, face_big) for face in ("J", "Q", "K")]
    return Ruleset(
        name="gleich-und-gleich",
        species=tuple(species),
        card_counts={rank: 8 for rank in _RANKS},
        card_labels={rank: _FACE_LABELS.get(rank, Word("Ass") if rank == "A" else rank) for rank in _RANKS},
        card_accusative=dict(_RANK_ACCUSATIVE),
        distinct_to_win=6 if fast else 7,
        reshuffle_on_draw=True,
    )


_CUBIRDS = (
    # id, label, accusative, count, small, big
    ("flamingo", Word("Flamingo"), Word("einen Flamingo"), 7, 2, 3),
    ("owl", Word("Eule"), Word("eine Eule"), 10, 3, 4),
    ("toucan", Word("Tukan"), Word("einen Tukan"), 10, 3, 4),
    ("duck", Word("Ente"), Word("eine Ente"), 13, 4, 6),
    ("parrot", Word("Papagei"), Word("einen Papagei"), 13, 4, 6),
    ("magpie", Word("Elster"), Word("eine Elster"), 17, 5, 7),
    ("reed-warbler", Word("Teichrohrsänger"), Word("einen Teichrohrsänger"), 20, 6, 9),
    ("robin", Word("Rotkehlchen"), Word("ein Rotkehlchen"), 20, 6, 9),
)

CUBIRDS = Ruleset(
    name="cubirds",
    species=tuple(Species(sid, label, (sid,), small, big) for sid, label, _, _, small, big in _CUBIRDS),
    card_counts={sid: count for sid, _, _, count, _, _ in _CUBIRDS},
    card_labels={sid: label for sid, label, *_ in _CUBIRDS},
    card_accusative={sid: acc for sid, _, acc, *_ in _CUBIRDS},
    distinct_to_win=7,
    reshuffle_on_draw=False,   # README CuBirds 2: the draw of 2 takes what is left
)

GLEICH_UND_GLEICH = _gleich_und_gleich(rarer_faces=False, fast=False)
_GUG_VARIANTS = {(r, f): _gleich_und_gleich(r, f) for r in (False, True) for f in (False, True)}


def ruleset_for(game: str, options: dict) -> Ruleset:
    """The ruleset of a game with its (already validated) options."""
    if game == "cubirds":
        return CUBIRDS
    return _GUG_VARIANTS[(bool(options.get("rarer_faces")), bool(options.get("fast")))]


__all__ = ["CUBIRDS", "DRAW_AFTER_NO_CAPTURE", "GLEICH_UND_GLEICH", "HAND_SIZE", "LEFT", "MAX_ROBIN_HANDICAP",
           "RIGHT", "ROBIN_NAME", "ROWS", "ROW_SETUP_SIZE", "Ruleset", "SIDES", "Species", "ruleset_for"]
