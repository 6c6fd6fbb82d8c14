"""The bird screens through the test client: log sentences from the engine's effects,
the steps' taps, selections kept in the query, refusals, secrecy and the centre view."""
from __future__ import annotations

import json
import re
from html import unescape

from engine.records import new_game

GUG_SETUP = {"type": "setup", "dealer": 0, "rows": [["3", "5", "7"], ["A", "9", "J"], ["K", "Q", "6"], ["8", "10", "2"]],
             "setup_discards": ["3"] * 7, "collections": ["4", "K"]}
CUBIRDS_SETUP = {"type": "setup", "dealer": 0,
                 "rows": [["owl", "duck", "parrot"], ["flamingo", "toucan", "parrot"], ["magpie", "robin", "duck"],
                          ["reed-warbler", "owl", "toucan"]], "setup_discards": [], "collections": ["robin", "owl"]}


def seated(client, table, seat: int = 0):
    client.get(f"/t/{table.id}/s/{table.tokens[seat]}")
    return client


def enter(client, table, *events, seat: int = 0) -> int:
    version = client.get(f"/api/tables/{table.id}/state", headers=table.auth(seat)).json["version"]
    for event in events:
        answer = client.post(f"/api/tables/{table.id}/events", json={"event": event, "version": version},
                             headers=table.auth(seat))
        assert answer.status_code == 200, answer.json
        version += 1
    return version


def text_of(html: str) -> str:
    """Plain text (tags dropped, whitespace folded)."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def text(response) -> str:
    return text_of(response.get_data(as_text=True))


def controls(client, table, **params):
    return client.get(f"/t/{table.id}/controls", query_string=params)


def posted_events(response) -> list[dict]:
    """The events the page's entry buttons would send."""
    html = response.get_data(as_text=True)
    return [json.loads(json.loads(unescape(vals))["event"]) for vals in re.findall(r"hx-vals='([^']*)'", html)
            if '"event"' in unescape(vals)]


def test_play_sentence_names_the_catch(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP, {"type": "play", "cards": ["K"], "row": 2, "side": "right"},
          {"type": "refill", "card": "9", "side": "right"}, {"type": "no-flock"})
    page = text(seated(client, table).get(f"/t/{table.id}"))
    assert "Aufbau fertig – Anna beginnt; Nachziehstapel 67, Ablage 7" in page
    assert "Anna: K rechts an Reihe 3 — schnappt Q, 6" in page
    assert "Reihe 3: 9 rechts aufgedeckt — Reihe fertig" in page
    assert "Anna: kein Schwarm" in page
    undone = client.post(f"/api/tables/{table.id}/undo", json={"version": 4}, headers=table.auth(1))
    assert undone.status_code == 200, undone.json
    assert "Ben nimmt zurück: „kein Schwarm“" in text(client.get(f"/t/{table.id}"))


def test_setup_wizard_sends_duplicates_to_the_discard_pile(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    seated(client, table)
    assert "Aufbau: wer gibt?" in text(controls(client, table))
    cards = ["owl", "duck", "owl", "parrot", "flamingo", "toucan", "parrot", "magpie", "robin", "duck",
             "reed-warbler", "owl", "toucan", "robin", "owl"]
    page = controls(client, table, at=0, dealer=0, pick=",".join(cards[:3]))
    assert "diese Art liegt schon in Reihe 1" in text(page)
    draft = new_game("cubirds", {}, ["Anna", "Ben"]).setup_draft(0)
    for card in cards:
        draft.add(card)
    done = controls(client, table, at=0, dealer=0, pick=",".join(cards))
    assert posted_events(done) == [draft.event()]
    assert draft.event()["setup_discards"] == ["owl"]


def test_wizard_refusal_keeps_the_cards_before_it(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    seated(client, table)
    page = controls(client, table, at=0, dealer=1, pick=",".join(["flamingo"] * 8))
    shown = text(page)
    assert "nur noch 0 verdeckt" in shown
    assert re.search(r"Ablage 6\b", shown)   # the seven flamingos entered before stay (1 in the row, 6 discarded)


def test_a_selection_counts_only_at_its_version(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    current = controls(client, table, at=version, pick="K")
    assert "K – an welches Ende?" in text(current)
    stale = controls(client, table, at=version - 1, pick="K")
    assert "Welche Art spielst du aus, wie viele?" in text(stale)


def test_bad_selection_is_named_and_changes_nothing(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    page = text(controls(client, table, at=version, pick="Z"))
    assert "Unbekannte Karte in der Auswahl: Z" in page
    page = text(controls(client, table, at=version, pick="K,3"))
    assert "Ungültige Auswahl: pick = K,3" in page and "Welche Art spielst du aus, wie viele?" in page
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == version


def end_button(html: str, value: str) -> str:
    return re.search(rf'<button[^>]*data-value="{value}".*?</button>', html, re.S).group(0)


def test_a_row_end_enters_the_play_and_a_refusal_keeps_the_selection(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    ends = controls(client, table, at=version, pick="3")
    plays = [e for e in posted_events(ends) if e["type"] == "play"]
    assert plays == [{"type": "play", "cards": ["3"], "row": row, "side": side}
                     for row in range(4) for side in ("left", "right")]   # one tap per end, no confirm step
    left = end_button(ends.get_data(as_text=True), "0:left")
    answer = client.post(f"/t/{table.id}/event", headers={"HX-Request": "true"},
                         data={**json.loads(unescape(re.search(r"hx-vals='([^']*)'", left).group(1))), "key": "k1"})
    assert answer.status_code == 422
    shown = text(answer)
    assert "3 kann nicht sein" in shown and "3 – an welches Ende?" in shown   # the chosen card is kept
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == version


def test_row_ends_show_their_catch_and_flocks_their_size(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    version = enter(client, table, CUBIRDS_SETUP)
    seated(client, table)
    html = controls(client, table, at=version, pick="owl").get_data(as_text=True)
    game = new_game("cubirds", {}, ["Anna", "Ben"])
    game.apply(CUBIRDS_SETUP)
    for row in range(4):
        for side in ("left", "right"):
            preview = game.preview_play(["owl"], row, side)
            button = end_button(html, f"{row}:{side}")
            assert re.findall(r'data-card="([^"]+)"', button) == preview["captured"]
            caught = len(preview["captured"])
            assert (f"schnappt {caught}" if caught else "schnappt nichts") in text_of(button)
            assert ("Reihe auffüllen" in text_of(button)) == preview["refill_needed"]
    assert "schnappt 2" in text_of(end_button(html, "0:right"))   # duck and parrot; only owls are left …
    assert "Reihe auffüllen" in text_of(end_button(html, "0:right"))   # … so the row is refilled
    version = enter(client, table, {"type": "play", "cards": ["owl"], "row": 0, "side": "right"},
                    {"type": "refill", "card": "robin", "side": "right"})
    flock = controls(client, table, at=version)
    assert 'data-species="owl"' not in flock.get_data(as_text=True)   # just played: none left in the hand
    magpie = re.search(r'data-species="magpie".*?</div>', flock.get_data(as_text=True), re.S).group(0)
    assert "klein → 1" in text_of(magpie) and "groß → 2" in text_of(magpie)
    assert {"type": "no-flock"} in posted_events(flock)


def test_collections_progress_and_memory_aid(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    enter(client, table, CUBIRDS_SETUP, {"type": "play", "cards": ["owl"], "row": 0, "side": "right"},
          {"type": "refill", "card": "robin", "side": "right"}, {"type": "no-flock"})
    page = seated(client, table).get(f"/t/{table.id}").get_data(as_text=True)
    memory = re.search(r'class="birds-memory".*?</details>', page, re.S).group(0)
    anna = re.search(r'<li data-seat="0">.*?</li>', memory, re.S).group(0)
    assert re.findall(r'data-card="([^"]+)"', anna) == ["duck", "parrot"]
    assert "1/7 Arten" in text(client.get(f"/t/{table.id}")) and "0/2 Drillinge" in text(client.get(f"/t/{table.id}"))


def test_a_viewer_sees_the_table_but_no_taps(client, new_table, app):
    table = new_table("cubirds", ("Anna", "Ben"))
    enter(client, table, CUBIRDS_SETUP)
    viewer = app.test_client()
    page = viewer.get(f"/t/{table.id}").get_data(as_text=True)
    assert 'class="birds-row"' in page and "birds-step" not in page
    assert "Du schaust zu." in text_of(page)


def test_solo_robinbird_is_told_where_her_card_goes(client, new_table):
    table = new_table("cubirds", ("Anna",), options={"solo": True})
    robin_hand = ["owl", "owl", "duck", "duck", "magpie", "magpie", "robin", "robin"]
    setup = {**CUBIRDS_SETUP, "robin_hand": robin_hand}
    turn = [{"type": "play", "cards": ["flamingo"], "row": 0, "side": "right"}, {"type": "pass"}, {"type": "no-flock"}]
    enter(client, table, setup, *turn)
    seated(client, table)
    turn_up = controls(client, table)
    assert "Karte für RobinBird an Reihe 1: welche wurde aufgedeckt?" in text(turn_up)
    enter(client, table, {"type": "robin-draw", "card": "parrot"})
    page = text(client.get(f"/t/{table.id}"))
    game = new_game("cubirds", {"solo": True}, ["Anna", "RobinBird"])
    for event in (setup, *turn):
        game.apply(event)
    effect = game.apply({"type": "robin-draw", "card": "parrot"})
    side = "links" if effect["side"] == "left" else "rechts"
    assert f"RobinBird: 1 × Papagei {side} an Reihe 1" in page
    assert "RobinBirds offene Hand" in page


def test_centre_view_has_no_controls(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"), start=False)
    assert client.get(f"/t/{table.id}/mitte").status_code == 302
    client.post(f"/api/tables/{table.id}/start", headers=table.auth())
    enter(client, table, CUBIRDS_SETUP)
    page = seated(client, table).get(f"/t/{table.id}/mitte").get_data(as_text=True)
    assert 'class="centre-view"' in page and 'id="controls"' not in page and page.count('class="birds-row"') == 4


def test_controls_before_the_start_are_refused(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"), start=False)
    answer = client.get(f"/t/{table.id}/controls")
    assert answer.status_code == 409 and "noch nicht begonnen" in text(answer)


def test_game_over_names_winners_and_reason_keeps_undo(client):
    from engine.randomplay import random_record

    record = random_record("gleich-und-gleich", {}, 3, 8)
    made = client.post("/api/tables", json={"record": record})
    assert made.status_code == 201, made.json
    client.get(f"/t/{made.json['id']}/s/{made.json['token']}")
    game = new_game(record["game"], record["options"], record["players"])
    for event in record["events"]:
        game.apply(event)
    assert game.outcome().reason == "distinct-species"   # what this record is chosen for
    page = client.get(f"/t/{made.json['id']}")
    shown = text(page)
    winners = ", ".join(record["players"][w] for w in game.outcome().winners)
    assert f"★ {winners}" in shown and "genug verschiedene Arten gesammelt" in shown
    status = re.search(r'<section id="status".*?</section>', page.get_data(as_text=True), re.S).group(0)
    assert "(genug verschiedene Arten gesammelt)" in text_of(status)
    assert 'data-value="rematch"' in page.get_data(as_text=True)
    assert 'data-value="undo-ask"' in page.get_data(as_text=True)


def test_solo_deal_asks_for_robinbirds_new_hand(client):
    from engine.randomplay import random_record

    record = random_record("cubirds", {"solo": True}, 2, 9)
    deal_at = next(i for i, e in enumerate(record["events"]) if e["type"] == "deal")
    deal = record["events"][deal_at]
    made = client.post("/api/tables", json={"record": {**record, "events": record["events"][:deal_at]}})
    assert made.status_code == 201, made.json
    client.get(f"/t/{made.json['id']}/s/{made.json['token']}")
    table_id, version = made.json["id"], deal_at
    start = client.get(f"/t/{table_id}/controls")
    assert "gibt neu aus" in text(start) and "(0 von 8)" in text(start)
    assert posted_events(start) == []   # no deal before her eight cards are in
    half = client.get(f"/t/{table_id}/controls", query_string={"at": version, "pick": ",".join(deal["robin_hand"][:4])})
    assert "(4 von 8)" in text(half)
    full = client.get(f"/t/{table_id}/controls", query_string={"at": version, "pick": ",".join(deal["robin_hand"])})
    assert [e for e in posted_events(full) if e["type"] == "deal"] == [deal]
