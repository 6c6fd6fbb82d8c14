"""The command line: simulate, random, replay (records.md)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_simulate_prints_one_json_object():
    result = run("simulate", "gemeinsame-sache", "--draw-pile", "22", "--games", "200", "--seed", "3",
                 "--processes", "1", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 200 and summary["draw_pile"] == 22
    assert 0 <= summary["win_rate"] <= 1 and summary["ci95"][0] <= summary["win_rate"] <= summary["ci95"][1]
    assert 15 < summary["mean_turns"] < 35 and 1 < summary["mean_discard_pickups"] < 10


def test_simulate_refuses_bad_options():
    result = run("simulate", "gemeinsame-sache", "--games", "10", "--options", '{"level": "mittel"}')
    assert result.returncode == 2 and "mittel" in result.stderr


def test_random_writes_a_complete_legal_record_that_replays(tmp_path):
    result = run("random", "--game", "gemeinsame-sache", "--seed", "7")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["game"] == "gemeinsame-sache" and record["events"][0]["type"] == "setup"
    path = tmp_path / "game.json"
    path.write_text(result.stdout)
    replayed = run("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["status"] in ("won", "lost")


def test_replay_stops_at_an_illegal_event(tmp_path):
    record = json.loads(run("random", "--game", "gemeinsame-sache", "--seed", "8").stdout)
    record["events"].insert(2, {"type": "draw", "from": "pile"})     # a second draw after the first
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    replayed = run("replay", str(path))
    assert replayed.returncode == 1
    assert replayed.stderr.startswith("event 2: ")
    assert json.loads(replayed.stdout)["awaiting"] == "act"
