"""What the whole table knows (README "Validate with all public information").

Every card is either seen where it lies (rows, collections, RobinBird's open hand,
cards captured into a hand, cards shown in a flock and discarded) or *hidden*:
in the draw pile, in the unknown part of a hand, or in a hand discarded unseen at a
round end. ``hidden`` counts the hidden copies of each card (a tuple indexed like
``Ruleset.cards``); a card turned up or played from the unknown part of a hand
must be one of them.
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import IllegalEvent
from .rules import Ruleset

# A refusal, made only where it is raised: a screen asks ``hand_allows`` of every count of every species.
Refusal = Callable[[], IllegalEvent]


def add_counts(counts: tuple, cards, index: dict, sign: int = 1) -> tuple:
    """``counts`` with each of ``cards`` added (sign 1) or taken away (sign -1)."""
    result = list(counts)
    for card in cards:
        result[index[card]] += sign
    return tuple(result)


def check_hidden(hidden: tuple, cards: list | tuple, ruleset: Ruleset) -> None:
    """Refuse cards of which no hidden copy is left (e.g. a ninth Queen)."""
    refused = _hidden_refusal(hidden, cards, ruleset)
    if refused:
        raise refused()


def _hidden_refusal(hidden: tuple, cards, ruleset: Ruleset) -> Refusal | None:
    """The refusal of ``check_hidden``, or None."""
    for card in set(cards):
        n, left = cards.count(card), hidden[ruleset.card_index[card]]
        if n > left:
            return lambda: IllegalEvent(
                "card-exhausted", "{card} kann nicht sein: von {total} Karten {label} ist nur noch {left} verdeckt",
                {"card": card, "label": ruleset.card_labels[card], "total": ruleset.card_counts[card], "left": left})
    return None


def hand_extra(cards: list, species_id: str, known: tuple, hand_size: int, void: frozenset,
               hidden: tuple, ruleset: Ruleset, verb: str) -> tuple[list, int, list]:
    """Check that a hand can hold ``cards`` as *all* its cards of one species.

    ``cards`` may hold the species id of a pair species in place of a card whose
    rank nobody entered (a flock's discarded cards, C3). ``known`` are the cards
    the table saw go into the hand, ``void`` the species the unknown part cannot
    hold (played or shown since the last draw), ``verb`` names the action in the
    message ("ausspielen" / "vorzeigen").

    Returns the ranked cards that come from the unknown part of the hand, how many
    unranked ones do, and the known cards that were shown unranked. Known cards
    are matched to entered ranks first: that asks least of the hidden cards, so a
    possible entry is never refused."""
    result, refused = _hand(cards, species_id, known, hand_size, void, hidden, ruleset, verb)
    if refused:
        raise refused()
    return result


def hand_allows(cards: list, species_id: str, known: tuple, hand_size: int, void: frozenset,
                hidden: tuple, ruleset: Ruleset) -> bool:
    """Whether ``hand_extra`` would accept ``cards`` (without raising; a screen asks this
    for every count of every species, so no refusal is worded here)."""
    return _hand(cards, species_id, known, hand_size, void, hidden, ruleset, "")[1] is None


def _hand(cards, species_id, known, hand_size, void, hidden, ruleset, verb) -> tuple:
    """``(result, None)`` or ``(None, the refusal)`` of ``hand_extra``."""
    unranked_ids = ruleset.unranked
    unranked = 0
    extra: dict[str, int] = {}  # ranked cards entered, by card, not yet matched to a known one
    for card in cards:
        if card in unranked_ids:
            unranked += 1
        else:
            extra[card] = extra.get(card, 0) + 1
    known_unranked = []
    for card in known:
        if ruleset.species_of[card] != species_id:
            continue
        if extra.get(card, 0) > 0:
            extra[card] -= 1
        elif len(known_unranked) < unranked:
            known_unranked.append(card)
        else:
            return None, lambda: IllegalEvent(
                "must-include-known", "Du musst alle Karten der Art {species} {verb}: du hast {card} geschnappt",
                {"species": ruleset.species_label(species_id), "verb": verb, "card": ruleset.card_accusative[card]})
    extra_cards = [card for card, count in extra.items() for _ in range(count)]
    extra_unranked = unranked - len(known_unranked)
    from_unknown = len(extra_cards) + extra_unranked
    if not from_unknown:
        return (extra_cards, 0, known_unranked), None
    unknown = hand_size - len(known)
    if from_unknown > unknown:
        return None, lambda: IllegalEvent(
            "not-in-hand", "So viele Karten hat die Hand nicht: {n} Karten der Art {species}, "
                           "aber nur {unknown} unbekannte Handkarten",
            {"n": len(cards), "species": ruleset.species_label(species_id), "unknown": unknown})
    if species_id in void:
        return None, lambda: IllegalEvent(
            "species-gone", "Die Hand kann keine weitere Karte der Art {species} haben: "
                            "sie hat diese Art schon abgegeben und seitdem nicht gezogen",
            {"species": ruleset.species_label(species_id)})
    refused = _hidden_refusal(hidden, extra_cards, ruleset)
    if refused:
        return None, refused
    left = sum(hidden[ruleset.card_index[card]] for card in ruleset.by_id[species_id].cards) - len(extra_cards)
    if extra_unranked > left:
        return None, lambda: IllegalEvent(
            "species-exhausted",
            "So viele Karten der Art {species} kann die Hand nicht haben: nur noch {left} sind verdeckt",
            {"species": ruleset.species_label(species_id), "left": left})
    return (extra_cards, extra_unranked, known_unranked), None
