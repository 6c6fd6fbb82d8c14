"""One test per refusal of issue 3: a specific code, a German reason, nothing changed."""
import pytest

from engine import InvalidRecord, new_game

from .helpers import WORKED_EXAMPLE, after_setup, assert_refused, play

DRAW = {"type": "draw", "from": "pile"}


def anna_acting(*events, **kwargs):
    """Anna (seat 0) has drawn her first card; ``events`` follow."""
    return after_setup(DRAW, *events, **kwargs)


# --- starts ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", [["7H", "9S"], ["7H", "8S"], ["4C", "7C"], ["KH", "2H"], ["QH", "2H"]])
def test_two_cards_that_form_no_start_are_refused(cards):
    assert_refused(anna_acting(), {"type": "start", "cards": cards}, "not-a-start")


@pytest.mark.parametrize("cards", [["7H", "7S"], ["AH", "2H"], ["KH", "AH"], ["4C", "6C"], ["AH", "3H"],
                                   ["QH", "AH"], ["5D", "4D"]])
def test_pairs_neighbours_and_one_gap_are_starts(cards):
    game = anna_acting({"type": "start", "cards": cards})
    assert game.state()["starts"] == [{"id": 1, "owner": 0, "cards": cards}]


@pytest.mark.parametrize("cards", [["KH", "AH"], ["QH", "AH"]])
def test_ace_low_only_refuses_a_high_ace_start(cards):
    assert_refused(anna_acting(options={"ace_low_only": True}), {"type": "start", "cards": cards}, "not-a-start")


def test_a_start_holds_no_joker():
    assert_refused(anna_acting(), {"type": "start", "cards": ["7H", "JK"]}, "joker-in-start")


@pytest.mark.parametrize("cards", [["7H"], ["7H", "7S", "7D"], "7H7S"])
def test_a_start_is_exactly_two_cards(cards):
    assert_refused(anna_acting(), {"type": "start", "cards": cards}, "start-needs-two")


def test_a_third_open_start_is_refused():
    game = anna_acting({"type": "start", "cards": ["7H", "7S"]}, {"type": "start", "cards": ["4C", "5C"]})
    assert_refused(game, {"type": "start", "cards": ["10H", "JH"]}, "too-many-starts")


def test_three_open_starts_with_drei_ansaetze_but_not_four():
    game = anna_acting({"type": "start", "cards": ["7H", "7S"]}, {"type": "start", "cards": ["4C", "5C"]},
                       {"type": "start", "cards": ["10H", "JH"]}, options={"max_starts": 3})
    assert len(game.state()["starts"]) == 3
    assert_refused(game, {"type": "start", "cards": ["2D", "2S"]}, "too-many-starts")


def test_the_owner_may_not_complete_his_own_start():
    game = anna_acting({"type": "start", "cards": ["7H", "7S"]})
    assert_refused(game, {"type": "complete", "start": 1, "card": "7D"}, "own-start")


def test_nothing_may_be_laid_off_on_an_open_start():
    game = anna_acting({"type": "start", "cards": ["7H", "7S"]})
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "7D"}, "still-a-start")


def test_a_start_cannot_be_taken_back():
    game = anna_acting({"type": "start", "cards": ["7H", "7S"]})
    assert_refused(game, {"type": "take-back", "start": 1}, "unknown-event")


# --- completing ----------------------------------------------------------------------------------
def ben_acting(start_cards, **kwargs):
    """Anna opened a start with ``start_cards`` (id 1) and discarded; Ben has drawn."""
    return anna_acting({"type": "start", "cards": start_cards}, {"type": "discard", "card": "KD"}, DRAW, **kwargs)


def test_completing_needs_a_fitting_third_card():
    assert_refused(ben_acting(["4C", "5C"]), {"type": "complete", "start": 1, "card": "7C"}, "does-not-complete")


def test_completing_a_start_that_does_not_exist():
    assert_refused(ben_acting(["4C", "5C"]), {"type": "complete", "start": 7, "card": "6C"}, "no-such-start")


@pytest.mark.parametrize("card, figure", [("3C", ["3C", "4C", "5C"]), ("6C", ["4C", "5C", "6C"])])
def test_neighbours_complete_at_either_end(card, figure):
    game = ben_acting(["4C", "5C"])
    game.apply({"type": "complete", "start": 1, "card": card})
    assert game.state()["figures"] == [{"id": 1, "kind": "run", "cards": figure}]


def test_a_joker_in_a_run_must_say_which_card_it_is():
    assert_refused(ben_acting(["4C", "5C"]), {"type": "complete", "start": 1, "card": "JK"}, "joker-needs-as")


def test_a_joker_must_stand_for_a_fitting_card():
    assert_refused(ben_acting(["4C", "5C"]), {"type": "complete", "start": 1, "card": "JK", "as": "8C"},
                   "joker-does-not-fit")


def test_a_joker_in_a_set_stands_for_a_missing_suit():
    game = ben_acting(["7H", "7S"])
    assert_refused(game, {"type": "complete", "start": 1, "card": "JK", "as": "7H"}, "joker-does-not-fit")
    game.apply({"type": "complete", "start": 1, "card": "JK"})
    assert game.state()["figures"][0]["cards"] == ["7H", "7S", "JK"]


def test_as_is_only_for_a_joker():
    assert_refused(ben_acting(["4C", "5C"]), {"type": "complete", "start": 1, "card": "6C", "as": "6C"},
                   "as-without-joker")


def test_high_ace_completes_queen_king_but_not_with_ace_low_only():
    game = ben_acting(["QH", "KH"])
    game.apply({"type": "complete", "start": 1, "card": "AH"})
    assert game.state()["figures"][0]["cards"] == ["QH", "KH", "AH"]
    low_only = ben_acting(["QH", "KH"], options={"ace_low_only": True})
    assert_refused(low_only, {"type": "complete", "start": 1, "card": "AH"}, "does-not-complete")


# --- laying off ----------------------------------------------------------------------------------
def test_a_set_holds_at_most_four_cards():
    game = play(WORKED_EXAMPLE + [DRAW])
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "JK"}, "set-full")


def test_a_run_takes_cards_only_at_its_ends():
    game = play(WORKED_EXAMPLE + [DRAW])
    assert_refused(game, {"type": "lay-off", "figure": 3, "card": "8H"}, "does-not-fit")
    game.apply({"type": "lay-off", "figure": 3, "card": "9H"})
    game.apply({"type": "lay-off", "figure": 3, "card": "KH"})
    assert game.state()["figures"][2]["cards"] == ["9H", "10H", "JH", "QH", "KH"]


def run_with_ace_low(options=None):
    """Ben completes Anna's 2♥ 3♥ with the A♥: the run A♥ 2♥ 3♥ (figure 1)."""
    game = ben_acting(["2H", "3H"], options=options)
    game.apply({"type": "complete", "start": 1, "card": "AH"})
    return game


def test_no_run_around_the_corner():
    game = run_with_ace_low()
    assert game.state()["figures"][0]["cards"] == ["AH", "2H", "3H"]
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "KH"}, "does-not-fit")
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "JK", "as": "KH"}, "does-not-fit")


def test_ace_low_only_refuses_the_ace_above_the_king():
    game = ben_acting(["JH", "QH"], options={"ace_low_only": True})
    game.apply({"type": "complete", "start": 1, "card": "KH"})
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "AH"}, "does-not-fit")
    game.apply({"type": "lay-off", "figure": 1, "card": "10H"})


def test_laying_off_on_a_figure_that_does_not_exist():
    assert_refused(play(WORKED_EXAMPLE + [DRAW]), {"type": "lay-off", "figure": 9, "card": "9H"}, "no-such-figure")


def test_a_declared_suit_in_a_set_binds_nothing():
    """rules/004: „in einem Satz steht er für eine beliebige fehlende Farbe“ (README 5):
    the real card of the declared suit may be laid off; the joker then stands for another."""
    game = ben_acting(["7H", "7S"])
    game.apply({"type": "complete", "start": 1, "card": "JK", "as": "7D"})
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "8C"}, "does-not-fit")
    game.apply({"type": "lay-off", "figure": 1, "card": "7D"})
    assert game.state()["figures"][0]["cards"] == ["7H", "7S", "JK", "7D"]   # the joker says nothing any more
    assert_refused(game, {"type": "lay-off", "figure": 1, "card": "JK"}, "set-full")


def test_any_missing_suit_swaps_a_set_joker_that_declared_another():
    """README 5: „a swap may bring in the card of any missing suit“ (records.md detail 2)."""
    game = ben_acting(["7H", "7S"])
    game.apply({"type": "complete", "start": 1, "card": "JK", "as": "7D"})
    assert {"action": "swap", "figure": 1} in game.fits("7C")
    game.apply({"type": "swap", "figure": 1, "card": "7C"})
    assert game.state()["figures"][0]["cards"] == ["7H", "7S", "7C"] and game.known_hand(1) == ("JK",)


# --- swapping a joker ----------------------------------------------------------------------------------
def test_swap_needs_the_card_the_joker_stands_for():
    game = play(WORKED_EXAMPLE + [DRAW])
    assert_refused(game, {"type": "swap", "figure": 2, "card": "3C"}, "no-joker-for-card")
    assert_refused(game, {"type": "swap", "figure": 1, "card": "8S"}, "no-joker-for-card")
    assert_refused(game, {"type": "swap", "figure": 2, "card": "JK"}, "swap-needs-real-card")


def test_a_set_joker_is_swapped_by_any_missing_suit():
    game = ben_acting(["7H", "7S"])
    game.apply({"type": "complete", "start": 1, "card": "JK"})
    assert_refused(game, {"type": "swap", "figure": 1, "card": "7H"}, "no-joker-for-card")
    game.apply({"type": "swap", "figure": 1, "card": "7C"})
    assert game.state()["figures"][0]["cards"] == ["7H", "7S", "7C"]
    assert game.known_hand(1) == ("JK",)


# --- one deck ----------------------------------------------------------------------------------------------
def test_a_card_that_lies_on_the_table_cannot_be_played_again():
    game = play(WORKED_EXAMPLE + [DRAW])
    error = assert_refused(game, {"type": "start", "cards": ["QH", "QS"]}, "card-seen")
    assert "Figur 3" in error.message
    assert_refused(game, {"type": "discard", "card": "9C"}, "card-seen")


def test_only_two_jokers():
    game = anna_acting({"type": "start", "cards": ["7H", "7S"]}, {"type": "start", "cards": ["4C", "5C"]},
                       {"type": "discard", "card": "JK"}, DRAW, {"type": "complete", "start": 1, "card": "JK"})
    assert_refused(game, {"type": "complete", "start": 2, "card": "JK", "as": "6C"}, "third-joker")


def test_a_card_known_in_the_other_hand_cannot_be_played():
    game = play(WORKED_EXAMPLE + [DRAW, {"type": "swap", "figure": 2, "card": "6C"},
                                  {"type": "start", "cards": ["2D", "2H"]}, {"type": "discard", "card": "8D"}, DRAW,
                                  {"type": "complete", "start": 4, "card": "JK"}])
    assert_refused(game, {"type": "discard", "card": "JK"}, "third-joker")


# --- the discard pile ---------------------------------------------------------------------------------------
def test_the_discard_top_only_if_it_can_be_laid_this_turn():
    game = play(WORKED_EXAMPLE[:4])        # K♦ on top: Ben could open a start with another king
    assert game.legal_choices()["discard"] is True
    blocked = play([{"type": "setup", "first_discard": "JK", "first_player": 0}])
    error = assert_refused(blocked, {"type": "draw", "from": "discard"}, "discard-not-layable")
    assert "Joker" in error.message and blocked.legal_choices()["discard_reason"] == error.reason()


def test_no_discard_and_no_end_of_turn_before_the_taken_card_is_laid():
    game = play(WORKED_EXAMPLE[:14])       # Ben took the D♥
    assert game.legal_choices()["discard"] is False
    assert_refused(game, {"type": "discard", "card": "3D"}, "pickup-not-laid")
    assert_refused(game, {"type": "discard", "card": "QH"}, "pickup-not-laid")
    game.apply({"type": "complete", "start": 3, "card": "QH"})
    assert game.legal_choices()["discard"] is True


def test_a_discard_is_required_while_the_hand_holds_cards():
    assert_refused(anna_acting(), {"type": "end-turn"}, "discard-required")


def test_no_discard_from_an_empty_hand():
    game = empty_handed_anna()
    assert_refused(game, {"type": "discard", "card": "5S"}, "hand-empty")
    game.apply({"type": "end-turn"})
    assert game.state()["turn"] == 1


LAY_ALL = [  # Drei Ansätze: Anna empties her hand in her second turn, Ben is left with one card
    DRAW, {"type": "start", "cards": ["2H", "2S"]}, {"type": "start", "cards": ["3H", "3S"]},
    {"type": "start", "cards": ["4H", "4S"]}, {"type": "discard", "card": "5S"},
    DRAW, {"type": "complete", "start": 1, "card": "2D"}, {"type": "complete", "start": 2, "card": "3D"},
    {"type": "complete", "start": 3, "card": "4D"}, {"type": "start", "cards": ["6H", "6S"]},
    {"type": "start", "cards": ["8H", "8S"]}, {"type": "start", "cards": ["10H", "10S"]},
    {"type": "discard", "card": "5D"},
    DRAW, {"type": "complete", "start": 4, "card": "6D"}, {"type": "complete", "start": 5, "card": "8D"},
    {"type": "complete", "start": 6, "card": "10D"}, {"type": "lay-off", "figure": 1, "card": "2C"},
    {"type": "lay-off", "figure": 2, "card": "3C"},
]


def empty_handed_anna():
    game = after_setup(*LAY_ALL, options={"max_starts": 3})
    assert game.state()["hands"] == [0, 1] and game.legal_choices()["end_turn"] is True
    return game


# --- hand counts and turn order -----------------------------------------------------------------------------
def test_a_player_cannot_lay_more_cards_than_the_hand_holds():
    game = empty_handed_anna()
    game.apply({"type": "end-turn"})
    game.apply(DRAW)
    game.apply({"type": "lay-off", "figure": 3, "card": "4C"})
    assert game.state()["hands"] == [0, 1]
    assert_refused(game, {"type": "start", "cards": ["9H", "9S"]}, "not-in-hand")


def test_a_known_joker_leaves_no_room_for_an_unknown_card():
    events = [dict(e) for e in LAY_ALL]
    events[events.index({"type": "complete", "start": 6, "card": "10D"})] = \
        {"type": "complete", "start": 6, "card": "JK", "as": "10D"}
    game = after_setup(*events, {"type": "end-turn"}, DRAW, {"type": "swap", "figure": 6, "card": "10D"},
                       {"type": "lay-off", "figure": 3, "card": "4C"}, options={"max_starts": 3})
    assert game.state()["hands"] == [0, 1] and game.known_hand(1) == ("JK",)
    error = assert_refused(game, {"type": "lay-off", "figure": 4, "card": "6C"}, "not-in-hand")
    assert "Joker" in error.message
    assert game.apply({"type": "lay-off", "figure": 4, "card": "JK"})["status"] == "won"


def test_wrong_step_and_turn_order():
    game = after_setup()
    assert_refused(game, {"type": "discard", "card": "5S"}, "wrong-step")
    assert_refused(game, {"type": "setup", "first_discard": "5S", "first_player": 0}, "wrong-step")
    game.apply(DRAW)
    assert_refused(game, DRAW, "wrong-step")


def test_drawing_from_an_empty_pile_is_refused_and_give_up_is_a_clock_loss():
    game = after_setup(DRAW, {"type": "discard", "card": "JK"}, options={"draw_pile": 1})
    assert game.legal_choices()["loss_due"] is True
    assert_refused(game, DRAW, "pile-empty")
    assert_refused(game, {"type": "draw", "from": "discard"}, "discard-not-layable")
    effect = game.apply({"type": "give-up"})
    assert effect == {"type": "give-up", "player": 1, "status": "lost", "reason": "clock"}
    assert game.state()["status"] == "lost" and game.state()["reason"] == "clock"
    assert game.outcome().won is False
    assert_refused(game, DRAW, "game-over")


def test_giving_up_while_cards_are_left_is_gave_up():
    game = after_setup(DRAW)
    game.apply({"type": "give-up"})
    assert (game.state()["status"], game.state()["reason"], game.awaiting) == ("lost", "gave-up", None)


def test_the_team_wins_when_both_hands_are_empty_and_no_start_is_open():
    game = empty_handed_anna()
    game.apply({"type": "end-turn"})
    game.apply(DRAW)
    game.apply({"type": "lay-off", "figure": 3, "card": "4C"})
    effect = game.apply({"type": "lay-off", "figure": 4, "card": "6C"})
    assert effect["status"] == "won" and effect["reason"] == "all-laid"
    assert game.state()["status"] == "won" and game.outcome().won and game.awaiting is None
    assert_refused(game, {"type": "end-turn"}, "game-over")


def test_malformed_events_name_what_is_wrong():
    game = after_setup()
    assert_refused(game, {"type": "draw"}, "missing-field")
    assert_refused(game, {"type": "draw", "from": "hand"}, "bad-source")
    game.apply(DRAW)
    assert_refused(game, {"type": "discard", "card": "1H"}, "bad-card")
    assert_refused(game, {"type": "discard", "card": 7}, "bad-card")
    assert_refused(game, {"type": "complete", "start": 1, "card": "JK", "as": "JK"}, "no-such-start")
    assert_refused(game, {"kind": "draw"}, "bad-event")


def test_setup_fields_are_checked():
    game = play([])
    assert_refused(game, {"type": "setup", "first_discard": "9C", "first_player": 2}, "bad-player")
    assert_refused(game, {"type": "setup", "first_discard": "9X", "first_player": 0}, "bad-card")
    assert_refused(game, {"type": "give-up"}, "not-started")


@pytest.mark.parametrize("options, code", [
    ({"level": "mittel"}, "bad-level"), ({"draw_pile": 0}, "bad-draw-pile"), ({"draw_pile": 34}, "bad-draw-pile"),
    ({"draw_pile": "22"}, "bad-draw-pile"), ({"level": "normal", "draw_pile": 30}, "bad-draw-pile"),
    ({"max_starts": 4}, "bad-max-starts"), ({"open_hands": "yes"}, "bad-option"), ({"jokers": 3}, "unknown-option"),
    ({"level": "custom"}, "bad-level"),
])
def test_bad_options_make_the_record_invalid(options, code):
    with pytest.raises(InvalidRecord) as caught:
        new_game("gemeinsame-sache", options, ["Anna", "Ben"])
    assert caught.value.code == code


def test_exactly_two_players():
    with pytest.raises(InvalidRecord) as caught:
        new_game("gemeinsame-sache", {}, ["Anna"])
    assert caught.value.code == "player-count"
