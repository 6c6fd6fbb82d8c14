"""Gemeinsame Sache on two phones: complete simulated games (a win, a loss on the
clock) tapped through the screens, refusals, undo, taps per turn, screenshots.

The simulated record says what to tap; the phones must end where the engine's
replay of that record ends, and the other phone sees every entry. At every step the
phone on turn shows the question, all its taps and the part of the table they are
about inside the viewport (#18 point 1), at most MAX_TAPS taps at once (the card pad
counts as one), and at 360×740 they end within one short scroll, the pad's keys still
24 px; no phone logs a console error.
"""
from __future__ import annotations

import json
import statistics
import uuid

from playwright.sync_api import expect

import tapping
from engine import new_game
from engine.records import replay
from engine.rummy.simulate import random_record
from shots import shoot
from webapp.screens.rummy import screen as SCREEN

WIN = ({"level": "normal"}, 185)                       # 29 events: starts, jokers, a swap, an empty-hand turn end
LOSS = ({"level": "custom", "draw_pile": 4}, 12)       # 18 events, lost on the clock
TAP_SAMPLE_GAMES = 300
MAX_TAPS = 16
# What the phone on turn must see without scrolling: the question, the taps of the step and
# the part of the table they refer to (the piles for a draw, the starts and figures for a lay).
STEP_PARTS = ("#controls .question", "#controls button.entry", "#controls .picker", "#controls .spots",
              "#controls .piles")
MEASURE = """parts => {
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const inside = el => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; };
  const taps = [...document.querySelectorAll('main button, main a, main summary')]
    .filter(el => shown(el) && !el.disabled && !el.closest('.picker') && inside(el));
  const pad = document.querySelector('#controls .picker');
  const outside = parts.flatMap(sel => [...document.querySelectorAll(sel)].filter(shown).filter(el => !inside(el))
    .map(el => sel + ' ' + (el.dataset.event || el.className)));
  return {kind: document.querySelector('#controls .rummy-turn')?.dataset.kind || null,
          taps: taps.length + (pad && inside(pad) ? 1 : 0), outside};
}"""
SMALL_PHONE = {"width": 360, "height": 740}
SHORT_SCROLL = 740 // 4   # #18 point 1: at 360×740 at most one short scroll
BOTTOM = """parts => Math.max(...parts.flatMap(sel => [...document.querySelectorAll(sel)])
  .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map(el => el.getBoundingClientRect().bottom + scrollY))"""
PAD_KEY_MIN_PX = 24   # WCAG 2.5.8 (AA), as tests/e2e/test_a11y_pages.py grants the deck's 13 keys across
PAD_KEYS = """() => Math.min(...[...document.querySelectorAll('#controls .picker button')]
  .map(el => { const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); }))"""
SHOWS_VERSION = "v => document.querySelector('#status .version')?.textContent.trim() === v"


def normalized(record: dict) -> dict:
    """The record as the screen enters it: a joker in a set says nothing (it stands for any
    missing suit, rules README 5), so the screen does not ask; the rest as simulated."""
    game = new_game(record["game"], record["options"], record["players"])
    events = []
    for event in record["events"]:
        if event.get("card") == "JK" and "as" in event:
            targets = game.open_starts if event["type"] == "complete" else game.figures
            key = "start" if event["type"] == "complete" else "figure"
            if next(t for t in targets if t.id == event[key]).kind == "set":
                event = {k: v for k, v in event.items() if k != "as"}
        game.apply(event)
        events.append(event)
    return {**record, "events": events}


def game_record(options: dict, seed: int) -> dict:
    return normalized(random_record(options, seed))


class Phones:
    """Anna (player 0) and Ben (player 1) at one table; counts the taps, checks every
    step's screen (``steps``: kind, taps on screen, parts outside the viewport) and
    collects the console errors."""

    def __init__(self, anna, ben, options: dict):
        self.pages = (anna, ben)
        self.version = 0
        self.taps = 0
        self.steps: list[dict] = []
        self.small: dict[str, float] = {}   # per kind of screen: the lowest end of its parts at 360×740
        self.errors: list[str] = []
        self.shot: set[str] = set()
        for page in self.pages:
            page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        self.game = new_game("gemeinsame-sache", options, ["Anna", "Ben"])   # says whose phone taps next

    def shoot_first(self, page, kind: str) -> None:
        """The first screen of each kind of step, on the phone on turn and (once) the phone that waits."""
        if kind not in self.shot:
            self.shot.add(kind)
            save_shot(page, f"step-{kind}")
            if kind == "draw":
                save_shot(self.pages[1 - self.pages.index(page)], "waiting")

    def check_step(self, page) -> None:
        """The step on screen, seen from the page's top (where the game page opens; a phone
        the player scrolled stays where it was): everything it needs inside the viewport,
        few taps at once."""
        page.evaluate("window.scrollTo(0, 0)")
        seen = page.evaluate(MEASURE, list(STEP_PARTS))
        self.steps.append(seen)
        assert not seen["outside"], f"outside the viewport at {seen['kind']}: {seen['outside']}"
        assert seen["taps"] <= MAX_TAPS, seen
        screen = f"{seen['kind']}{' with a card' if page.locator('#controls .picker .picked').count() else ''}"
        phone_size = page.viewport_size   # the small phone too
        page.set_viewport_size(SMALL_PHONE)
        bottom = page.evaluate(BOTTOM, list(STEP_PARTS))
        keys = page.evaluate(PAD_KEYS)
        page.set_viewport_size(phone_size)
        assert keys >= PAD_KEY_MIN_PX, f"{screen} at 360×740: pad keys of {keys:.1f} px"
        self.small[screen] = max(bottom, self.small.get(screen, 0))
        assert bottom <= SMALL_PHONE["height"] + SHORT_SCROLL, f"{screen} at 360×740 reaches {bottom:.0f} px"

    def on_turn(self):
        player = self.game.awaiting.player
        return self.pages[0 if player is None else player]

    def tap(self, locator) -> None:
        tapping.click(locator.page, locator, str(locator))
        self.taps += 1

    def wait_version(self, version: int) -> None:
        for page in self.pages:
            page.wait_for_function(SHOWS_VERSION, arg=f"v{version}", timeout=8000)

    def enter(self, page, event: dict) -> None:
        """Tap an event in: the card in the picker (if the event has one), then its button."""
        picked = event.get("first_discard") or event.get("card") or (event.get("cards") or [None])[0]
        self.check_step(page)
        self.shoot_first(page, self.game.awaiting.kind)
        if picked:
            self.tap(page.locator(f"#controls .picker button[data-card='{picked}']"))
            expect(page.locator("#controls .picker button.picked")).to_have_attribute("data-card", picked)
            self.check_step(page)
            self.shoot_first(page, f"{self.game.awaiting.kind}-{'joker' if picked == 'JK' else 'card'}")
        self.tap(entry_button(page, event))
        self.version += 1
        self.wait_version(self.version)
        self.game.apply(event)


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
    return Phones(anna, ben, options)


def taps_of(event: dict) -> int:
    """Taps an event takes on the screen: a button alone, or a card in the picker and then a button."""
    return 1 if event["type"] in ("draw", "end-turn", "give-up") else 2


def turn_taps(events: list[dict]) -> list[int]:
    """The taps of each turn (from the draw to the discard, the end of the turn or the game's end)."""
    turns, current = [], None
    for index, event in enumerate(events):
        if event["type"] == "draw":
            current = 0
        if current is not None:
            current += taps_of(event)
            if event["type"] in ("discard", "end-turn", "give-up") or index == len(events) - 1:
                turns.append(current)
                current = None
    return turns


def play_events(phones: Phones, events: list[dict]) -> None:
    """Tap each event on the phone of the player on turn; each takes the taps ``taps_of`` says,
    and the other phone shows it."""
    for event in events:
        page = phones.on_turn()
        other = phones.pages[1 - phones.pages.index(page)]
        before_log, before_taps = other.locator("#log li").first.inner_text(), phones.taps
        phones.enter(page, event)
        assert phones.taps - before_taps == taps_of(event), event
        expect(other.locator("#log li").first).not_to_have_text(before_log)


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
        # the board is one drawing for both phones: the page marks its own side and puts it first
        seat = phones.pages.index(page)
        expect(page.locator(f".side[data-player='{seat}'] .you")).to_be_visible()
        expect(page.locator(f".side[data-player='{1 - seat}'] .you")).to_be_hidden()
        own, other = (page.locator(f".side[data-player='{p}']").bounding_box() for p in (seat, 1 - seat))
        assert own["x"] < other["x"], "the own side comes first"
        expect(page.locator(".result .actions button").first).to_be_visible()  # a seated phone may start the next


def report_steps(phones: Phones, name: str) -> None:
    """Per kind of step: how often, the most taps on screen at once (docs/performance.md)."""
    kinds: dict[str, list[int]] = {}
    for seen in phones.steps:
        kinds.setdefault(seen["kind"], []).append(seen["taps"])
    print(name, {kind: {"steps": len(taps), "max_taps": max(taps), "median_taps": statistics.median(taps)}
                 for kind, taps in kinds.items()}, "taps per turn:", turn_taps(phones.game.events),
          "at 360×740 the step ends at:", {screen: round(bottom) for screen, bottom in phones.small.items()})
    assert not phones.errors, f"console errors: {phones.errors[:5]}"


def save_shot(page, name: str) -> None:
    """A screenshot of a kind of step, light and dark (written by ./kt screenshots)."""
    shoot(page, f"rummy-{name}", dark=True)


def test_a_winning_game_on_two_phones(phone):
    options, seed = WIN
    record = game_record(options, seed)
    assert replay(record).state()["status"] == "won"
    phones = seat_two_phones(phone, options)
    play_events(phones, record["events"])
    assert_phones_show(phones, record)
    report_steps(phones, "win")
    expect(phones.pages[1].locator(".result h2")).to_contain_text("Gewonnen")
    save_shot(phones.pages[1], "won")


def test_a_typical_turn_takes_at_most_four_taps():
    """Taps per turn over simulated games, counted as the browser games above confirm them per event."""
    per_turn = [taps for seed in range(TAP_SAMPLE_GAMES)
                for taps in turn_taps(random_record({"level": "normal"}, seed)["events"])]
    median = statistics.median(per_turn)
    print(f"taps per turn over {len(per_turn)} turns of {TAP_SAMPLE_GAMES} games: median {median}, "
          f"mean {statistics.mean(per_turn):.2f}, max {max(per_turn)}")
    assert median <= 4


def test_a_game_lost_on_the_clock(phone):
    options, seed = LOSS
    record = game_record(options, seed)
    final = replay(record).state()
    assert (final["status"], final["reason"]) == ("lost", "clock")
    phones = seat_two_phones(phone, options)
    events = record["events"]
    play_events(phones, events[:-1])
    page = phones.on_turn()
    expect(page.locator("#rummy-clock .count")).to_have_text("0")
    expect(page.locator("#controls .error")).to_contain_text("Ziehstapel ist leer")
    save_shot(page, "clock-out")
    phones.enter(page, events[-1])   # the player confirms the loss
    assert_phones_show(phones, record)
    report_steps(phones, "loss")
    expect(page.locator(".result .reason")).to_contain_text("Uhr ist abgelaufen")
    save_shot(page, "lost")
    watcher = phone()   # the same board, drawn once: nothing marked as its own, no rematch to start
    watcher.goto(page.url.split("?")[0])
    expect(watcher.locator("#controls")).to_contain_text("Du schaust zu")
    expect(watcher.locator(".side .you")).to_have_count(2)
    for player in (0, 1):
        expect(watcher.locator(f".side[data-player='{player}'] .you")).to_be_hidden()
    expect(watcher.locator(".result .actions")).to_be_hidden()


def enter_crafted(page, event: dict) -> None:
    """Send an event the screen does not offer (as a tampered or stale tap would) through htmx."""
    url = page.locator("#controls [hx-post$='/event']").first.get_attribute("hx-post")
    version = int(page.locator("#status .version").inner_text().strip()[1:])
    page.evaluate("""([url, values]) => htmx.ajax('POST', url, {source: document.body, values, swap: 'none',
                         headers: JSON.parse(document.body.getAttribute('hx-headers'))})""",
                  [url, {"event": json.dumps(event), "version": version, "key": uuid.uuid4().hex}])


def refused(phones: Phones, page, event: dict, message: str) -> None:
    """The crafted event is refused with ``message``, and nothing changes on either phone."""
    enter_crafted(page, event)
    expect(page.locator("#controls .error")).to_contain_text(message)
    phones.wait_version(phones.version)
    expect(entry_button(page, event)).to_have_count(0)


def test_refusals_and_undo(phone):
    options, seed = WIN
    events = game_record(options, seed)["events"]
    phones = seat_two_phones(phone, options)
    anna, ben = phones.pages
    play_events(phones, events[:6])                                     # Ben lays two starts, Anna takes 3♣
    assert events[5] == {"type": "draw", "from": "discard"}
    expect(anna.locator("#controls .must-lay")).to_contain_text("3♣")
    phones.tap(anna.locator("#controls .picker button[data-card='3C']"))
    expect(anna.locator("#controls .why-not")).to_contain_text("muss noch in diesem Zug auf den Tisch")
    refused(phones, anna, {"type": "discard", "card": "3C"}, "muss noch in diesem Zug auf den Tisch")

    play_events(phones, events[6:11])                                   # Anna completes, lays off, opens 2 starts
    own = {"type": "complete", "start": 3, "card": "8H"}
    phones.tap(anna.locator("#controls .picker button[data-card='8H']"))
    expect(entry_button(anna, own)).to_have_count(0)                    # only the partner's starts are offered
    refused(phones, anna, own, "Den eigenen Ansatz darf nur der Partner ergänzen")
    phones.tap(anna.locator("#controls .picker button[data-card='2D']"))
    expect(anna.locator("#controls .start-with")).to_have_count(0)      # no third start offered
    refused(phones, anna, {"type": "start", "cards": ["2D", "3D"]}, "hat schon 2 offene Ansätze")

    phones.enter(anna, events[11])                                      # Anna discards 2♦ …
    expect(ben.locator(".discard .top .pc")).to_have_attribute("data-card", "2D")
    phones.tap(ben.locator("#controls details.undo summary"))           # … and Ben takes it back,
    expect(ben.locator("#controls .undo-target")).to_contain_text("Anna: 2♦ abgeworfen")   # told what it is
    phones.tap(ben.get_by_role("button", name="Ja, zurücknehmen"))
    phones.version += 1
    phones.wait_version(phones.version)
    phones.game.undo()
    for page in phones.pages:
        expect(page.locator("#log li").first).to_contain_text("Ben nimmt zurück: 2♦ abgeworfen")
        expect(page.locator(".discard .top .pc")).to_have_attribute("data-card", "9D")
    phones.tap(ben.locator("#controls details.undo summary"))           # a second undo names the entry before
    before = phones.game.events[-1]
    expect(ben.locator("#controls .undo-target")).to_contain_text(f"Anna: {SCREEN.event_label(before)}")
    phones.tap(ben.locator("#controls details.undo summary"))           # … not now: closed again
    phones.enter(anna, events[11])

    play_events(phones, events[12:20])
    joker = events[20]                                                  # a joker completes the set start 7♥ 7♠
    assert joker == {"type": "complete", "start": joker["start"], "card": "JK"}
    page = phones.on_turn()
    phones.tap(page.locator("#controls .picker button[data-card='JK']"))
    expect(entry_button(page, joker)).to_have_count(1)                  # in a set it says nothing (rules README 5)
    wrong = {**joker, "as": "8D"}
    expect(entry_button(page, wrong)).to_have_count(0)
    refused(phones, page, wrong, "Der Joker kann hier nicht für 8♦ stehen")
    expect(page.locator("#controls .refusal details.why summary")).to_have_text("Warum?")   # the rule behind it
    phones.tap(page.locator("#controls .picker button[data-card='JK']"))

    centre = phone()                                                     # a device in the middle of the table
    centre.goto(page.url.split("?")[0] + "/mitte")
    expect(centre.locator("#rummy-clock .count")).to_have_text(page.locator("#rummy-clock .count").inner_text())
    expect(centre.locator("#controls, button.entry")).to_have_count(0)
    save_shot(centre, "centre")
    play_events(phones, [joker])
    expect(centre.locator(f".figure[data-figure='{joker['start']}'] .pc.joker")).to_have_attribute(
        "data-card", "JK")                                                # the centre follows the game

