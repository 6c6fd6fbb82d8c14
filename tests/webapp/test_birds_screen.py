"""The bird screens through the test client: log sentences from the engine's effects,
every step's taps and what they enter, selections kept in the query, refusals,
secrecy, undo that names what it takes back, and the centre view."""
from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape
from urllib.parse import parse_qsl

from engine.records import new_game
from .conftest import random_events

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


def html(response) -> str:
    return response.get_data(as_text=True)


def posted_events(response) -> list[dict]:
    """The events the page's entry buttons would send."""
    return [json.loads(json.loads(unescape(vals))["event"])
            for vals in re.findall(r"hx-vals='([^']*)'", html(response)) if '"event"' in unescape(vals)]


def button(page: str, value: str) -> str:
    """The markup of the button that chooses ``value`` (its data-value)."""
    found = re.search(rf'<button[^>]*data-value="{re.escape(value)}"[^>]*>.*?</button>', page, re.S)
    assert found, f"no button {value!r}"
    return found.group(0)


def selected(page: str, value: str) -> dict:
    """The query a select tap asks the controls with."""
    query = re.search(r'hx-get="[^"?]*\?([^"]*)"', button(page, value)).group(1)
    return dict(parse_qsl(unescape(query)))


def cards_in(markup: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', markup)


# --- words -------------------------------------------------------------------------------

def test_log_sentences_name_the_catch_with_the_table_s_letters(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP, {"type": "play", "cards": ["K"], "row": 2, "side": "right"},
          {"type": "refill", "card": "9", "side": "right"}, {"type": "no-flock"})
    page = text(seated(client, table).get(f"/t/{table.id}"))
    assert "Anna: Aufbau fertig – Anna beginnt; Nachziehstapel 67, Ablage 7" in page   # who entered it
    assert "Anna: K rechts an Reihe 3 — schnappt D, 6" in page   # rules/000 writes B, D, K
    assert "Anna: 9 rechts an Reihe 3 aufgedeckt — Reihe fertig" in page   # the refill names who, too
    assert "Anna: kein Schwarm" in page
    anna_for_ben = client.post(f"/api/tables/{table.id}/events", headers=table.auth(0),
                               json={"event": {"type": "play", "cards": ["A"], "row": 0, "side": "right"}, "version": 4})
    assert anna_for_ben.status_code == 200, anna_for_ben.json
    assert "Anna für Ben: A rechts an Reihe 1 — schnappt nichts" in text(client.get(f"/t/{table.id}"))
    english = text(client.get(f"/t/{table.id}?lang=en"))
    assert "Anna: K right of row 3 — captures Q, 6" in english
    undone = client.post(f"/api/tables/{table.id}/undo", json={"version": 5}, headers=table.auth(1))
    assert undone.status_code == 200, undone.json
    page = text(client.get(f"/t/{table.id}?lang=de"))   # whose entry it was, as the undo question said
    assert "Ben nimmt zurück: „Anna für Ben: A rechts an Reihe 1 — schnappt nichts“" in page


def test_an_undo_names_whose_entry_it_took_back_unless_it_was_the_undoer_s_own(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP, {"type": "play", "cards": ["A"], "row": 0, "side": "right"})
    for undoer in (0, 1):   # Anna's own play taken back by Anna; then Anna's setup by Ben
        undone = client.post(f"/api/tables/{table.id}/undo", json={"version": version}, headers=table.auth(undoer))
        assert undone.status_code == 200, undone.json
        version += 1
    page = text(seated(client, table).get(f"/t/{table.id}"))
    assert "Anna nimmt zurück: „A rechts an Reihe 1 — schnappt nichts“" in page
    assert "Ben nimmt zurück: „Anna: Aufbau fertig – Anna beginnt; Nachziehstapel 67, Ablage 7“" in page


def test_player_cards_count_birds_in_singular_and_plural(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP)
    page = text(seated(client, table).get(f"/t/{table.id}"))
    assert "1 Vogel" in page and "1 Vögel" not in page


def test_cards_say_b_d_k_in_german_and_j_q_k_in_english_on_the_table_too(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP)
    seated(client, table)
    row = re.search(r'<li class="birds-row" data-row="1">.*?</li>', html(client.get(f"/t/{table.id}?lang=de")), re.S)
    assert re.findall(r'class="rank">([^<]+)<', row.group(0)) == ["A", "9", "B"]
    row = re.search(r'<li class="birds-row" data-row="1">.*?</li>', html(client.get(f"/t/{table.id}?lang=en")), re.S)
    assert re.findall(r'class="rank">([^<]+)<', row.group(0)) == ["A", "9", "J"]


# --- the setup ---------------------------------------------------------------------------

def test_setup_wizard_sends_duplicates_to_the_discard_pile_as_they_happen(client, new_table):
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


def test_the_deal_hint_shows_with_the_last_row_card_s_place(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    seated(client, table)
    rows = ["3", "5", "7", "A", "9", "J", "K", "Q", "6", "8", "10", "2"]
    page = text(controls(client, table, at=0, dealer=0, pick=",".join(rows)))
    assert "2 liegt in Reihe 4" in page
    assert "Jetzt jedem 8 Karten verdeckt geben, dann die erste Sammlungskarte aufdecken." in page


def test_a_pad_s_page_tap_says_what_it_pages_to(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    page = html(controls(client, table))
    assert text_of(button(page, "more")).strip() == "größere Anzahlen ▸"
    page = html(controls(client, table, **selected(page, "more")))
    assert text_of(button(page, "less")).strip() == "◂ kleinere Anzahlen"


def test_the_wizard_s_cards_survive_a_reload_and_go_stale_once_the_table_moves_on(client, new_table):
    """A phone that sleeps or reloads halfway through the setup keeps the cards tapped so
    far: each tap puts its selection into the page's address (HX-Replace-Url), and the page
    drawn from that address shows them; the entry gives the page its plain address back, and
    at a later version the old address shows nothing of the selection."""
    table = new_table("cubirds", ("Anna", "Ben"))
    seated(client, table)
    tapped = controls(client, table, at=0, dealer=0, pick="owl,duck,owl")
    address = tapped.headers["HX-Replace-Url"]
    assert address.startswith(f"/t/{table.id}?") and "pick=owl,duck,owl" in address
    reloaded = text(client.get(address))
    assert "diese Art liegt schon in Reihe 1" in reloaded
    assert "HX-Replace-Url" not in controls(client, table).headers   # no selection, the address stays
    entered = client.post(f"/t/{table.id}/event", data={"event": json.dumps(random_events("cubirds", 2, seed=3)[0]),
                                                        "version": 0},
                          headers={"HX-Request": "true", "HX-Current-URL": "http://localhost" + address})
    assert entered.status_code == 200 and entered.headers["HX-Replace-Url"] == f"/t/{table.id}"
    assert "diese Art liegt schon in Reihe 1" not in text(client.get(address))


def test_setup_piles_are_counted_as_they_lie_on_the_table(client, new_table):
    """rules/000 "Vorbereitung": the rows come first, then the hands; the draw pile on
    screen is the deck as it lies at each moment (the engine's draft counts)."""
    table = new_table("gleich-und-gleich", ("Anna", "Ben", "Carla"))
    seated(client, table)
    rows = ["3", "5", "7", "A", "9", "J", "K", "Q", "6", "8", "10"]

    def draw_pile(pick):
        page = html(controls(client, table, at=0, dealer=0, pick=",".join(pick)))
        return int(re.search(r'data-count="draw">(\d+)<', page).group(1))

    assert draw_pile(rows) == 104 - 11          # the hands are not dealt yet
    assert draw_pile(rows + ["2"]) == 104 - 12 - 3 * 8
    assert draw_pile(rows + ["2", "4"]) == 104 - 13 - 3 * 8


def test_the_setup_pad_greys_out_a_ninth_king(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    seated(client, table)
    kings = ["K", "Q", "J", "K"] + ["K"] * 6 + ["A", "2"]   # 8 kings: one in row 1, seven discarded
    page = html(controls(client, table, at=0, dealer=0, pick=",".join(kings)))
    assert "disabled" in button(page, "K") and "disabled" not in button(page, "Q")


def test_wizard_refusal_keeps_the_cards_before_it(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    seated(client, table)
    page = controls(client, table, at=0, dealer=1, pick=",".join(["flamingo"] * 8))
    shown = text(page)
    assert "nur noch 0 verdeckt" in shown
    assert re.search(r"Ablage 6\b", shown)   # the seven flamingos entered before stay (1 in the row, 6 discarded)


def test_solo_setup_takes_robinbirds_hand_as_counts(client, new_table):
    table = new_table("cubirds", ("Anna",), options={"solo": True})
    seated(client, table)
    page = controls(client, table)
    assert "Aufbau: wer gibt?" not in text(page)   # one person at the table: she deals
    cards = ["owl", "duck", "parrot", "flamingo", "toucan", "parrot", "magpie", "robin", "duck",
             "reed-warbler", "owl", "toucan", "robin", "owl"]
    page = html(controls(client, table, at=0, pick=",".join(cards)))
    assert "RobinBirds offene Hand" in text_of(page)
    query = selected(page, "magpie:3")              # one tap: three magpies
    assert query["hand"] == "magpie,magpie,magpie"
    query = selected(html(controls(client, table, **query)), "robin:5")
    assert Counter(query["hand"].split(",")) == {"magpie": 3, "robin": 5}
    done = controls(client, table, **query)
    assert 'class="placed"' not in html(done)   # nothing said of a card tapped before her hand
    draft = new_game("cubirds", {"solo": True}, ["Anna", "RobinBird"]).setup_draft(0)
    for card in cards + ["magpie"] * 3 + ["robin"] * 5:
        draft.add(card)
    assert posted_events(done) == [draft.event()]


# --- a play ----------------------------------------------------------------------------

def test_a_selection_counts_only_at_its_version(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    assert "K – an welches Ende?" in text(controls(client, table, at=version, pick="K"))
    assert "Welche Art, wie viele?" in text(controls(client, table, at=version - 1, pick="K"))


def test_bad_selection_is_named_and_changes_nothing(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    assert "Unbekannte Karte in der Auswahl: Z" in text(controls(client, table, at=version, pick="Z"))
    page = text(controls(client, table, at=version, pick="K,3"))
    assert "Ungültige Auswahl: pick = K,3" in page and "Welche Art, wie viele?" in page
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == version


def test_one_cell_chooses_species_and_count_and_one_end_enters_the_play(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    version = enter(client, table, CUBIRDS_SETUP)
    seated(client, table)
    first = html(controls(client, table))
    assert posted_events(controls(client, table)) == []      # no row end before cards are chosen
    query = selected(first, "duck:2")
    assert query == {"at": str(version), "pick": "duck,duck"}
    ends = controls(client, table, **query)
    assert [e for e in posted_events(ends) if e["type"] == "play"] == [
        {"type": "play", "cards": ["duck", "duck"], "row": row, "side": side}
        for row in range(4) for side in ("left", "right")]
    assert 'aria-pressed="true"' in button(html(ends), "duck:2")


def test_a_pair_species_cell_keeps_the_other_rank_and_the_known_cards(client, new_table):
    """Gleich und gleich: all cards of the species are played (rules/000 "Karten
    ausspielen"), so a card captured face up is always part of the selection."""
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP, {"type": "play", "cards": ["K"], "row": 2, "side": "right"},
          {"type": "refill", "card": "9", "side": "right"}, {"type": "no-flock"},
          {"type": "play", "cards": ["A"], "row": 0, "side": "right"}, {"type": "pass"}, {"type": "no-flock"})
    seated(client, table)
    page = html(controls(client, table))   # Anna holds the captured Q and 6 (known to all)
    assert selected(page, "5:2")["pick"] == "5,5,6"
    three = selected(page, "5:2")
    page = html(controls(client, table, **three))
    assert selected(page, "6:2")["pick"] == "5,5,6,6"
    assert selected(page, "5:2")["pick"] == "6"    # unsetting the 5s leaves the known 6
    assert selected(page, "5:1")["pick"] == "5,6"


def test_no_two_cells_of_a_pad_read_the_same(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP)
    seated(client, table)
    page = html(controls(client, table))
    cells = re.findall(r'<button[^>]*class="tap cell[^"]*"[^>]*>(.*?)</button>', page, re.S)
    spoken = [re.search(r'class="sr">([^<]+)<', cell).group(1) for cell in cells]
    assert len(cells) > 16 and len(set(spoken)) == len(spoken)
    assert all(re.search(r'data-card="', cell) for cell in cells)   # each shows the card it counts


def test_row_ends_show_their_catch_in_the_row_and_on_the_end(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    version = enter(client, table, CUBIRDS_SETUP)
    seated(client, table)
    page = html(controls(client, table, at=version, pick="owl"))
    game = new_game("cubirds", {}, ["Anna", "Ben"])
    game.apply(CUBIRDS_SETUP)
    for row in range(4):
        line = re.search(rf'<li class="birds-row" data-row="{row}">.*?</li>', page, re.S).group(0)
        for side in ("left", "right"):
            preview = game.preview_play(["owl"], row, side)
            end = text_of(button(line, f"{row}:{side}"))
            caught = len(preview["captured"])
            assert (f"schnappt {caught}" if caught else "schnappt nichts") in end
            assert ("auffüllen" in end.replace("\xad", "")) == preview["refill_needed"]
            assert re.findall(rf'<span class="bcard[^"]*caught-{side}[^"]*" data-card="([^"]+)"', line) \
                == preview["captured"]
    first = re.search(r'<li class="birds-row" data-row="0">.*?</li>', page, re.S).group(0)
    assert button(first, "0:left").index("0:left") < first.index("data-card") < first.index('data-value="0:right"')


def test_the_pad_offers_no_impossible_play_and_a_refused_entry_keeps_the_selection(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP)
    seated(client, table)
    page = html(controls(client, table))
    assert 'data-value="3:1"' not in page and 'data-value="4:1"' in page   # all eight 3s are in sight
    page = html(controls(client, table, at=version, pick="K"))
    vals = json.loads(unescape(re.search(r"hx-vals='([^']*)'", button(page, "0:left")).group(1)))
    vals["event"] = json.dumps({"type": "play", "cards": ["3"], "row": 0, "side": "left"})   # as if typed in
    answer = client.post(f"/t/{table.id}/event", headers={"HX-Request": "true"}, data={**vals, "key": "k1"})
    assert answer.status_code == 422
    shown = text(answer)
    assert "3 kann nicht sein" in shown and "K – an welches Ende?" in shown   # the chosen card is kept
    assert client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json["version"] == version


# --- refill, flock, deal -----------------------------------------------------------------------

def test_refill_turns_up_a_card_at_the_chosen_end(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    version = enter(client, table, CUBIRDS_SETUP, {"type": "play", "cards": ["owl"], "row": 0, "side": "right"})
    seated(client, table)
    page = controls(client, table)
    assert "Reihe 1 auffüllen" in text(page)
    assert {"type": "refill", "card": "robin", "side": "right"} in posted_events(page)
    left = controls(client, table, **selected(html(page), "side:left"))
    assert {"type": "refill", "card": "robin", "side": "left"} in posted_events(left)
    assert 'aria-pressed="true"' in button(html(left), "side:left")
    assert version == 2


def test_a_flock_asks_the_species_and_the_count_and_only_the_kept_ranks(client, new_table):
    """C3: the discarded cards' ranks are not entered; the kept card's are."""
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, GUG_SETUP, {"type": "play", "cards": ["K"], "row": 2, "side": "right"},
          {"type": "refill", "card": "9", "side": "right"})
    seated(client, table)
    page = controls(client, table)
    assert {"type": "no-flock"} in posted_events(page)
    assert {"type": "flock", "cards": ["Q", "Q"]} in posted_events(page)   # a face: one tap
    assert "→ 1" in text_of(button(html(page), "Q:2")) and "→ 2" in text_of(button(html(page), "Q:3"))
    kept = controls(client, table, **selected(html(page), "5-6:5"))
    assert "welche kommt in die Sammlung" in text(kept)
    assert posted_events(kept) == [{"type": "flock", "cards": ["5", "5-6", "5-6", "5-6", "5-6"]},
                                   {"type": "flock", "cards": ["6", "5-6", "5-6", "5-6", "5-6"]}]
    enter(client, table, posted_events(kept)[0])
    assert "Anna: 5 × 5–6: kleiner Schwarm, 5 in die Sammlung" in text(client.get(f"/t/{table.id}"))


def test_a_cubirds_flock_is_one_tap(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"))
    version = enter(client, table, CUBIRDS_SETUP, {"type": "play", "cards": ["owl"], "row": 0, "side": "right"},
                    {"type": "refill", "card": "robin", "side": "right"})
    seated(client, table)
    flock = controls(client, table, at=version)
    assert 'data-species="owl"' not in html(flock)   # just played: none left in the hand
    assert {"type": "flock", "cards": ["magpie"] * 5} in posted_events(flock)
    assert {"type": "no-flock"} in posted_events(flock)


def test_solo_robinbird_is_told_where_her_card_goes(client, new_table):
    table = new_table("cubirds", ("Anna",), options={"solo": True})
    robin_hand = ["owl", "owl", "duck", "duck", "magpie", "magpie", "robin", "robin"]
    setup = {**CUBIRDS_SETUP, "robin_hand": robin_hand}
    turn = [{"type": "play", "cards": ["flamingo"], "row": 0, "side": "right"}, {"type": "pass"}, {"type": "no-flock"}]
    enter(client, table, setup, *turn)
    seated(client, table)
    turn_up = controls(client, table)
    assert "RobinBird, Reihe 1: welche Karte wurde aufgedeckt?" in text(turn_up)
    assert {"type": "robin-draw", "card": "parrot"} in posted_events(turn_up)
    enter(client, table, {"type": "robin-draw", "card": "parrot"})
    page = text(client.get(f"/t/{table.id}"))
    game = new_game("cubirds", {"solo": True}, ["Anna", "RobinBird"])
    for event in (setup, *turn):
        game.apply(event)
    effect = game.apply({"type": "robin-draw", "card": "parrot"})
    side = "links" if effect["side"] == "left" else "rechts"
    assert f"RobinBird: 1 × Papagei {side} an Reihe 1" in page
    assert "RobinBirds offene Hand" in page


def test_solo_deal_asks_for_robinbirds_new_hand_as_counts(client):
    from engine.randomplay import random_record

    record = random_record("cubirds", {"solo": True}, 2, 9)
    deal_at = next(i for i, e in enumerate(record["events"]) if e["type"] == "deal")
    deal = record["events"][deal_at]
    made = client.post("/api/tables", json={"record": {**record, "events": record["events"][:deal_at]}})
    assert made.status_code == 201, made.json
    client.get(f"/t/{made.json['id']}/s/{made.json['token']}")
    table_id = made.json["id"]
    start = client.get(f"/t/{table_id}/controls")
    assert "Runde 1 vorbei" in text(start) and "(0 von 8)" in text(start)
    assert posted_events(start) == []   # no deal before her eight cards are in
    query = {"at": deal_at}
    for card, count in Counter(deal["robin_hand"]).items():   # one tap per species she got
        query = selected(html(client.get(f"/t/{table_id}/controls", query_string=query)), f"{card}:{count}")
    full = client.get(f"/t/{table_id}/controls", query_string=query)
    assert [e["type"] for e in posted_events(full)] == ["deal"]
    assert Counter(posted_events(full)[0]["robin_hand"]) == Counter(deal["robin_hand"])


# --- undo, viewers, the end ---------------------------------------------------------------------

def test_undo_names_the_entry_in_force_also_after_an_undo(client, new_table):
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    version = enter(client, table, GUG_SETUP, {"type": "play", "cards": ["K"], "row": 2, "side": "right"},
                    {"type": "refill", "card": "9", "side": "right"})
    seated(client, table)
    asking = text(controls(client, table, at=version, undo="ask"))
    assert "Zurücknehmen?" in asking and "„Anna: 9 rechts an Reihe 3 aufgedeckt — Reihe fertig“" in asking
    answer = client.post(f"/api/tables/{table.id}/undo", json={"version": version}, headers=table.auth())
    assert answer.status_code == 200, answer.json
    asking = text(controls(client, table, at=version + 1, undo="ask"))
    assert "„Anna: K rechts an Reihe 3 — schnappt D, 6“" in asking   # the play in force now, not the undo


def test_a_viewer_sees_the_table_but_no_taps(client, new_table, app):
    table = new_table("cubirds", ("Anna", "Ben"))
    enter(client, table, CUBIRDS_SETUP)
    page = html(app.test_client().get(f"/t/{table.id}"))
    assert 'class="birds-row"' in page and "birds-step" not in page
    assert "Du schaust zu." in text_of(page)


def test_centre_view_has_no_controls(client, new_table):
    table = new_table("cubirds", ("Anna", "Ben"), start=False)
    assert client.get(f"/t/{table.id}/mitte").status_code == 302
    client.post(f"/api/tables/{table.id}/start", headers=table.auth())
    enter(client, table, CUBIRDS_SETUP)
    page = html(seated(client, table).get(f"/t/{table.id}/mitte"))
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
    status = re.search(r'<section id="status".*?</section>', html(page), re.S).group(0)
    assert "(genug verschiedene Arten gesammelt)" in text_of(status)
    assert 'data-value="rematch"' in html(page) and 'data-value="undo-ask"' in html(page)


def test_the_board_marks_the_deal_of_a_new_round(client):
    from engine.randomplay import random_record

    record = random_record("cubirds", {}, 2, 4)
    deal_at = next(i for i, e in enumerate(record["events"]) if e["type"] == "deal")
    made = client.post("/api/tables", json={"record": {**record, "events": record["events"][:deal_at]}})
    board = re.search(r'<section id="board".*?</section>', html(client.get(f"/t/{made.json['id']}")), re.S).group(0)
    assert "Runde 1 vorbei" in text_of(board) and "Runde 1 ·" not in text_of(board)


def test_robinbirds_handicap_is_a_field_of_the_start_page_and_cards_of_the_setup(client, app):
    """C4: the start page's number sets robin_handicap; the setup then asks for that many
    cards turned up into RobinBird's collection (rules/003 "Solovariante")."""
    start = html(client.get("/"))
    assert re.search(r'<input type="number" name="option-robin_handicap" min="0" max="8"', start)
    answer = client.post("/tables", data={"game": "cubirds", "name": "Anna", "option-solo": "1",
                                          "option-robin_handicap": "2"})
    assert answer.status_code == 303, answer.text
    table_id = answer.headers["Location"].rsplit("/", 1)[-1]
    from webapp import store

    with app.app_context():
        assert store.get_table(table_id).options["robin_handicap"] == 2
    client.post(f"/t/{table_id}/start")
    cards = ["owl", "duck", "parrot", "flamingo", "toucan", "parrot", "magpie", "robin", "duck",
             "reed-warbler", "owl", "toucan", "robin", "owl"]
    page = text(client.get(f"/t/{table_id}/controls", query_string={"at": 0, "pick": ",".join(cards)}))
    assert "Vorsprung für RobinBird: Karte 1 von 2?" in page
    [setup] = posted_events(client.get(f"/t/{table_id}/controls", query_string={
        "at": 0, "pick": ",".join(cards + ["magpie"] * 2), "hand": ",".join(["duck"] * 3 + ["robin"] * 5)}))
    assert setup["robin_bonus"] == ["magpie", "magpie"] and setup["robin_hand"] == ["duck"] * 3 + ["robin"] * 5


def test_a_handicap_of_nought_leaves_the_option_unset_and_a_bad_one_is_refused(client, app):
    from webapp import store

    answer = client.post("/tables", data={"game": "cubirds", "name": "Anna", "option-solo": "1",
                                          "option-robin_handicap": "0"})
    with app.app_context():
        assert store.get_table(answer.headers["Location"].rsplit("/", 1)[-1]).options["robin_handicap"] == 0
    refused = client.post("/tables", data={"game": "cubirds", "name": "Anna", "option-solo": "1",
                                           "option-robin_handicap": "9"})
    assert refused.status_code == 422 and "robin_handicap" in text(refused)


def test_long_bird_names_break_only_where_words_do():
    """#18 point 8: a pad's narrow tap breaks a name only at a hyphenation point of its
    language (soft hyphens) or a space, and sizes it by its longer line."""
    from webapp.screens.birds.words import SOFT_HYPHEN, name_lines
    assert name_lines("Teichrohrsänger", "de") == (SOFT_HYPHEN.join(["Teich", "rohr", "sän", "ger"]), 10)  # Teichrohr-
    assert name_lines("Rotkehlchen", "de") == (SOFT_HYPHEN.join(["Rot", "kehl", "chen"]), 8)              # Rotkehl-
    assert name_lines("Reed warbler", "en")[1] == 7                                                      # warbler
    assert name_lines("Flamingo", "de") == ("Flamingo", 8)                                                # short: whole


def test_with_no_card_left_to_draw_the_draw_step_is_one_tap_on(client, new_table):
    """The engine says how many cards a draw would bring ("… dürft stattdessen 2 Karten vom
    Nachziehstapel ziehen", rules/003): with none left, "Ja, 0 ziehen" and "Nein" would be
    two taps for one thing, so the step offers one that goes on."""
    events = random_events("gleich-und-gleich", 2, seed=6)
    at = 191   # found by replaying: the engine's draw step offers 0 cards here
    game = new_game("gleich-und-gleich", {}, ["Anna", "Ben"])
    for event in events[:at]:
        game.apply(event)
    assert game.legal_choices()["kind"] == "draw" and game.legal_choices()["drawn"] == 0
    table = new_table("gleich-und-gleich", ("Anna", "Ben"))
    enter(client, table, *events[:at])
    seated(client, table, seat=game.awaiting.player)
    page = html(client.get(f"/t/{table.id}"))
    assert 'data-value="pass"' in page and 'data-value="draw"' not in page
    assert "keine Karte mehr zum Ziehen" in text_of(page)
