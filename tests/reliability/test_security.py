"""Security: token randomness, a seat only at its own table, CSRF on every
form, the API only with its bearer token, hostile names escaped on every page,
a CSP without inline script, rate and size limits, no stack traces."""
from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser

import pytest

from engine.randomplay import random_record
from webapp import seats, store
from webapp.security import SECURITY_HEADERS, TRUSTWORTHY_ORIGIN_HEADERS

HOSTILE = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(2)>"]
PLAYER_COUNTS = {"gleich-und-gleich": 3, "cubirds": 2, "gemeinsame-sache": 2}


class InlineCode(HTMLParser):
    """Collects what a strict CSP would block: inline <script>/<style>, on…=
    handlers, style= attributes, javascript: URLs."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names or tag == "style":
            self.found.append(f"<{tag}> inline")
        for name, value in attrs:
            if name.startswith("on") or name == "style" or (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def raw_bits(token: str) -> int:
    return 8 * len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))


def test_tokens_and_table_ids_carry_at_least_128_random_bits(client, new_table):
    tables = [new_table(names=("Anna", "Ben"), start=False) for _ in range(20)]
    tokens = [token for table in tables for token in table.tokens]
    ids = [table.id for table in tables]
    assert min(map(raw_bits, tokens)) >= 256 and min(map(raw_bits, ids)) >= 128
    assert len(set(tokens)) == len(tokens) and len(set(ids)) == len(ids)
    renewed = client.post(f"/api/tables/{tables[0].id}/seats/1/token", headers=tables[0].auth()).json["token"]
    assert raw_bits(renewed) >= 256 and renewed not in tokens


@pytest.mark.parametrize("method, path", [
    ("get", ""), ("get", "/state"), ("get", "/record"), ("post", "/events"), ("post", "/undo"),
    ("post", "/start"), ("post", "/seats/order"), ("delete", "/seats/1"), ("post", "/seats/0/token"),
])
def test_a_seat_at_another_table_gets_the_same_404_as_no_table(client, new_table, method, path):
    mine = new_table(names=("Anna", "Ben"))
    theirs = new_table(names=("Xena", "Yuri"))
    call = getattr(client, method)
    nowhere = call(f"/api/tables/no-such-table{path}", json={"version": 0, "event": {}}, headers=mine.auth())
    elsewhere = call(f"/api/tables/{theirs.id}{path}", json={"version": 0, "event": {}}, headers=mine.auth())
    forged = call(f"/api/tables/{theirs.id}{path}", json={"version": 0, "event": {}},
                  headers={"Authorization": "Bearer " + "A" * 43})
    assert nowhere.status_code == elsewhere.status_code == 404
    assert nowhere.get_data() == elsewhere.get_data()
    assert forged.status_code == 403  # a wrong token (issue 4), not a seat elsewhere
    assert client.get(f"/api/tables/{theirs.id}/state", headers=theirs.auth()).json["version"] == 0


def test_a_seat_cannot_enter_at_another_table_through_the_pages(app, new_table):
    mine, theirs = new_table(names=("Anna", "Ben")), new_table(names=("Xena", "Yuri"))
    phone = app.test_client()
    assert phone.get(f"/t/{mine.id}/s/{mine.tokens[0]}").status_code == 302
    event = random_record("gleich-und-gleich", {}, 2, 1)["events"][0]
    entered = phone.post(f"/t/{theirs.id}/event", data={"event": json.dumps(event), "version": "0", "key": "k"})
    assert entered.status_code == 403
    assert phone.get(f"/t/{theirs.id}/s/{mine.tokens[0]}").status_code == 403
    assert app.test_client().get(f"/api/tables/{theirs.id}/state", headers=theirs.auth()).json["version"] == 0


def form_posts(app) -> list[str]:
    """Every POST route outside the API (the forms)."""
    rules = [rule.rule for rule in app.url_map.iter_rules() if "POST" in rule.methods]
    return sorted(rule for rule in rules if not rule.startswith("/api/"))


def test_every_form_post_needs_the_csrf_token(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    made = client.post("/api/tables", json={"game": "gleich-und-gleich", "name": "Anna"})
    assert made.status_code == 201, "the API needs no CSRF token (bearer tokens)"
    table = made.json
    assert client.get(table["seat_url"]).status_code == 302  # this browser holds seat 0
    routes = form_posts(app)
    assert len(routes) >= 8, routes
    for rule in routes:
        path = rule.replace("<table_id>", table["id"]).replace("<code>", table["join_code"])
        refused = client.post(path, data={"name": "Ben", "seat": "0", "game": "gleich-und-gleich"})
        assert refused.status_code == 400 and "veraltet" in refused.get_data(as_text=True), rule
    seats = client.get(f"/api/tables/{table['id']}", headers={"Authorization": f"Bearer {table['token']}"}).json
    assert [seat["name"] for seat in seats["seats"]] == ["Anna"] and seats["status"] == "lobby"

    page = client.get(f"/t/{table['id']}").get_data(as_text=True)
    csrf_token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    moved = client.post(f"/t/{table['id']}/start", headers={"X-CSRFToken": csrf_token})
    assert moved.status_code != 400, "with the page's token the form goes through (to the game's own check)"


def test_the_api_does_not_take_the_browser_session_as_a_seat(app, new_table):
    table = new_table(names=("Anna", "Ben"))
    phone = app.test_client()
    phone.get(f"/t/{table.id}/s/{table.tokens[0]}")
    assert phone.get(f"/api/tables/{table.id}/state").status_code == 401
    assert phone.post(f"/api/tables/{table.id}/undo", json={"version": 0}).status_code == 401


def hostile_tables(client) -> list[dict]:
    """Tables with hostile names: a lobby, and each game at its start, middle and end."""
    lobby = client.post("/api/tables", json={"game": "gleich-und-gleich", "name": HOSTILE[0]}).json
    for name in HOSTILE[1:]:
        assert client.post(f"/api/tables/{lobby['id']}/seats",
                           json={"join_code": lobby["join_code"], "name": name}).status_code == 201
    tables = [lobby]
    for game, players in PLAYER_COUNTS.items():
        record = {**random_record(game, {}, players, 5), "players": HOSTILE[:players]}
        for cut in (0, len(record["events"]) // 2, len(record["events"])):
            made = client.post("/api/tables", json={"record": {**record, "events": record["events"][:cut]}})
            assert made.status_code == 201, made.json
            tables.append(made.json)
    return tables


def pages_showing_names(app, client) -> dict[str, str]:
    """Every page and region that shows the players' names, as the seat and as a viewer."""
    pages = {}
    for table in hostile_tables(client):
        phone, viewer = app.test_client(), app.test_client()
        phone.get(table["seat_url"])
        base = f"/t/{table['id']}"
        paths = [base, f"{base}/sync?rev=-1", f"{base}/mitte", f"{base}/controls"]
        for who, browser in (("seat", phone), ("viewer", viewer)):
            for path in paths:
                answer = browser.get(path)
                if answer.status_code == 200:
                    pages[f"{who} {path}"] = answer.get_data(as_text=True)
        pages[f"join {table['join_url']}"] = viewer.get(table["join_url"]).get_data(as_text=True)
        link = phone.post(f"{base}/seats/link", data={"seat": "0"})
        pages[f"seat link {base}"] = link.get_data(as_text=True)
    return pages


def test_hostile_names_are_escaped_on_every_page(app, client):
    pages = pages_showing_names(app, client)
    assert len(pages) >= 30
    shown = 0
    for where, html in pages.items():
        for name in HOSTILE:
            assert name not in html, f"{name!r} unescaped on {where}"
        assert not re.search(r"<(script|img|svg)\b[^>]*(alert|onerror|onload)", html), where
        shown += "&lt;script&gt;" in html or "&#34;&gt;&lt;img" in html or "&gt;&lt;img" in html
    assert shown >= len(pages) // 2, "the names should appear (escaped) on most of these pages"


def test_every_page_has_the_security_headers_and_no_inline_script(app, client):
    pages = pages_showing_names(app, client)
    for path in ("/", "/t/no-such-table", "/api/tables/x/state"):
        answer = client.get(path)
        for header, value in SECURITY_HEADERS.items():
            assert answer.headers.get(header) == value, (path, header)
        pages[path] = answer.get_data(as_text=True)
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    for where, html in pages.items():
        assert inline_code(html) == [], f"inline script or style on {where}"


COOP = "Cross-Origin-Opener-Policy"


@pytest.mark.parametrize("base_url, environ", [
    ("https://kartentisch.example.org", {}),
    # behind a reverse proxy gunicorn sets the scheme from the proxy's X-Forwarded-Proto
    ("http://kartentisch.example.org", {"wsgi.url_scheme": "https"}),
    ("http://localhost:8000", {}),
    ("http://127.0.0.1:8000", {}),
    ("http://[::1]:8000", {}),
    ("http://tisch.localhost:8000", {}),
])
def test_the_opener_policy_is_sent_where_the_browser_honours_it(client, base_url, environ):
    answer = client.get("/", base_url=base_url, environ_overrides=environ)
    assert answer.headers.get(COOP) == TRUSTWORTHY_ORIGIN_HEADERS[COOP] == "same-origin"


@pytest.mark.parametrize("base_url, headers", [
    ("http://192.168.1.23:8000", {}),
    ("http://kartentisch.lan", {}),
    ("http://127.kartentisch.lan", {}),   # a name, not a loopback address
    # the header alone (no trusted proxy turned it into the scheme) changes nothing
    ("http://192.168.1.23:8000", {"X-Forwarded-Proto": "https"}),
])
def test_no_opener_policy_over_plain_http_on_the_lan(client, base_url, headers):
    """Chrome ignores the header on an untrustworthy origin and logs a console error
    on every page about it."""
    for path in ("/", "/t/no-such-table", "/regeln/cubirds"):
        answer = client.get(path, base_url=base_url, headers=headers)
        assert COOP not in answer.headers, (base_url, path)
        assert answer.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]


def test_joining_and_creating_are_rate_limited(make_app):
    client = make_app(RATELIMIT_ENABLED=True).test_client()
    table = client.post("/api/tables", json={"game": "gleich-und-gleich", "name": "Anna"}).json
    join = f"/api/tables/{table['id']}/seats"
    answers = [client.post(join, json={"join_code": table["join_code"], "name": f"P{n}"}).status_code
               for n in range(61)]
    assert 429 not in answers[:60] and answers[60] == 429
    assert client.post(f"/j/{table['join_code']}", data={"name": "Q"}).status_code != 429, "each route its own limit"
    limited = client.post("/import", data={"record": "{}"})
    for _ in range(30):
        limited = client.post("/import", data={"record": "{}"})
    assert limited.status_code == 429 and "warten" in limited.get_data(as_text=True)


def test_size_limits_names_requests_and_entries(client, new_table, monkeypatch):
    long_name = client.post("/api/tables", json={"game": "gleich-und-gleich", "name": "x" * (store.NAME_MAX + 1)})
    assert long_name.status_code == 422 and str(store.NAME_MAX) in long_name.json["error"]
    huge = client.post("/api/tables", data=b"{" + b" " * (3 * 1024 * 1024) + b"}",
                       headers={"Content-Type": "application/json"})
    assert huge.status_code == 413 and huge.json["error"]

    record = random_record("gemeinsame-sache", {}, 2, 1)
    imported = client.post("/api/tables", json={"record": {**record, "players": ["Anna", "x" * (store.NAME_MAX + 1)]}})
    assert imported.status_code == 422 and imported.json["code"] == "bad-name"

    monkeypatch.setattr(store.checks, "EVENTS_MAX", 4)
    table = new_table(names=("Anna", "Ben", "Carla"))
    events = random_record("gleich-und-gleich", {}, 3, 2)["events"]
    for version, event in enumerate(events[:4]):
        assert client.post(f"/api/tables/{table.id}/events", headers=table.auth(),
                           json={"event": event, "version": version}).status_code == 200
    full = client.post(f"/api/tables/{table.id}/events", headers=table.auth(), json={"event": events[4], "version": 4})
    assert full.status_code == 413 and "4" in full.json["error"]
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == 4
    record = random_record("gleich-und-gleich", {}, 3, 2)
    too_long = client.post("/api/tables", json={"record": {**record, "events": events[:5]}})
    assert too_long.status_code == 413


def test_a_phone_at_many_tables_keeps_a_cookie_browsers_accept_and_its_newest_seats(app):
    """Each seat a phone takes is kept in its session cookie: after 60 tables (long game
    nights of rematches) the cookie must stay under the 4 KB browsers keep (else they drop
    it, and with it every seat), and hold the newest seats."""
    phone = app.test_client()
    pages = [phone.post("/tables", data={"game": "gleich-und-gleich", "name": "Anna"}).headers["Location"]
             for _ in range(60)]
    cookie = phone.get_cookie("session").value
    assert len(cookie) < 4000, f"a session cookie of {len(cookie)} bytes"
    held = app.session_interface.get_signing_serializer(app).loads(cookie)["seats"]
    assert len(held) == seats.SEATS_KEPT
    assert [page.rsplit("/", 1)[-1] for page in pages[-seats.SEATS_KEPT:]] == list(held)  # the newest, in order
    # What the server makes of the cookie: only a seat may rearrange the lobby (a viewer gets 403).
    def moves_a_seat(page: str) -> int:
        return phone.post(f"{page}/seats/move", data={"seat": "0", "direction": "down"}).status_code
    assert moves_a_seat(pages[-1]) != 403  # seated (one seat: nothing to move, but no 403)
    assert moves_a_seat(pages[0]) == 403  # the oldest seat was let go


def test_an_internal_error_shows_a_sentence_never_a_stack_trace(make_app, monkeypatch):
    app = make_app(TESTING=False)
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "gleich-und-gleich", "name": "Anna"}).json

    def broken(*_args, **_kwargs):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(store, "table_by_code", broken)
    monkeypatch.setattr(store, "seat_of_token", broken)
    for answer in (client.get(f"/j/{table['join_code']}"),
                   client.get(f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {table['token']}"})):
        body = answer.get_data(as_text=True)
        assert answer.status_code == 500
        assert "schiefgegangen" in body
        assert "Traceback" not in body and "secret internal detail" not in body and "RuntimeError" not in body
    assert app.debug is False
