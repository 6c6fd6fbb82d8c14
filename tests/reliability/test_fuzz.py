"""Fuzzing: random and mutated input to the JSON API and the forms.

Each request must be answered with a 4xx and a reason (JSON ``error``, or the
page's ``<p class="error">``), never a 500, and leave the table as it was.
Inputs that happen to be valid (a mutated event the engine accepts, a random
body that is a proper new table) are recognised by the engine or the answer
and skipped or allowed explicitly. ``KT_FUZZ_EXAMPLES`` (per test) sets the
size; the default makes 10,400 inputs over the 8 tests.
"""
from __future__ import annotations

import json
import os
import re

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, assume, given, settings, strategies as st

from engine import IllegalEvent, new_game
from engine.randomplay import random_record
from webapp.extensions import db
from webapp.models import Event, Table

EXAMPLES = int(os.environ.get("KT_FUZZ_EXAMPLES", "1300"))
GAME, PLAYERS, AT = "gleich-und-gleich", ["Anna", "Ben", "Carla"], 12  # the table stands after 12 events
REASON = re.compile(r'<p class="error" role="alert">\s*([^<\s][^<]*)</p>')

json_scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=30)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
form_text = st.text(max_size=60) | st.sampled_from(["", "0", "-1", "12", "1e9", "null", "{}", "[]", '{"type": "x"}'])


def fuzz_settings(examples: int = EXAMPLES):
    return settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate, Phase.shrink],
                    suppress_health_check=list(HealthCheck))


class FuzzTable:
    """A started table after ``AT`` events, its tokens, and the engine as oracle."""

    def __init__(self, app, client, new_table):
        self.record = random_record(GAME, {}, len(PLAYERS), 11)
        self.table = new_table(GAME, PLAYERS)
        for version, event in enumerate(self.record["events"][:AT]):
            entered = client.post(f"/api/tables/{self.table.id}/events", headers=self.table.auth(),
                                  json={"event": event, "version": version})
            assert entered.status_code == 200, entered.json
        self.app, self.client = app, client
        self.game = new_game(GAME, {}, PLAYERS)
        for event in self.record["events"][:AT]:
            self.game.apply(event)
        self.before = self.snapshot()
        self.state = self.client.get(f"/api/tables/{self.table.id}/state", headers=self.table.auth()).json
        self.sent = 0

    def snapshot(self) -> tuple:
        """The table's row and its event rows (the state is their replay)."""
        with self.app.app_context():
            row = db.session.execute(sa.select(Table.version, Table.revision, Table.status)
                                     .where(Table.id == self.table.id)).one()
            events = db.session.execute(sa.select(sa.func.count(), sa.func.max(Event.seq))
                                        .where(Event.table_id == self.table.id)).one()
        return tuple(row), tuple(events)

    def unchanged_at_the_end(self) -> None:
        """After all examples: the same state through the API, and each one was counted."""
        assert self.client.get(f"/api/tables/{self.table.id}/state", headers=self.table.auth()).json == self.state
        assert self.sent >= EXAMPLES, f"only {self.sent} inputs were sent"

    def legal(self, event) -> bool:
        """Whether the engine would accept ``event`` here (then it is no bad input)."""
        try:
            self.game.apply(event)
        except IllegalEvent:
            return False
        except Exception:  # an engine crash on odd input counts as "refused": the server must say 422
            return False
        self.game.undo()
        return True

    def refused(self, response) -> str:
        """Assert a 4xx with a reason and the table unchanged; return the reason."""
        self.sent += 1
        assert 400 <= response.status_code < 500, (response.status_code, response.get_data(as_text=True)[:500])
        if response.is_json:
            reason = response.json.get("error")
        else:
            found = REASON.search(response.get_data(as_text=True))
            reason = found and found.group(1)
        assert isinstance(reason, str) and reason.strip(), f"no reason in {response.get_data(as_text=True)[:300]}"
        assert self.snapshot() == self.before, "a refused input changed the table"
        return reason


@pytest.fixture
def fuzz_table(app, client, new_table) -> FuzzTable:
    return FuzzTable(app, client, new_table)


def mutate(event: dict, data) -> dict:
    """One mutation of a legal event: a value replaced, a key dropped or added."""
    mutated = json.loads(json.dumps(event))
    keys = sorted(mutated)
    how = data.draw(st.sampled_from(["replace", "drop", "add", "nested"]))
    if how == "replace":
        mutated[data.draw(st.sampled_from(keys))] = data.draw(json_values)
    elif how == "drop":
        del mutated[data.draw(st.sampled_from(keys))]
    elif how == "add":
        mutated[data.draw(st.text(min_size=1, max_size=12))] = data.draw(json_values)
    else:
        key = data.draw(st.sampled_from(keys))
        value = mutated[key]
        if isinstance(value, list) and value:
            value[data.draw(st.integers(0, len(value) - 1))] = data.draw(json_values)
        elif isinstance(value, dict) and value:
            value[data.draw(st.sampled_from(sorted(value)))] = data.draw(json_values)
        else:
            mutated[key] = [value, data.draw(json_values)]
    return mutated


def test_mutated_events_are_refused_with_a_reason(fuzz_table):
    table = fuzz_table
    next_events = table.record["events"][AT:AT + 6]

    @fuzz_settings()
    @given(st.data())
    def entry(data):
        event = mutate(data.draw(st.sampled_from(next_events)), data)
        assume(not table.legal(event))
        table.refused(table.client.post(f"/api/tables/{table.table.id}/events", headers=table.table.auth(),
                                        json={"event": event, "version": AT, "key": data.draw(st.text(max_size=64))}))

    entry()
    table.unchanged_at_the_end()


def test_random_api_bodies_are_refused_with_a_reason(fuzz_table):
    table = fuzz_table

    @fuzz_settings()
    @given(st.sampled_from(["events", "undo"]), json_values | st.dictionaries(
        st.sampled_from(["event", "version", "key"]), json_values, max_size=3))
    def body(route, data):
        if route == "undo":
            assume(not (isinstance(data, dict) and data.get("version") == AT and not isinstance(data.get("version"), bool)))
        if route == "events" and isinstance(data, dict) and "event" in data:
            assume(not table.legal(data["event"]))
        table.refused(table.client.post(f"/api/tables/{table.table.id}/{route}", headers=table.table.auth(),
                                        json=data))

    body()
    table.unchanged_at_the_end()


def test_random_bytes_urls_and_tokens_are_refused(fuzz_table):
    table = fuzz_table
    routes = ["events", "undo", "start", "seats", "seats/order"]  # (a new seat token needs no body)

    @fuzz_settings()
    @given(st.sampled_from(routes), st.binary(max_size=200), st.text(max_size=40),
           st.sampled_from(["own", "none", "random"]))
    def request(route, raw, table_id, token):
        headers = {"Content-Type": "application/json"}
        if token == "own":
            headers.update(table.table.auth())
        elif token == "random":
            headers["Authorization"] = "Bearer " + raw.hex()[:40]
        target = table.table.id if token == "own" and not table_id else table_id.replace("/", "")
        if token == "own" and target == table.table.id:
            assume(not _is_json_object(raw))
        table.refused(table.client.post(f"/api/tables/{target or 'x'}/{route}", data=raw, headers=headers))

    request()
    table.unchanged_at_the_end()


def _is_json_object(raw: bytes) -> bool:
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return False


def test_random_new_tables_and_joins_are_refused_or_valid(fuzz_table, new_table):
    table = fuzz_table
    lobby = new_table(GAME, ["Anna"], start=False)
    games = st.sampled_from([GAME, "cubirds", "gemeinsame-sache"]) | json_values

    @fuzz_settings()
    @given(st.booleans(), games, json_values, json_values | st.text(max_size=60))
    def create_or_join(joining, game, options, name):
        if joining:
            body = {"join_code": game if isinstance(game, str) else options, "name": name}
            response = table.client.post(f"/api/tables/{lobby.id}/seats", json=body)
            assume(response.status_code != 201)  # (a right join code is practically never drawn)
        else:
            response = table.client.post("/api/tables", json={"game": game, "options": options, "name": name})
            if response.status_code == 201:  # a valid new table: no refusal expected
                table.sent += 1
                return
        table.refused(response)

    create_or_join()
    seats = table.client.get(f"/api/tables/{lobby.id}", headers=lobby.auth()).json["seats"]
    assert [seat["name"] for seat in seats] == ["Anna"], "a refused join added a seat"
    table.unchanged_at_the_end()


@pytest.fixture
def seated(app, fuzz_table):
    """A browser-like client holding seat 0 of the fuzz table (CSRF is off in the test app)."""
    phone = app.test_client()
    link = phone.post(f"/api/tables/{fuzz_table.table.id}/seats/0/token", headers=fuzz_table.table.auth()).json
    fuzz_table.table.tokens[0] = link["token"]
    assert phone.get(link["seat_url"]).status_code == 302
    fuzz_table.client = phone
    fuzz_table.before = fuzz_table.snapshot()
    return fuzz_table


def test_random_entry_forms_are_refused_with_a_reason(seated):
    table = seated
    next_events = table.record["events"][AT:AT + 6]

    @fuzz_settings()
    @given(st.data(), st.sampled_from(["event", "undo"]), st.booleans())
    def form(data, route, with_htmx):
        if route == "event":
            fields = {"event": data.draw(form_text | st.builds(
                lambda event: json.dumps(mutate(event, data)), st.sampled_from(next_events))),
                "version": data.draw(form_text | st.just(str(AT))), "key": data.draw(form_text)}
            try:
                event = json.loads(fields["event"])
            except ValueError:
                event = None
            assume(event is None or not table.legal(event) or fields["version"].strip() != str(AT))
        else:
            fields = {"version": data.draw(form_text), "key": data.draw(form_text)}
            assume(fields["version"].strip().lstrip("+") != str(AT))
        headers = {"HX-Request": "true"} if with_htmx else {}
        table.refused(table.client.post(f"/t/{table.table.id}/{route}", data=fields, headers=headers))

    form()
    table.unchanged_at_the_end()


def test_random_start_join_and_import_forms_are_refused_or_valid(app, seated, new_table):
    table = seated
    lobby = new_table(GAME, ["Anna"], start=False)
    join_code = table.client.get(f"/api/tables/{lobby.id}", headers=lobby.auth()).json["join_code"]

    @fuzz_settings()
    @given(st.sampled_from(["create", "join", "import"]), form_text, form_text, form_text)
    def form(kind, first, second, third):
        if kind == "create":
            response = table.client.post("/tables", data={"game": first, "name": second, "solo": third})
        elif kind == "join":
            name = first + second
            response = app.test_client().post(f"/j/{join_code}", data={"name": name})
            if response.status_code == 303:  # a valid name, and a seat was free
                assert 1 <= len(name.strip()) <= 40, f"the name {name!r} got a seat"
                table.sent += 1
                return
        else:
            response = table.client.post("/import", data={"record": first + second + third})
        if kind == "create" and response.status_code == 303:  # a valid new table
            table.sent += 1
            return
        table.refused(response)

    form()
    table.unchanged_at_the_end()


def test_random_lobby_forms_are_refused_with_a_reason(app, new_table, fuzz_table):
    table = fuzz_table
    lobby = new_table(GAME, ["Anna"], start=False)
    phone = app.test_client()
    link = phone.post(f"/api/tables/{lobby.id}/seats/0/token", headers=lobby.auth()).json
    lobby.tokens[0] = link["token"]
    phone.get(link["seat_url"])

    def seats():
        return table.client.get(f"/api/tables/{lobby.id}", headers=lobby.auth()).json["seats"]

    before = seats()

    @fuzz_settings()
    @given(st.sampled_from(["move", "remove", "start"]), form_text, form_text)
    def form(route, seat, direction):
        response = phone.post(f"/t/{lobby.id}/seats/{route}" if route != "start" else f"/t/{lobby.id}/start",
                              data={"seat": seat, "direction": direction})
        table.refused(response)  # one seat only: nothing can move, go or start (3 players needed)
        assert seats() == before

    form()
    table.unchanged_at_the_end()


def test_random_paths_are_refused_with_a_reason(fuzz_table):
    table = fuzz_table
    safe = st.text(st.characters(codec="ascii", exclude_characters="/?#%\\", min_codepoint=33), min_size=1, max_size=30)

    @fuzz_settings()
    @given(st.sampled_from(["/t/{}", "/t/{}/sync", "/t/{}/record.json", "/t/{}/qr.svg", "/j/{}",
                            "/api/tables/{}/state", "/api/tables/{}/record", "/t/{}/s/{}"]), safe, safe)
    def visit(path, first, second):
        assume(first != table.table.id)
        table.refused(table.client.get(path.format(first, second), headers=table.table.auth()))

    visit()
    table.unchanged_at_the_end()
