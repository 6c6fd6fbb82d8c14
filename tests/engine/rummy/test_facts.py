"""The rule facts the Gemeinsame Sache screen reads from the engine (#13 point 6)."""
import pytest

from engine.rummy import suggest_level

from .helpers import WORKED_EXAMPLE, after_setup, play

DRAW = {"type": "draw", "from": "pile"}


def test_the_numbers_of_the_rules():
    """rules/004 Vorbereitung: 10 cards each, 33 in the draw pile; at Normal 11 set aside, 22 stay."""
    numbers = play([]).numbers()
    assert (numbers["hand_size"], numbers["full_draw_pile"], numbers["draw_pile"], numbers["set_aside"]) == (10, 33, 22, 11)
    assert (numbers["start_size"], numbers["max_set"], numbers["max_starts"], numbers["jokers"]) == (2, 4, 2, 2)
    assert play([], {"max_starts": 3, "draw_pile": 9}).numbers()["max_starts"] == 3


@pytest.mark.parametrize(("results", "options", "change", "size", "level"), [
    ([True, True, True, False, True], {"level": "normal", "draw_pile": 22}, "harder", 17, "schwer"),
    ([False, False, False, True], {"level": "normal", "draw_pile": 22}, "easier", 28, "leicht"),
    ([True, False, True], {"level": "normal", "draw_pile": 22}, "same", 22, "normal"),
    ([True, True], {"level": "leicht", "draw_pile": 28}, "same", 28, "leicht"),
    ([True] * 6, {"level": "schwer", "draw_pile": 17}, "harder", 14, "custom"),
    ([False] * 3, {"level": "custom", "draw_pile": 32}, "easier", 33, "custom"),
    ([True] * 3, {"level": "custom", "draw_pile": 1}, "same", 1, "custom"),
])
def test_the_next_level_follows_the_last_games(results, options, change, size, level):
    """rules/004 Schwierigkeitsstufen: "Ist euch das Spiel zu leicht oder zu schwer, ändert
    zuerst die Zahl der Karten, die ihr beiseitelegt." The last five games count."""
    suggestion = suggest_level(results, {**options, "max_starts": 2})
    assert suggestion["change"] == change and suggestion["games"] == min(len(results), 5)
    assert suggestion["options"] == {**options, "level": level, "draw_pile": size, "max_starts": 2}


def test_what_a_hand_may_hold_and_the_free_jokers():
    game = play(WORKED_EXAMPLE)            # one joker in figure 2, D♥ laid by Ben
    assert game.free_jokers() == 1
    candidates = game.hand_candidates(0)
    assert candidates["jokers"] == 1 and "QH" not in candidates["cards"] and "QD" in candidates["cards"]
    assert len(candidates["cards"]) == 52 - len(game.public_cards()["cards"])
    swapped = play(WORKED_EXAMPLE + [DRAW, {"type": "swap", "figure": 2, "card": "6C"}])
    assert swapped.free_jokers() == 1 and swapped.hand_candidates(0)["jokers"] == 2    # Anna holds the swapped joker
    assert swapped.hand_candidates(1)["jokers"] == 1


def test_a_known_hand_card_is_offered_as_a_start_partner():
    """rules/004 Zug: a card taken from the discard pile may open a start with a card of the hand."""
    game = after_setup(DRAW, {"type": "discard", "card": "3C"}, {"type": "draw", "from": "discard"})
    assert game.known_hand(1) == ("3C",)
    start = next(fit for fit in game.fits("3D") if fit["action"] == "start")
    assert "3C" in start["with"]
    assert game.where_is("3C") == {"place": "hand", "player": 1}
    assert game.where_is("9C") == {"place": "discard"} and game.where_is("5H") is None


def test_cards_left_counts_hands_and_open_starts():
    game = after_setup(DRAW, {"type": "start", "cards": ["7H", "7S"]})
    assert game.cards_left() == 9 + 10 + 2 == game.pace()["cards_left"]
    assert game.where_is("7S") == {"place": "start", "id": 1}
