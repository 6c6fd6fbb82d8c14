"""The complete legal events of Gemeinsame Sache's awaited step (OpenSpiel's
legal actions), every one listed once, and the key under which entries that
make the same choice meet (a start's two cards in either order; ``"as": null``
and no ``as``)."""
from __future__ import annotations

import json

from ..game import LegalEvents
from .melds import DECK, JOKER, REAL_CARDS

FIELDS = {  # the fields the engine reads, per event type (others are ignored)
    "setup": ("first_discard", "first_player"), "draw": ("from",), "start": ("cards",),
    "complete": ("start", "card", "as"), "lay-off": ("figure", "card", "as"), "swap": ("figure", "card"),
    "discard": ("card",), "end-turn": (), "give-up": (),
}
ORDER = {card: i for i, card in enumerate(REAL_CARDS)}


def legal_events(game) -> LegalEvents:
    awaiting = game.awaiting
    if awaiting is None:
        return LegalEvents([], True)
    if awaiting.kind == "setup":
        return LegalEvents([{"type": "setup", "first_discard": card, "first_player": player}
                            for card in sorted(set(DECK)) for player in (0, 1)], True)
    choices = game.legal_choices()
    found = [{"type": "give-up"}]
    if awaiting.kind == "draw":
        found += [{"type": "draw", "from": source} for source in ("pile", "discard") if choices[source]]
        return LegalEvents(found, True)
    player = awaiting.player
    known = game.known_hand(player)
    unknown = game.hands[player] - len(known)
    candidates = game.hand_candidates(player)
    cards = [card for card in candidates["cards"] if card in known or unknown >= 1]
    if candidates["jokers"] and (JOKER in known or unknown >= 1):
        cards.append(JOKER)
    for card in cards:
        for fit in game.fits(card, player):
            found += _fit_events(fit, card, known, unknown)
        if choices["discard"]:
            found.append({"type": "discard", "card": card})
    if choices["end_turn"]:
        found.append({"type": "end-turn"})
    return LegalEvents(found, True)


def _fit_events(fit: dict, card: str, known: tuple, unknown: int) -> list[dict]:
    """The events of one place ``fits`` found for ``card``."""
    action = fit["action"]
    if action == "start":   # each pair once, from its first card; at most ``unknown`` cards not known
        return [{"type": "start", "cards": [card, other]} for other in fit["with"]
                if ORDER[card] < ORDER[other] and (card not in known) + (other not in known) <= unknown]
    target = {"complete": "start", "lay-off": "figure", "swap": "figure"}[action]
    event = {"type": action, target: fit[target], "card": card}
    if fit.get("as") is None:
        return [event]
    said = [{**event, "as": stands_for} for stands_for in fit["as"]]
    return said if fit["binds"] else said + [event]   # in a set the joker need not say


def event_key(event) -> str:
    """The fields the engine reads; a start's cards in order; ``as`` null as absent."""
    kind = event.get("type")
    fields = FIELDS.get(kind, ()) if isinstance(kind, str) else ()
    key = {"type": kind, **{name: event[name] for name in fields if name in event}}
    if key.get("as", 0) is None:
        del key["as"]
    if kind == "start" and isinstance(key.get("cards"), list):
        key["cards"] = sorted(key["cards"], key=repr)
    return json.dumps(key, sort_keys=True, default=repr)
