"""Complete bird games played through the phone screens (Pixel 7 emulation).

A random legal record (engine.randomplay) says what happened at the table; the
test taps it in on the phone of the player whose turn it is, and at the end every
phone must show exactly the engine's replay of that record (rows, collections,
hand counts, piles, winners). Each game also has a refused entry (the engine's
reason shown where it was tapped, the cards entered so far kept) and an undo
with its confirmation. The taps of each turn are counted (median printed and
written to ``KT_TAPS_FILE`` when set).
"""
from __future__ import annotations

import json
import os
import statistics
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from engine.randomplay import random_record
from engine.records import new_game
from shots import shoot

TURN_TAPS: dict[str, list[int]] = {}


# --- the record, in the order the screens produce cards ------------------------------

def normalized(record: dict) -> dict:
    """The record with the cards of each play and flock lowest rank first (the screens
    list them so; a flock keeps its lowest cards, as a player would at the table)."""
    game = new_game(record["game"], record["options"], record["players"])
    order = game.ruleset.card_index
    events = []
    for event in record["events"]:
        if event["type"] in ("play", "flock"):
            event = {**event, "cards": sorted(event["cards"], key=order.__getitem__)}
        events.append(event)
    return {**record, "events": events}


def replayed(record: dict):
    game = new_game(record["game"], record["options"], record["players"])
    for event in record["events"]:
        game.apply(event)
    return game


def setup_order(event: dict, species_of: dict) -> list[str]:
    """The setup cards as they were turned up: each row's duplicates (sent to the
    discard pile) come while the row holds their species."""
    pending, order = list(event.get("setup_discards", [])), []
    for row in event["rows"]:
        order += row[:2]
        for card in list(pending):
            if species_of[card] in {species_of[c] for c in row[:2]}:
                order.append(card)
                pending.remove(card)
        order.append(row[2])
    assert not pending, f"discards {pending} fit no row"
    return order + event["collections"] + event.get("robin_hand", [])


# --- tapping ------------------------------------------------------------------------------

@dataclass
class Table:
    """The phones at one table, the version they should show and the tap counts."""

    phones: list
    version: int = 0
    taps: int = 0
    turns: list[int] = field(default_factory=list)
    caught: list[bool] = field(default_factory=list)   # per turn: the play captured (no draw question)

    def tap(self, page, value: str, scope: str = "#controls") -> None:
        """Tap the button choosing ``value`` and wait until the controls were redrawn."""
        button = page.locator(f'{scope} button[data-value="{value}"]').first
        for attempt in range(3):
            handle = button.element_handle(timeout=10000)
            try:
                handle.click()
                break
            except PlaywrightError as error:  # a sync answer redrew the same controls just now
                if "not attached" not in str(error) or attempt == 2:
                    raise
        handle.wait_for_element_state("hidden", timeout=10000)  # replaced by the new controls
        self.taps += 1

    def enter(self, page, value: str) -> None:
        """Tap a button that enters an event; every phone shows the new version."""
        self.tap(page, value)
        self.version += 1
        expect(page.locator("#status .version")).to_have_text(f"v{self.version}", timeout=10000)

    def everyone_sees(self) -> None:
        for page in self.phones:
            expect(page.locator("#status .version")).to_have_text(f"v{self.version}", timeout=10000)


def play_event(table: Table, page, event: dict, species_of: dict, solo: bool) -> None:
    """Tap one event of the record in."""
    kind = event["type"]
    if kind == "setup":
        if not solo:
            table.tap(page, str(event["dealer"]))
        for card in setup_order(event, species_of):
            table.tap(page, card)
        table.enter(page, "setup")
    elif kind == "play":
        cards = event["cards"]
        pick = ",".join(cards)
        species = species_of[cards[0]]
        line = f'#controls .species-line[data-species="{species}"]'
        if page.locator(f'{line} button[data-value="{pick}"]').count() == 0:
            table.tap(page, f"{len(cards)}…", line)
        table.tap(page, pick)
        table.enter(page, f"{event['row']}:{event['side']}")
    elif kind == "refill":
        if event.get("side", "right") == "left":
            table.tap(page, "side")
        table.enter(page, event["card"])
    elif kind in ("draw", "pass", "no-flock"):
        table.enter(page, kind)
    elif kind == "flock":
        cards = event["cards"]
        pick = ",".join(cards)
        line = f'#controls .species-line[data-species="{species_of[cards[0]]}"]'
        if page.locator(f'{line} button[data-value="{pick}"]').count() == 0:
            table.tap(page, f"{len(cards)}…", line)
        table.enter(page, pick)
    elif kind == "deal":
        for card in event.get("robin_hand", []):
            table.tap(page, card)
        table.enter(page, "deal")
    elif kind == "robin-draw":
        table.enter(page, event["card"])
    else:
        raise AssertionError(f"no taps for {kind}")


def play_record(table: Table, record: dict, seats: dict, check_every: int = 12, hooks=None) -> None:
    """Tap every event in on the phone of the player it belongs to; count the taps per
    turn (from a play to the end of that player's turn)."""
    game = new_game(record["game"], record["options"], record["players"])
    species_of = game.ruleset.species_of
    turn_taps = None
    for index, event in enumerate(record["events"]):
        awaiting = game.awaiting
        seat = awaiting.player if awaiting.player is not None and awaiting.player in seats else 0
        page = table.phones[seats.get(seat, 0)]
        if event["type"] == "play":
            if turn_taps is not None:
                table.turns.append(turn_taps)
            turn_taps = 0
            table.caught.append(bool(game.preview_play(event["cards"], event["row"], event["side"])["captured"]))
        elif event["type"] in ("robin-draw", "deal", "setup") and turn_taps is not None:
            table.turns.append(turn_taps)
            turn_taps = None
        expect(page.locator("#status .version")).to_have_text(f"v{table.version}", timeout=10000)
        before = table.taps
        play_event(table, page, event, species_of, game.solo)
        if turn_taps is not None:
            turn_taps += table.taps - before
        game.apply(event)
        if hooks and index in hooks:
            hooks[index](table, page)
        if index % check_every == 0:
            table.everyone_sees()
    if turn_taps is not None:
        table.turns.append(turn_taps)
    table.everyone_sees()


# --- what the phones show -----------------------------------------------------------------

def shown_state(page) -> dict:
    board = page.locator("#board")
    rows = [row.locator("[data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
            for row in board.locator(".birds-row").all()]
    players = board.locator(".birds-player").all()
    return {
        "rows": rows,
        "collections": [sorted(p.locator(".collection [data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)")) for p in players],
        "hands": [int(p.locator(".hand").get_attribute("data-hand")) for p in players],
        "draw_pile": int(board.locator('[data-pile="draw"] strong').inner_text()),
        "discard_pile": int(board.locator('[data-pile="discard"] strong').inner_text()),
    }


def expected_state(game) -> dict:
    state = game.state()
    return {"rows": state["rows"], "collections": [sorted(c) for c in state["collections"]],
            "hands": state["hands"], "draw_pile": state["draw_pile"], "discard_pile": state["discard_pile"]}


def check_final(table: Table, game, record: dict) -> None:
    expected = expected_state(game)
    winners = [record["players"][w] for w in game.state()["winners"]]
    for page in table.phones:
        assert shown_state(page) == expected
        expect(page.locator("#board .birds-over .winners")).to_contain_text(", ".join(winners))
        expect(page.locator("#controls .birds-step")).to_have_count(0)


# --- seating ----------------------------------------------------------------------------------

def open_table(phone, game_title: str, names: list[str], solo: bool = False) -> list:
    first = phone()
    first.goto("/")
    details = first.locator("details.game", has_text=game_title)
    details.evaluate("d => { d.open = true; }")
    if solo:
        details.locator("input[name=option-solo]").check()
    details.locator("input[name=name]").fill(names[0])
    details.get_by_role("button", name="Tisch erstellen").click()
    pages = [first]
    join_url = first.locator("#join-url").inner_text()
    for name in names[1:]:
        page = phone()
        page.goto(join_url)
        page.locator("input[name=name]").fill(name)
        page.get_by_role("button", name="Platz nehmen").click()
        expect(page.locator("#lobby .seat.mine .name")).to_have_text(name)
        pages.append(page)
    expect(first.locator("#lobby .seat .name")).to_have_count(len(names) + (1 if solo else 0))  # RobinBird
    first.get_by_role("button", name="Spiel starten").click()
    for page in pages:
        expect(page.locator("#status .version")).to_have_text("v0", timeout=10000)
    return pages


def refused_in_wizard(table: Table, page, card: str, copies: int, dealer: str | None) -> None:
    """Tap one card more often than the deck has it: the engine's reason appears in the
    wizard, the cards already entered stay, and they are taken back again."""
    if dealer is not None:
        table.tap(page, dealer)
    for _ in range(copies):
        table.tap(page, card)
    discard = page.locator('#controls [data-count="discard"]')
    expect(discard).to_have_text(str(copies - 1))
    table.tap(page, card)
    expect(page.locator("#controls .error")).to_contain_text("nur noch 0 verdeckt")
    expect(discard).to_have_text(str(copies - 1))   # nothing entered was lost
    for _ in range(copies):
        table.tap(page, "back")
    if dealer is not None:
        page.locator("#controls").get_by_role("button", name="Anderer Geber").click()
        expect(page.locator('#controls [data-mode="dealer"]')).to_be_visible()
    table.taps = 0


def undo_once(table: Table, page, other) -> None:
    """Undo the last entry (with its confirmation) on one phone; another phone sees it."""
    table.tap(page, "undo-ask")
    expect(page.locator("#controls .birds-undo [role=alert]")).to_contain_text("zurücknehmen")
    table.tap(page, "undo")
    table.version += 1
    expect(page.locator("#status .version")).to_have_text(f"v{table.version}")
    expect(other.locator("#status .version")).to_have_text(f"v{table.version}", timeout=10000)
    expect(other.locator("#log li.undo").first).to_be_visible()


def with_undo(record: dict, index: int) -> dict:
    """A hook for event ``index``: undo it (with the confirmation), then tap it in again."""
    event = record["events"][index]
    game = new_game(record["game"], record["options"], record["players"])

    def hook(table: Table, page) -> None:
        other = table.phones[-1] if table.phones[-1] is not page else table.phones[0]
        undo_once(table, page, other)
        taps = table.taps
        play_event(table, page, event, game.ruleset.species_of, game.solo)
        table.taps = taps  # the re-entry is not a turn's taps
    return {index: hook}


def save_shot(page, name: str, dark: bool = False) -> None:
    shoot(page, f"birds-{name}", dark=dark)


def report_taps(name: str, table: Table) -> None:
    TURN_TAPS[name] = table.turns
    median = statistics.median(table.turns)
    caught = [n for n, c in zip(table.turns, table.caught) if c]
    missed = [n for n, c in zip(table.turns, table.caught) if not c]
    print(f"{name}: {len(table.turns)} turns, taps per turn median {median}, max {max(table.turns)}; "
          f"with a capture: {len(caught)} turns, median {statistics.median(caught) if caught else '-'}; "
          f"without (draw question): {len(missed)} turns, median {statistics.median(missed) if missed else '-'}")
    target = os.environ.get("KT_TAPS_FILE")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps({"game": name, "turns": table.turns, "caught": table.caught, "median": median}) + "\n")


# --- the games ---------------------------------------------------------------------------------

def test_gleich_und_gleich_three_phones_to_a_win(phone):
    record = normalized(random_record("gleich-und-gleich", {}, 3, 8))
    game = replayed(record)
    assert game.outcome() is not None and game.outcome().reason != "most-birds"
    phones = open_table(phone, "Gleich und gleich", record["players"])
    table = Table(phones)
    refused_in_wizard(table, phones[1], "K", 8, dealer=str(record["events"][0]["dealer"]))
    shots = {1: lambda t, p: save_shot(p, "table"), 2: lambda t, p: save_shot(p, "table-dark", dark=True)}
    play_record(table, record, {0: 0, 1: 1, 2: 2}, hooks={**with_undo(record, 3), **shots})
    check_final(table, game, record)
    save_shot(phones[0], "game-over")
    report_taps("gleich-und-gleich", table)
    finished_url, rematch_urls = phones[0].url, set()
    for page in phones:   # the first asks for the rematch, the others find the same table
        page.locator('#board button[data-value="rematch"]').click()
        expect(page.locator("#status .version")).to_have_text("v0")
        expect(page.locator('#controls [data-mode="dealer"]')).to_be_visible()
        rematch_urls.add(page.url)
    assert len(rematch_urls) == 1 and finished_url not in rematch_urls


def test_cubirds_two_phones_round_end_and_new_deal(phone):
    record = normalized(random_record("cubirds", {}, 2, 4))
    assert any(e["type"] == "deal" for e in record["events"])
    game = replayed(record)
    phones = open_table(phone, "CuBirds", record["players"])
    table = Table(phones)
    refused_in_wizard(table, phones[0], "flamingo", 7, dealer=str(record["events"][0]["dealer"]))
    deal_index = next(i for i, e in enumerate(record["events"]) if e["type"] == "deal")

    def round_over(t, page):
        expect(page.locator(".birds-last:visible")).to_contain_text("Runde vorbei")
        expect(page.locator('#controls [data-mode="deal"] h2')).to_contain_text("gibt neu aus")
        save_shot(page, "deal")
    hooks = {**with_undo(record, 5), deal_index - 1: round_over}
    play_record(table, record, {0: 0, 1: 1}, hooks=hooks)
    check_final(table, game, record)
    report_taps("cubirds", table)


def test_solo_against_robinbird_to_the_end(phone):
    record = normalized(random_record("cubirds", {"solo": True}, 2, 2))
    game = replayed(record)
    phones = open_table(phone, "CuBirds", [record["players"][0]], solo=True)
    watcher = phone()
    watcher.goto(phones[0].url)  # a second phone watching (no seat)
    table = Table(phones + [watcher])
    refused_in_wizard(table, phones[0], "flamingo", 7, dealer=None)
    robin_index = next(i for i, e in enumerate(record["events"]) if e["type"] == "robin-draw")

    def robin_told(t, page):
        expect(page.locator(".birds-last:visible")).to_contain_text("RobinBird:")
        expect(page.locator("#board .birds-robin [data-card]")).not_to_have_count(0)
        save_shot(page, "solo")
    play_record(table, record, {0: 0}, hooks={**with_undo(record, 2), robin_index: robin_told})
    check_final(table, game, record)
    report_taps("solo", table)


@pytest.fixture(scope="module", autouse=True)
def taps_summary():
    yield
    turns = [n for name in TURN_TAPS for n in TURN_TAPS[name]]
    if turns:
        print(f"all games: {len(turns)} turns, taps per turn median {statistics.median(turns)}")
