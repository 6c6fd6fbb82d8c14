"""The bird screens one by one (tables set up through the JSON API): what each step
shows, only possible cards offered, the table-centre view, and the
screenshots in docs/screenshots/birds-*.png (light and dark, Pixel 7)."""
from __future__ import annotations


from playwright.sync_api import expect

from engine.records import new_game
from shots import shoot

GUG_SETUP = {  # all eight 3s in sight: row 1 and seven setup discards
    "type": "setup", "dealer": 0, "rows": [["3", "5", "7"], ["A", "9", "J"], ["K", "Q", "6"], ["8", "10", "2"]],
    "setup_discards": ["3"] * 7, "collections": ["4", "K"]}


def shoot_both(page, name: str) -> None:
    """Light and dark screenshot of what the phone shows."""
    shoot(page, f"birds-{name}", dark=True)


def api_table(page, game: str, names: list[str], options=None) -> dict:
    """A started table made through the API; ``page`` takes seat 0 by its seat link
    (``seat_urls`` has every seat's)."""
    made = page.request.post("/api/tables", data={"game": game, "options": options or {}, "name": names[0]}).json()
    made["seat_urls"] = [made["seat_url"]]
    for name in names[1:]:
        joined = page.request.post(f"/api/tables/{made['id']}/seats", data={"join_code": made["join_code"],
                                                                              "name": name})
        assert joined.ok, joined.text()
        made["seat_urls"].append(joined.json()["seat_url"])
    started = page.request.post(f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['token']}"})
    assert started.ok, started.text()
    page.goto(made["seat_url"])
    made["version"] = 0
    return made


def api_enter(page, table: dict, event: dict) -> None:
    answer = page.request.post(f"/api/tables/{table['id']}/events", data={"event": event, "version": table["version"]},
                               headers={"Authorization": f"Bearer {table['token']}"})
    assert answer.ok, answer.text()
    table["version"] += 1
    expect(page.locator("#status .version")).to_have_text(f"v{table['version']}", timeout=10000)


def tap(page, value: str) -> None:
    button = page.locator(f'#controls button[data-value="{value}"]').first
    handle = button.element_handle(timeout=10000)
    handle.click()
    handle.wait_for_element_state("hidden", timeout=10000)


def test_setup_wizard_counts_and_duplicates(phone):
    page = phone()
    table = api_table(page, "cubirds", ["Anna", "Ben"])
    tap(page, "1")   # Ben deals
    for card in ("owl", "duck", "owl"):
        tap(page, card)
    expect(page.locator("#controls .placed")).to_contain_text("schon in Reihe 1")
    expect(page.locator('#controls [data-count="discard"]')).to_have_text("1")
    game = new_game("cubirds", {}, ["Anna", "Ben"])
    draft = game.setup_draft(1)
    for card in ("owl", "duck", "owl"):
        draft.add(card)
    expect(page.locator('#controls [data-count="draw"]')).to_have_text(str(draft.counts()["draw_pile"]))
    expect(page.locator("#controls .draft-rows li").first.locator("[data-card]")).to_have_count(2)
    expect(page.locator("#controls .needs")).to_have_text("Reihe 1, Karte 3 aufdecken")
    shoot_both(page, "setup")
    assert table["version"] == 0


def test_turn_preview_offers_only_possible_cards(phone):
    page = phone()
    table = api_table(page, "gleich-und-gleich", ["Anna", "Ben"])
    api_enter(page, table, GUG_SETUP)
    species = page.locator('#controls .species-line[data-species="3-4"]')
    expect(species).to_be_visible()
    shoot_both(page, "play")
    # every 3 is in sight: the engine's mixes (engine/README.md) offer no 3 to play
    expect(species.locator('button[data-value="3"]')).to_have_count(0)
    tap(page, "4")
    ends = page.locator("#controls .end-row")
    expect(ends).to_have_count(4)
    expect(ends.nth(0).locator('button[data-value="0:left"]')).to_contain_text("schnappt nichts")  # next to the 3
    right = ends.nth(0).locator('button[data-value="0:right"]')
    expect(right).to_contain_text("schnappt 2")
    assert right.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["5", "7"]
    box = right.bounding_box()
    assert box["height"] >= 56 and box["width"] >= 150, f"row end too small to tap: {box}"
    shoot_both(page, "ends")
    tap(page, "0:left")  # enters the play at once
    expect(page.locator("#status .version")).to_have_text("v2")
    tap(page, "undo-ask")
    expect(page.locator("#controls .birds-undo [role=alert]")).to_contain_text("schnappt nichts")
    tap(page, "undo")
    expect(page.locator("#status .version")).to_have_text("v3")
    expect(species).to_be_visible()


def test_the_phone_whose_step_it_is_has_its_taps_first(phone):
    """All seated phones get the same regions; the page puts the taps (with the last
    entry atop) above the table on the phone whose step it is, by CSS."""
    anna, ben = phone(), phone()
    table = api_table(anna, "gleich-und-gleich", ["Anna", "Ben"])
    ben.goto(table["seat_urls"][1])

    def taps_first(page) -> bool:
        controls, board = (page.locator(region).bounding_box()["y"] for region in ("#controls", "#board"))
        return controls < board

    step = anna.locator("#controls .birds-step")
    expect(step).to_have_attribute("data-turn", "all")  # the setup is anyone's to enter
    assert taps_first(anna) and taps_first(ben)
    api_enter(anna, table, GUG_SETUP)
    expect(ben.locator("#status .version")).to_have_text("v1")
    on_turn = int(step.get_attribute("data-turn"))
    mine, theirs = (anna, ben) if on_turn == 0 else (ben, anna)
    assert taps_first(mine) and not taps_first(theirs)
    expect(mine.locator("#controls .step-last")).to_be_visible()
    expect(mine.locator("#board .birds-last")).to_be_hidden()
    expect(theirs.locator("#controls .step-last")).to_be_hidden()
    expect(theirs.locator("#board .birds-last")).to_contain_text("Aufbau fertig")


def test_capture_preview_flock_and_centre_view(phone, browser, base_url):
    page = phone()
    table = api_table(page, "cubirds", ["Anna", "Ben"])
    setup = {"type": "setup", "dealer": 0, "rows": [["owl", "duck", "parrot"], ["flamingo", "toucan", "parrot"],
                                                      ["magpie", "robin", "duck"], ["reed-warbler", "owl", "toucan"]],
             "setup_discards": [], "collections": ["robin", "owl"]}
    api_enter(page, table, setup)
    tap(page, "owl")
    game = new_game("cubirds", {}, ["Anna", "Ben"])
    game.apply(setup)
    preview = game.preview_play(["owl"], 0, "right")
    end = page.locator('#controls button[data-value="0:right"]')
    assert end.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == preview["captured"]
    expect(end).to_contain_text("Reihe auffüllen")  # only owls are left
    shoot_both(page, "preview")
    tap(page, "0:right")
    expect(page.locator("#status .version")).to_have_text("v2")
    expect(page.locator("#controls .birds-step h2")).to_have_text("Reihe 1 auffüllen: welche Karte liegt oben?")
    shoot_both(page, "refill")
    tap(page, "robin")
    expect(page.locator('#controls [data-mode="flock"]')).to_be_visible()
    expect(page.locator('#controls button[data-value="no-flock"]')).to_be_visible()
    shoot_both(page, "flock")

    laptop = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
    tablet = laptop.new_page()
    tablet.goto(f"/t/{table['id']}/mitte")
    expect(tablet.locator("#board .birds-row")).to_have_count(4)
    expect(tablet.locator("#controls")).to_have_count(0)
    tap(page, "no-flock")
    expect(tablet.locator("#status .version")).to_have_text("v4", timeout=10000)   # it follows the table
    expect(tablet.locator("#board .birds-last")).to_contain_text("kein Schwarm")
    shoot_both(tablet, "centre")
    laptop.close()


def test_an_opened_memory_aid_stays_open_when_the_board_is_redrawn(phone):
    page = phone()
    table = api_table(page, "gleich-und-gleich", ["Anna", "Ben"])
    page.locator("#board details.birds-memory summary").click()
    expect(page.locator("#board details.birds-memory")).to_have_attribute("open", "")
    api_enter(page, table, GUG_SETUP)   # another phone's entry: the board is drawn anew
    expect(page.locator("#board .birds-rows")).to_be_visible()
    expect(page.locator("#board details.birds-memory")).to_have_attribute("open", "")
