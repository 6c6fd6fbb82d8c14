"""Records and events the engine must refuse clearly or take as they are (#13
points 4 and 5; records.md "The command line": "A file that is not a valid record
exits 2 with a message — whatever is wrong with it (wrong types anywhere in the
header or the events' container, deep nesting, huge numbers), never a traceback")."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, EngineError, IllegalEvent, InvalidRecord, game_class, new_game, parse_record, replay
from engine.__main__ import main
from engine.randomplay import random_record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = {name: random_record(name, {}, None, 1) for name in sorted(GAMES)}
OPTION_NAMES = sorted({name for cls in GAMES.values() for name in cls.validate_options({})} | {"robin_handicap"})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=True)
    | st.text(max_size=12) | st.sampled_from(["normal", "leicht", "custom", "K", "owl", "JK", "9-10"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def nested(depth: int, leaf=None):
    """A list nested ``depth`` levels deep, built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), options=st.dictionaries(st.sampled_from(OPTION_NAMES + ["colour"]),
                                                                    json_values, max_size=4))
def test_any_options_are_taken_or_refused_by_name(name, options):
    """Every option value of every type: normalised, or InvalidRecord naming the option."""
    try:
        normal = game_class(name).validate_options(dict(options))
    except InvalidRecord as err:
        assert err.code and err.message and len(err.message) < 400
        return
    assert game_class(name).validate_options(dict(normal)) == normal      # normalised options stay as they are
    json.dumps(normal)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GAMES)), field=st.sampled_from(["format", "game", "options", "players", "events"]),
       value=json_values, cut=st.integers(0, 12))
def test_a_record_with_any_header_value_replays_or_is_refused(name, field, value, cut):
    record = {**RECORDS[name], "events": RECORDS[name]["events"][:cut], field: value}
    try:
        game = replay(record)
    except InvalidRecord as err:
        assert err.code and len(err.message) < 400
    except IllegalEvent as err:
        assert err.index is not None and err.code
    else:
        json.dumps(game.state())


@pytest.mark.parametrize("record, code", [
    ({"game": "cubirds", "players": ["A", "B"], "events": [], "options": {"robin_bonus": nested(5000)}}, "too-deep"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "x": nested(40)}]}, "too-deep"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "x": "y" * 5000}]}, "too-large"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "x": list(range(30000))}]}, "too-large"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "x": float("nan")}]}, "not-json"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "x": 10 ** 40}]}, "too-large"),
    ({"game": "cubirds", "players": ["A", "B" * 200], "events": []}, "bad-players"),
    ({"game": "cubirds", "players": "AB", "events": []}, "bad-players"),
    ({"game": "cubirds", "players": ["A", "B"], "events": {}}, "bad-events"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [], "options": None}, "bad-options"),
    ({"game": ["cubirds"], "players": ["A", "B"], "events": []}, "unknown-game"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [], "format": {"v": 1}}, "bad-format"),
    ({"game": "gemeinsame-sache", "players": ["A", "B"], "events": [], "options": {"level": ["normal"]}}, "bad-level"),
    ({"game": "gemeinsame-sache", "players": ["A", "B"], "events": [], "options": {"level": {"x": 1}}}, "bad-level"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [], "options": {"solo": True, "robin_bonus": [["owl"]]}},
     "bad-option"),
    ({"game": "cubirds", "players": ["A", "B"], "events": [], "options": {"solo": True, "robin_bonus": ["owl"] * 9}},
     "bad-option"),
])
def test_bad_records_are_invalid_and_name_the_field(record, code):
    with pytest.raises(InvalidRecord) as err:
        replay(record)
    assert err.value.code == code and len(err.value.message) < 400


def test_an_event_of_absurd_shape_is_refused_and_changes_nothing():
    game = new_game("gemeinsame-sache", {}, ["A", "B"])
    for event in ({"type": "setup", "note": nested(100)}, {"type": "setup", "note": {1, 2}},
                  {"type": "setup", "first_player": 10 ** 100, "first_discard": "9C"}):
        with pytest.raises(IllegalEvent) as err:
            game.apply(event)
        assert err.value.code in ("too-deep", "not-json", "too-large", "bad-player") and not game.events


@pytest.mark.parametrize("name", sorted(GAMES))
def test_unknown_fields_are_accepted_ignored_and_kept(name):
    """records.md: "Add optional fields freely" — in every game an event may carry
    fields the engine does not know; they change nothing and stay in the record."""
    record = RECORDS[name]
    plain = replay({**record, "events": record["events"][:6]})
    noted = [{**event, "note": "von Hand", "player": 99} for event in record["events"][:6]]
    game = replay({**record, "events": noted})
    assert game.state() == plain.state() and game.record()["events"] == noted


def run_cli(tmp_path, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_the_command_line_exits_2_with_a_message_for_a_record_nested_100000_deep(tmp_path):
    done = run_cli(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert done.returncode == 2 and done.stderr.startswith("invalid record: ") and "Traceback" not in done.stderr
    deep_event = json.dumps({"game": "cubirds", "players": ["A", "B"], "events": [{"type": "x", "n": nested(500)}]})
    done = run_cli(tmp_path, deep_event)
    assert done.returncode == 2 and "zu tief verschachtelt" in done.stderr


def test_the_command_line_names_a_number_too_large_for_python(tmp_path):
    """records.md: a huge number exits 2 with a message — one of more digits than Python
    reads (4300) is named by its field, not by Python's English "Exceeds the limit"."""
    done = run_cli(tmp_path, '{"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "n": '
                             + "9" * 5000 + "}]}")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "invalid record: Feld 'events[0].n': die Zahl ist zu groß"


def test_an_unknown_level_names_the_option():
    with pytest.raises(InvalidRecord) as err:
        new_game("gemeinsame-sache", {"level": ["normal"]}, ["A", "B"])
    assert err.value.message == "Option \"level\": unbekannte Stufe ['normal']; möglich: leicht, normal, schwer, custom"


@settings(max_examples=150, deadline=None)
@given(document=json_values | st.fixed_dictionaries({"game": st.sampled_from(sorted(GAMES)),
                                                     "players": json_values, "events": json_values},
                                                    optional={"options": json_values, "format": json_values}))
def test_the_command_line_answers_any_json_with_0_1_or_2(tmp_path_factory, document):
    path = tmp_path_factory.mktemp("cli") / "record.json"
    path.write_text(json.dumps(document))
    try:
        code = main(["replay", str(path)])
    except EngineError as err:          # main reports every refusal itself
        raise AssertionError(f"escaped: {err}") from None
    assert code in (0, 1, 2)


def test_parse_record_keeps_a_valid_record_as_it_is():
    record = RECORDS["cubirds"]
    assert parse_record(record) is record
