"""Every route of the JSON API, with its refusals (docs/api.md)."""
from __future__ import annotations

import copy

import pytest

from engine import replay

from .conftest import random_events


def post_event(client, table, event, version, key=None, seat=0):
    body = {"event": event, "version": version}
    if key is not None:
        body["key"] = key
    return client.post(f"/api/tables/{table.id}/events", json=body, headers=table.auth(seat))


def test_create_answers_ids_urls_and_seat_zero(client):
    made = client.post("/api/tables", json={"game": "gleich-und-gleich", "options": {"fast": True}, "name": "Anna"})
    assert made.status_code == 201
    body = made.json
    assert body["seat"] == 0
    assert len(body["id"]) >= 22 and len(body["token"]) >= 43  # ≥128 and ≥256 bits
    assert len(body["join_code"]) == 6
    assert body["join_url"].endswith(f"/j/{body['join_code']}")
    assert body["seat_url"].endswith(f"/t/{body['id']}/s/{body['token']}")


@pytest.mark.parametrize("body, code", [
    ({"game": "skat", "name": "Anna"}, "unknown-game"),
    ({"game": "cubirds", "options": {"turbo": True}, "name": "Anna"}, None),
    ({"game": "cubirds", "options": [], "name": "Anna"}, "bad-options"),
    ({"game": "cubirds", "name": ""}, "bad-name"),
    ({"game": "cubirds", "name": "x" * 41}, "bad-name"),
    ({"game": 7, "name": "Anna"}, "bad-game"),
])
def test_create_refuses_bad_input_with_a_reason(client, body, code):
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 422
    assert refused.json["error"]
    if code:
        assert refused.json["code"] == code


def test_create_refuses_a_body_that_is_not_a_json_object(client):
    for data in (b"not json", b"[1, 2]"):
        refused = client.post("/api/tables", data=data, content_type="application/json")
        assert refused.status_code == 400 and refused.json["code"] == "bad-json"


def test_a_number_too_large_for_python_is_refused_naming_its_field(client):
    """An integer of more digits than Python reads (4300) is "too large" by its field,
    not "no JSON object" (#13 point 4)."""
    huge = "9" * 5000
    record = '{"game": "cubirds", "players": ["A", "B"], "events": [{"type": "setup", "n": %s}]}' % huge
    imported = client.post("/api/tables", data='{"name": "Anna", "record": %s}' % record,
                           content_type="application/json")
    assert imported.status_code == 422
    assert imported.json["error"] == "Feld 'events[0].n': die Zahl ist zu groß"
    options = '{"solo": true, "robin_handicap": -%s}' % huge
    made = client.post("/api/tables", data='{"game": "cubirds", "name": "Anna", "options": %s}' % options,
                       content_type="application/json")
    assert made.status_code == 422
    assert made.json["error"] == 'Option "robin_handicap" muss 0 bis 8 sein, nicht <a number of 16607 bits>'


def test_join_gives_the_next_seat_and_checks_the_code(client, new_table):
    table = new_table(names=("Anna",), start=False)
    wrong = client.post(f"/api/tables/{table.id}/seats", json={"join_code": "AAAAAA", "name": "Ben"})
    assert wrong.status_code == 404
    joined = client.post(f"/api/tables/{table.id}/seats", json={"join_code": table.join_code.lower(), "name": "Ben"})
    assert joined.status_code == 201 and joined.json["seat"] == 1
    unknown = client.post("/api/tables/nope/seats", json={"join_code": table.join_code, "name": "Ben"})
    assert unknown.status_code == 404


def test_join_is_refused_when_full_or_started(client, new_table):
    table = new_table(game="gemeinsame-sache", names=("Anna", "Ben"), start=False)
    full = client.post(f"/api/tables/{table.id}/seats", json={"join_code": table.join_code, "name": "Carla"})
    assert full.status_code == 409 and full.json["code"] == "table-full"
    client.post(f"/api/tables/{table.id}/start", headers=table.auth())
    late = client.post(f"/api/tables/{table.id}/seats", json={"join_code": table.join_code, "name": "Dora"})
    assert late.status_code == 409


def test_solo_seats_robinbird_itself(client, new_table):
    table = new_table(game="cubirds", names=("Anna",), options={"solo": True})
    info = client.get(f"/api/tables/{table.id}", headers=table.auth()).json
    assert info["players"] == ["Anna", "RobinBird"]
    assert [s["name"] for s in info["seats"]] == ["Anna"]


def test_start_enforces_the_player_count(client, new_table):
    table = new_table(names=("Anna",), start=False)
    refused = client.post(f"/api/tables/{table.id}/start", headers=table.auth())
    assert refused.status_code == 409 and refused.json["code"] == "player-count"
    assert client.get(f"/api/tables/{table.id}", headers=table.auth()).json["status"] == "lobby"


def test_reorder_and_remove_seats_before_the_start(client, new_table):
    table = new_table(names=("Anna", "Ben", "Carla"), start=False)
    moved = client.post(f"/api/tables/{table.id}/seats/order", json={"seat": 2, "offset": -1}, headers=table.auth())
    assert [s["name"] for s in moved.json["seats"]] == ["Anna", "Carla", "Ben"]
    edge = client.post(f"/api/tables/{table.id}/seats/order", json={"seat": 0, "offset": -1}, headers=table.auth())
    assert edge.status_code == 422 and edge.json["code"] == "cannot-move"
    removed = client.delete(f"/api/tables/{table.id}/seats/1", headers=table.auth())
    assert [s["name"] for s in removed.json["seats"]] == ["Anna", "Ben"]
    assert client.post(f"/api/tables/{table.id}/start", headers=table.auth()).json["players"] == ["Anna", "Ben"]
    late = client.post(f"/api/tables/{table.id}/seats/order", json={"seat": 1, "offset": -1}, headers=table.auth())
    assert late.status_code == 409 and late.json["code"] == "already-started"


def test_a_removed_seat_loses_access(client, new_table):
    table = new_table(names=("Anna", "Ben"), start=False)
    client.delete(f"/api/tables/{table.id}/seats/1", headers=table.auth())
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth(1)).status_code == 403


def test_new_token_replaces_the_old_one(client, new_table):
    table = new_table(names=("Anna", "Ben"))
    renewed = client.post(f"/api/tables/{table.id}/seats/1/token", headers=table.auth(0))
    assert renewed.status_code == 200 and renewed.json["seat"] == 1
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth(1)).status_code == 403
    fresh = {"Authorization": f"Bearer {renewed.json['token']}"}
    assert client.get(f"/api/tables/{table.id}/state", headers=fresh).status_code == 200


@pytest.mark.parametrize("method, path", [
    ("get", ""), ("get", "/state"), ("get", "/record"), ("post", "/events"), ("post", "/undo"),
    ("post", "/start"), ("post", "/seats/order"), ("delete", "/seats/1"), ("post", "/seats/0/token"),
])
def test_every_seat_route_checks_the_token(client, new_table, method, path):
    table = new_table(names=("Anna", "Ben"), start=False)
    other = new_table(names=("Xena", "Yuri"), start=False)
    call = getattr(client, method)
    url = f"/api/tables/{table.id}{path}"
    assert call(url, json={}).status_code == 401
    assert call(url, json={}, headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert call(url, json={}, headers=other.auth()).status_code == 404
    assert call(f"/api/tables/unknown{path}", json={}, headers=table.auth()).status_code == 404
    assert client.get(f"/api/tables/{table.id}", headers=table.auth()).json["status"] == "lobby"


def test_events_follow_the_engine_and_version_counts(client, new_table):
    table = new_table(names=("Anna", "Ben", "Carla"))
    events = random_events("gleich-und-gleich", 3, seed=5)[:6]
    for version, event in enumerate(events):
        answer = post_event(client, table, event, version, key=f"k{version}", seat=version % 3)
        assert answer.status_code == 200, answer.json
        assert answer.json["version"] == version + 1
    expected = replay({"game": "gleich-und-gleich", "players": ["Anna", "Ben", "Carla"], "events": events})
    state = client.get(f"/api/tables/{table.id}/state", headers=table.auth(2)).json
    assert state == {"version": 6, "state": expected.state()}


def test_stale_version_is_409_with_the_current_state(client, new_table):
    table = new_table(names=("Anna", "Ben"))
    setup, second = random_events("gleich-und-gleich", 2, seed=3)[:2]
    assert post_event(client, table, setup, 0).status_code == 200
    stale = post_event(client, table, second, 0)
    assert stale.status_code == 409
    assert stale.json["version"] == 1 and stale.json["state"]["awaiting"] == "play"
    assert stale.json["code"] == "stale-version" and stale.json["error"].startswith("Gerade hat jemand anderes")


def test_illegal_event_is_422_and_changes_nothing(client, new_table):
    table = new_table(names=("Anna", "Ben"))
    setup = random_events("gleich-und-gleich", 2, seed=3)[0]
    post_event(client, table, setup, 0)
    before = client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json
    refused = post_event(client, table, {"type": "play", "cards": ["K"], "row": 9, "side": "left"}, 1)
    assert refused.status_code == 422
    assert refused.json["code"] and refused.json["error"]
    untyped = post_event(client, table, {"cards": []}, 1)
    assert untyped.status_code == 422 and untyped.json["code"] == "bad-event"
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json == before


@pytest.mark.parametrize("body, code", [
    ({"version": 0}, "missing-event"),
    ({"event": {"type": "setup"}, "version": "0"}, "bad-version"),
    ({"event": {"type": "setup"}, "version": True}, "bad-version"),
    ({"event": {"type": "setup"}, "version": 0, "key": 5}, "bad-key"),
    ({"event": {"type": "setup"}, "version": 0, "key": "k" * 65}, "bad-key"),
])
def test_malformed_event_bodies_are_400(client, new_table, body, code):
    table = new_table(names=("Anna", "Ben"))
    refused = client.post(f"/api/tables/{table.id}/events", json=body, headers=table.auth())
    assert refused.status_code == 400 and refused.json["code"] == code


def test_events_before_the_start_are_refused(client, new_table):
    table = new_table(names=("Anna", "Ben"), start=False)
    refused = post_event(client, table, {"type": "setup"}, 0)
    assert refused.status_code == 409 and refused.json["code"] == "not-started"


def test_same_key_twice_applies_once_and_answers_the_same(client, new_table):
    table = new_table(names=("Anna", "Ben"))
    setup, play = random_events("gleich-und-gleich", 2, seed=8)[:2]
    first = post_event(client, table, setup, 0, key="tap-1")
    again = post_event(client, table, setup, 0, key="tap-1", seat=1)
    assert first.status_code == again.status_code == 200
    assert first.json == again.json
    post_event(client, table, play, 1, key="tap-2")
    late_retry = post_event(client, table, setup, 0, key="tap-1")
    assert late_retry.json == first.json
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == 2


def test_the_same_key_at_another_table_is_independent(client, new_table):
    one, two = new_table(names=("Anna", "Ben")), new_table(names=("Carla", "Dora"))
    setup = random_events("gleich-und-gleich", 2, seed=8)[0]
    assert post_event(client, one, setup, 0, key="same").json["version"] == 1
    assert post_event(client, two, setup, 0, key="same").json["version"] == 1


def test_undo_takes_back_and_counts_as_a_version(client, new_table):
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=4)[:3]
    for version, event in enumerate(events):
        post_event(client, table, event, version)
    undone = client.post(f"/api/tables/{table.id}/undo", json={"version": 3}, headers=table.auth(1))
    assert undone.status_code == 200 and undone.json["version"] == 4
    expected = replay({"game": "gleich-und-gleich", "players": ["Anna", "Ben"], "events": events[:2]})
    assert undone.json["state"] == expected.state()
    record = client.get(f"/api/tables/{table.id}/record", headers=table.auth()).json
    assert record["events"] == events[:2]
    stale = client.post(f"/api/tables/{table.id}/undo", json={"version": 3}, headers=table.auth())
    assert stale.status_code == 409


def test_undo_with_nothing_to_undo_is_422(client, new_table):
    table = new_table(names=("Anna", "Ben"))
    refused = client.post(f"/api/tables/{table.id}/undo", json={"version": 0}, headers=table.auth())
    assert refused.status_code == 422 and refused.json["code"] == "nothing-to-undo"
    missing = client.post(f"/api/tables/{table.id}/undo", json={}, headers=table.auth())
    assert missing.status_code == 400 and missing.json["code"] == "bad-version"


@pytest.mark.parametrize("game, players, options", [
    ("gleich-und-gleich", 3, {}),
    ("cubirds", 2, {"solo": True}),
    ("gemeinsame-sache", 2, {}),
])
def test_record_export_and_import_round_trip(client, game, players, options):
    record = {"format": "kartentisch-record/1", "game": game, "options": options,
              "players": [f"P{i}" for i in range(players)],
              "events": random_events(game, players, seed=2, options=options)}
    if options.get("solo"):
        record["players"][-1] = "RobinBird"
    made = client.post("/api/tables", json={"record": record})
    assert made.status_code == 201, made.json
    auth = {"Authorization": f"Bearer {made.json['token']}"}
    exported = client.get(f"/api/tables/{made.json['id']}/record", headers=auth).json
    assert exported["events"] == record["events"] and exported["players"] == record["players"]
    state = client.get(f"/api/tables/{made.json['id']}/state", headers=auth).json
    assert state["version"] == len(record["events"])
    assert state["state"] == replay(record).state()


def test_import_refuses_an_illegal_event_naming_its_index(client):
    events = random_events("gleich-und-gleich", 2, seed=6)[:3]
    broken = copy.deepcopy(events)
    broken[2] = {"type": "play", "cards": ["K"], "row": 7, "side": "up"}
    record = {"game": "gleich-und-gleich", "players": ["A", "B"], "events": broken}
    refused = client.post("/api/tables", json={"record": record})
    assert refused.status_code == 422 and refused.json["index"] == 2
    not_a_record = client.post("/api/tables", json={"record": {"game": "cubirds"}})
    assert not_a_record.status_code == 422 and not_a_record.json["code"] == "missing-field"


def test_a_replaced_token_is_refused_after_its_seat_entered(client, new_table):
    """The seat of a token that entered before is known without a read; its next entry
    is still refused once the token no longer holds the seat (C10), and writes nothing."""
    table = new_table(names=("Anna", "Ben"))
    events = random_events("gleich-und-gleich", 2, seed=18)[:2]
    assert post_event(client, table, events[0], 0, seat=1).status_code == 200
    renewed = client.post(f"/api/tables/{table.id}/seats/1/token", headers=table.auth(0))
    refused = post_event(client, table, events[1], 1, seat=1)
    assert refused.status_code == 403
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == 1
    table.tokens[1] = renewed.json["token"]
    assert post_event(client, table, events[1], 1, seat=1).status_code == 200
