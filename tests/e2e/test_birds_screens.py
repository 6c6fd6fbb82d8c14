"""The bird screens beyond what the complete games (test_birds_games.py) check: a
memory aid opened on one phone stays open while the table changes."""
from __future__ import annotations

from playwright.sync_api import expect

GUG_SETUP = {  # all eight 3s in sight: row 1 and seven setup discards
    "type": "setup", "dealer": 0, "rows": [["3", "5", "7"], ["A", "9", "J"], ["K", "Q", "6"], ["8", "10", "2"]],
    "setup_discards": ["3"] * 7, "collections": ["4", "K"]}


def api_table(page, game: str, names: list[str]) -> dict:
    """A started table made through the API; ``page`` takes seat 0 by its seat link."""
    made = page.request.post("/api/tables", data={"game": game, "options": {}, "name": names[0]}).json()
    for name in names[1:]:
        joined = page.request.post(f"/api/tables/{made['id']}/seats", data={"join_code": made["join_code"],
                                                                              "name": name})
        assert joined.ok, joined.text()
    started = page.request.post(f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {made['token']}"})
    assert started.ok, started.text()
    page.goto(made["seat_url"])
    return made


def test_an_opened_memory_aid_stays_open_when_the_board_is_redrawn(phone):
    page = phone()
    table = api_table(page, "gleich-und-gleich", ["Anna", "Ben"])
    page.locator("#board details.birds-memory summary").click()
    expect(page.locator("#board details.birds-memory")).to_have_attribute("open", "")
    answer = page.request.post(f"/api/tables/{table['id']}/events", data={"event": GUG_SETUP, "version": 0},
                               headers={"Authorization": f"Bearer {table['token']}"})   # another phone's entry
    assert answer.ok, answer.text()
    expect(page.locator("#status .version")).to_have_text("v1", timeout=10000)
    expect(page.locator("#board .birds-players")).to_be_visible()   # the board was drawn anew
    expect(page.locator("#board details.birds-memory")).to_have_attribute("open", "")


def test_solo_deal_of_a_new_round_fits_and_takes_robinbirds_hand_as_counts(phone):
    """The solo game of test_birds_games.py has no second round: the deal screen here."""
    from engine.randomplay import random_record
    from engine.records import new_game
    from console import watch_console
    from test_birds_games import FIGURES, Table, play_event

    record = random_record("cubirds", {"solo": True}, 2, 9)
    deal_at = next(i for i, e in enumerate(record["events"]) if e["type"] == "deal")
    page, errors = phone(), []
    watch_console(page, errors)
    made = page.request.post("/api/tables", data={"record": {**record, "events": record["events"][:deal_at]}}).json()
    page.goto(made["seat_url"])
    table = Table([page], version=deal_at)
    deal = record["events"][deal_at]
    game = new_game("cubirds", {"solo": True}, record["players"])
    play_event(table, page, deal, game.ruleset.species_of, solo=True, game=game)
    assert table.taps == len(set(deal["robin_hand"])) + 1     # one per species she got, then "Ausgeteilt"
    assert not table.problems, table.problems
    print(FIGURES["deal: RobinBird's hand"])
    assert FIGURES["deal: RobinBird's hand"]["fits"] and errors == []


# every button's words inside its box (a label's text boxes, screen-reader words aside)
LABELS_OUTSIDE = """() => {
  const bad = [];
  for (const b of document.querySelectorAll('#controls button')) {
    const box = b.getBoundingClientRect();
    if (!box.width) continue;
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.textContent.trim() || t.parentElement.closest('.sr')) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
          bad.push(`${b.dataset.value}: "${t.textContent.trim()}"`);
      }
    }
  }
  return bad;
}"""

# the count pad's species names: all in letters of one size, none touching its line's first cell
PAD_NAMES = """() => [...document.querySelectorAll('#controls .pad-line')].map(line => {
  const name = line.querySelector('.fit-text'), cell = line.querySelector('button'), words = document.createRange();
  words.selectNodeContents(name);
  return {species: line.dataset.species, size: parseFloat(getComputedStyle(name).fontSize),
          gap: cell.getBoundingClientRect().left - Math.max(...[...words.getClientRects()].map(r => r.right))};
})"""


def test_labels_stay_inside_their_buttons_and_pad_names_are_alike(phone):
    page = phone()
    table = api_table(page, "gleich-und-gleich", ["Anna", "Ben"])
    auth = {"Authorization": f"Bearer {table['token']}"}
    for version, event in enumerate([GUG_SETUP]):
        assert page.request.post(f"/api/tables/{table['id']}/events", data={"event": event, "version": version},
                                 headers=auth).ok
    base = page.url.split("?")[0]
    screens = {"play": "", "ends": "?at=1&pick=K"}   # the row ends of a play that catches and leaves a refill
    for name, query in screens.items():
        page.goto(base + query)
        for size in ({"width": 412, "height": 839}, {"width": 360, "height": 740}):
            page.set_viewport_size(size)
            expect(page.locator("#controls .birds-step")).to_be_visible()
            assert page.evaluate(LABELS_OUTSIDE) == [], (name, size)
            if name == "play":
                names = page.evaluate(PAD_NAMES)
                assert len({n["size"] for n in names}) == 1, names
                assert all(n["gap"] >= 4 for n in names), names
    assert page.request.post(f"/api/tables/{table['id']}/events", headers=auth, data={
        "event": {"type": "play", "cards": ["K"], "row": 2, "side": "right"}, "version": 1}).ok
    page.goto(base)   # the refill: its ends say "links" and "rechts"
    for size in ({"width": 412, "height": 839}, {"width": 360, "height": 740}):
        page.set_viewport_size(size)
        expect(page.locator('#controls button[data-value="side:left"]')).to_be_visible()
        assert page.evaluate(LABELS_OUTSIDE) == [], size
