"""In a real browser (Playwright, Chromium as a Pixel 7): a retried tap after a
lost answer and a double tap on a slow connection apply once; hostile names
stay text; no page trips the Content-Security-Policy."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine.randomplay import random_record

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from pages_tour import tour  # noqa: E402

pytestmark = pytest.mark.e2e

GAME, PLAYERS, AT = "gemeinsame-sache", ["Anna", "Ben"], 5  # its screen has the common undo question
HOSTILE = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>']


def imported(page, players=PLAYERS, cut=AT) -> dict:
    record = {**random_record(GAME, {}, len(players), 3), "players": list(players)}
    made = page.request.post("/api/tables", data={"record": {**record, "events": record["events"][:cut]}})
    assert made.status == 201, made.text()
    return made.json()


def api_state(page, table: dict) -> dict:
    answer = page.request.get(f"/api/tables/{table['id']}/record", headers={"Authorization": f"Bearer {table['token']}"})
    state = page.request.get(f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {table['token']}"})
    return {"version": state.json()["version"], "events": len(answer.json()["events"])}


def undo_button(page):
    """The undo question's button, the question opened (it names what it takes back)."""
    page.locator("#controls details.undo > summary").click()
    return page.locator("#controls details.undo button[data-kind=undo]")


def test_a_tap_sent_again_after_its_answer_was_lost_applies_once(phone):
    page = phone()
    table = imported(page)
    page.goto(table["seat_url"])
    sent: list[dict] = []

    def lose_the_first_answer(route):
        sent.append(dict(pair.split("=", 1) for pair in route.request.post_data.split("&")))
        if len(sent) == 1:
            route.fetch()  # the server gets it and answers …
            route.abort("connectionreset")  # … but the answer never arrives
        else:
            route.continue_()

    page.route("**/sync?*", lambda route: route.abort("connectionreset"))  # no redraw meanwhile:
    page.evaluate("htmx.trigger('#sync', 'htmx:abort')")  # the poll held before the route goes too
    page.route("**/undo", lose_the_first_answer)
    undo = undo_button(page)
    undo.click()
    page.wait_for_function("() => document.getElementById('comfort').dataset.kind === 'refused'")
    assert api_state(page, table) == {"version": AT + 1, "events": AT - 1}, "the first try was applied"
    undo.click()  # the same button: the same key
    expect(page.locator("#status")).to_contain_text(f"v{AT + 1}")
    page.unroute("**/sync?*")

    assert len(sent) == 2 and sent[0]["key"] == sent[1]["key"] and sent[0]["version"] == sent[1]["version"]
    page.wait_for_timeout(1200)  # a few sync polls
    assert api_state(page, table) == {"version": AT + 1, "events": AT - 1}, "applied once"


def test_a_double_tap_on_a_slow_connection_applies_once(phone):
    page = phone()
    table = imported(page)
    page.goto(table["seat_url"])
    keys: list[str] = []
    page.on("request", lambda request: keys.append(request.post_data) if request.url.endswith("/undo") else None)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1})
    undo_button(page).dblclick()
    started = time.monotonic()
    while api_state(page, table)["version"] == AT and time.monotonic() - started < 10:
        page.wait_for_timeout(200)
    page.wait_for_timeout(2500)  # any second request has arrived by now
    assert api_state(page, table) == {"version": AT + 1, "events": AT - 1}
    assert keys and len(set(keys)) == 1, f"the taps carry one key: {keys}"
    print(f"\ndouble tap: {len(keys)} request(s) sent, one entry applied")


def test_hostile_names_stay_text_in_the_browser(phone):
    page = phone()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    table = imported(page, players=HOSTILE)
    page.goto(table["seat_url"])
    expect(page.locator("body")).to_contain_text(HOSTILE[0])
    lobby = page.request.post("/api/tables", data={"game": "gleich-und-gleich", "name": HOSTILE[1]}).json()
    page.goto(lobby["seat_url"])
    expect(page.locator("#lobby")).to_contain_text(HOSTILE[1])
    page.wait_for_timeout(700)
    assert dialogs == [] and page.locator("img[src=x]").count() == 0


def test_no_page_of_the_tour_violates_the_content_security_policy(phone):
    player, viewer = phone(), phone()
    violations: list[str] = []
    for browser_page in (player, viewer):
        browser_page.on("console", lambda message: violations.append(message.text)
                        if "Content Security Policy" in message.text else None)
    stops = 0
    for _name, page in tour(player, viewer, "de"):
        csp = page.evaluate("() => fetch(location.href).then(r => r.headers.get('content-security-policy'))")
        assert "script-src 'self'" in csp
        page.wait_for_timeout(100)
        stops += 1
    assert stops >= 10 and violations == [], json.dumps(violations[:5], ensure_ascii=False)
