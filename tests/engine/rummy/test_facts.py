"""The rule facts the Gemeinsame Sache screen reads from the engine (#13 point 6)."""
import pytest

from engine.rummy import suggest_level
from engine.rummy.simulate import random_record

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


def test_a_joker_binds_what_it_stands_for_in_a_run_only():
    """rules/004: „in einem Satz steht er für eine beliebige fehlende Farbe“ (README 5):
    in a set the entry need not say what the joker stands for; in a run it is that card."""
    game = play(WORKED_EXAMPLE + [DRAW])           # figure 1: the set of 7s, figure 2: the run 4♣ 5♣ JK(6♣)
    run = [fit for fit in game.fits("JK") if fit["action"] == "lay-off" and fit["figure"] == 2]
    assert run and all(fit["binds"] is True and len(fit["as"]) == 1 for fit in run)
    three = after_setup(DRAW, {"type": "start", "cards": ["8H", "8S"]}, {"type": "discard", "card": "2C"}, DRAW)
    (complete,) = [fit for fit in three.fits("JK") if fit["action"] == "complete"]
    assert complete["binds"] is False and sorted(complete["as"]) == ["8C", "8D"]
    three.apply({"type": "complete", "start": 1, "card": "JK"})   # no suit said: accepted


def test_turns_played_count_a_turn_won_by_a_lay():
    """rules/004: „Ihr gewinnt gemeinsam, sobald beide Hände leer sind und kein Ansatz mehr
    offen ist“ — a lay can win before the turn's discard; that turn was played too."""
    wins = set()
    for seed in range(40):
        record = random_record({"level": "leicht"}, seed)
        game = play(record["events"], record["options"])
        if game.outcome().won:
            by_lay = record["events"][-1]["type"] in ("complete", "lay-off")
            wins.add(by_lay)
            assert game.turns_played() == game.state()["turns"] + by_lay
            assert game.turns_played() == sum(1 for event in record["events"] if event["type"] == "draw")
    assert True in wins                             # some game was won by a lay
    assert play(WORKED_EXAMPLE).turns_played() == play(WORKED_EXAMPLE).state()["turns"] == 4   # still playing


def test_the_current_turn_counts_from_one_and_stops_at_the_turns_played():
    record = random_record({"level": "leicht"}, 0)
    assert play([]).current_turn() == 1 and play(record["events"][:1], record["options"]).current_turn() == 1
    assert play(WORKED_EXAMPLE).current_turn() == 5       # four turns played, the fifth under way
    over = play(record["events"], record["options"])
    assert over.outcome() is not None and over.current_turn() == over.turns_played()
