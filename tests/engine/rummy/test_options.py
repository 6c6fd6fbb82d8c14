"""Levels and options (records.md; rules README, Gemeinsame Sache 1)."""
import pytest

from engine import new_game, replay
from engine.rummy.rules import LEVELS

from .helpers import after_setup


def test_normal_is_22_and_the_levels_are_ordered():
    assert LEVELS["normal"] == 22
    assert 22 < LEVELS["leicht"] <= 33 and 1 <= LEVELS["schwer"] < 22


@pytest.mark.parametrize("options, size, level", [
    ({}, 22, "normal"), ({"level": "leicht"}, LEVELS["leicht"], "leicht"), ({"level": "schwer"}, LEVELS["schwer"], "schwer"),
    ({"draw_pile": 5}, 5, "custom"), ({"level": "normal", "draw_pile": 22}, 22, "normal"),
])
def test_the_level_sets_the_draw_pile_and_the_cards_set_aside(options, size, level):
    game = after_setup(options=options)
    assert game.options["draw_pile"] == size and game.options["level"] == level
    assert game.state()["draw_pile"] == size and game.state()["set_aside"] == 33 - size


def test_filled_in_options_replay_unchanged():
    game = new_game("gemeinsame-sache", {"draw_pile": 9, "max_starts": 3, "ace_low_only": True}, ["A", "B"])
    game.apply({"type": "setup", "first_discard": "5H", "first_player": 1})
    again = replay(game.record())
    assert again.options == game.options and again.state() == game.state()
