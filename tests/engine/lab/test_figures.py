"""Contract C5: the shipped figures, read through engine.lab.simulated_figures(),
and the lab's commands."""
import json
import subprocess
import sys
from pathlib import Path

from engine.lab import DATA_FILE, FORMAT, simulated_figures

ROOT = Path(__file__).resolve().parents[3]
BIRD_KEYS = {"game", "options", "players", "bot", "games", "seed", "command", "turns", "rounds", "endings",
             "seat_win_rate", "reshuffles"}


def run(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_the_shipped_file_has_the_c5_shape():
    figures = simulated_figures()
    assert DATA_FILE.exists() and figures["format"] == FORMAT and figures["generated"]
    assert figures["birds"] and figures["solo"] and figures["gemeinsame_sache"]
    for entry in figures["birds"]:
        assert BIRD_KEYS <= set(entry)
        assert set(entry["endings"]) == {"distinct-species", "two-triples", "most-birds"}
        assert [s["seat"] for s in entry["seat_win_rate"]] == list(range(entry["players"]))
        for key in ("turns", "rounds", "reshuffles"):
            low, high = entry[key]["ci95"]
            assert low <= entry[key]["mean"] <= high
    for entry in figures["solo"]:
        assert {"game", "options", "bot", "games", "win_rate", "ci95"} <= set(entry)
        assert entry["options"]["robin_handicap"] in (0, 1, 2, 3)
    sizes = {(e["team"], e["draw_pile"]) for e in figures["gemeinsame_sache"]}
    assert sizes == {(t, n) for t in ("simple", "smart", "open") for n in range(1, 34)}


def test_a_missing_file_is_an_empty_structure(tmp_path):
    figures = simulated_figures(tmp_path / "none.json")
    assert figures == {"format": FORMAT, "generated": None, "birds": [], "solo": [], "gemeinsame_sache": []}


def test_balance_command_prints_a_c5_entry():
    result = run("balance", "--game", "gleich-und-gleich", "--players", "3", "--options", '{"fast": true}',
                 "--bot", "greedy", "--games", "6", "--seed", "2", "--quick", "--json")
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)
    assert BIRD_KEYS <= set(entry) and entry["options"] == {"fast": True} and entry["games"] == 6
    again = run("balance", "--game", "gleich-und-gleich", "--players", "3", "--options", '{"fast": true}',
                "--bot", "greedy", "--games", "6", "--seed", "2", "--quick", "--json")
    timing = ("seconds", "cpu_seconds", "ms_per_turn")
    assert {k: v for k, v in json.loads(again.stdout).items() if k not in timing} == \
        {k: v for k, v in entry.items() if k not in timing}


def test_solo_balance_and_tournament_commands():
    result = run("balance", "--game", "cubirds", "--players", "1", "--bot", "greedy", "--games", "4",
                 "--options", '{"robin_handicap": 2}', "--quick", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["options"] == {"robin_handicap": 2}
    result = run("tournament", "--game", "cubirds", "--players", "2", "--bots", "random,greedy", "--games", "4",
                 "--quick", "--json")
    assert result.returncode == 0, result.stderr
    assert [row["bot"] for row in json.loads(result.stdout)["bots"]] == ["random", "greedy"]


def test_bad_arguments_are_refused_clearly():
    for args in (["tournament", "--game", "cubirds", "--bots", "random,clever"],
                 ["balance", "--game", "cubirds", "--players", "7", "--bot", "greedy"],
                 ["balance", "--game", "cubirds", "--options", "[1]"],
                 ["balance", "--game", "cubirds", "--players", "1", "--options", '{"robin_handicap": 9}']):
        result = run(*args, "--quick")
        assert result.returncode == 2 and result.stderr.startswith("invalid arguments:"), (args, result.stderr)
        assert "Traceback" not in result.stderr


def test_resume_recognises_every_kind_of_figure():
    """``sweep --resume`` skips a figure by what it will be a figure of: the
    stub of each part's first job names the entry that job makes."""
    from engine.lab.sweep import PART_RUNNERS, _identity

    sizes = {"games": 1, "strong_games": 1, "rummy_games": 1, "tournament_games": 1}
    for part, runner in PART_RUNNERS.items():
        stub, make = next(iter(runner(sizes, 3, 1)))
        entry, = make()
        assert _identity(entry) == _identity(stub), part
        assert (entry["games"], entry["seed"]) == (stub["games"], stub["seed"]) == (1, 3), part
