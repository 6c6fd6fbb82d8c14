"""Shared helpers of the Gemeinsame Sache tests."""
from __future__ import annotations

import pytest

from engine import IllegalEvent, new_game

# The rule text's worked example (Anna and Ben, Normal); records.md prints the state after it.
WORKED_EXAMPLE = [
    {"type": "setup", "first_discard": "9C", "first_player": 0},
    {"type": "draw", "from": "pile"},
    {"type": "start", "cards": ["7H", "7S"]},
    {"type": "discard", "card": "KD"},
    {"type": "draw", "from": "pile"},
    {"type": "complete", "start": 1, "card": "7D"},
    {"type": "start", "cards": ["4C", "5C"]},
    {"type": "discard", "card": "2S"},
    {"type": "draw", "from": "pile"},
    {"type": "lay-off", "figure": 1, "card": "7C"},
    {"type": "complete", "start": 2, "card": "JK", "as": "6C"},
    {"type": "start", "cards": ["10H", "JH"]},
    {"type": "discard", "card": "QH"},
    {"type": "draw", "from": "discard"},
    {"type": "complete", "start": 3, "card": "QH"},
    {"type": "discard", "card": "3D"},
]


def play(events, options=None):
    """A game after ``events`` (each must be legal)."""
    game = new_game("gemeinsame-sache", {"level": "normal"} if options is None else options, ["Anna", "Ben"])
    for event in events:
        game.apply(event)
    return game


def after_setup(*events, options=None, first_discard="9C"):
    return play([{"type": "setup", "first_discard": first_discard, "first_player": 0}, *events], options)


def assert_refused(game, event, code):
    """The event is refused with ``code`` and a German reason, and nothing changed."""
    before = (game.state(), game.legal_choices(), game.record(), game.public_cards(), game.pace())
    with pytest.raises(IllegalEvent) as caught:
        game.apply(event)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message == caught.value.template.format(**caught.value.params)
    assert (game.state(), game.legal_choices(), game.record(), game.public_cards(), game.pace()) == before
    return caught.value


def card_count(state) -> int:
    """Every card of the deck, wherever it is (54 when nothing got lost)."""
    return (sum(state["hands"]) + state["draw_pile"] + state["set_aside"] + len(state["discard"])
            + sum(len(s["cards"]) for s in state["starts"]) + sum(len(f["cards"]) for f in state["figures"]))
