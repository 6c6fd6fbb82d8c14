"""What the table can read off the engine: hopeless starts, pace, public cards, fits."""
import json

from engine.rummy.analysis import start_outlooks

from .helpers import WORKED_EXAMPLE, after_setup, play

DRAW = {"type": "draw", "from": "pile"}
BOTH_SEVENS_GONE = [
    DRAW, {"type": "start", "cards": ["7H", "7S"]}, {"type": "discard", "card": "JK"},
    DRAW, {"type": "start", "cards": ["9H", "9S"]}, {"type": "discard", "card": "7C"},
    DRAW, {"type": "complete", "start": 2, "card": "JK"}, {"type": "lay-off", "figure": 2, "card": "9D"},
]


def test_a_start_is_completable_while_a_card_or_a_joker_is_in_reach():
    game = after_setup(*BOTH_SEVENS_GONE, first_discard="7D")
    (outlook,) = game.start_outlooks()
    assert outlook["id"] == 1 and outlook["completable"] is True
    assert outlook["cards"] == ["7C"]          # on top of the discard pile
    assert outlook["joker"] is True            # the set joker can still be swapped out by the 9♣


def test_a_start_whose_cards_are_buried_and_jokers_gone_is_hopeless():
    game = after_setup(*BOTH_SEVENS_GONE, {"type": "discard", "card": "9C"}, first_discard="7D")
    (outlook,) = game.start_outlooks()
    assert outlook["completable"] is False and outlook["reason"] == "no-card-left"
    assert outlook["where"] == [{"card": "7D", "place": "discard"}, {"card": "7C", "place": "discard"}]
    assert game.legal_choices()["kind"] == "draw"


def test_the_act_choices_carry_the_outlooks():
    game = after_setup(*BOTH_SEVENS_GONE, first_discard="7D")
    choices = game.legal_choices()
    assert choices["starts"] == start_outlooks(game)
    assert choices["complete"] == [] and choices["figures"] == [2] and choices["can_start"] is True
    json.dumps(choices)


def test_pace_counts_cards_to_place_against_draws_left():
    assert play(WORKED_EXAMPLE).pace() == {
        "draw_pile": 19, "cards_in_hands": 10, "open_starts": 0, "cards_left": 10, "cards_to_place": 10,
        "draws_left": 19, "per_draw": 0.53, "behind": False}
    late = after_setup(DRAW, {"type": "start", "cards": ["7H", "7S"]}, {"type": "discard", "card": "KD"},
                       options={"draw_pile": 4})
    assert late.pace()["cards_to_place"] == 18 and late.pace()["behind"] is True


def test_public_cards_list_what_a_picker_should_grey_out():
    public = play(WORKED_EXAMPLE).public_cards()
    assert public["jokers"] == 1
    assert set(public["cards"]) == {"7H", "7S", "7D", "7C", "4C", "5C", "10H", "JH", "QH", "9C", "KD", "2S", "3D"}


def test_fits_answers_where_a_card_could_go():
    game = play(WORKED_EXAMPLE + [DRAW])
    assert game.fits("KH") == [{"action": "lay-off", "figure": 3, "end": "high", "as": None},
                               {"action": "start", "with": ["AH", "KS", "KC"]}]   # K♦, D♥, B♥ are seen
    assert {"action": "swap", "figure": 2} in game.fits("6C")
    joker = game.fits("JK")
    assert {"action": "lay-off", "figure": 2, "end": "high", "as": ["7C"], "binds": True} in joker
    assert all(place["action"] != "start" for place in joker)
