"""Game nights (#15): summaries written when a game ends and taken back by an undo,
the night page and its tally, live sync, replay steps against the engine, exports
that parse and re-import, deletion of exactly the night's rows, the backfill."""
from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import unquote

import flask_migrate
import pytest
import sqlalchemy as sa

from engine import new_game, replay
from engine.randomplay import random_record
from engine.rummy.simulate import random_record as rummy_record
from webapp import nights_replay, store
from webapp.extensions import db
from webapp.models import Event, Seat, Table
from webapp.nights_store import GameSummary

BIRDS = ("gleich-und-gleich", 3, 5)      # game, players, seed of a random complete record
RUMMY_WIN = ({"level": "normal"}, 185)   # a won Gemeinsame Sache (tests/e2e/test_rummy_play.py)


def bird_record(seed: int = BIRDS[2], players: int = BIRDS[1], game: str = BIRDS[0], **options) -> dict:
    record = random_record(game, options, players, seed)
    record["players"] = ["Anna", "Ben", "Carla", "Dora", "Emil"][:players - (1 if options.get("solo") else 0)] \
        + (["RobinBird"] if options.get("solo") else [])
    return record


def import_nearly_finished(client, record: dict, missing: int = 1):
    """A table holding all but the last ``missing`` events; this client holds seat 0."""
    made = client.post("/api/tables", json={"record": {**record, "events": record["events"][:-missing]}})
    assert made.status_code == 201, made.json
    client.get(f"/t/{made.json['id']}/s/{made.json['token']}")  # the browser session takes the seat
    return made.json


def finish(client, made: dict, record: dict, missing: int = 1) -> None:
    auth = {"Authorization": f"Bearer {made['token']}"}
    for offset, event in enumerate(record["events"][-missing:]):
        version = len(record["events"]) - missing + offset
        answer = client.post(f"/api/tables/{made['id']}/events", json={"event": event, "version": version},
                             headers=auth)
        assert answer.status_code == 200, answer.json


def summary_of(app, table_id: str) -> GameSummary | None:
    with app.app_context():
        summary = db.session.get(GameSummary, table_id)
        if summary is not None:
            db.session.expunge(summary)
        return summary


def rematch(client, table_id: str) -> str:
    answer = client.post(f"/t/{table_id}/rematch")
    assert answer.status_code == 303
    return answer.headers["Location"].rsplit("/", 1)[-1]


def test_a_summary_is_written_when_the_game_ends_and_taken_back_by_an_undo(app, client):
    record = bird_record()
    made = import_nearly_finished(client, record)
    assert summary_of(app, made["id"]) is None
    finish(client, made, record)
    summary = summary_of(app, made["id"])
    outcome = replay(record).outcome()
    assert summary.winners == list(outcome.winners) and summary.reason == outcome.reason
    assert summary.events == len(record["events"]) and summary.rounds == replay(record).state()["round"]
    assert summary.turns > 0 and summary.players == 3
    auth = {"Authorization": f"Bearer {made['token']}"}
    undone = client.post(f"/api/tables/{made['id']}/undo", json={"version": len(record["events"])}, headers=auth)
    assert undone.status_code == 200
    assert summary_of(app, made["id"]) is None
    again = client.post(f"/api/tables/{made['id']}/events",
                        json={"event": record["events"][-1], "version": len(record["events"]) + 1}, headers=auth)
    assert again.status_code == 200 and summary_of(app, made["id"]) is not None


def test_an_imported_finished_game_counts_and_the_turns_follow_the_effects(app, client):
    record = bird_record(seed=9)
    made = client.post("/api/tables", json={"record": record}).json
    summary = summary_of(app, made["id"])
    game = new_game(record["game"], record["options"], record["players"])
    effects = [game.apply(event) for event in record["events"]]
    # a turn ends where the engine says what comes next (next_turn), or the round or game ends
    assert summary.turns == sum(1 for e in effects if {"next_turn", "round_over", "game_over"} & set(e))
    first = record["events"][0]["dealer"]
    assert summary.first_seat == first
    assert summary.winner_mask == sum(1 << ((w - first) % 3) for w in game.outcome().winners)


def test_the_night_page_tallies_every_game_of_the_chain(app, client):
    record = bird_record()
    made = import_nearly_finished(client, record)
    finish(client, made, record)
    second = rematch(client, made["id"])
    third_page = client.get(f"/t/{second}/abend")
    assert third_page.status_code == 200
    first_page = client.get(f"/t/{made['id']}/abend").get_data(as_text=True)
    night = re.compile(r'<section id="night".*?</section>', re.S)  # one night, from either of its tables
    assert night.search(first_page).group(0) == night.search(third_page.get_data(as_text=True)).group(0)
    winners = [record["players"][w] for w in replay(record).outcome().winners]
    for name in record["players"]:
        wins = re.search(rf'<tr data-player="{name}"[^>]*>.*?<td class="wins"[^>]*>(\d+)</td>', first_page, re.S)
        assert int(wins.group(1)) == (1 if name in winners else 0), name
    assert first_page.count('<li class="night-game') == 2
    assert "läuft gerade" in first_page and "Wiederholung" in first_page


def test_a_night_page_is_kept_live_by_the_tables_sync(app, client):
    record = bird_record()
    made = import_nearly_finished(client, record)
    with app.app_context():
        revision = store.get_table(made["id"]).revision
    page = client.get(f"/t/{made['id']}/abend").get_data(as_text=True)
    assert f"rev={revision}" in page and "phase=abend" in page
    assert client.get(f"/t/{made['id']}/sync?rev={revision}&phase=abend").status_code == 204
    finish(client, made, record)
    changed = client.get(f"/t/{made['id']}/sync?rev={revision}&phase=abend").get_data(as_text=True)
    assert 'id="night"' in changed and 'hx-swap-oob="true"' in changed and 'id="sync"' in changed
    assert 'class="wins"' in changed and 'id="board"' not in changed


def board_figures(html: str) -> dict:
    """What the bird board says of the piles and rows."""
    rows = re.findall(r'<li class="birds-row" data-row="(\d)">(.*?)</li>', html, re.S)
    return {"draw": re.search(r'data-pile="draw">.*?<strong>(\d+)</strong>', html, re.S).group(1),
            "discard": re.search(r'data-pile="discard">.*?<strong>(\d+)</strong>', html, re.S).group(1),
            "rows": {row: re.findall(r'data-card="([^"]+)"', cards) for row, cards in rows}}


def test_a_replay_step_shows_the_board_of_the_record_replayed_to_that_step(app, client):
    record = bird_record()
    made = client.post("/api/tables", json={"record": record}).json
    total = len(record["events"])
    for step in (total // 2, 3, total, total // 2 - 1):   # forwards and back, as the cursor moves
        page = client.get(f"/t/{made['id']}/wiederholung?schritt={step}", headers={"HX-Request": "true"})
        html = page.get_data(as_text=True)
        game = replay({**record, "events": record["events"][:step]})
        state = game.state()
        shown = board_figures(html)
        assert shown["draw"] == str(state["draw_pile"]) and shown["discard"] == str(state["discard_pile"])
        assert len(shown["rows"]) == 4
        assert re.search(rf'<li value="{step}" class="current"', html), step
        assert f'data-step="{step}"' in html
    assert client.get(f"/t/{made['id']}/wiederholung?schritt=x").status_code == 400
    assert client.get(f"/t/{made['id']}/wiederholung?schritt=99999").status_code == 200  # the last step
    centre = client.get(f"/t/{made['id']}/wiederholung/mitte?schritt=5").get_data(as_text=True)
    assert 'class="replay centre"' in centre and 'id="board"' in centre


def test_replay_moments_are_read_from_the_effects():
    effects = [{"type": "setup", "player": None},
               {"type": "play", "player": 0, "captured": ["3"] * 5, "next_turn": 1},
               {"type": "flock", "player": 1, "cards": ["J", "J"], "next_turn": 0},
               {"type": "no-flock", "player": 0, "round_over": {"emptied_by": 0}},
               {"type": "deal", "player": 0},
               {"type": "no-flock", "player": 0, "game_over": {"reason": "two-triples"}}]
    birds = new_game("gleich-und-gleich", {}, ["Anna", "Ben"])
    kinds = [(m.step, m.kind) for m in nights_replay.moments(effects, birds.ends_turn)]
    assert kinds == [(2, "capture"), (3, "flock"), (4, "round"), (4, "last-turn")]
    rummy = new_game("gemeinsame-sache", {}, ["Anna", "Ben"])
    pickups = nights_replay.moments([{"type": "setup"}, {"type": "draw", "from": "discard", "player": 1},
                                     {"type": "discard", "player": 1}, {"type": "discard", "player": 0}],
                                    rummy.ends_turn)
    assert [(m.step, m.kind) for m in pickups] == [(2, "pickup"), (3, "last-turn")]


def test_a_running_game_has_no_replay(client):
    made = import_nearly_finished(client, bird_record())
    assert client.get(f"/t/{made['id']}/wiederholung").status_code == 409


def test_the_night_exports_parse_and_re_import(app, client):
    record = bird_record()
    made = import_nearly_finished(client, record)
    finish(client, made, record)
    second = rematch(client, made["id"])
    exported = client.get(f"/t/{second}/abend.json")
    night = json.loads(exported.get_data(as_text=True))
    assert night["format"] == "kartentisch-night/1" and len(night["games"]) == 2
    assert night["games"][0]["record"]["events"] == record["events"]
    assert night["games"][0]["summary"]["winners"] == [record["players"][w] for w in replay(record).outcome().winners]
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{second}/abend.csv").get_data(as_text=True))))
    assert len(rows) == 1 and rows[0]["game"] == record["game"] and int(rows[0]["turns"]) > 0

    other = type(client)(app, app.response_class, use_cookies=True)  # another browser
    imported = other.post("/import", data={"record": json.dumps(night)})   # the start page's import form
    assert imported.status_code == 303
    new_last = imported.headers["Location"].split("/")[2]
    again = json.loads(other.get(f"/t/{new_last}/abend.json").get_data(as_text=True))
    assert [g["record"] for g in again["games"]] == [g["record"] for g in night["games"]]
    assert again["games"][0]["summary"]["winners"] == night["games"][0]["summary"]["winners"]
    assert "Spieleabend löschen" in other.get(f"/t/{new_last}/abend").get_data(as_text=True)


@pytest.mark.parametrize("night", [
    json.dumps({"format": "kartentisch-night/1"}), json.dumps({"format": "kartentisch-night/1", "games": []}),
    json.dumps({"format": "kartentisch-night/1", "games": [{"record": {"game": "cubirds"}}]}),
    json.dumps({"format": "kartentisch-night/1", "games": [{"record": {
        "game": "gleich-und-gleich", "players": ["A", "B"], "events": [{"type": "play"}]}}]}),
])
def test_a_bad_night_file_is_refused_and_changes_nothing(app, client, night):
    answer = client.post("/import", data={"record": night})
    assert 400 <= answer.status_code < 500
    assert 'class="error"' in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(sa.select(sa.func.count()).select_from(Table)).scalar() == 0


def test_the_bgstats_link_carries_players_winner_duration_and_game(app, client):
    record = bird_record(game="cubirds", seed=3, players=2)
    made = import_nearly_finished(client, record)
    finish(client, made, record)
    page = client.get(f"/t/{made['id']}/abend").get_data(as_text=True)
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', page).group(1)
    data = json.loads(unquote(link.split("data=", 1)[1].replace("&amp;", "&")))
    assert data["game"]["bggId"] == 245476 and data["game"]["name"] == "CuBirds"
    winners = {record["players"][w] for w in replay(record).outcome().winners}
    assert {p["name"] for p in data["players"] if p["winner"]} == winners
    assert [p["name"] for p in data["players"]] == record["players"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"]) and data["sourceName"] == "Kartentisch"


def test_gemeinsame_sache_is_won_or_lost_with_its_level(app, client):
    record = rummy_record(dict(RUMMY_WIN[0]), RUMMY_WIN[1])
    record["players"] = ["Anna", "Ben"]
    made = client.post("/api/tables", json={"record": record}).json
    page = client.get(f"/t/{made['id']}/abend").get_data(as_text=True)
    assert "gewonnen" in page and "Normal (22)" in page
    link = re.search(r'data=([^"]+)"', page).group(1)
    data = json.loads(unquote(link))
    assert data["game"]["name"] == "Gemeinsame Sache" and "bggId" not in data["game"]
    assert all(p["winner"] for p in data["players"])


def row_counts(app) -> dict:
    with app.app_context():
        return {model.__tablename__: db.session.execute(sa.select(sa.func.count()).select_from(model)).scalar()
                for model in (Table, Seat, Event, GameSummary)}


def test_deleting_a_night_removes_its_rows_and_nothing_else(app, client):
    keep = type(client)(app, app.response_class, use_cookies=True)
    kept_record = bird_record(seed=7)
    kept = import_nearly_finished(keep, kept_record)
    finish(keep, kept, kept_record)
    before = row_counts(app)
    record = bird_record()
    made = import_nearly_finished(client, record)
    finish(client, made, record)
    second = rematch(client, made["id"])
    assert keep.get(f"/t/{second}/abend/loeschen").status_code == 403      # holds no seat of this night
    assert keep.post(f"/t/{second}/abend/loeschen").status_code == 403
    confirm = client.get(f"/t/{second}/abend/loeschen")
    assert confirm.status_code == 200 and "endgültig" in confirm.get_data(as_text=True)
    deleted = client.post(f"/t/{second}/abend/loeschen")
    assert deleted.status_code == 200 and "2 Spiele wurden gelöscht" in deleted.get_data(as_text=True)
    assert row_counts(app) == before
    assert client.get(f"/t/{made['id']}/abend").status_code == 404
    assert keep.get(f"/t/{kept['id']}/abend").status_code == 200


def test_the_backfill_summarises_games_finished_before_the_migration(app, client):
    record = bird_record()
    made = client.post("/api/tables", json={"record": record}).json
    expected = summary_of(app, made["id"])
    with app.app_context():
        flask_migrate.downgrade(revision="a3e9c1f0b7d2")
        assert "game_summaries" not in sa.inspect(db.engine).get_table_names()
        flask_migrate.upgrade()
        db.session.expire_all()
        backfilled = db.session.get(GameSummary, made["id"])
        assert (backfilled.winners, backfilled.turns, backfilled.rounds, backfilled.winner_mask, backfilled.reason) \
            == (expected.winners, expected.turns, expected.rounds, expected.winner_mask, expected.reason)


SIMULATED = {  # the lab's figures in the format of contract C5 (a small fixture until the lab ships them)
    "format": "kartentisch-simulated/1", "generated": "2026-12-01",
    "birds": [{"game": "gleich-und-gleich", "options": {}, "players": 3, "bot": "strong", "games": 10000,
               "seed": 1, "command": "python -m engine balance", "turns": {"mean": 41.2, "ci95": [40.9, 41.5]},
               "rounds": {"mean": 2.1, "ci95": [2.0, 2.2]},
               "endings": {"distinct-species": 0.31, "two-triples": 0.66, "most-birds": 0.03},
               "seat_win_rate": [{"seat": 0, "rate": 0.36, "ci95": [0.35, 0.37]},
                                 {"seat": 1, "rate": 0.33, "ci95": [0.32, 0.34]},
                                 {"seat": 2, "rate": 0.31, "ci95": [0.30, 0.32]}]}],
    "solo": [{"game": "cubirds", "options": {}, "bot": "strong", "games": 10000, "win_rate": 0.61,
              "ci95": [0.60, 0.62]}],
    "gemeinsame_sache": [{"team": "simple", "options": {}, "draw_pile": 22, "games": 10000, "win_rate": 0.56,
                          "ci95": [0.55, 0.57], "mean_turns": 24.1},
                         {"team": "smart", "options": {"level": "normal"}, "draw_pile": 22, "games": 10000,
                          "win_rate": 0.71, "ci95": [0.70, 0.72], "mean_turns": 23.0}],
}


def finished_games(client) -> list[dict]:
    records = [bird_record(seed=seed) for seed in (5, 6, 7)]
    records.append(bird_record(game="cubirds", players=2, seed=4, solo=True))
    rummy = rummy_record(dict(RUMMY_WIN[0]), RUMMY_WIN[1])
    records.append({**rummy, "players": ["Anna", "Ben"]})
    for record in records:
        assert client.post("/api/tables", json={"record": record}).status_code == 201
    return records


def test_statistics_count_the_finished_games_beside_the_simulated_figures(client, monkeypatch):
    from webapp import nights_stats
    monkeypatch.setattr(nights_stats, "simulated", lambda: SIMULATED)
    nights_stats._sections.cache_clear()
    records = finished_games(client)
    page = client.get("/statistik").get_data(as_text=True)
    assert "5 beendete Spiele" in page
    group = re.search(r'<article class="stats-group" data-players="3" data-variant="\{\}">(.*?)</article>', page, re.S)
    assert re.search(r'<td class="games">3</td><td>10.000</td>', group.group(1))
    wins = [0, 0, 0]
    for record in records[:3]:
        first = record["events"][0]["dealer"]
        for winner in replay(record).outcome().winners:
            wins[(winner - first) % 3] += 1
    for seat, count in enumerate(wins):   # German numbers: "36 %" (a no-break space), "41,2"
        assert re.search(rf'<tr data-seat="{seat}"><th scope="row">Platz {seat + 1}</th><td>\d+\xa0%'
                         rf' <small>\({count}\)</small></td><td>{[36, 33, 31][seat]}\xa0%', group.group(1))
    assert "41,2" in group.group(1) and "66\xa0%" in group.group(1)
    levels = re.search(r'<tr data-draw-pile="22">(.*?)</tr>', page, re.S).group(1)
    assert "100\xa0%" in levels and "simple: 56\xa0%" in levels and "smart: 71\xa0%" in levels
    solo = re.search(r'<article class="stats-group solo">(.*?)</article>', page, re.S).group(1)
    assert "61\xa0%" in solo
    english = client.get("/statistik?lang=en").get_data(as_text=True)
    assert "41.2" in english and "66%" in english and "41,2" not in english
    for name in ("Anna", "Ben", "Carla"):  # RobinBird is no person
        assert name not in page
    svgs = re.findall(r"<svg.*?</svg>", page, re.S)
    assert len(svgs) == 3 and all('role="img"' in svg for svg in svgs)
    assert not re.search(r"<script|<style|style=", "".join(svgs))


def test_statistics_show_the_simulated_figure_of_the_most_games(client, monkeypatch):
    """The lab ships a figure per bot; the page compares with the one of the narrowest
    interval (10,000 greedy games rather than 100 of the strong bot)."""
    from webapp import nights_stats
    few = {**SIMULATED["birds"][0], "bot": "strong", "games": 100, "turns": {"mean": 99.9, "ci95": [90.0, 110.0]}}
    many = {**SIMULATED["birds"][0], "bot": "greedy"}
    finished_games(client)
    for order in ([few, many], [many, few]):
        monkeypatch.setattr(nights_stats, "simulated", lambda: {**SIMULATED, "birds": order})
        nights_stats._sections.cache_clear()
        page = client.get("/statistik").get_data(as_text=True)
        group = re.search(r'<article class="stats-group" data-players="3" data-variant="\{\}">(.*?)</article>', page, re.S)
        assert "41,2" in group.group(1) and "99,9" not in group.group(1)
        assert re.search(r'<td class="games">\d+</td><td>10.000</td>', group.group(1))


def test_statistics_say_so_when_there_are_no_simulated_figures(client, monkeypatch):
    from webapp import nights_stats
    monkeypatch.setattr(nights_stats, "simulated", lambda: {})
    nights_stats._sections.cache_clear()
    assert "Noch kein Spiel beendet" in client.get("/statistik").get_data(as_text=True)
    finished_games(client)
    page = client.get("/statistik").get_data(as_text=True)
    assert "Keine simulierten Zahlen vorhanden" in page and page.count("<svg") == 3


# --- importing a night file: all or nothing, capped, counted against the create limit -----------------
def night_file(records: list[dict]) -> str:
    return json.dumps({"format": "kartentisch-night/1", "games": [{"record": record} for record in records]})


def test_a_night_file_with_a_bad_second_record_changes_nothing(app, client):
    good = bird_record()
    bad = bird_record(seed=6)
    bad["players"] = ["Anna", "x" * 41, "Carla"]   # the engine takes it; the store's names are 1 to 40 long
    replay(bad)
    before = row_counts(app)
    answer = client.post("/import", data={"record": night_file([good, bad])})
    assert answer.status_code == 422
    text = answer.get_data(as_text=True)
    assert 'class="error"' in text and "Spiel 2 der Datei" in text and "40" in text
    assert row_counts(app) == before


def test_a_night_file_holds_at_most_night_games_max_games(app, client):
    from webapp.nights import NIGHT_GAMES_MAX
    record = {**bird_record(), "events": []}
    answer = client.post("/import", data={"record": night_file([record] * (NIGHT_GAMES_MAX + 1))})
    assert answer.status_code == 413
    assert f"höchstens {NIGHT_GAMES_MAX} Spiele" in answer.get_data(as_text=True)
    assert row_counts(app)["tables"] == 0
    assert client.post("/import", data={"record": night_file([record] * NIGHT_GAMES_MAX)}).status_code == 303
    assert row_counts(app)["tables"] == NIGHT_GAMES_MAX


def test_the_longest_night_file_fits_the_create_limit():
    from limits import parse

    from webapp.nights import NIGHT_GAMES_MAX
    from webapp.tables import CREATE_LIMIT
    assert NIGHT_GAMES_MAX <= parse(CREATE_LIMIT).amount


def test_each_table_of_a_night_file_counts_against_the_create_limit(make_app):
    from limits import parse

    from webapp.tables import CREATE_LIMIT
    app = make_app(RATELIMIT_ENABLED=True)
    client = app.test_client()
    record = {**bird_record(), "events": []}
    half = parse(CREATE_LIMIT).amount // 2 + 1
    assert client.post("/import", data={"record": night_file([record] * half)}).status_code == 303
    refused = client.post("/import", data={"record": night_file([record] * half)})
    assert refused.status_code == 429 and "warten" in refused.get_data(as_text=True)
    assert row_counts(app)["tables"] == half
    assert client.post("/import", data={"record": night_file([record])}).status_code == 303  # the refusal cost one


# --- the CSV export: no formulas --------------------------------------------------------------------
def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(app, client):
    from webapp.nights import csv_cell
    assert [csv_cell(v) for v in ("=1+1", "+1", "-1", "@A1", "\tx", "\rx", "Anna", 3, -2)] == \
        ["'=1+1", "'+1", "'-1", "'@A1", "'\tx", "'\rx", "Anna", 3, -2]
    record = {**bird_record(), "players": ["=HYPERLINK(1)", "@Ben", "-Carla"]}
    made = client.post("/api/tables", json={"record": record}).json
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{made['id']}/abend.csv").get_data(as_text=True))))
    assert rows[0]["players"] == "'=HYPERLINK(1) | @Ben | -Carla"
    winners = rows[0]["winners"]
    assert not winners or winners.startswith("'") and winners[1] in "=@-"
    assert rows[0]["number"] == "1" and int(rows[0]["turns"]) > 0


# --- the replay's centre view -------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["birds", "gemeinsame-sache"])
def test_the_centre_view_shows_the_line_of_the_step(client, kind):
    if kind == "birds":
        record = bird_record()
    else:
        record = {**rummy_record(dict(RUMMY_WIN[0]), RUMMY_WIN[1]), "players": ["Anna", "Ben"]}
    made = client.post("/api/tables", json={"record": record}).json
    phone = client.get(f"/t/{made['id']}/wiederholung?schritt=5").get_data(as_text=True)
    sentence = re.search(r'<li value="5" class="current"[^>]*><a [^>]*>(.*?)</a>', phone, re.S).group(1).strip()
    assert sentence
    centre = client.get(f"/t/{made['id']}/wiederholung/mitte?schritt=5", headers={"HX-Request": "true"})
    line = re.search(r'<p class="replay-line"[^>]*>(.*?)</p>', centre.get_data(as_text=True), re.S)
    assert line and sentence in line.group(1) and "<small>5</small>" in line.group(1)
    start = client.get(f"/t/{made['id']}/wiederholung/mitte?schritt=0").get_data(as_text=True)
    assert 'class="replay-line"' not in start
