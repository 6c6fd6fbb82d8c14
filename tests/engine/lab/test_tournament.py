"""The tournament ranks random < greedy < strong, by a margin no lucky seed
explains: each bot's 95 % interval lies wholly above the weaker one's rate."""
from engine.lab.runs import lineups, tournament


def test_lineups_seat_every_bot_equally():
    schedule = lineups(["random", "greedy", "strong"], 2)
    assert len(schedule) == 6 and len(set(schedule)) == 6
    for seat in range(2):
        assert sorted(s[seat] for s in schedule) == ["greedy", "greedy", "random", "random", "strong", "strong"]
    assert all(sorted(set(s)) == ["greedy", "random", "strong"] for s in lineups(["random", "greedy", "strong"], 5))


def rates(result):
    return {row["bot"]: row for row in result["bots"]}


def test_greedy_beats_random():
    result = rates(tournament("gleich-und-gleich", 2, ["random", "greedy"], 24, seed=3, processes=1))
    assert result["greedy"]["games"] == result["random"]["games"] == 24
    assert result["greedy"]["ci95"][0] > 0.5 > result["random"]["ci95"][1]


def test_strong_beats_greedy():
    result = rates(tournament("cubirds", 2, ["greedy", "strong"], 200, seed=5, processes=1))
    assert result["strong"]["ci95"][0] > 0.5 > result["greedy"]["ci95"][1]
    assert result["strong"]["ms_per_turn"] < 50
