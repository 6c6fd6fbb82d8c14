"""The setup wizard (SetupDraft), legal choices per step, and the command line."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import IllegalEvent, new_game
from engine.birds.randomplay import random_record

ROOT = Path(__file__).resolve().parents[3]


def test_setup_draft_lays_rows_discards_duplicates_and_builds_the_event():
    game = new_game("gleich-und-gleich", {}, ["Anna", "Ben"])
    draft = game.setup_draft(dealer=1)
    assert draft.needs() == {"kind": "row", "row": 0, "card": 1}
    assert draft.counts() == {"draw_pile": 104, "discard_pile": 0, "hands_dealt": False}
    draft.add("4")
    result = draft.add("3")                                # 3 and 4 are one species
    assert result["to"] == "discard" and result["replaced"] and result["discard_pile"] == 1
    assert result["draw_pile"] == 102                      # the hands are not dealt yet
    assert draft.needs() == {"kind": "row", "row": 0, "card": 2}
    for card in ["K", "9", "A", "5", "J", "Q", "7", "10", "2", "6", "8"]:
        draft.add(card)
    # rules/000 Vorbereitung: the rows (2.), then 8 hand cards each (3.), then the collections (4.)
    assert draft.needs() == {"kind": "collection", "player": 0}
    assert draft.counts() == {"draw_pile": 104 - 13 - 16, "discard_pile": 1, "hands_dealt": True}
    with pytest.raises(IllegalEvent):
        draft.event()
    draft.add("Q")
    assert draft.remove_last() == "Q"
    draft.add("J")
    draft.add("Q")
    assert draft.complete and draft.counts() == {"draw_pile": 104 - 15 - 16, "discard_pile": 1, "hands_dealt": True}
    event = draft.event()
    assert event["rows"] == [["4", "K", "9"], ["A", "5", "J"], ["Q", "7", "10"], ["2", "6", "8"]]
    assert event["setup_discards"] == ["3"] and event["collections"] == ["J", "Q"]
    game.apply(event)
    assert game.state()["draw_pile"] == 104 - 15 - 16 and game.awaiting.player == 1


def test_setup_draft_refuses_impossible_cards_and_asks_for_robins_hand():
    game = new_game("gleich-und-gleich", {"solo": True, "robin_bonus": ["Q", "Q"]}, ["Mensch", "RobinBird"])
    draft = game.setup_draft()
    for card in ["Q", "A", "3", "Q", "5", "7", "Q", "9", "J", "Q", "K", "2"]:
        draft.add(card)
    draft.add("Q")
    draft.add("J")
    assert draft.needs() == {"kind": "robin_hand", "card": 1, "of": 8}
    with pytest.raises(IllegalEvent) as err:
        draft.add("Q")                                     # 4 in rows, 1 collected, 2 bonus: an 8th is fine
        draft.add("Q")                                     # … a 9th is not
    assert err.value.code == "card-exhausted"
    with pytest.raises(IllegalEvent):
        draft.add("Joker")
    for card in ["K"] * 7:
        draft.add(card)
    game.apply(draft.event())
    assert game.state()["robin_hand"] == ["Q"] + ["K"] * 7


def test_legal_choices_name_the_next_step():
    kinds = set()
    for seed in range(12):
        rec = random_record("cubirds", {"solo": seed % 2 == 0}, 2, seed=seed)
        game = new_game("cubirds", rec["options"], rec["players"])
        for event in rec["events"]:
            choices = game.legal_choices()
            json.dumps(choices)
            kinds.add(choices["kind"])
            if choices["kind"] in ("refill", "robin-draw"):
                assert event["card"] in choices["cards"]
            if choices["kind"] == "play":
                allowed = {c["species"]: c for c in choices["species"]}
                species = game.ruleset.species_of[event["cards"][0]]
                assert allowed[species]["min"] <= len(event["cards"]) <= allowed[species]["max"]
            if choices["kind"] == "flock" and event["type"] == "flock":
                species = {c["species"] for c in choices["species"]}
                assert game.ruleset.species_of[event["cards"][0]] in species
            assert json.loads(json.dumps(game.apply(event)))["type"] == event["type"]
        assert game.legal_choices() == game.OVER_CHOICES == {"kind": None, "player": None, "over": True}
    assert kinds == {"setup", "play", "draw", "flock", "refill", "robin-draw", "deal"}


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True)


def test_cli_random_then_replay(tmp_path):
    out = run_cli("random", "--game", "gleich-und-gleich", "--options", '{"fast": true}',
                  "--players", "3", "--seed", "7")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["options"]["fast"] and len(record["players"]) == 3
    path = tmp_path / "game.json"
    path.write_text(out.stdout)
    done = run_cli("replay", str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "over"
    record["events"].insert(1, {"type": "play", "cards": ["A"], "row": 5, "side": "left"})
    path.write_text(json.dumps(record))
    bad = run_cli("replay", str(path))
    assert bad.returncode == 1 and bad.stderr.startswith("event 1: Reihe 5 gibt es nicht")
    assert json.loads(bad.stdout)["awaiting"] is not None
    path.write_text(json.dumps({**record, "options": {"colour": True}}))
    assert run_cli("replay", str(path)).returncode == 2
