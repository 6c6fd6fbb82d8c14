"""The HTML pages: create, join, lobby, play with htmx regions, sync, undo, export/import."""
from __future__ import annotations

import io
import json
import re

import sqlalchemy as sa
from flask import url_for

from webapp import play, store
from webapp.extensions import db

from .conftest import random_events

HX = {"HX-Request": "true"}


def create_by_form(client, game="gleich-und-gleich", name="Anna", **options):
    answer = client.post("/tables", data={"game": game, "name": name, **{f"option-{k}": v for k, v in options.items()}})
    assert answer.status_code == 303, answer.text
    return answer.headers["Location"].rsplit("/", 1)[-1]


def join_code(app, table_id):
    with app.app_context():
        return store.get_table(table_id).join_code


def revision(app, table_id):
    with app.app_context():
        table = store.get_table(table_id)
        return table.revision, table.version


def test_start_page_offers_every_game_and_its_options(client):
    page = client.get("/").text
    for title in ("Gleich und gleich", "CuBirds", "Gemeinsame Sache"):
        assert title in page
    assert 'name="option-rarer_faces"' in page and 'name="option-level"' in page


def test_create_shows_the_lobby_with_qr_code_url_and_code(app, client):
    table_id = create_by_form(client, fast="1")
    lobby = client.get(f"/t/{table_id}").text
    code = join_code(app, table_id)
    assert code in lobby and f"/j/{code}" in lobby and f"/t/{table_id}/qr.svg" in lobby
    svg = client.get(f"/t/{table_id}/qr.svg")
    assert svg.mimetype == "image/svg+xml" and svg.text.startswith("<?xml") and "<svg" in svg.text
    with app.app_context():
        assert store.get_table(table_id).options["fast"] is True


def test_the_join_qr_code_is_revalidated_and_follows_the_lan_address(app, client):
    """#18 point 5: a server started again on another network hands out a new join link;
    a QR code the browser kept must not show the old one."""
    table_id = create_by_form(client)
    first = client.get(f"/t/{table_id}/qr.svg")
    assert first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"]
    assert client.get(f"/t/{table_id}/qr.svg", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    app.config["LAN_URL"] = "http://192.168.7.7:8000/"
    moved = client.get(f"/t/{table_id}/qr.svg", headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200 and moved.headers["ETag"] != first.headers["ETag"]


def test_bad_options_are_refused_naming_the_option(client):
    refused = client.post("/tables", data={"game": "gemeinsame-sache", "name": "Anna", "option-level": "brutal"})
    assert refused.status_code == 422 and "brutal" in refused.text


def test_join_by_scan_url_and_by_typed_code(app, client):
    table_id = create_by_form(client)
    code = join_code(app, table_id)
    ben = app.test_client()
    assert ben.get(f"/j?code={code.lower()}").headers["Location"].endswith(f"/j/{code}")
    assert "Platz nehmen" in ben.get(f"/j/{code}").text
    assert ben.post(f"/j/{code}", data={"name": "Ben"}).status_code == 303
    assert "Ben" in ben.get(f"/t/{table_id}").text and "(du)" in ben.get(f"/t/{table_id}").text
    assert app.test_client().get("/j/ZZZZZZ").status_code == 404
    refused = app.test_client().post(f"/j/{code}", data={"name": "  "})
    assert refused.status_code == 422 and "Namen" in refused.text


def test_join_codes_never_spell_a_word_and_older_codes_still_work(app, client):
    codes = [join_code(app, create_by_form(client)) for _ in range(40)]
    assert not set("".join(codes)) & set("AEIOUY01L"), codes
    table_id = create_by_form(client)
    with app.app_context():
        store.get_table(table_id).join_code = "YET385"  # made before codes lost their vowels
        db.session.commit()
    assert "Platz nehmen" in app.test_client().get("/j/yet385").text


def test_names_are_escaped_everywhere(app, client):
    table_id = create_by_form(client, name="<script>alert(1)</script>")
    page = client.get(f"/t/{table_id}").text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_lobby_reorder_remove_start_through_htmx(app, client):
    table_id = create_by_form(client)
    code = join_code(app, table_id)
    for name in ("Ben", "Carla"):
        app.test_client().post(f"/j/{code}", data={"name": name})
    moved = client.post(f"/t/{table_id}/seats/move", data={"seat": 2, "direction": "up"}, headers=HX)
    assert moved.status_code == 200 and 'id="lobby"' in moved.text and 'hx-swap-oob="true"' in moved.text
    names = re.findall(r'<span class="name">([^<]+)</span>', moved.text)
    assert names == ["Anna", "Carla", "Ben"]
    removed = client.post(f"/t/{table_id}/seats/remove", data={"seat": 1}, headers=HX)
    assert re.findall(r'<span class="name">([^<]+)</span>', removed.text) == ["Anna", "Ben"]
    started = client.post(f"/t/{table_id}/start", headers=HX)
    assert started.status_code == 204 and json.loads(started.headers["HX-Location"])["path"] == f"/t/{table_id}"
    with app.app_context():
        assert store.get_table(table_id).players == ["Anna", "Ben"]


def test_lobby_refusals_show_in_the_lobby_region(app, client):
    table_id = create_by_form(client)
    refused = client.post(f"/t/{table_id}/start", headers=HX)
    assert refused.status_code == 409 and 'class="error"' in refused.text and 'id="lobby"' in refused.text
    viewer = app.test_client()
    assert viewer.post(f"/t/{table_id}/start", headers=HX).status_code == 403


def started_table(app, client, names=("Anna", "Ben")):
    table_id = create_by_form(client, name=names[0])
    code = join_code(app, table_id)
    others = []
    for name in names[1:]:
        other = app.test_client()
        other.post(f"/j/{code}", data={"name": name})
        others.append(other)
    client.post(f"/t/{table_id}/start")
    return table_id, others


def test_an_entry_answers_with_all_regions_and_others_see_it_on_sync(app, client):
    table_id, (ben,) = started_table(app, client)
    rev, version = revision(app, table_id)
    assert ben.get(f"/t/{table_id}/sync?rev={rev}&phase=play").status_code == 204
    setup = random_events("gleich-und-gleich", 2, seed=21)[0]
    entered = client.post(f"/t/{table_id}/event", headers=HX,
                          data={"event": json.dumps(setup), "version": version, "key": "k1"})
    assert entered.status_code == 200
    for region in ("status", "board", "controls", "log", "sync"):
        assert f'id="{region}"' in entered.text
    synced = ben.get(f"/t/{table_id}/sync?rev={rev}&phase=play")
    starter = ("Anna", "Ben")[setup["dealer"]]
    assert synced.status_code == 200 and f"Aufbau fertig – {starter} beginnt" in synced.text and "v1" in synced.text


def test_the_log_comes_in_each_phones_language_and_follows_every_change(app, client):
    table_id, (ben,) = started_table(app, client)
    ben.set_cookie("lang", "en")
    setup = random_events("gleich-und-gleich", 2, seed=21)[0]
    client.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(setup), "version": 0, "key": "k1"})
    starter = ("Anna", "Ben")[setup["dealer"]]
    german = client.get(f"/t/{table_id}/sync?rev=0&phase=play", headers=HX).text
    english = ben.get(f"/t/{table_id}/sync?rev=0&phase=play", headers=HX).text
    assert f"Aufbau fertig – {starter} beginnt" in german and "Aufbau fertig" not in english
    board = german[german.index('id="board"'):german.index('id="controls"')]
    assert "Zuletzt" in board and f"Aufbau fertig – {starter} beginnt" in board  # the board shows the last entry too
    undone = client.post(f"/t/{table_id}/undo", headers=HX, data={"version": 1, "key": "k2"})
    assert "Anna nimmt zurück" in undone.text
    assert "Anna nimmt zurück" in client.get(f"/t/{table_id}/sync?rev=0&phase=play", headers=HX).text


def test_an_entry_is_put_into_words_once_per_language(app, client, monkeypatch):
    """The log is kept per table and language: a new revision words only its new entry,
    and the kept sentences are the ones a fresh wording gives."""
    table_id, (ben,) = started_table(app, client)
    events = random_events("gleich-und-gleich", 2, seed=21)
    screen = play.screen_for("gleich-und-gleich")
    worded = []
    monkeypatch.setattr(screen, "log_sentence",
                        lambda entry, players, word=screen.log_sentence: worded.append(entry.seq) or word(entry, players))

    def enter(version: int) -> str:
        answer = client.post(f"/t/{table_id}/event", headers=HX,
                             data={"event": json.dumps(events[version]), "version": version, "key": f"w{version}"})
        assert answer.status_code == 200
        return answer.text

    for version in range(3):
        enter(version)
    assert worded == [1, 2, 3]  # each entry once, however often the log was drawn since
    german = ben.get(f"/t/{table_id}/sync?rev=0&phase=play", headers=HX).text
    english = app.test_client().get(f"/t/{table_id}/sync?rev=0&phase=play&lang=en", headers=HX).text
    assert worded == [1, 2, 3, 3, 2, 1]  # English is worded anew, newest first
    log = re.compile(r'<section id="log".*?</section>', re.S)
    play._logs.clear()  # worded anew, drawn anew
    play._drawings.clear()
    app.extensions["sync"]._drawings.clear()
    assert log.search(ben.get(f"/t/{table_id}/sync?rev=0&phase=play", headers=HX).text).group() == \
        log.search(german).group()
    assert log.search(english).group() != log.search(german).group()


def test_the_log_reads_only_the_entries_made_since_it_was_drawn(app, client, monkeypatch):
    """Drawing the log at a new revision reads the entries after the newest one it listed
    (entries are only appended), and in another language the newest entries whole; each
    language's log stays as it was worded."""
    table_id, _ = started_table(app, client)
    events = random_events("gleich-und-gleich", 2, seed=21)
    read = []

    def log_rows(table, after=0, rows=play.store.log_rows):
        found = rows(table, after)
        read.append((after, [entry.seq for entry in found]))
        return found

    monkeypatch.setattr(play.store, "log_rows", log_rows)
    for version in range(3):
        answer = client.post(f"/t/{table_id}/event", headers=HX,
                             data={"event": json.dumps(events[version]), "version": version, "key": f"r{version}"})
        assert answer.status_code == 200
    assert read == [(0, [1]), (1, [2]), (2, [3])]
    english = app.test_client().get(f"/t/{table_id}/sync?rev=0&phase=play&lang=en", headers=HX).text
    german = client.get(f"/t/{table_id}/sync?rev=0&phase=play", headers=HX).text
    assert read[3:] == [(0, [3, 2, 1])]  # another language: worded whole; German kept, nothing read
    log = re.compile(r'<section id="log".*?</section>', re.S)
    assert log.search(english).group() != log.search(german).group()
    assert re.findall(r'<li class="event"><small>(\d+)</small>', german) == ["3", "2", "1"]


def test_a_phones_next_tap_writes_without_reading_its_seat_or_the_table(app, client):
    """The first tap looks the phone's seat up; from the next one on, the write is the first
    statement, nothing reads a seat, and the answer is drawn from the table as the write left it."""
    table_id, (ben,) = started_table(app, client)
    setup, first = random_events("gleich-und-gleich", 2, seed=23)[:2]
    assert ben.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(setup), "version": 0}).status_code == 200
    statements = []
    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record := lambda *args: statements.append(args[2]))
    try:
        answer = ben.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(first), "version": 1})
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    assert answer.status_code == 200, answer.text
    assert statements and statements[0].startswith(("UPDATE tables", "WITH moved")), statements
    assert not any(statement.startswith("SELECT") and "FROM seats" in statement for statement in statements), statements
    assert not any(statement.startswith("SELECT") and "FROM tables" in statement for statement in statements), statements
    with app.test_request_context():
        logged = play._log(store.get_table(table_id), "de")[0][1]
    assert revision(app, table_id)[1] == 2 and logged in answer.text and 'id="controls"' in answer.text


def test_a_tap_from_a_phone_whose_seat_went_to_another_is_refused(app, client):
    """A phone whose seat was handed on after it tapped (so its seat is known here) is
    refused as a watcher and changes nothing (the write checks that its token still holds the seat)."""
    table_id, (ben,) = started_table(app, client)
    setup, first = random_events("gleich-und-gleich", 2, seed=24)[:2]
    assert ben.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(setup), "version": 0}).status_code == 200
    link = client.post(f"/t/{table_id}/seats/link", data={"seat": 1}, headers=HX)
    app.test_client().get(re.search(r'href="(http[^"]+/s/[^"]+)"', link.text).group(1).replace("http://localhost", ""))
    refused = ben.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(first), "version": 1})
    assert refused.status_code == 403 and "Nur wer am Tisch sitzt" in refused.text
    assert revision(app, table_id)[1] == 1


def test_refused_entries_show_in_the_controls_and_change_nothing(app, client):
    table_id, _ = started_table(app, client)
    bad_json = client.post(f"/t/{table_id}/event", headers=HX, data={"event": "{", "version": 0})
    assert bad_json.status_code == 400 and "kein gültiges JSON" in bad_json.text
    illegal = client.post(f"/t/{table_id}/event", headers=HX, data={"event": '{"type": "play"}', "version": 0})
    assert illegal.status_code == 422 and 'role="alert"' in illegal.text
    stale = client.post(f"/t/{table_id}/event", headers=HX, data={"event": '{"type": "setup"}', "version": 5})
    assert stale.status_code == 409 and "Gerade hat jemand anderes etwas eingetragen" in stale.text and "Version" not in stale.text
    assert revision(app, table_id)[1] == 0


def test_viewers_watch_but_cannot_enter(app, client):
    table_id, _ = started_table(app, client)
    viewer = app.test_client()
    page = viewer.get(f"/t/{table_id}").text
    assert "Du schaust zu" in page and "Eintragen" not in page
    refused = viewer.post(f"/t/{table_id}/event", headers=HX, data={"event": '{"type": "setup"}', "version": 0})
    assert refused.status_code == 403


def test_undo_from_the_page_is_logged_for_everyone(app, client):
    table_id, (ben,) = started_table(app, client)
    setup = random_events("gleich-und-gleich", 2, seed=22)[0]
    client.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(setup), "version": 0, "key": "a"})
    undone = ben.post(f"/t/{table_id}/undo", headers=HX, data={"version": 1, "key": "b"})
    assert undone.status_code == 200 and "Ben nimmt zurück: „Anna: Aufbau fertig" in undone.text  # whose entry it was
    assert revision(app, table_id)[1] == 2


def test_seat_link_moves_a_seat_to_another_phone(app, client):
    table_id, (ben,) = started_table(app, client)
    link = client.post(f"/t/{table_id}/seats/link", data={"seat": 1}, headers=HX)
    url = re.search(r'href="(http[^"]+/s/[^"]+)"', link.text).group(1)
    assert "<svg" in link.text
    new_phone = app.test_client()
    assert new_phone.get(url.replace("http://localhost", "")).status_code == 302
    assert "Du bist Ben" in new_phone.get(f"/t/{table_id}").text
    assert "Du bist Ben" not in ben.get(f"/t/{table_id}").text
    assert app.test_client().get(f"/t/{table_id}/s/forged").status_code == 403


def test_export_and_import_through_the_pages(app, client):
    events = random_events("gemeinsame-sache", 2, seed=23)
    record = {"format": "kartentisch-record/1", "game": "gemeinsame-sache", "options": {},
              "players": ["Anna", "Ben"], "events": events}
    imported = client.post("/import", data={"record": json.dumps(record)})
    assert imported.status_code == 303
    table_id = imported.headers["Location"].rsplit("/", 1)[-1]
    exported = client.get(f"/t/{table_id}/record.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    assert json.loads(exported.text)["events"] == events
    refused = client.post("/import", data={"record": "[]"})
    assert refused.status_code == 422


def test_import_a_record_file(client):
    record = {"game": "cubirds", "options": {"solo": True}, "players": ["Anna", "RobinBird"],
              "events": random_events("cubirds", 2, seed=24, options={"solo": True})[:5]}
    upload = (io.BytesIO(json.dumps(record).encode()), "partie.json")
    imported = client.post("/import", data={"file": upload}, content_type="multipart/form-data")
    assert imported.status_code == 303
    page = client.get(imported.headers["Location"]).text
    assert "Du bist Anna" in page and "v5" in page
    garbage = client.post("/import", data={"file": (io.BytesIO(b"\xff\x00"), "x.json")},
                          content_type="multipart/form-data")
    assert garbage.status_code == 400 and "kein gültiges JSON" in garbage.text


def test_lobby_pollers_follow_the_start_to_the_game_page(app, client):
    table_id = create_by_form(client)
    ben = app.test_client()
    ben.post(f"/j/{join_code(app, table_id)}", data={"name": "Ben"})
    rev, _version = revision(app, table_id)
    assert ben.get(f"/t/{table_id}/sync?rev={rev}&phase=lobby").status_code == 204
    client.post(f"/t/{table_id}/start")
    moved = ben.get(f"/t/{table_id}/sync?rev={rev}&phase=lobby")
    assert moved.status_code == 204 and moved.headers["HX-Location"] == f"/t/{table_id}"
    assert ben.get(f"/t/{table_id}/sync?rev=nope&phase=play").status_code == 200
    assert ben.get("/t/unknown/sync?rev=1").status_code == 404


def test_a_seat_goes_to_another_phone_only_after_a_question_that_names_it(app, client):
    table_id, (ben,) = started_table(app, client)
    page = client.get(f"/t/{table_id}").text
    assert "<select" not in page, "no drop-down that defaults to a seat"
    assert "Den Platz von Ben an ein anderes Handy geben?" in page and "Ja, neuer Link für Ben" in page
    assert "Deinen Platz (Anna) an ein anderes Handy geben?" in page
    link = client.post(f"/t/{table_id}/seats/link", data={"seat": 1}, headers=HX)
    url = re.search(r'href="(http[^"]+/s/[^"]+)"', link.text).group(1)
    app.test_client().get(url.replace("http://localhost", ""))
    lost = ben.get(f"/t/{table_id}").text
    assert "Dein Platz ist jetzt auf einem anderen Handy." in lost and "Du schaust zu" in lost
    assert ben.post(f"/t/{table_id}/watch").status_code == 303
    assert "Dein Platz ist jetzt auf einem anderen Handy." not in ben.get(f"/t/{table_id}").text
    assert "anderen Handy." not in client.get(f"/t/{table_id}").text


def test_a_table_opened_on_localhost_hands_out_the_lan_address(make_app):
    app = make_app(LAN_URL="http://192.168.1.23:8000")
    client = app.test_client()
    table_id = create_by_form(client)
    code = join_code(app, table_id)
    lobby = client.get(f"/t/{table_id}").text
    assert f'id="join-url">http://192.168.1.23:8000/j/{code}<' in lobby and "localhost" not in lobby
    made = client.post("/api/tables", json={"game": "gemeinsame-sache", "name": "Anna"}).json
    assert made["join_url"].startswith("http://192.168.1.23:8000/j/")
    on_the_lan = client.get(f"/t/{table_id}", base_url="http://192.168.1.40:8000").text
    assert f"http://192.168.1.40:8000/j/{code}" in on_the_lan


def test_without_a_lan_address_the_lobby_says_no_phone_can_join(app, client):
    table_id = create_by_form(client)
    assert "kein Handy kann diesen Link oder QR-Code öffnen" in client.get(f"/t/{table_id}").text
    elsewhere = client.get(f"/t/{table_id}", base_url="http://192.168.1.40:8000").text
    assert "kein Handy kann" not in elsewhere


def test_the_lobby_counts_seats_in_words(app, client):
    solo = create_by_form(client, game="cubirds", solo="1")
    assert "Ein Platz: du spielst allein." in client.get(f"/t/{solo}").text
    assert "Genau 2 Plätze" in client.get(f"/t/{create_by_form(client, game='gemeinsame-sache')}").text
    assert "2 bis 5 Plätze" in client.get(f"/t/{create_by_form(client)}").text


def test_a_one_seat_table_is_worded_for_one_player_and_offers_no_joining(app, client):
    """Solo against RobinBird: the engine gives the table one human seat, so there is
    nobody to seat clockwise and nobody to invite."""
    solo = create_by_form(client, game="cubirds", solo="1")
    with app.app_context():
        assert store.human_seat_range("cubirds", store.get_table(solo).options)[1] == 1
    code = join_code(app, solo)
    lobby = client.get(f"/t/{solo}").text
    assert "<h2>Dein Platz</h2>" in lobby and "im Uhrzeigersinn" not in lobby
    assert "qr.svg" not in lobby and f"/j/{code}" not in lobby and code not in lobby
    watcher = app.test_client().get(f"/t/{solo}").text
    assert "Platz nehmen" not in watcher and f"/j/{code}" not in watcher
    several = create_by_form(client, game="cubirds")
    lobby = client.get(f"/t/{several}").text
    assert "Plätze (im Uhrzeigersinn)" in lobby and "qr.svg" in lobby and f"/j/{join_code(app, several)}" in lobby
    assert "Platz nehmen" in app.test_client().get(f"/t/{several}").text


def rules_links(page: str) -> dict[str, str]:
    """Link text -> address of each link to a rule page."""
    return {re.sub(r"<[^>]+>", "", text).strip(): href
            for href, text in re.findall(r'<a [^>]*href="(/regeln/[^"#]+)"[^>]*>(.*?)</a>', page)}


def test_the_rules_are_linked_per_game_from_the_start_page_and_from_a_tables_tools(app, client):
    start = rules_links(client.get("/").text)
    assert start == {"Die Regeln von Gleich und gleich": "/regeln/gleich-und-gleich",
                     "Die Regeln von CuBirds": "/regeln/cubirds",
                     "Die Regeln von Gemeinsame Sache": "/regeln/gemeinsame-sache"}
    table_id, (ben,) = started_table(app, client)
    for phone in (client, ben, app.test_client()):  # both seats and a viewer
        page = phone.get(f"/t/{table_id}").text
        tools = page[page.index('<section class="card tools">'):]
        assert rules_links(tools) == {"Die Regeln von Gleich und gleich": "/regeln/gleich-und-gleich"}
    for href in {*start.values()}:
        rules = client.get(href)
        assert rules.status_code == 200 and "<h1" in rules.text


def test_the_lobby_links_the_games_stylesheet(app, client):
    lobby = client.get(f"/t/{create_by_form(client, game='gemeinsame-sache')}").text
    with app.test_request_context():
        assert f'href="{url_for("static", filename="rummy.css")}"' in lobby


def test_no_version_number_on_screen(app, client):
    table_id, _ = started_table(app, client)
    page = client.get(f"/t/{table_id}").text
    assert re.search(r'<small class="version" hidden>v0</small>', page)


def test_the_lobby_says_which_variant_is_played(app, client):
    """What was chosen on the start page is what the table sees before it starts:
    RobinBird's head start (rules/003: „kannst du der Sammlung von RobinBird zu Beginn des
    Spiels 1 oder mehr zusätzliche Karten hinzufügen“), a variant by its name."""
    solo = create_by_form(client, game="cubirds", solo="1", robin_handicap="2")
    lobby = re.sub(r"\s+", " ", client.get(f"/t/{solo}").text)
    assert "Gespielt wird: Solo gegen RobinBird, Solo: Vorsprung für RobinBird (Karten in ihrer Sammlung): 2" in lobby
    plain = client.get(f"/t/{create_by_form(client, game='cubirds')}").text
    assert "Gespielt wird:" not in plain
