"""Gemeinsame Sache's teams (engine/lab/rummy.py) on the engine's runner."""
import pytest

from engine import replay
from engine.lab.rummy import TEAMS, sweep_team
from engine.rummy.simulate import play_one


@pytest.mark.parametrize("size,text", [(22, 0.56), (33, 0.94)])
def test_the_simple_strategy_still_reproduces_the_text(size, text):
    """rules/004 "Schwierigkeitsstufen": „bei Normal 56 % … mit dem vollen
    Ziehstapel von 33 Karten 94 %" — within 4 points."""
    entry, = sweep_team("simple", [size], 2000, seed=1, processes=1)
    assert abs(entry["win_rate"] - text) <= 0.04, entry


@pytest.mark.parametrize("team", ["smart", "open"])
def test_every_team_game_is_a_legal_record(team):
    options = {"draw_pile": 22, "open_hands": team == "open"}
    outcomes = set()
    for seed in range(30):
        game, _ = play_one(options, seed, TEAMS[team])
        replayed = replay(game.record())
        assert replayed.state() == game.state() and replayed.outcome() == game.outcome()
        outcomes.add(game.outcome().won)
    assert outcomes == {True, False}

