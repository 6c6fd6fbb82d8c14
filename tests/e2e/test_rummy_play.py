"""Gemeinsame Sache on two phones: complete simulated games (a win, a loss on the
clock) tapped through the screens, refusals, undo, taps per turn, screenshots.

The simulated record says what to tap; the phones must end where the engine's
replay of that record ends, and the other phone sees every entry.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

from playwright.sync_api import expect

from engine import new_game
from engine.records import replay
from engine.rummy.simulate import random_record

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIN = ({"level": "normal"}, 185)                       # 29 events: starts, jokers, a swap, an empty-hand turn end
LOSS = ({"level": "custom", "draw_pile": 4}, 12)       # 18 events, lost on the clock
SHOWS_VERSION = "v => document.querySelector('#status .version')?.textContent.trim() === v"


class Phones:
    """Anna (player 0) and Ben (player 1) at one table; counts the taps."""

    def __init__(self, anna, ben):
        self.pages = (anna, ben)
        self.version = 0
        self.taps = 0

    def tap(self, locator) -> None:
        locator.click()
        self.taps += 1

    def wait_version(self, version: int) -> None:
        for page in self.pages:
            page.wait_for_function(SHOWS_VERSION, arg=f"v{version}", timeout=8000)

    def enter(self, page, event: dict) -> None:
        """Tap an event in: the card in the picker (if the event has one), then its button."""
        picked = event.get("first_discard") or event.get("card") or (event.get("cards") or [None])[0]
        if picked:
            self.tap(page.locator(f"#controls .picker button[data-card='{picked}']"))
            expect(page.locator("#controls .picker button.picked")).to_have_attribute("data-card", picked)
        self.tap(entry_button(page, event))
        self.version += 1
        self.wait_version(self.version)


def entry_button(page, event: dict):
    return page.locator(f"#controls button.entry[data-event='{json.dumps(event, sort_keys=True)}']").first


def seat_two_phones(phone, options: dict) -> Phones:
    anna, ben = phone(), phone()
    anna.goto("/")
    game = anna.locator("details.game", has_text="Gemeinsame Sache")
    game.evaluate("details => { details.open = true; }")
    if options.get("level") == "custom":
        game.locator("select[name=option-level]").select_option("custom")
        game.locator("select[name=option-draw_pile]").select_option(str(options["draw_pile"]))
    else:
        game.locator("select[name=option-level]").select_option(options["level"])
    game.locator("input[name=name]").fill("Anna")
    game.get_by_role("button", name="Tisch erstellen").click()
    ben.goto(anna.locator("#join-url").inner_text())
    ben.locator("input[name=name]").fill("Ben")
    ben.get_by_role("button", name="Platz nehmen").click()
    expect(anna.locator("#lobby .seat .name")).to_have_count(2)
    anna.get_by_role("button", name="Spiel starten").click()
    for page in (anna, ben):
        expect(page.locator("#rummy-clock")).to_be_visible(timeout=8000)
    return Phones(anna, ben)


def play_record(phones: Phones, record: dict) -> list[int]:
    """Tap every event of the record on the phone of the player on turn; the taps of each turn."""
    game = new_game("gemeinsame-sache", record["options"], ["Anna", "Ben"])
    per_turn, turn_started = [], None
    for event in record["events"]:
        player = game.awaiting.player if game.awaiting.player is not None else 0
        page, other = phones.pages[player], phones.pages[1 - player]
        if event["type"] == "draw":
            turn_started = phones.taps
        before = other.locator("#log li").first.inner_text()
        phones.enter(page, event)
        expect(other.locator("#log li").first).not_to_have_text(before)   # the other phone saw the entry
        game.apply(event)
        if event["type"] in ("discard", "end-turn") or game.awaiting is None and turn_started is not None:
            per_turn.append(phones.taps - turn_started)
            turn_started = None
    return per_turn


def shown_cards(locator) -> list[list[str]]:
    return [row.locator(".pc").evaluate_all("els => els.map(e => e.dataset.card)") for row in locator.all()]


def assert_phones_show(phones: Phones, record: dict) -> None:
    """Every phone shows what the engine's replay of the record says."""
    state = replay(record).state()
    for page in phones.pages:
        expect(page.locator("#rummy-clock .count")).to_have_text(str(state["draw_pile"]))
        assert shown_cards(page.locator(".figures .figure")) == [f["cards"] for f in state["figures"]]
        expect(page.locator(f".result.{state['status']}")).to_be_visible()
        expect(page.locator(".result .r-turns")).to_have_text(str(state["turns"]))
        expect(page.locator(".result .r-pickups")).to_have_text(str(state["discard_pickups"]))
        for player in (0, 1):
            expect(page.locator(f".side[data-player='{player}'] .hand")).to_contain_text(
                f"{state['hands'][player]} Karten")
            assert shown_cards(page.locator(f".side[data-player='{player}'] .start")) == \
                [s["cards"] for s in state["starts"] if s["owner"] == player]
        expect(page.locator("#controls button.entry:not(.undo)")).to_have_count(0)


def save_shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"rummy-{name}.png"), full_page=True)


def test_a_winning_game_on_two_phones(phone):
    options, seed = WIN
    record = random_record(options, seed)
    assert replay(record).state()["status"] == "won"
    phones = seat_two_phones(phone, options)
    save_shot(phones.pages[0], "setup")
    per_turn = play_record(phones, record)
    assert_phones_show(phones, record)
    expect(phones.pages[1].locator(".result h2")).to_contain_text("Gewonnen")
    save_shot(phones.pages[1], "won")
    median = statistics.median(per_turn)
    print(f"taps per turn (win): {per_turn}, median {median}")
    assert median <= 5, per_turn


def test_a_game_lost_on_the_clock(phone):
    options, seed = LOSS
    record = random_record(options, seed)
    final = replay(record).state()
    assert (final["status"], final["reason"]) == ("lost", "clock")
    phones = seat_two_phones(phone, options)
    events = record["events"]
    play_record(phones, {**record, "events": events[:-1]})
    page = phones.pages[replay({**record, "events": events[:-1]}).awaiting.player]
    expect(page.locator("#rummy-clock .count")).to_have_text("0")
    expect(page.locator("#controls .error")).to_contain_text("Ziehstapel ist leer")
    save_shot(page, "clock-out")
    phones.enter(page, events[-1])   # the player confirms the loss
    assert_phones_show(phones, record)
    expect(page.locator(".result .reason")).to_contain_text("Uhr ist abgelaufen")
    save_shot(page, "lost")
