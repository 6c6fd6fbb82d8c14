"""Every simulated bird game is a legal record that replays to the same end."""
import pytest

from engine import replay
from engine.lab.arena import play_game

CASES = [  # game, options, bots, seed, RobinBird's handicap
    ("cubirds", {}, ["strong", "greedy"], 1, 0), ("cubirds", {}, ["random", "greedy", "strong"], 2, 0),
    ("cubirds", {}, ["greedy"] * 5, 3, 0), ("gleich-und-gleich", {}, ["greedy", "strong", "random", "greedy"], 4, 0),
    ("gleich-und-gleich", {"rarer_faces": True}, ["greedy"] * 3, 5, 0),
    ("gleich-und-gleich", {"fast": True}, ["random", "greedy"], 6, 0),
    ("cubirds", {"solo": True}, ["strong"], 7, 0), ("cubirds", {"solo": True}, ["greedy"], 8, 3),
    ("gleich-und-gleich", {"solo": True}, ["greedy"], 9, 2),
]


@pytest.mark.parametrize("game,options,lineup,seed,handicap", CASES)
def test_a_bot_game_replays_to_its_end(game, options, lineup, seed, handicap):
    for offset in range(3):
        result, record = play_game(game, options, lineup, seed * 100 + offset, handicap, keep_record=True)
        replayed = replay(record)
        outcome = replayed.outcome()
        assert outcome is not None and outcome.reason == result.reason
        first = record["events"][0]["dealer"]
        n = len(record["players"])
        assert sorted((w - first) % n for w in outcome.winners) == list(result.winners)
        assert replayed.round == result.rounds and replayed.reshuffles == result.reshuffles
        assert len(record["events"][0].get("robin_bonus", [])) == handicap == record["options"].get("robin_handicap", 0)
        plays = sum(1 for e in record["events"] if e["type"] == "play")
        robin_turns = result.turns - plays
        assert robin_turns == 0 if not options.get("solo") else robin_turns > 0
