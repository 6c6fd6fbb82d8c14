"""Fuzzing the JSON API through real HTTP: events, bodies, names, keys, versions,
tokens and table ids for every route (options and whole records: test_fuzz_records.py).

Each input is sent to the live server and must be refused with a 4xx that names
what was wrong (the engine's own code for an event it refuses), never a 5xx, and
leave the database as it was (every row of the tables at hand, and the row counts).
An event is given to the engine here first: legal ones are not sent, and an engine
crash fails the test (see fuzzing.py). Sizes: ``KT_FUZZ_SCALE`` (1 = the full run).
"""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import assume, given, strategies as st

from fuzzing import (
    NO_JSON, engine_verdict, fuzz_settings, import_subject, json_text, lobby_subject, mutate, name_ok, names,
    odd_text, strict_json, wild_values)

GAME_KINDS = [("gleich-und-gleich", 12), ("cubirds", 9), ("solo", 6), ("gemeinsame-sache", 10)]
keys = st.none() | st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=64)


@pytest.mark.parametrize("kind, at", GAME_KINDS, ids=[kind for kind, _ in GAME_KINDS])
def test_mutated_events_are_refused_as_the_engine_refuses_them(ledger_for, live_server, wire, record_property, kind, at):
    subject = import_subject(wire, kind, at)
    ledger = ledger_for([subject.id])

    @fuzz_settings(1200)
    @given(st.data())
    def entry(data):
        event = mutate(data.draw(st.sampled_from(subject.upcoming)), data.draw) if data.draw(st.integers(0, 5)) \
            else data.draw(wild_values)
        text, key = json_text(event, data.draw), data.draw(keys)
        body = f'{{"event": {text}, "version": {at}' + ("" if key is None else f', "key": {json.dumps(key)}') + "}"
        sent = strict_json(body)  # (the event one level down: the body's depth counts)
        if sent is NO_JSON:
            code = "bad-json"
        else:
            refusal = engine_verdict(lambda: subject.game.apply(sent["event"]), undo=subject.game.undo)
            assume(refusal is not None)  # a legal event is no bad input
            code = refusal.code
        ledger.refused(wire.post_json(f"/api/tables/{subject.id}/events", body, subject.token), code)

    entry()
    ledger.done(1200, record_property)


API_ROUTES = [  # (method, path, the body's fields)
    ("POST", "/api/tables", ["game", "name"]),
    ("POST", "/api/tables/{id}/seats", ["join_code", "name"]),
    ("POST", "/api/tables/{id}/seats/order", ["seat", "offset"]),
    ("DELETE", "/api/tables/{id}/seats/{position}", []),
    ("POST", "/api/tables/{id}/seats/{position}/token", []),
    ("POST", "/api/tables/{id}/start", []),
    ("POST", "/api/tables/{id}/events", ["event", "version", "key"]),
    ("POST", "/api/tables/{id}/undo", ["version", "key"]),
    ("GET", "/api/tables/{id}", []),
    ("GET", "/api/tables/{id}/state", []),
    ("GET", "/api/tables/{id}/record", []),
]
GAME_NAMES = ["gleich-und-gleich", "cubirds", "gemeinsame-sache"]


def test_random_requests_to_every_api_route_are_refused_with_a_reason(ledger_for, live_server, wire, record_property):
    """A started table (3 seats, 12 events in) and a lobby of one seat, which can't
    start, move or lose its seat: every route, any table id, token and body."""
    started = import_subject(wire, "gleich-und-gleich", 12)
    lobby = lobby_subject(wire)
    tables = {"started": started, "lobby": lobby}
    ledger = ledger_for([started.id, lobby.id])
    seats = {"started": 3, "lobby": 1}
    fields = {
        "game": st.sampled_from(GAME_NAMES) | wild_values,
        "name": names | wild_values,
        "join_code": st.sampled_from([lobby.join_code, lobby.join_code.lower(), f" {lobby.join_code} ",
                                      started.join_code]) | odd_text | wild_values,
        "seat": st.integers(-2, 4) | wild_values, "offset": st.sampled_from([-1, 1, 0, 2, True]) | wild_values,
        "event": st.sampled_from(started.upcoming) | wild_values,
        "version": st.sampled_from([12, 0, 11, 13, -1, True, 12.0, "12"]) | wild_values, "key": keys | wild_values,
    }

    @fuzz_settings(4500)
    @given(st.data(), st.sampled_from(API_ROUTES), st.sampled_from(["started", "lobby", "elsewhere"]),
           st.sampled_from(["own", "other", "random", "none", "scheme"]))
    def request(data, route, where, auth):
        method, path, names_in_body = route
        draw = data.draw
        table = tables.get(where)
        table_id = table.id if table else draw(odd_text).replace("/", "")
        position = draw(st.integers(0, 3) | st.sampled_from(["-1", "x", str(2 ** 70)]))
        target = path.format(id=quote(table_id.encode("utf-8", "surrogatepass"), safe="") or "x", position=position)
        token = {"own": table.token if table else started.token,
                 "other": (lobby if table is started else started).token,
                 "random": draw(st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=50)),
                 "none": None, "scheme": None}[auth]
        headers = [("Authorization", draw(st.sampled_from(["Basic eA==", "Bearer", "Bearer  ", "bearer x", "x"])))] \
            if auth == "scheme" else []
        shape = draw(st.sampled_from(["fields", "fields", "fields", "value", "bytes"]))
        if shape == "fields":
            body = {name: draw(fields[name]) for name in names_in_body if draw(st.integers(0, 5))}
            text = json_text(body, draw)
        elif shape == "value":
            text = json_text(draw(wild_values), draw)
        else:
            text = draw(st.binary(max_size=200))
        value = strict_json(text)
        authorised = table is not None and auth == "own"
        assume(not valid(method, path, where, authorised, value, position, seats, lobby, started))
        answer = wire.send(method, target, [("Content-Type", "application/json"), *headers,
                                            *([("Authorization", f"Bearer {token}")] if token else [])],
                           text if method != "GET" else b"")
        if method == "GET" and authorised and not (where == "lobby" and path != "/api/tables/{id}"):
            ledger.answered(answer)
            assert answer.status == 200, answer
        else:
            ledger.refused(answer)

    request()
    ledger.done(4500, record_property)


def valid(method, path, where, authorised, body, position, seats, lobby, started) -> bool:
    """Whether the request is one the server must carry out (then it is not sent:
    it would change the tables at hand); GETs are answered, not carried out."""
    if method == "GET":
        return False
    is_object = isinstance(body, dict)
    if path == "/api/tables":
        return is_object and body.get("game") in GAME_NAMES and name_ok(body.get("name"))
    if path.endswith("/seats"):
        code = body.get("join_code") if is_object else None
        return (where == "lobby" and isinstance(code, str) and code.strip().upper() == lobby.join_code
                and name_ok(body.get("name")))
    if not authorised:
        return False
    if path.endswith("/token"):
        return isinstance(position, int) and position < seats[where]
    if path.endswith(("/events", "/undo")):
        if where != "started" or not is_object or type(body.get("version")) is not int or body["version"] != 12:
            return False
        key = body.get("key")
        if key is not None and not (isinstance(key, str) and 1 <= len(key) <= 64 and key.isprintable()):
            return False
        return path.endswith("/undo") or ("event" in body and started.legal(body["event"]))
    return False  # order, remove, start: the lobby's one seat can't move, go or start; the started table is fixed


@pytest.mark.parametrize("game", GAME_NAMES)
def test_known_bad_bodies_are_refused_with_what_is_wrong(ledger_for, live_server, wire, game):
    """Deep nesting, numbers JSON has no place for, half characters and wrong encodings, each by name."""
    subject = import_subject(wire, game, 8)
    ledger = ledger_for([subject.id])
    event = json.dumps(subject.upcoming[0])[:-1]  # (open: a field is added)
    for expected, body in [
        ("tief", '{"event": ' + "[" * 5000 + "]" * 5000 + ', "version": 8}'),
        ("tief", '{"version": 8, "event": ' + event + ', "x": ' + "[" * 100 + "]" * 100 + "}}"),
        ("Zahl", '{"version": 8, "event": ' + event + ', "x": NaN}}'),
        ("Zahl", '{"version": 8, "event": ' + event + ', "x": -Infinity}}'),
        ("Zahl", '{"version": 8, "event": ' + event + ', "x": 1e400}}'),
        ("ungültigen Zeichen", '{"version": 8, "event": ' + event + ', "x": "\\ud800"}}'),
        ("JSON-Objekt", b'{"version": 8, "event": {"type": "\xff"}}'),
    ]:
        answer = wire.post_json(f"/api/tables/{subject.id}/events", body, subject.token)
        assert expected in ledger.refused(answer, "bad-json"), answer
    # more digits than Python reads: a number beyond the engine's bounds, refused by its field
    body = '{"version": 8, "event": ' + event + ', "n": ' + "9" * 5000 + "}}"
    reason = ledger.refused(wire.post_json(f"/api/tables/{subject.id}/events", body, subject.token))
    assert reason == "Feld 'event.n': die Zahl ist zu groß", reason
