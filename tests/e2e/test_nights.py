"""A game night on phones (Pixel 7): two short games of Gleich und gleich with a
rematch — the first imported nearly finished through the start page's import form,
the second entered through the table's own entry form, the last entries of each
tapped on the bird screen — then the night (its tally, live on a second phone),
and a replay to its end, back to its start and to a middle step whose board must
be the engine's replay of the record to that step, on the phone and the centre
view. Any console error fails the test."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))
from console import watch_console  # noqa: E402
from test_birds_games import Table, expected_state, normalized, play_event, shown_state  # noqa: E402

from engine.randomplay import random_record  # noqa: E402
from engine.records import new_game, replay  # noqa: E402

PLAYERS = ["Anna", "Ben"]
SEEDS = (3, 8)     # two random complete 2-player games
TAPPED = 3         # the last entries of each game, tapped on the screen


def record_of(seed: int) -> dict:
    return {**normalized(random_record("gleich-und-gleich", {}, 2, seed)), "players": PLAYERS}


def tap_last(page, record: dict) -> None:
    """Tap the record's last TAPPED events on the bird screen."""
    events = record["events"]
    game = new_game(record["game"], record["options"], record["players"])
    for event in events[:-TAPPED]:
        game.apply(event)
    table = Table([page], version=len(events) - TAPPED)
    for event in events[-TAPPED:]:
        play_event(table, page, event, game.ruleset.species_of, solo=False)
        game.apply(event)
    assert game.outcome() is not None


def winners(record: dict) -> list[str]:
    return [record["players"][w] for w in replay(record).outcome().winners]


def test_a_night_with_a_rematch_its_tally_and_a_replay(phone):
    errors: list[str] = []
    anna, ben = phone(), phone()
    for page in (anna, ben):
        watch_console(page, errors)
    first, second = record_of(SEEDS[0]), record_of(SEEDS[1])

    anna.goto("/")
    form = anna.locator("details", has_text="Spielbericht importieren")
    form.evaluate("details => { details.open = true; }")
    form.locator("textarea[name=record]").fill(json.dumps({**first, "events": first["events"][:-TAPPED]}))
    form.get_by_role("button", name="Als neuen Tisch öffnen").click()
    expect(anna.locator("#status .version")).to_have_text(f"v{len(first['events']) - TAPPED}")
    first_url = anna.url
    tap_last(anna, first)

    anna.get_by_role("button", name="Revanche mit denselben Plätzen").click()
    expect(anna.locator("#status .version")).to_have_text("v0")
    assert anna.url != first_url
    token = json.loads(anna.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
    for version, event in enumerate(second["events"][:-TAPPED]):   # what the entry buttons post
        answer = anna.request.post(anna.url + "/event", headers={"X-CSRFToken": token},
                                   form={"event": json.dumps(event), "version": str(version)})
        assert answer.ok, answer.text()
    anna.reload()

    ben.goto(anna.url + "/abend")          # Ben watches the night while the rematch ends
    expect(ben.locator("#night .night-game")).to_have_count(2)
    expect(ben.locator("#night .night-game.over")).to_have_count(1)
    tap_last(anna, second)
    expect(ben.locator("#night .night-game.over")).to_have_count(2, timeout=5000)  # live, by the table's sync

    anna.get_by_role("link", name="Spieleabend").first.click()
    for name in PLAYERS:
        wins = sum(name in winners(record) for record in (first, second))
        expect(anna.locator(f'#night tr[data-player="{name}"] td.wins')).to_have_text(str(wins))
    expect(ben.locator(f'#night tr[data-player="{PLAYERS[0]}"] td.wins')).to_have_text(
        str(sum(PLAYERS[0] in winners(r) for r in (first, second))))

    anna.locator("#night .night-game").first.get_by_role("link", name="Wiederholung").click()
    # A click waits only for the new page to start loading: before htmx has taken over the
    # page (at DOMContentLoaded), a step link would load a whole page and the slider do nothing.
    anna.wait_for_load_state()
    total = len(first["events"])
    replay_region = anna.locator("#replay")
    expect(replay_region).to_have_attribute("data-total", str(total))
    anna.get_by_role("link", name="Zum Ende").click()
    expect(replay_region).to_have_attribute("data-step", str(total))
    expect(anna.locator("#replay .replay-now")).to_contain_text("Spiel vorbei")
    expect(anna.locator("#board .birds-over")).to_be_visible()
    anna.get_by_role("link", name="Zum Anfang").click()
    expect(replay_region).to_have_attribute("data-step", "0")

    middle = total // 2
    slider = anna.locator("#replay-slider input").bounding_box()
    assert slider["width"] >= 0.6 * anna.viewport_size["width"], slider   # a step a few pixels wide, not one
    anna.locator("#replay-slider input").fill(str(middle))
    expect(replay_region).to_have_attribute("data-step", str(middle))
    assert re.search(rf"schritt={middle}$", anna.url)
    expected = expected_state(replay({**first, "events": first["events"][:middle]}))
    assert shown_state(anna) == expected
    expect(anna.locator(f'#replay .replay-log li[value="{middle}"]')).to_have_class("current")
    sentence = anna.locator(f'#replay .replay-log li[value="{middle}"]').inner_text().strip()
    anna.get_by_role("link", name="Einen Schritt vor").click()
    expect(replay_region).to_have_attribute("data-step", str(middle + 1))
    expect(anna.locator("#replay-slider input")).to_have_value(str(middle + 1))

    ben.goto(anna.url.split("?")[0] + f"/mitte?schritt={middle}")     # the centre view of the same step
    expect(ben.locator("#replay.centre")).to_have_attribute("data-step", str(middle))
    assert shown_state(ben) == expected
    line = ben.locator("#replay.centre .replay-line")   # the step's line, big enough to read across the table
    expect(line).to_be_visible()
    expect(line).to_contain_text(sentence)
    assert float(line.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px")) >= 24
    assert errors == [], errors
