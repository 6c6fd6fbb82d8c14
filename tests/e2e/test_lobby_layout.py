"""The lobby on a phone (Pixel 7, 412x839): the seated phone sees its seats and "Spiel
starten" without scrolling once the table can start (the QR code then gets smaller, beside
the code and link); a watching phone, a table that still needs players and a solo table
keep their own layout."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))
from console import watch_console  # noqa: E402
from pages_tour import create_table, visit  # noqa: E402

pytestmark = pytest.mark.presentation  # the same HTML on any database: ./kt test-postgres leaves it out

NAMES = ("Anna", "Ben", "Carla", "Dora", "Emil")
BIG_QR = 280         # px: the QR code while the table needs players, and for a watching phone
SCANNABLE_QR = 160   # px: the least the smaller QR code may be (on a Pixel 7 about 2.5 cm)


@pytest.fixture
def phone(phone):
    """Phones whose console errors and page errors fail the test."""
    errors: list = []

    def watched(**context_options):
        page = phone(**context_options)
        watch_console(page, errors)
        return page

    yield watched
    assert not errors, errors


def seat_players(page, table: dict, seats: int, taken: int = 1) -> None:
    """Seats ``taken`` to ``seats`` taken (through the API)."""
    for name in NAMES[taken:seats]:
        answer = page.request.post(f"/api/tables/{table['id']}/seats",
                                   data={"join_code": table["join_code"], "name": name})
        assert answer.status == 201, answer.text()


def open_lobby(page, game: str, seats: int, options: dict | None = None) -> dict:
    """A table of ``game`` with ``seats`` seats taken, its lobby open on the creator's ``page``."""
    table = create_table(page, {"game": game, "options": options or {}, "name": NAMES[0]})
    seat_players(page, table, seats)
    visit(page, table["seat_url"])
    without_the_localhost_warning(page)
    return table


def without_the_localhost_warning(page) -> None:
    """The test server runs on 127.0.0.1 without a LAN address, so the lobby warns that no
    phone can reach it — a warning that a table reachable from the phones never shows."""
    page.evaluate("document.querySelector('.join .unreachable')?.remove()")


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def assert_on_first_screen(page, selector: str) -> None:
    """``selector`` lies wholly within the viewport of the page as loaded (not scrolled)."""
    assert page.evaluate("window.scrollY") == 0
    found, height = box(page, selector), page.viewport_size["height"]
    assert found["y"] >= 0 and found["y"] + found["height"] <= height, \
        f"{selector} spans y {found['y']:.0f}-{found['y'] + found['height']:.0f}, the screen {height} px"


def qr_width(page) -> float:
    qr = page.locator(".join img.qr")
    assert qr.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0  # the code arrived
    return box(page, ".join img.qr")["width"]


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("gleich-und-gleich", 2, {}),
    ("cubirds", 3, {}),
    ("gleich-und-gleich", 4, {}),
    ("cubirds", 5, {}),
    ("gleich-und-gleich", 5, {"fast": True, "rarer_faces": True}),  # + a line "Gespielt wird: …"
])
def test_the_seated_phone_sees_seats_and_start_without_scrolling(phone, game, seats, options):
    page = phone()
    assert page.viewport_size == {"width": 412, "height": 839}  # the Pixel 7
    open_lobby(page, game, seats, options)
    expect(page.locator("#lobby .seat")).to_have_count(seats)
    expect(page.locator("#start")).to_be_enabled()
    for selector in ("#start", "#lobby .seat-range", "#lobby .seat >> nth=-1"):
        assert_on_first_screen(page, selector)
    assert qr_width(page) >= SCANNABLE_QR  # still there for a latecomer
    assert_on_first_screen(page, ".join img.qr")
    for selector in ("#join-code", "#join-url"):
        assert_on_first_screen(page, selector)


def test_the_qr_code_is_big_until_the_table_can_start_and_smaller_from_then(phone):
    page = phone()
    table = open_lobby(page, "gleich-und-gleich", 1)
    expect(page.locator("#start")).to_be_disabled()
    assert qr_width(page) >= BIG_QR
    seat_players(page, table, 2)  # Ben joins: the lobby region arrives by the sync poll
    expect(page.locator("#start")).to_be_enabled()
    page.wait_for_function("big => document.querySelector('.join img.qr').getBoundingClientRect().width < big",
                           arg=BIG_QR)  # app.css, by :has(#lobby.can-start)
    assert qr_width(page) >= SCANNABLE_QR
    assert_on_first_screen(page, "#start")


def test_a_watching_phone_keeps_the_big_qr_code_and_the_way_to_a_seat(phone):
    player, viewer = phone(), phone()
    table = open_lobby(player, "cubirds", 5)
    visit(viewer, f"/t/{table['id']}")
    without_the_localhost_warning(viewer)
    expect(viewer.locator("#lobby .seat")).to_have_count(5)
    expect(viewer.locator("#start")).to_have_count(0)
    assert qr_width(viewer) >= BIG_QR
    expect(viewer.get_by_role("link", name="Platz nehmen")).to_be_visible()
    assert box(viewer, "#join-code")["y"] > box(viewer, ".join img.qr")["y"] + BIG_QR  # below the code, centred


def test_a_solo_table_shows_its_seat_and_start_without_a_qr_code(phone):
    page = phone()
    open_lobby(page, "cubirds", 1, {"solo": True})
    expect(page.locator(".join img.qr")).to_have_count(0)
    expect(page.locator("#lobby .seat.bot")).to_have_count(1)  # RobinBird
    expect(page.locator("#start")).to_be_enabled()
    assert_on_first_screen(page, "#start")

