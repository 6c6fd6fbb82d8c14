"""Fuzzing what reaches the engine's header validation through real HTTP: the options
of new tables and rematches, whole records to import (as JSON bodies, pasted,
and as uploaded files in every encoding, deeply nested, with huge numbers), and
night files (a game night's export: a chain of records, imported all or nothing).

The engine judges each input here first (an ``EngineError`` or none; any other
exception is a crash and fails the test). A valid input must be carried out; any
other must be refused with a reason — the engine's own code when the engine is
what refuses it — and leave the database as it was (fuzzing.py).
"""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from hypothesis import given, strategies as st

from fuzzing import (
    CARDS, GAMES, NO_JSON, Browser, Wire, as_received, engine_verdict, form_body, fuzz_settings, import_subject,
    json_text, mutate, name_ok, names, odd_text, option_names, strict_json, wild_values)

from engine import game_class, new_game, parse_record
from engine.randomplay import random_record
from webapp.nights import NIGHT_FORMAT, NIGHT_GAMES_MAX

GAME_NAMES = sorted({game for game, _options, _players in GAMES.values()})
EVENTS_MAX = 5000
option_values = (st.sampled_from([True, False, 0, 1, 2, 3, 8, 9, -1, 22, 33, 34, "leicht", "normal", "schwer",
                                  "custom", "1"]) | st.lists(st.sampled_from(CARDS), max_size=9) | wild_values)
options = st.none() | st.dictionaries(st.sampled_from(option_names()) | odd_text, option_values, max_size=4) \
    | wild_values


def options_verdict(game, chosen):
    """The engine's refusal of ``chosen`` as the options of a new ``game`` (None: valid)."""
    if not isinstance(game, str) or game not in GAME_NAMES or not isinstance(chosen, (dict, type(None))):
        return False  # refused before the engine is asked
    return engine_verdict(lambda: game_class(game).validate_options(dict(chosen or {})))


def test_options_of_new_tables_are_refused_as_the_engine_refuses_them(ledger_for, live_server, wire, record_property):
    ledger = ledger_for([])

    @fuzz_settings(2500)
    @given(st.sampled_from(GAME_NAMES) | wild_values, options, names, st.data())
    def create(game, chosen, name, data):
        text = json_text({"game": game, "options": chosen, "name": name}, data.draw)
        body = strict_json(text)
        answer = wire.post_json("/api/tables", text)
        if body is NO_JSON:
            ledger.refused(answer, "bad-json")
            return
        game, chosen, name = body["game"], body["options"], body["name"]
        refusal = options_verdict(game, chosen)
        if refusal is None and name_ok(name):
            assert answer.status == 201, answer
            ledger.accepted()
        else:
            ledger.refused(answer, refusal.code if refusal and name_ok(name) else None)

    create()
    ledger.done(2500, record_property)


def record_verdict(record):
    """The engine's refusal of ``record`` as an import (None: valid), and whether the
    web layer refuses it anyway: player names that are no clean names, too many events."""
    def replay():
        data = parse_record(record)
        game = new_game(data["game"], data.get("options", {}), data["players"])
        for event in data["events"]:
            game.apply(event)

    refusal = engine_verdict(replay)
    players, events = (record.get("players"), record.get("events")) if isinstance(record, dict) else (None, None)
    web_refuses = (isinstance(events, list) and len(events) > EVENTS_MAX) or (isinstance(players, list) and not all(
        name_ok(player) and " ".join(player.split()) == player for player in players if isinstance(player, str)))
    return refusal, web_refuses


def records_to_mutate() -> list[dict]:
    found = []
    for game, game_options, players in GAMES.values():
        for seed, length in ((3, 0), (4, 6), (5, 40)):
            record = random_record(game, game_options, len(players), seed)
            found.append(dict(record, players=players, events=record["events"][:length]))
    return found


def mutated_record(draw, records=records_to_mutate()):
    record = draw(st.sampled_from(records))
    how = draw(st.sampled_from(["anywhere", "anywhere", "options", "players", "header", "twice"]))
    if how == "options":
        return dict(record, options=draw(options))
    if how == "players":
        return dict(record, players=draw(st.lists(names | st.just("RobinBird"), max_size=6) | wild_values))
    if how == "header":
        return dict(record, **{draw(st.sampled_from(["format", "game", "events", "players", "options"])): draw(
            wild_values | st.sampled_from(GAME_NAMES + ["kartentisch-record/2", "kartentisch-record/1"]))})
    mutated = mutate(record, draw)
    return mutate(mutated, draw) if how == "twice" else mutated


def test_records_to_import_are_refused_as_the_engine_refuses_them(ledger_for, live_server, wire, record_property):
    ledger = ledger_for([])

    @fuzz_settings(1800)
    @given(st.data())
    def send(data):
        text = json_text({"record": mutated_record(data.draw)}, data.draw)
        body = strict_json(text)
        answer = wire.post_json("/api/tables", text)
        if body is NO_JSON:
            ledger.refused(answer, "bad-json")
            return
        refusal, web_refuses = record_verdict(body["record"])
        if refusal is None and not web_refuses:
            assert answer.status == 201, answer
            ledger.accepted()
        else:
            ledger.refused(answer, None if web_refuses or refusal is None else refusal.code)

    send()
    ledger.done(1800, record_property)


ENCODINGS = {
    "utf-8": lambda text: text.encode("utf-8", "surrogatepass"),
    "utf-8 with BOM": lambda text: b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"),
    "utf-16": lambda text: text.encode("utf-16", "surrogatepass"),
    "utf-16-le": lambda text: text.encode("utf-16-le", "surrogatepass"),
    "utf-32": lambda text: text.encode("utf-32", "surrogatepass"),
    "latin-1": lambda text: text.encode("latin-1", "replace"),
    "cp1252": lambda text: text.encode("cp1252", "replace"),
    "cut": lambda text: text.encode("utf-8", "surrogatepass")[: len(text) // 2],
    "junk first": lambda text: b"\xff\xfe\x00" + text.encode("utf-8", "surrogatepass"),
}


def multipart(parts: list[tuple[str, str | None, bytes]], boundary: str = "kt-fuzz-boundary") -> bytes:
    """A multipart/form-data body of (field, filename or None, content) parts."""
    out = b""
    for field, filename, content in parts:
        disposition = f'form-data; name="{field}"' + (f'; filename="{filename}"' if filename is not None else "")
        out += (f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
                "Content-Type: application/json\r\n\r\n").encode() + content + b"\r\n"
    return out + f"--{boundary}--\r\n".encode()


def imported_or_refused(ledger, answer, importable: bool) -> None:
    """The import form's answer: a new table (303) for what is to be imported, else a refusal."""
    if importable:
        assert answer.status == 303, answer
        ledger.accepted()
    else:
        ledger.refused(answer)


def import_file(browser: Browser, name: str, raw: bytes):
    """The start page's import form with a file: the answer, and the file as the server reads it."""
    answer = browser.send("POST", "/import", [
        ("Content-Type", "multipart/form-data; boundary=kt-fuzz-boundary"), ("X-CSRFToken", browser.csrf)],
        multipart([("file", name, raw)]))
    return answer, strict_json(raw)


def import_pasted(browser: Browser, text: str):
    """The import form with pasted text: the answer, and the text as the server reads it."""
    answer = browser.send("POST", "/import", [
        ("Content-Type", "application/x-www-form-urlencoded"), ("X-CSRFToken", browser.csrf)],
        form_body([("record", text)]))
    return answer, strict_json(as_received(text))


def test_record_files_and_pasted_records_are_refused_or_imported(ledger_for, live_server, record_property):
    """The import form as the start page sends it: a file (any encoding) or pasted text."""
    browser = Browser(live_server.url)
    assert browser.open("/").status == 200 and browser.csrf
    ledger = ledger_for([])
    samples = st.sampled_from(["", "{", "null", "[]", '{"format": 1}', "\ufeff{}"]) | odd_text

    @fuzz_settings(1000)
    @given(st.data(), st.sampled_from(sorted(ENCODINGS)), st.sampled_from(["file", "file", "paste"]))
    def upload(data, encoding, how):
        draw = data.draw
        text = draw(samples) if draw(st.integers(0, 9)) == 0 else json_text(mutated_record(draw), draw)
        if how == "file":
            raw = ENCODINGS[encoding](text)
            answer, record = import_file(browser, draw(st.sampled_from(["record.json", "x", "ä.json"])), raw)
        else:
            answer, record = import_pasted(browser, text)
        if record is NO_JSON:
            ledger.refused(answer)
            return
        refusal, web_refuses = record_verdict(record)
        imported_or_refused(ledger, answer, refusal is None and not web_refuses)

    upload()
    browser.close()
    ledger.done(1000, record_property)


def night_verdict(data) -> bool:
    """Whether ``data`` (sent to the import form) is to be imported: a night file of
    1 to NIGHT_GAMES_MAX games whose every record is valid, or else a valid record."""
    if not (isinstance(data, dict) and data.get("format") == NIGHT_FORMAT):
        refusal, web_refuses = record_verdict(data)
        return refusal is None and not web_refuses
    games = data.get("games")
    if not isinstance(games, list) or not 1 <= len(games) <= NIGHT_GAMES_MAX:
        return False
    for game in games:
        refusal, web_refuses = record_verdict(game.get("record") if isinstance(game, dict) else None)
        if refusal is not None or web_refuses:
            return False
    return True


def mutated_night(draw, records=records_to_mutate()) -> dict:
    """A night file of valid records (some finished), one of its parts mutated."""
    chosen = draw(st.lists(st.sampled_from(records), min_size=1, max_size=3))
    night = {"format": NIGHT_FORMAT, "exported": "2026-12-02T20:00:00+01:00",
             "games": [{"record": record, "summary": {"game": record["game"]}} for record in chosen]}
    how = draw(st.sampled_from(["record", "record", "anywhere", "games", "format", "none", "many"]))
    if how == "record":
        index = draw(st.integers(0, len(chosen) - 1))
        night["games"][index] = {"record": mutated_record(draw)}
    elif how == "anywhere":
        night = mutate(night, draw)
    elif how == "games":
        night["games"] = draw(wild_values)
    elif how == "format":
        night["format"] = draw(wild_values | st.just("kartentisch-night/2"))
    elif how == "many":
        night["games"] = night["games"][:1] * draw(st.sampled_from([NIGHT_GAMES_MAX, NIGHT_GAMES_MAX + 1]))
    return night


def test_night_files_are_imported_whole_or_refused_changing_nothing(ledger_for, live_server, record_property):
    """A night file through the import form: imported whole when every record is valid
    (and there are not too many), else refused with a reason and nothing made."""
    browser = Browser(live_server.url)
    assert browser.open("/").status == 200 and browser.csrf
    ledger = ledger_for([])

    @fuzz_settings(400)
    @given(st.data(), st.sampled_from(["file", "paste"]))
    def upload(data, how):
        text = json_text(mutated_night(data.draw), data.draw)
        if how == "file":
            answer, night = import_file(browser, "abend.json", text.encode("utf-8", "surrogatepass"))
        else:
            answer, night = import_pasted(browser, text)
        imported_or_refused(ledger, answer, night is not NO_JSON and night_verdict(night))

    upload()
    browser.close()
    ledger.done(400, record_property)


def finished_table(wire: Wire, live_server) -> tuple[object, Browser]:
    """A table whose game is over (a whole random game imported), and a phone at seat 0."""
    subject = import_subject(wire, "cubirds", 10_000)
    browser = Browser(live_server.url)
    assert browser.open(urlsplit(subject.seat_url).path).status == 200 and browser.csrf
    return subject, browser


def test_rematch_options_are_refused_as_the_engine_refuses_them(ledger_for, live_server, wire, record_property):
    subject, browser = finished_table(wire, live_server)
    ledger = ledger_for([subject.id])
    players = list(subject.record["players"])

    @fuzz_settings(400)
    @given(st.data())
    def rematch(data):
        nonlocal subject, browser
        text = json_text(data.draw(options), data.draw) if data.draw(st.integers(0, 9)) else data.draw(odd_text)
        received = as_received(text)
        chosen = strict_json(received) if received else None
        answer = browser.post_form(f"/t/{subject.id}/rematch", [("options", text)])
        if chosen is NO_JSON:
            ledger.refused(answer, "bad-json")
            return
        refusal = False if not isinstance(chosen, (dict, type(None))) else engine_verdict(
            lambda: new_game("cubirds", subject.record["options"] if chosen is None else chosen, players))
        if refusal is None:
            assert answer.status == 303, answer
            ledger.accepted()
            browser.close()
            subject, browser = finished_table(wire, live_server)  # a rematch exists now: the next at a new table
            ledger.watch(subject.id)
        else:
            ledger.refused(answer)

    rematch()
    browser.close()
    ledger.done(400, record_property)


KNOWN = [  # inputs that crashed the engine's header validation once (a 500 through the API)
    ("gemeinsame-sache", {"level": [1]}),
    ("gemeinsame-sache", {"level": {"a": 1}}),
    ("gemeinsame-sache", {"draw_pile": [22]}),
    ("cubirds", {"solo": True, "robin_bonus": [["duck"]]}),
    ("cubirds", {"solo": True, "robin_bonus": [{}]}),
    ("gleich-und-gleich", {"solo": True, "robin_bonus": [[]]}),
    ("cubirds", {"solo": True, "robin_bonus": "duck"}),
    ("cubirds", {"solo": True, "robin_handicap": [1]}),
    ("gemeinsame-sache", {"level": json.loads("[" * 15 + "]" * 15)}),  # (within client_json.DEPTH_MAX)
]


@pytest.mark.parametrize("game, chosen", KNOWN, ids=[json.dumps(options) for _game, options in KNOWN])
def test_options_that_crashed_the_engine_are_refused_by_name(ledger_for, live_server, wire, game, chosen):
    refusal = engine_verdict(lambda: game_class(game).validate_options(dict(chosen)))
    assert refusal is not None
    ledger = ledger_for([])
    ledger.refused(wire.post_json("/api/tables", {"game": game, "options": chosen, "name": "Anna"}), refusal.code)
    record = random_record(game, {"solo": True} if "robin_bonus" in chosen else {}, 2, 1)
    record = dict(record, options=chosen, players=["Anna", "RobinBird" if "robin_bonus" in chosen else "Ben"],
                  events=record["events"][:3])
    ledger.refused(wire.post_json("/api/tables", {"record": record}), refusal.code)
