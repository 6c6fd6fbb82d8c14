"""The complete legal events of a bird game's awaited step (OpenSpiel's legal
actions), and the key under which entries that make the same choice meet.

Decisions are enumerated exhaustively, one event per choice: the order in which
the cards of a play or of a flock's discarded part are listed never makes an
entry legal or illegal, so each choice is listed once, lowest rank first, and
``event_key`` puts the orders together. Chance events that a person enters (a
card turned up) are listed by what can still be turned up; the setup and
RobinBird's new hand have too many outcomes and are sampled.
"""
from __future__ import annotations

import itertools
import json
import random

from ..game import LegalEvents
from .rules import HAND_SIZE, ROWS, SIDES

FIELDS = {  # the fields the engine reads, per event type (others are ignored)
    "setup": ("dealer", "rows", "setup_discards", "collections", "robin_hand", "robin_bonus"),
    "play": ("cards", "row", "side"), "refill": ("card", "side"), "draw": (), "pass": (),
    "flock": ("cards",), "no-flock": (), "deal": ("robin_hand",), "robin-draw": ("card",),
}
UNORDERED = {"play": ("cards",), "setup": ("setup_discards", "robin_hand"), "deal": ("robin_hand",)}


def legal_events(game, rng: random.Random) -> LegalEvents:
    phase = game.phase
    if phase is None:
        return LegalEvents([], True)
    if phase == "setup":
        return LegalEvents([_random_setup(game, rng)], False)
    if phase == "play":
        return LegalEvents([{"type": "play", "cards": cards, "row": row, "side": side}
                            for entry in game.legal_choices()["species"]
                            for count in range(entry["min"], entry["max"] + 1)
                            for cards in game.mixes(entry["species"], count)
                            for row in range(ROWS) for side in SIDES], True)
    if phase == "draw":
        return LegalEvents([{"type": "draw"}, {"type": "pass"}], True)
    if phase == "flock":
        return LegalEvents([{"type": "no-flock"}] + _flocks(game), True)
    choices = game.legal_choices()
    if phase == "refill":
        return LegalEvents([{"type": "refill", "card": card, "side": side}
                            for card in choices["cards"] for side in SIDES], True)
    if phase == "robin-draw":
        return LegalEvents([{"type": "robin-draw", "card": card} for card in choices["cards"]], True)
    if not choices["robin_hand"]:   # deal
        return LegalEvents([{"type": "deal"}], True)
    pool = [card for card, copies in choices["cards"].items() for _ in range(copies)]
    return LegalEvents([{"type": "deal", "robin_hand": sorted(rng.sample(pool, HAND_SIZE), key=game.ruleset.cards.index)}],
                       False)


def _flocks(game) -> list[dict]:
    """Every flock the hand may show: the kept ranks, then the other cards with their
    ranks or (a pair species, C3) the species id, each multiset once. Whether the
    hand may show them depends only on how many of each, not on which are kept."""
    rs, player = game.ruleset, game.turn
    found = []
    for entry in game.legal_choices()["species"]:
        species = entry["species"]
        ranks = rs.by_id[species].cards
        symbols = list(ranks) + ([species] if species in rs.unranked else [])
        for count in range(entry["min"], entry["max"] + 1):
            keep = rs.flock_keeps(species, count)
            for shown in itertools.combinations_with_replacement(symbols, count):
                if not game._possible(player, species, list(shown)):
                    continue
                for kept in set(itertools.combinations(shown, keep)):
                    if all(card in ranks for card in kept):
                        rest = list(shown)
                        for card in kept:
                            rest.remove(card)
                        found.append({"type": "flock", "cards": list(kept) + rest})
    return found


def _random_setup(game, rng: random.Random) -> dict:
    """A setup as a table might turn it up: random cards of those left."""
    draft = game.setup_draft(0 if game.solo else rng.randrange(len(game.players)))
    while not draft.complete:
        available = draft.available()
        draft.add(rng.choices(list(available), weights=list(available.values()))[0])
    return draft.event()


def event_key(game, event) -> str:
    """Entries that make the same choice share a key: the fields the engine reads,
    the cards whose order does not matter sorted, a flock's discarded part sorted."""
    kind = event.get("type")
    fields = FIELDS.get(kind, ()) if isinstance(kind, str) else ()
    key = {"type": kind, **{name: event[name] for name in fields if name in event}}
    if kind == "refill":
        key.setdefault("side", "right")
    if kind == "setup":
        key.setdefault("setup_discards", [])
        key.setdefault("robin_bonus", [])
    for name in UNORDERED.get(kind, ()):
        if isinstance(key.get(name), list):
            key[name] = sorted(key[name], key=repr)
    if kind == "flock" and isinstance(key.get("cards"), list):
        cards = key["cards"]
        keep = _keep_of(game, cards)
        key["cards"] = [sorted(cards[:keep], key=repr), sorted(cards[keep:], key=repr)]
    return json.dumps(key, sort_keys=True, default=repr)


def _keep_of(game, cards: list) -> int:
    """How many of a flock's cards go to the collection (0 when it is no flock)."""
    rs = game.ruleset
    species = {rs.species_of.get(c, c) if isinstance(c, str) else None for c in cards}
    if len(species) != 1 or None in species or next(iter(species)) not in rs.by_id:
        return 0
    return rs.flock_keeps(species.pop(), len(cards))
