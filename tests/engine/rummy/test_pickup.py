"""Taking the top of the discard pile (#13 point 1). rules/004 Dein Zug 1: „Die vom
Ablagestapel aber nur, wenn du sie noch im selben Zug auf den Tisch legst.“ — other
lays may come first (rules README, Gemeinsame Sache 3); the engine refuses the
pickup only when no lays this turn could place the card."""
from .helpers import after_setup, assert_refused

DRAW = {"type": "draw", "from": "pile"}
TAKE = {"type": "draw", "from": "discard"}


def test_complete_the_partners_start_then_lay_the_taken_card_on_the_new_figure():
    """Ben's two start places are taken: the 7♣ fits nothing as the table lies, but
    after he completes Anna's 4♣ 5♣ with his 6♣ it goes on the new run."""
    game = after_setup(DRAW, {"type": "discard", "card": "2H"},
                       DRAW, {"type": "start", "cards": ["8H", "8S"]}, {"type": "start", "cards": ["9H", "9S"]},
                       {"type": "discard", "card": "3D"},
                       DRAW, {"type": "start", "cards": ["4C", "5C"]}, {"type": "discard", "card": "7C"})
    assert game.fits("7C", 1) == []
    assert game.legal_choices()["discard"] is True
    game.apply(TAKE)
    assert_refused(game, {"type": "discard", "card": "2S"}, "pickup-not-laid")    # the turn cannot end yet
    game.apply({"type": "complete", "start": 3, "card": "6C"})
    game.apply({"type": "lay-off", "figure": 3, "card": "7C"})
    assert game.state()["figures"][0]["cards"] == ["4C", "5C", "6C", "7C"] and game.pickup is None


def run_case(anna_discards: str, ben_discards: str, top: str, first_discard: str = "9C", options=None):
    """Run 4♣–6♣ (Anna's start, completed by Ben), Anna's two start places taken, and
    ``top`` on the discard pile as Anna draws."""
    return after_setup(DRAW, {"type": "start", "cards": ["4C", "5C"]}, {"type": "start", "cards": ["2S", "2D"]},
                       {"type": "discard", "card": anna_discards},
                       DRAW, {"type": "complete", "start": 1, "card": "6C"}, {"type": "discard", "card": ben_discards},
                       DRAW, {"type": "start", "cards": ["3S", "3D"]}, {"type": "discard", "card": "2H"},
                       DRAW, {"type": "discard", "card": top}, first_discard=first_discard, options=options)


def test_lay_a_card_on_a_run_then_the_taken_card_after_it():
    game = run_case("KD", "KS", "8C")
    assert game.turn == 0 and game.fits("8C") == [] and game.legal_choices()["discard"] is True
    game.apply(TAKE)
    game.apply({"type": "lay-off", "figure": 1, "card": "7C"})
    game.apply({"type": "lay-off", "figure": 1, "card": "8C"})
    assert game.state()["figures"][0]["cards"] == ["4C", "5C", "6C", "7C", "8C"]
    assert run_case("KD", "KS", "10C").legal_choices()["discard"] is True      # 7♣ 8♣ 9♣ first


def test_a_joker_may_stand_for_a_card_that_lies_elsewhere_on_the_way():
    """README 5: a joker may stand for a card that lies elsewhere — the 7♣ under the top 8♣."""
    game = run_case("KD", "7C", "8C")
    assert game.discard_pile[-3:] == ("7C", "2H", "8C") and game.legal_choices()["discard"] is True
    game.apply(TAKE)                                                   # an unseen joker may be in Anna's hand
    game.apply({"type": "lay-off", "figure": 1, "card": "JK", "as": "7C"})
    game.apply({"type": "lay-off", "figure": 1, "card": "8C"})
    both_jokers_gone = run_case("JK", "7C", "8C", first_discard="JK")
    assert_refused(both_jokers_gone, TAKE, "discard-not-layable")    # both jokers lie in the discard pile


def test_an_empty_draw_pile_is_no_loss_while_a_chain_can_place_the_top():
    """README 4: lost when a draw is due, the pile is empty and the top cannot be laid."""
    choices = run_case("KD", "KS", "8C", options={"draw_pile": 4}).legal_choices()
    assert choices["pile"] is False and choices["discard"] is True and choices["loss_due"] is False
    lost = run_case("JK", "7C", "8C", first_discard="JK", options={"draw_pile": 4}).legal_choices()
    assert lost["discard"] is False and lost["loss_due"] is True


def test_a_card_no_lay_this_turn_could_place_is_still_refused():
    """Ben's two start places are taken, Anna has no start and there is no figure: the
    6♣ can go nowhere for him (his own start 4♣ 5♣ only Anna may complete)."""
    game = after_setup(DRAW, {"type": "discard", "card": "2H"},
                       DRAW, {"type": "start", "cards": ["4C", "5C"]}, {"type": "start", "cards": ["8H", "8S"]},
                       {"type": "discard", "card": "3D"},
                       DRAW, {"type": "discard", "card": "6C"})
    assert game.turn == 1
    error = assert_refused(game, TAKE, "discard-not-layable")
    assert game.legal_choices()["discard_reason"] == error.reason()
