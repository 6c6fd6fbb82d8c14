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
    from test_birds_games import FIGURES, Table, play_event, watch_console

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
