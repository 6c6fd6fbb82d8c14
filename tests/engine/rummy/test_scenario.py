"""The rule text's worked example (Anna and Ben) reaches the state printed in records.md."""
from engine import replay

from .helpers import WORKED_EXAMPLE, card_count, play

RECORDS_MD_STATE = {
    "game": "gemeinsame-sache", "status": "playing", "reason": None,
    "awaiting": "draw", "turn": 0, "turns": 4,
    "draw_pile": 19, "set_aside": 11, "discard": ["9C", "KD", "2S", "3D"],
    "hands": [4, 6],
    "starts": [],
    "figures": [{"id": 1, "kind": "set", "cards": ["7H", "7S", "7D", "7C"]},
                {"id": 2, "kind": "run", "cards": ["4C", "5C", "JK:6C"]},
                {"id": 3, "kind": "run", "cards": ["10H", "JH", "QH"]}],
    "discard_pickups": 1,
}


def test_worked_example_reaches_the_state_of_records_md():
    game = play(WORKED_EXAMPLE)
    assert game.state() == RECORDS_MD_STATE
    assert card_count(game.state()) == 54


def test_worked_example_effects_tell_the_story():
    game = play([])
    effects = [game.apply(event) for event in WORKED_EXAMPLE]
    assert effects[0] == {"type": "setup", "player": 0, "first_player": 0, "first_discard": "9C",
                          "draw_pile": 22, "set_aside": 11}
    assert effects[2] == {"type": "start", "player": 0, "start": 1, "cards": ["7H", "7S"]}
    assert effects[5]["figure"] == {"id": 1, "kind": "set", "cards": ["7H", "7S", "7D"]}
    assert effects[10] == {"type": "complete", "player": 0, "start": 2, "card": "JK", "as": "6C",
                           "figure": {"id": 2, "kind": "run", "cards": ["4C", "5C", "JK:6C"]}}
    assert effects[13] == {"type": "draw", "player": 1, "from": "discard", "card": "QH", "draw_pile": 19}


def test_ben_may_take_the_queen_because_it_completes_annas_start():
    game = play(WORKED_EXAMPLE[:13])
    choices = game.legal_choices()
    assert choices["kind"] == "draw" and choices["player"] == 1
    assert choices["discard"] is True and choices["discard_top"] == "QH"
    assert {"action": "complete", "start": 3, "as": None} in game.fits("QH")


def test_whoever_gets_the_real_six_may_swap_the_joker():
    game = play(WORKED_EXAMPLE + [{"type": "draw", "from": "pile"}])
    assert {"action": "swap", "figure": 2} in game.fits("6C")
    effect = game.apply({"type": "swap", "figure": 2, "card": "6C"})
    assert effect["joker"] == "JK:6C" and effect["cards"] == ["4C", "5C", "6C"]
    assert game.state()["hands"] == [5, 6]       # drew one; 6♣ out, the joker in
    assert game.known_hand(0) == ("JK",)


def test_the_worked_example_replays_to_the_same_state():
    game = play(WORKED_EXAMPLE)
    assert replay(game.record()).state() == game.state()
