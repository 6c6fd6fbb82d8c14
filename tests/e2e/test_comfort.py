"""The phone comfort of issue 9: installable (manifest, icons, service worker
that keeps only static files), awake (Screen Wake Lock on table pages, again
after the page was hidden; a note once where the page is not secure),
reconnecting (resync at once after a drop or sleep, said briefly; entries
while offline refused with a message, never sent later; a move to the game page that
never comes holds the polls back 10 s at most)."""
from __future__ import annotations

import re
import struct
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))
from console import console_errors  # noqa: E402
from pages_tour import create_table, visit  # noqa: E402

from engine.randomplay import random_record  # noqa: E402
from webapp import pwa  # noqa: E402

REFUSED = "Keine Verbindung – deine Eingabe wurde nicht gesendet"
BACK = "Wieder verbunden – die Anzeige ist aktuell"
SYNC_LIMIT_MS = 1000

FAKE_WAKE_LOCK = """{
  // Records what the page asks of the Screen Wake Lock API; the sentinel can be
  // released as the system does when the page is hidden.
  window.__wakeRequests = 0;
  const wakeLock = {request: async type => {
    window.__wakeRequests += 1;
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.release = async () => sentinel.dispatchEvent(new Event("release"));
    window.__wakeSentinel = sentinel;
    return sentinel;
  }};
  Object.defineProperty(Navigator.prototype, "wakeLock", {get: () => wakeLock, configurable: true});
}"""

SET_VISIBILITY = """state => {
  Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


# Times, in the page's own clock, when the wake-up came and when the status bar
# first showed the awaited version: the delay is the app's, not the test driver's.
WATCH_VERSION = """version => {
  window.__shownAt = null;
  window.__wokenAt = null;
  window.addEventListener("online", () => { window.__wokenAt ??= performance.now(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") window.__wokenAt ??= performance.now();
  });
  new MutationObserver(() => {
    if (window.__shownAt === null && document.querySelector("#status .version")?.textContent.trim() === version)
      window.__shownAt = performance.now();
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def resync_ms(page) -> float:
    """Milliseconds from the wake-up (online again, or visible) to the new version on screen."""
    page.wait_for_function("() => window.__shownAt !== null && window.__wokenAt !== null", timeout=10000)
    return page.evaluate("window.__shownAt - window.__wokenAt")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def game_table(page, events: int = 6) -> dict:
    """A Gleich-und-gleich table after ``events`` events; ``page`` holds seat 0."""
    record = random_record("gleich-und-gleich", {}, 2, 3)
    table = create_table(page, {"record": {**record, "players": ["Anna", "Ben"], "events": record["events"][:events]}})
    visit(page, table["seat_url"])
    return table


def version_of(page) -> str:
    return page.locator("#status .version").inner_text().strip()


# --- installable -------------------------------------------------------------

def test_manifest_names_the_app_and_its_icons(page):
    answer = page.request.get("/manifest.webmanifest")
    assert answer.status == 200 and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Kartentisch" and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in pngs}
    assert any("maskable" in icon["purpose"] for icon in pngs), "no maskable icon (Android's adaptive icons)"
    for icon in manifest["icons"]:
        image = page.request.get(icon["src"])
        assert image.status == 200, f"{icon['src']} answered {image.status}"
        if icon["type"] == "image/png":
            width, height = png_size(image.body())
            assert f"{width}x{height}" == icon["sizes"], f"{icon['src']} is {width}x{height}, declared {icon['sizes']}"


def test_chrome_finds_the_app_installable(page):
    visit(page, "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest["errors"], f"manifest errors: {manifest['errors']}"
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, where Chrome installs nothing; every other reason counts
    errors = [error for error in errors if error["errorId"] != "in-incognito"]
    assert errors == [], f"Chrome would not offer to install: {errors}"


def test_service_worker_keeps_static_files_and_never_pages(page):
    table = game_table(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now controlled by the worker
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assets = page.evaluate("""() => [document.querySelector("link[rel=stylesheet]").getAttribute("href"),
                                     document.querySelector("script[src*=comfort]").getAttribute("src")]""")
    page.context.set_offline(True)
    fetched = page.evaluate("""async urls => {
      const out = {};
      for (const url of urls) {
        try { out[url] = (await fetch(url)).status; } catch (err) { out[url] = "network error"; }
      }
      return out;
    }""", [*assets, f"/t/{table['id']}", f"/t/{table['id']}/sync?rev=0&phase=play", "/"])
    page.context.set_offline(False)
    assert all(fetched[asset] == 200 for asset in assets), f"offline, the static files were not served: {fetched}"
    pages = {url: status for url, status in fetched.items() if not url.startswith("/static/")}
    assert set(pages.values()) == {"network error"}, f"offline, a page or the sync was answered: {pages}"
    cached = page.evaluate("""async () => {
      const urls = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(name + " " + new URL(request.url).pathname);
      return urls;
    }""")
    assert cached and all(" /static/" in entry and entry.startswith("kartentisch-static-") for entry in cached), cached


def test_service_worker_version_follows_the_static_files(client, tmp_path):
    answer = client.get("/sw.js")
    body = answer.get_data(as_text=True)
    assert answer.headers["Service-Worker-Allowed"] == "/" and "no-cache" in answer.headers["Cache-Control"]
    assert '"__VERSION__"' not in body and '"__ASSETS__"' not in body
    assert '"/static/app.' in body and '"/static/comfort.' in body  # hashed names (webapp/static_files.py)
    (tmp_path / "app.css").write_text("body { color: red }")
    (tmp_path / "notes.md").write_text("not served to phones")
    files, before = pwa._static_files.__wrapped__(str(tmp_path))
    (tmp_path / "app.css").write_text("body { color: blue }")
    assert files == ("app.css",)
    assert pwa._static_files.__wrapped__(str(tmp_path))[1] != before, "a changed file must give a new cache version"


# --- awake -------------------------------------------------------------------

def test_wake_lock_is_held_on_table_pages_and_taken_again_after_hiding(page):
    page.add_init_script(FAKE_WAKE_LOCK)
    visit(page, "/")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__wakeRequests") == 0, "the start page must not keep the screen on"
    game_table(page)
    page.wait_for_function("window.__wakeRequests === 1")
    page.evaluate(SET_VISIBILITY, "hidden")
    page.evaluate("window.__wakeSentinel.release()")  # what the browser does to a hidden page
    page.evaluate(SET_VISIBILITY, "visible")
    page.wait_for_function("window.__wakeRequests === 2")
    expect(page.locator("#insecure-note")).to_be_hidden()  # 127.0.0.1 is a secure context


@pytest.fixture
def insecure_page(browser_type, browser_type_launch_args, phone_device, base_url):
    """A phone reaching the live server by a plain-HTTP name (not localhost):
    no secure context, so no wake lock, as on a LAN address."""
    port = base_url.rsplit(":", 1)[1]
    args = [*browser_type_launch_args.get("args", []), "--host-resolver-rules=MAP kartentisch.test 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    context = browser.new_context(**phone_device, base_url=f"http://kartentisch.test:{port}")
    yield context.new_page()
    browser.close()


def test_plain_http_explains_the_missing_wake_lock_once(insecure_page, page):
    visit(insecure_page, "/")
    assert insecure_page.evaluate("window.isSecureContext") is False
    expect(insecure_page.locator("#insecure-note")).to_be_hidden()  # only where a game lies on the table
    seat_url = game_table(page)["seat_url"]
    page = insecure_page
    visit(page, urlsplit(seat_url).path)
    note = page.locator("#insecure-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("./kt run --https")
    note.get_by_role("button").click()
    expect(note).to_be_hidden()
    page.reload()
    page.wait_for_timeout(300)
    expect(note).to_be_hidden()


# Where the main content and the step's entries lie, and the viewport's height.
LAYOUT = """() => ({
  main: document.getElementById("page").getBoundingClientRect().top,
  taps: [...document.querySelectorAll("#controls button")].filter(b => b.offsetParent)
          .map(b => b.getBoundingClientRect().bottom),
  height: window.innerHeight,
})"""


def test_the_plain_http_note_lies_over_the_page_without_pushing_it_down(insecure_page, page):
    """The note on a fresh phone's first table page (served over http on the LAN) is a
    bar over the foot of the screen: the step keeps its place, its taps stay on screen."""
    seat_url = game_table(page)["seat_url"]
    visit(insecure_page, urlsplit(seat_url).path)
    note = insecure_page.locator("#insecure-note")
    expect(note).to_be_visible()
    shown = insecure_page.evaluate(LAYOUT)
    box = note.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= shown["height"] + 1, "the note is not wholly on screen"
    assert box["height"] < shown["height"] / 2, f"the note covers {box['height']:.0f} of {shown['height']} px"
    expect(note.get_by_role("button")).to_be_in_viewport()
    assert shown["taps"] and max(shown["taps"]) <= shown["height"], "the step's taps left the screen"
    note.get_by_role("button").click()
    expect(note).to_be_hidden()
    gone = insecure_page.evaluate(LAYOUT)
    assert gone["main"] == shown["main"] and gone["taps"] == shown["taps"], (shown, gone)


# --- reconnecting ------------------------------------------------------------

def undo_by_api(page, table: dict, version: int) -> None:
    """Another phone takes the last entry back (through the API, with its token)."""
    answer = page.request.post(f"/api/tables/{table['id']}/undo", data={"version": version},
                               headers={"Authorization": f"Bearer {table['token']}"})
    assert answer.status == 200, answer.text()


def ask_to_undo(page):
    """The undo button asks first (online); the confirming button is the entry."""
    page.locator('#controls button[data-value="undo-ask"]').click()
    expect(page.locator('#controls button[data-value="undo"]')).to_be_visible()


def test_an_entry_made_offline_is_refused_and_never_sent_later(page):
    game_table(page, events=6)
    ask_to_undo(page)
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.context.set_offline(True)
    page.locator('#controls button[data-value="undo"]').click()
    banner = page.locator("#comfort")
    expect(banner).to_have_text(REFUSED)
    expect(banner).to_have_attribute("role", "status")
    page.context.set_offline(False)
    expect(banner).to_have_text(BACK, timeout=3000)
    page.wait_for_timeout(800)
    assert posts == [], f"an entry made offline was sent later: {posts}"
    assert version_of(page) == "v6"


# page.route does not see what a service worker fetches: once sw.js controls the page
# (sooner or later after its first load), the dropped requests would reach the server.
@pytest.mark.browser_context_args(service_workers="block")
def test_a_request_that_fails_on_the_way_is_reported(page):
    game_table(page, events=6)
    ask_to_undo(page)
    # The polls fail too while the entry does (as on a real dropped connection), so a
    # poll that happens to succeed right after cannot replace the message before we look.
    dropped = re.compile(r"/(undo|sync)(\?|$)")
    page.route(dropped, lambda route: route.abort("connectionreset"))
    page.locator('#controls button[data-value="undo"]').click()
    expect(page.locator("#comfort")).to_have_text(REFUSED)
    page.wait_for_timeout(1200)  # two failed polls later the refusal is still what it says
    expect(page.locator("#comfort")).to_have_text(REFUSED)
    page.unroute(dropped)
    expect(page.locator("#comfort")).to_have_text(BACK, timeout=3000)  # the next sync answered
    assert version_of(page) == "v6"


def test_back_online_the_page_resyncs_at_once_and_says_so(page):
    table = game_table(page, events=6)
    page.context.set_offline(True)
    expect(page.locator("#comfort")).to_be_visible()
    page.evaluate(WATCH_VERSION, "v7")
    undo_by_api(page, table, 6)  # meanwhile another phone changed the game (API calls are not offline)
    page.wait_for_timeout(700)
    assert version_of(page) == "v6"
    page.context.set_offline(False)
    delay = resync_ms(page)
    assert 0 <= delay < SYNC_LIMIT_MS, f"back online, v7 showed after {delay:.0f} ms"
    expect(page.locator("#comfort")).to_have_text(BACK)
    expect(page.locator("#comfort")).to_be_hidden(timeout=5000)  # briefly


def test_after_sleep_the_page_resyncs_when_visible_and_says_so(page):
    table = game_table(page, events=6)
    page.evaluate(WATCH_VERSION, "v7")
    page.evaluate(SET_VISIBILITY, "hidden")
    undo_by_api(page, table, 6)
    page.evaluate(SET_VISIBILITY, "visible")
    delay = resync_ms(page)  # below 0 if the 500 ms poll came first (a faked hidden page still polls)
    assert delay < SYNC_LIMIT_MS, f"visible again, v7 showed after {delay:.0f} ms"
    expect(page.locator("#comfort")).to_have_text(BACK)


# --- held sync poll ----------------------------------------------------------

def test_an_idle_phone_holds_one_poll_open_and_a_change_arrives_on_it(page):
    """Nothing changes: the phone does not ask every 500 ms but keeps one poll
    open; another phone's entry answers that poll."""
    table = game_table(page, events=6)
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "/sync?" in request.url else None)
    answered = []
    page.on("requestfinished", lambda request: answered.append(request.url) if "/sync?" in request.url else None)
    page.wait_for_timeout(3000)
    assert len(polls) <= 2, f"{len(polls)} sync polls in 3 s of quiet: {polls}"  # polling would make 6
    assert all("hold=1" in url for url in polls)
    waiting = len(answered)
    page.evaluate(WATCH_VERSION, "v7")
    page.evaluate("window.__wokenAt = performance.now()")
    undo_by_api(page, table, 6)
    delay = resync_ms(page)
    assert delay < SYNC_LIMIT_MS, f"another phone's entry showed after {delay:.0f} ms"
    assert len(answered) == waiting + 1  # the held poll brought it, no new one was needed first


def test_a_phones_own_entry_is_not_brought_to_it_again_by_its_held_poll(page):
    """The entry's answer redraws this phone; the poll it held is left to finish (never
    aborted: that is a console error) and its answer is not swapped in (it would redraw
    the same regions again a moment later, over a selection begun since); a new poll is
    held afterwards."""
    table = game_table(page, events=6)
    ask_to_undo(page)
    page.wait_for_timeout(300)
    errors = console_errors(page)
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.locator('#controls button[data-value="undo"]').click()
    expect(page.locator("#status .version")).to_have_text("v7")
    page.evaluate("document.getElementById('controls').dataset.mark = 'drawn by the entry'")
    page.wait_for_timeout(1000)
    assert page.evaluate("document.getElementById('controls').dataset.mark") == "drawn by the entry", \
        "the held poll redrew the phone's own entry"
    undo_by_api(page, table, 7)  # another phone: the new held poll brings it
    expect(page.locator("#status .version")).to_have_text("v8", timeout=SYNC_LIMIT_MS)
    assert failed == [] and errors == [], (failed, errors)


def test_a_move_whose_page_never_comes_holds_the_polls_back_ten_seconds_at_most(page):
    """The start sends the phone from the lobby to the game page (``HX-Location``);
    while that page is on its way no poll is sent (its answer would move the phone
    once more). A page that never comes (lost on the Wi-Fi) holds the polls back for
    ``MOVE_MS`` (10 s, comfort.js) at most: then the phone polls again."""
    page.clock.install()  # Date.now() runs on, and can be moved on by the test
    lobby = create_table(page, {"game": "gleich-und-gleich", "options": {}, "name": "Anna"})
    joined = page.request.post(f"/api/tables/{lobby['id']}/seats",
                               data={"join_code": lobby["join_code"], "name": "Ben"})
    assert joined.status == 201, joined.text()
    visit(page, lobby["seat_url"])
    expect(page.locator("#lobby .seat .name")).to_have_count(2)
    held_back, released = [], []

    def is_game_page(url: str) -> bool:
        return urlsplit(url).path == f"/t/{lobby['id']}"

    def game_page(route) -> None:  # held back (the page is on its way) until released
        route.continue_() if released else held_back.append(route)
    page.route(is_game_page, game_page)
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "/sync?" in request.url else None)
    with page.expect_request(lambda request: is_game_page(request.url)):  # sent there by its poll
        started = page.request.post(f"/api/tables/{lobby['id']}/start",
                                    headers={"Authorization": f"Bearer {lobby['token']}"})
        assert started.status == 200, started.text()
    polls.clear()
    page.wait_for_timeout(2000)  # four poll intervals of 500 ms
    assert polls == [], f"polls sent while the game page was on its way: {polls}"
    page.clock.fast_forward(10_500)
    page.wait_for_timeout(1500)
    assert polls, "no poll after the move's 10 s ran out"
    released.append(True)  # the page comes after all: the phone shows the game
    for route in held_back:
        route.continue_()
    expect(page.locator("#status")).to_be_visible(timeout=5000)


def test_a_stretch_of_a_game_and_a_wake_up_log_no_console_error(phone):
    """Entries through the page on one phone, another phone watching follow each one
    and wake up in between — and not one console error on either."""
    anna, ben = phone(), phone()
    record = random_record("gleich-und-gleich", {}, 2, 3)
    table = create_table(anna, {"record": {**record, "players": ["Anna", "Ben"], "events": record["events"][:6]}})
    visit(anna, table["seat_url"])
    visit(ben, f"/t/{table['id']}")
    errors = {"Anna": console_errors(anna), "Ben": console_errors(ben)}
    for version in range(6, 14):
        anna.evaluate("""([path, event, version]) => htmx.ajax('POST', path, {source: '#controls', swap: 'none',
                             values: {event: JSON.stringify(event), version: version}})""",
                      [f"/t/{table['id']}/event", record["events"][version], version])
        for page in (anna, ben):
            expect(page.locator("#status .version")).to_have_text(f"v{version + 1}", timeout=SYNC_LIMIT_MS)
        if version == 9:
            ben.evaluate(SET_VISIBILITY, "hidden")
            ben.evaluate(SET_VISIBILITY, "visible")
            expect(ben.locator("#comfort")).to_have_text(BACK)
    assert errors == {"Anna": [], "Ben": []}
