"""The protocol every registered game shares (engine/game.py, engine/records.py)."""
import json

import pytest

from engine import GAMES, IllegalEvent, new_game, replay, replay_until_illegal
from engine.randomplay import random_record


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_ends_with_the_same_choices_and_numbers_are_json(name):
    record = random_record(name, {}, None, 4)
    game = replay(record)
    assert game.awaiting is None and game.entered_by() is None
    assert game.legal_choices() == type(game).OVER_CHOICES == {"kind": None, "player": None, "over": True}
    json.dumps(game.numbers())
    fresh = new_game(name, record["options"], record["players"])
    choices = fresh.legal_choices()
    assert (choices["kind"], choices["player"], choices["over"]) == ("setup", None, False)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_records_come_through_the_registry(name):
    assert random_record(name, {}, None, 2) == GAMES[name].random_record({}, None, 2)


def test_replay_until_illegal_returns_the_game_before_the_refused_event():
    record = random_record("gemeinsame-sache", {}, None, 8)
    record["events"].insert(2, {"type": "draw", "from": "pile"})        # a second draw after the first
    game, error = replay_until_illegal(record)
    assert isinstance(error, IllegalEvent) and error.index == 2 and error.code == "wrong-step"
    assert len(game.events) == 2
    with pytest.raises(IllegalEvent) as raised:
        replay(record)
    assert raised.value.index == 2
    assert replay_until_illegal(random_record("cubirds", {}, 2, 1)).error is None


def test_bots_and_who_enters_their_steps():
    """rules/003 Solovariante: RobinBird is played by the companion; the table only
    turns up her cards (README CuBirds 4), so anyone at the table enters them."""
    solo = GAMES["cubirds"]
    options = solo.validate_options({"solo": True})
    assert solo.bot_names(options) == ["RobinBird"] and solo.human_player_range(options) == (1, 1)
    assert solo.bot_names(solo.validate_options({})) == [] and solo.human_player_range({}) == (2, 5)
    assert GAMES["gemeinsame-sache"].human_player_range({}) == (2, 2)
    record = random_record("cubirds", {"solo": True}, 2, 3)
    game = new_game("cubirds", record["options"], record["players"])
    assert game.bot_seats == (1,)
    seen = set()
    for event in record["events"]:
        awaiting = game.awaiting
        expected = None if awaiting.player in (None, 1) else awaiting.player
        assert game.entered_by() == expected
        seen.add((awaiting.kind, game.entered_by()))
        game.apply(event)
    assert ("robin-draw", None) in seen and ("play", 0) in seen and ("setup", None) in seen


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_turn_passes_only_with_an_effect_that_ends_a_turn_and_the_setup_names_who_began(name):
    """rules/000 Vorbereitung: „Der Geber fängt an“; rules/004 Vorbereitung: „Wer jünger ist,
    fängt an“ (entered with the setup). A turn passes to another seat only by an event the
    engine says ended one; the last one ends the game's last turn unless the team lost."""
    for seed in range(3):
        record = random_record(name, {}, None, seed)
        game = new_game(name, record["options"], record["players"])
        assert game.first_turn() is None
        ended = 0
        for index, event in enumerate(record["events"]):
            before = game.state()["turn"]
            effect = game.apply(event)
            if index == 0:
                assert game.first_turn() == game.state()["turn"] is not None
            after = game.state()["turn"]
            if index and before != after and after is not None:
                assert game.ends_turn(effect), (index, effect)
            ended += game.ends_turn(effect)
        assert ended > 0 and game.ends_turn(effect) == (game.outcome().won or "game_over" in effect)
        if hasattr(game, "turns_played"):
            assert ended == game.turns_played()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_outcomes_use_the_games_reasons_and_a_cooperative_team_wins_or_loses_together(name):
    """rules/004: „Ihr spielt als Team gegen den Ziehstapel und gewinnt oder verliert gemeinsam.“"""
    cls = GAMES[name]
    seen = set()
    for seed in range(6):
        record = random_record(name, {}, None, seed)
        outcome = replay(record).outcome()
        seen.add(outcome.reason)
        players = len(record["players"])
        if cls.cooperative:
            assert outcome.winners == (tuple(range(players)) if outcome.won else ())
        else:
            assert outcome.won and outcome.winners
    assert seen <= set(cls.outcome_reasons) and len(set(cls.outcome_reasons)) == len(cls.outcome_reasons)


def test_outcome_won_says_whether_the_people_at_the_table_won():
    """Solo („In diesem Fall spielst du gegen einen virtuellen Gegner, RobinBird“, rules/003):
    ``won`` is False exactly when only the bot is among the winners; without a bot every
    finished bird game is won by someone at the table."""
    seen = set()
    for seed in range(40):
        game = replay(random_record("cubirds", {"solo": True}, None, seed))
        outcome = game.outcome()
        people = set(outcome.winners) - set(game.bot_seats)
        assert outcome.won == bool(people)
        seen.add(outcome.won)
    assert seen == {True, False}
    assert replay(random_record("gleich-und-gleich", {}, 3, 1)).outcome().won


def test_levels_are_the_engine_s():
    assert dict(GAMES["gemeinsame-sache"].levels) == {"leicht": 28, "normal": 22, "schwer": 17}
    assert not GAMES["cubirds"].levels and not GAMES["gleich-und-gleich"].levels
