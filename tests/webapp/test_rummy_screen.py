"""The Gemeinsame Sache screen through the test client: setup options, the
clock, the picker and the places it offers, the viewer, log sentences."""
from __future__ import annotations

import html
import json
import re

import pytest

from engine import new_game
from engine.rummy.melds import label
from engine.rummy.simulate import random_record
from webapp.screens.rummy import suggest_level

from webapp.extensions import db
from webapp.models import Table

from .conftest import random_events

WIN_SEED = 185   # setup 9D, Ben starts; Ben lays 3♠ 3♥ and B♠ B♥, discards 3♣; Anna takes it …


def seated(app, table, seat: int):
    """A test client that holds ``seat`` (by its seat link)."""
    client = app.test_client()
    client.get(f"/t/{table.id}/s/{table.tokens[seat]}")
    return client


def enter(client, table, events: list[dict]) -> None:
    for event in events:
        version = client.get(f"/api/tables/{table.id}/state", headers=table.auth(0)).json["version"]
        answer = client.post(f"/api/tables/{table.id}/events", json={"event": event, "version": version},
                             headers=table.auth(0))
        assert answer.status_code == 200, answer.json


def entry_events(html: str) -> list[dict]:
    """The events of the entry buttons on a page."""
    return [json.loads(raw.replace("&#34;", '"')) for raw in re.findall(r"data-event='([^']*)'", html)]


def disabled_cards(html: str) -> set[str]:
    return set(re.findall(r'data-card="(\w+)"[^>]*disabled', html))


@pytest.fixture
def rummy_table(new_table):
    return lambda options=None: new_table("gemeinsame-sache", ("Anna", "Ben"), options)


@pytest.mark.parametrize(("form", "expected"), [
    ({}, {"level": "normal", "draw_pile": 22}),
    ({"option-level": "schwer"}, {"level": "schwer", "draw_pile": 17}),
    ({"option-level": "custom", "option-draw_pile": "9"}, {"level": "custom", "draw_pile": 9}),
    ({"option-draw_pile": "30", "option-max_starts": "1", "option-open_hands": "1"},
     {"level": "custom", "draw_pile": 30, "max_starts": 3, "open_hands": True}),
])
def test_the_start_form_sets_level_size_and_variants(app, client, form, expected):
    made = client.post("/tables", data={"game": "gemeinsame-sache", "name": "Anna", **form})
    assert made.status_code == 303
    table_id = made.headers["Location"].rsplit("/", 1)[-1]
    with app.app_context():
        options = db.session.get(Table, table_id).options
    assert {key: options[key] for key in expected} == expected


def test_a_custom_level_without_a_size_is_refused_by_name(client):
    made = client.post("/tables", data={"game": "gemeinsame-sache", "name": "Anna", "option-level": "custom"})
    assert made.status_code == 422
    assert "draw_pile" in made.get_data(as_text=True)


def test_setup_says_how_many_cards_to_set_aside_and_who_may_start(app, rummy_table):
    table = rummy_table({"level": "schwer"})
    anna = seated(app, table, 0)
    page = anna.get(f"/t/{table.id}/controls?card=KC").get_data(as_text=True)
    assert "Legt 16 Karten ungesehen beiseite;" in page
    assert entry_events(page) == [{"type": "setup", "first_discard": "KC", "first_player": p} for p in (0, 1)]


def test_only_the_player_on_turn_gets_buttons_and_the_viewer_none(app, client, rummy_table):
    table = rummy_table()
    enter(client, table, [{"type": "setup", "first_discard": "9D", "first_player": 1}])
    anna, ben = seated(app, table, 0), seated(app, table, 1)
    assert entry_events(anna.get(f"/t/{table.id}").get_data(as_text=True)) == []
    assert "Ben ist dran" in anna.get(f"/t/{table.id}").get_data(as_text=True)
    ben_page = ben.get(f"/t/{table.id}").get_data(as_text=True)
    assert {"type": "draw", "from": "pile"} in entry_events(ben_page)
    viewer = app.test_client().get(f"/t/{table.id}/mitte").get_data(as_text=True)
    assert 'id="rummy-clock"' in viewer and entry_events(viewer) == []


def test_the_picker_offers_exactly_the_places_the_engine_finds(app, client, rummy_table):
    table = rummy_table()
    events = random_events("gemeinsame-sache", 2, WIN_SEED, {"level": "normal"})
    enter(client, table, events[:6])     # Anna has taken 3♣ from the discard pile
    game = new_game("gemeinsame-sache", {"level": "normal"}, ["Anna", "Ben"])
    for event in events[:6]:
        game.apply(event)
    anna = seated(app, table, 0)
    page = anna.get(f"/t/{table.id}/controls?card=3C").get_data(as_text=True)
    offered = entry_events(page)
    assert {"type": "complete", "start": 1, "card": "3C"} in offered
    assert [e["type"] for e in offered if e["type"] not in ("complete", "start", "give-up")] == []   # no discard: 3♣ must be laid
    assert "muss noch in diesem Zug auf den Tisch" in page
    assert disabled_cards(page) == set(game.public_cards()["cards"]) - {"3C"}
    page = anna.get(f"/t/{table.id}/controls?card=5H").get_data(as_text=True)
    starts = [e["cards"][1] for e in entry_events(page) if e["type"] == "start"]
    assert starts == next(f["with"] for f in game.fits("5H") if f["action"] == "start")
    page = anna.get(f"/t/{table.id}/controls?card=3D").get_data(as_text=True)
    assert {"type": "start", "cards": ["3D", "3C"]} in entry_events(page)     # the pickup offered as the partner


def test_a_joker_asks_what_it_stands_for(app, client, rummy_table):
    table = rummy_table()
    events = random_events("gemeinsame-sache", 2, WIN_SEED, {"level": "normal"})
    enter(client, table, events[:20])
    game = new_game("gemeinsame-sache", {"level": "normal"}, ["Anna", "Ben"])
    for event in events[:20]:
        game.apply(event)
    seat = game.turn
    page = seated(app, table, seat).get(f"/t/{table.id}/controls?card=JK").get_data(as_text=True)
    offered = entry_events(page)
    for fit in game.fits("JK"):
        if fit["action"] != "complete":
            continue
        start = next(s for s in game.open_starts if s.id == fit["start"])
        asked = [e.get("as") for e in offered if e["type"] == "complete" and e["start"] == start.id]
        # in a run the joker says which card it is; in a set it stands for any missing suit (rules README 5)
        assert asked == (fit["as"] if start.kind == "run" else [None]), start
    assert events[20]["start"] in [e.get("start") for e in offered]


def test_a_bad_card_in_the_picker_is_named(app, client, rummy_table):
    table = rummy_table()
    enter(client, table, [{"type": "setup", "first_discard": "9D", "first_player": 0}, {"type": "draw", "from": "pile"}])
    page = seated(app, table, 0).get(f"/t/{table.id}/controls?card=ZZ").get_data(as_text=True)
    assert "card: &#39;ZZ&#39; ist keine Karte" in page


def test_the_clock_warns_when_the_pace_falls_behind(app, client, rummy_table):
    table = rummy_table({"level": "custom", "draw_pile": 4})
    anna = seated(app, table, 0)
    enter(client, table, [{"type": "setup", "first_discard": "9D", "first_player": 0}])
    page = anna.get(f"/t/{table.id}").get_data(as_text=True)
    assert 'class="clock behind"' in page
    assert "noch 4 Karten; 20 Karten in euren Händen, 0 offene Ansätze" in page


def test_a_finished_game_shows_the_result_as_the_engine_counts_it(app, client, rummy_table):
    record = random_record({"level": "normal"}, WIN_SEED)
    table = rummy_table()
    enter(client, table, record["events"])
    state = client.get(f"/api/tables/{table.id}/state", headers=table.auth(0)).json["state"]
    page = seated(app, table, 1).get(f"/t/{table.id}").get_data(as_text=True)
    assert "Gewonnen!" in page
    begun = sum(1 for event in record["events"] if event["type"] == "draw")     # every turn begins with a draw
    assert f'<dd class="r-turns">{begun}</dd>' in page
    assert f'<dd class="r-pickups">{state["discard_pickups"]}</dd>' in page


def test_log_lines_name_the_cards(app, client, rummy_table):
    table = rummy_table()
    enter(client, table, [{"type": "setup", "first_discard": "QH", "first_player": 0},
                          {"type": "draw", "from": "pile"}, {"type": "start", "cards": ["10C", "JC"]}])
    page = seated(app, table, 1).get(f"/t/{table.id}").get_data(as_text=True)
    assert "Anna: Ansatz 10♣ B♣ gelegt" in page
    assert "gegeben, erste Ablage D♥" in page
    english = seated(app, table, 1).get(f"/t/{table.id}?lang=en").get_data(as_text=True)
    assert "Anna: Start 10♣ J♣ laid" in english


@pytest.mark.parametrize(("results", "options", "message", "size"), [
    ([True, True, True, False, True], {"level": "normal", "draw_pile": 22}, "4 von 5 gewonnen – versucht Schwer (17)", 17),
    ([False, False, False, True], {"level": "normal", "draw_pile": 22}, "1 von 4 gewonnen – versucht Leicht (28)", 28),
    ([True, False, True], {"level": "normal", "draw_pile": 22}, "2 von 3 gewonnen – bleibt bei Normal (22)", 22),
    ([True, True], {"level": "leicht", "draw_pile": 28}, "2 von 2 gewonnen – bleibt bei Leicht (28)", 28),
    ([True] * 6, {"level": "schwer", "draw_pile": 17}, "5 von 5 gewonnen – versucht Eigene Größe (14)", 14),
])
def test_the_next_level_follows_the_last_games(app, results, options, message, size):
    with app.test_request_context():
        said, suggested = suggest_level(results, {**options, "max_starts": 2})
    assert (said, suggested["draw_pile"], suggested["max_starts"]) == (message, size, 2)


def enter_on_page(client, table_id: str, events: list[dict], version: int) -> None:
    """Enter events as a phone's form posts (without htmx: answered by a redirect)."""
    for event in events:
        answer = client.post(f"/t/{table_id}/event", data={"event": json.dumps(event), "version": version})
        assert answer.status_code == 303, answer.get_data(as_text=True)
        version += 1


def test_a_rematch_seats_both_phones_and_suggests_from_the_games_at_this_table(app, rummy_table):
    table = rummy_table()
    anna, ben = seated(app, table, 0), seated(app, table, 1)
    assert anna.post(f"/t/{table.id}/rematch").status_code == 409          # not before the game is over
    table_id, events = table.id, random_record({"level": "normal"}, WIN_SEED)["events"]
    for game in range(3):                                                   # three games won in a row
        enter_on_page(anna, table_id, events, 0)
        page = ben.get(f"/t/{table_id}").get_data(as_text=True)
        offered = json.loads(html.unescape(re.search(r"/rematch\" hx-vals='([^']*)'", page).group(1)))["options"]
        made = anna.post(f"/t/{table_id}/rematch", data={"options": offered})
        assert made.status_code == 303, made.get_data(as_text=True)
        follow = made.headers["Location"].rsplit("/", 1)[-1]
        assert "Zum nächsten Spiel" in ben.get(f"/t/{table_id}").get_data(as_text=True)
        assert ben.post(f"/t/{table_id}/rematch").headers["Location"].endswith(follow)   # Ben follows
        with app.app_context():
            made_table = db.session.get(Table, follow)
            assert (made_table.previous_id, made_table.players) == (table_id, ["Anna", "Ben"])
        assert "Du bist Ben" in ben.get(f"/t/{follow}").get_data(as_text=True)
        table_id = follow
    with app.app_context():
        assert db.session.get(Table, table_id).options["level"] == "schwer"   # 3 of 3 won: harder than Normal
    assert "3 von 3 gewonnen" in page


def test_a_start_that_can_no_longer_be_completed_is_flagged_and_ending_is_offered(app, client, rummy_table):
    events = random_record({"level": "normal"}, 144)["events"][:57]       # 2♠ buried, 5♠ in a figure, no joker left
    game = new_game("gemeinsame-sache", {"level": "normal"}, ["Anna", "Ben"])
    for event in events:
        game.apply(event)
    dead = [o for o in game.start_outlooks() if not o["completable"]]
    assert len(dead) == 1
    table = rummy_table()
    enter(client, table, events)
    page = seated(app, table, game.turn).get(f"/t/{table.id}").get_data(as_text=True)
    assert f"Ansatz {dead[0]['id']} (" in page and "lässt sich nicht mehr ergänzen" in page
    assert all(f"{label(w['card'])} im Ablagestapel" in page for w in dead[0]["where"] if w["place"] == "discard")
    assert '<details class="give-up" open>' in page and {"type": "give-up"} in entry_events(page)


def test_the_log_names_who_entered_for_whom_and_what_was_taken_back(app, client, rummy_table):
    table = rummy_table()
    enter(client, table, [{"type": "setup", "first_discard": "QH", "first_player": 1},   # Ben begins …
                          {"type": "draw", "from": "pile"}])                            # … Anna enters his draw
    ben = seated(app, table, 1)
    undone = ben.post(f"/t/{table.id}/undo", data={"version": 2}, headers={"HX-Request": "true"}).get_data(as_text=True)
    log = undone[undone.index('id="log"'):]
    assert "Ben nimmt zurück: vom Ziehstapel gezogen" in log
    assert "Anna für Ben: vom Ziehstapel gezogen" in log
    assert "Anna: gegeben, erste Ablage D♥" in log      # the setup is nobody's move
