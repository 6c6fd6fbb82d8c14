"""The regions are the same for every phone that sees the same (contract C1):
drawn once per table revision, language and perspective, from nothing of the
phone that asked first; no CSRF token, name or random key inside them; the
idempotency keys derived from table, version and event."""
from __future__ import annotations

import html
import json
import re

from webapp import play

from .conftest import random_events
from .test_pages import HX, create_by_form, join_code, revision

KEY = re.compile(r"key(?:&#34;|\"): (?:&#34;|\")([^&\"]+)")  # in hx-vals: JSON in an attribute


def started_table(app, client, names=("Anna", "Ben"), game="gleich-und-gleich"):
    """A started table made through the pages; ``client`` holds seat 0, the others' clients follow."""
    table_id = create_by_form(client, game=game, name=names[0])
    others = [app.test_client() for _ in names[1:]]
    for other, name in zip(others, names[1:]):
        assert other.post(f"/j/{join_code(app, table_id)}", data={"name": name}).status_code == 303
    assert client.post(f"/t/{table_id}/start").status_code == 303
    return table_id, others


def enter_until_buttons_enter(client, table_id: str, game: str, players: int, seed: int) -> int:
    """Enter events until the controls hold buttons that enter (they carry a key); the version."""
    for version, event in enumerate(random_events(game, players, seed=seed)):
        entered = client.post(f"/t/{table_id}/event", headers=HX,
                              data={"event": json.dumps(event), "version": version})
        assert entered.status_code == 200, entered.text
        if KEY.search(entered.text):
            return version + 1
    raise AssertionError("no button that enters")


def sync(phone, table_id: str, **query) -> str:
    answer = phone.get(f"/t/{table_id}/sync", query_string={"rev": 0, "phase": "play", **query}, headers=HX)
    assert answer.status_code == 200
    return answer.text


def test_every_seated_bird_phone_gets_the_same_regions_drawn_once(app, client, monkeypatch):
    table_id, (ben, carla) = started_table(app, client, names=("Anna", "<b>Ben</b>", "Carla"))
    version = enter_until_buttons_enter(client, table_id, "gleich-und-gleich", 3, seed=5)
    drawn = []
    monkeypatch.setattr(play, "_draw", lambda context, view=None, draw=play._draw:
                        drawn.append(context["seat"]) or draw(context, view))
    play._drawings.clear()
    seated = [sync(phone, table_id) for phone in (client, ben, carla)]
    viewer = sync(app.test_client(), table_id)
    assert seated[0] == seated[1] == seated[2], "byte for byte the same for every seated phone"
    assert viewer != seated[0] and "Du schaust zu" in viewer
    assert len(drawn) == 2, "one drawing per perspective: seated, watching"
    for text in (*seated, viewer):
        assert "Du bist" not in text and "csrf" not in text.lower() and "Ben" not in text.replace("&lt;b&gt;Ben&lt;/b&gt;", "")
    keys = set(KEY.findall(seated[0]))
    assert keys and all(re.fullmatch(rf"{re.escape(table_id)}-{version}-[0-9a-f]{{10}}", k) for k in keys), keys


def test_a_drawing_is_the_same_whichever_phone_asked_first(app, client):
    """Gemeinsame Sache draws each seat its own; the birds one for all seated phones."""
    for game, names in (("gemeinsame-sache", ("Anna", "Ben")), ("gleich-und-gleich", ("Anna", "Ben", "Carla"))):
        table_id, (ben, *_rest) = started_table(app, client, names=names, game=game)
        enter_until_buttons_enter(client, table_id, game, len(names), seed=2)
        play._drawings.clear()
        anna_first = sync(client, table_id)
        play._drawings.clear()
        sync(ben, table_id)
        anna_after_ben = sync(client, table_id)
        assert anna_after_ben == anna_first, game


def test_the_regions_but_the_controls_are_drawn_once_for_every_perspective(app, client, monkeypatch):
    """Gemeinsame Sache: both seats and a phone that watches see one board (the page marks
    its own side, <main data-me>), drawn once per revision; each perspective draws its controls."""
    table_id, (ben,) = started_table(app, client, names=("Anna", "Ben"), game="gemeinsame-sache")
    enter_until_buttons_enter(client, table_id, "gemeinsame-sache", 2, seed=2)
    drawn = []
    monkeypatch.setattr(play, "render_template", lambda name, render=play.render_template, **context:
                        drawn.append(name) or render(name, **context))
    play._drawings.clear()
    answers = [sync(phone, table_id) for phone in (client, ben, app.test_client())]
    boards = {re.search(r'<section id="board".*?</section>\s*(?=<section id="controls")', answer, re.S).group(0)
              for answer in answers}
    assert len(boards) == 1, "one board for every phone"
    assert sorted(drawn) == sorted(["play/_controls.html"] * 3 + ["play/_status.html", "play/_board.html",
                                                                   "play/_log.html", "play/_sync.html"])
    assert len({answer.split('<section id="controls"')[1] for answer in answers}) == 3  # each its own controls
    assert 'class="you"' in boards.pop() and "mine" not in answers[0].split('id="controls"')[0]


def test_a_double_tap_enters_once_and_gets_the_same_answer(app, client):
    table_id, (ben,) = started_table(app, client)
    setup = random_events("gleich-und-gleich", 2, seed=21)[0]
    vals = json.loads(play.entry_vals(type("T", (), {"id": table_id, "version": 0})(), setup))
    first = client.post(f"/t/{table_id}/event", headers=HX, data=vals)
    again = ben.post(f"/t/{table_id}/event", headers=HX, data=vals)  # the same button on another phone
    assert first.status_code == again.status_code == 200
    assert revision(app, table_id)[1] == 1
    typed = client.post(f"/t/{table_id}/event", headers=HX,  # the generic screen's typed JSON: no key
                        data={"event": json.dumps(setup), "version": 0})
    assert typed.status_code == 200 and revision(app, table_id)[1] == 1, "its key is the one the button has"
    assert play.entry_key(table_id, 0, setup) == vals["key"] != play.entry_key(table_id, 1, setup)


def test_the_centre_view_asks_only_for_its_regions(app, client):
    table_id, _ = started_table(app, client)
    page = client.get(f"/t/{table_id}/mitte").text
    poller = html.unescape(re.search(r'<div id="sync"[^>]*hx-get="([^"]+)"', page).group(1))
    assert "view=centre" in poller
    answer = sync(client, table_id, view="centre")
    assert re.findall(r'<(?:section|div) id="(\w+)"[^>]*hx-swap-oob', answer) == ["status", "board", "sync"]
    assert "view=centre" in answer  # its new poller asks for the same


def test_a_rematch_is_loaded_by_htmx_with_the_seat_taken(app, client):
    events = random_events("cubirds", 2, seed=4)
    record = {"game": "cubirds", "options": {}, "players": ["Anna", "Ben"], "events": events}
    imported = client.post("/import", data={"record": json.dumps(record)})
    table_id = imported.headers["Location"].rsplit("/", 1)[-1]
    over = client.get(f"/t/{table_id}").text
    assert 'data-value="rematch"' in over and "csrf_token" not in over.split('id="board"', 1)[1]
    answer = client.post(f"/t/{table_id}/rematch", headers=HX)
    assert answer.status_code == 204
    follow = answer.headers["HX-Location"]
    assert follow.startswith("/t/") and follow != f"/t/{table_id}"
    assert "Du bist Anna" in client.get(follow).text
    assert client.post(f"/t/{table_id}/rematch").status_code == 303  # a plain form post: redirected


def test_the_caches_of_drawings_and_sentences_hold_text_bounded_by_size(app, client):
    """What a process keeps of the tables it drew: the log's sentences as strings, at most
    the log's length per table and language (not the entry rows they were worded from,
    which kept ~5 KB each alive), the drawn regions counted by their length, so old
    revisions age out."""
    table_id, _others = started_table(app, client)
    enter_until_buttons_enter(client, table_id, "gleich-und-gleich", 2, seed=5)
    sync(client, table_id)
    version, log = play._logs[(table_id, "de")]
    assert version > 0 and 0 < len(log) <= play.store.LOG_LENGTH
    assert all(type(sentence) is str and isinstance(entry.seq, int) for entry, sentence in log)
    assert play._drawings.currsize == sum(len(drawn) for drawn in play._drawings.values()) > 0
    assert play._drawings.maxsize <= 64 * 2**20
    drawings = app.extensions["sync"]._drawings
    assert drawings.currsize == sum(len(d.body) + len(d.gzipped or b"") for d in drawings.values()) > 0
