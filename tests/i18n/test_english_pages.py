"""An English phone shows no German sentence (#13 point 7): a random game of every
registered game (and its solo variant) walked step by step through the test client,
the page of the phone that enters each step read in English — the board, the step's
question and buttons, the engine's reasons and outlooks, the log.

German is recognised by its letters (ä, ö, ü, ß), by short words that English
text never contains and by the German letters of jack and queen (B♦, D♥); the
proper names of the games and players are left out."""
from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest

from engine import GAMES, new_game
from engine.randomplay import random_record
from webapp.screens import TITLES

NAMES = ["Anna", "Ben", "Carla"]
EXTRA_OPTIONS = {"gleich-und-gleich": [{"solo": True}], "cubirds": [{"solo": True, "robin_handicap": 2}]}
WALKS = [(game, options) for game in sorted(GAMES) for options in [{}, *EXTRA_OPTIONS.get(game, [])]]
SEED = 3
GERMAN = re.compile(r"[äöüÄÖÜß]|\b(der|die|das|und|oder|nicht|ist|mit|auf|von|vom|noch|ein|eine|einen|kein|keine|"
                    r"wurde|muss|hat|für|zum|zur|im|den|dem|des|Karte|Karten|Reihe|Zug|Ablage|Ansatz|Schwarm|"
                    r"Sammlung|zurück|ziehen|legen)\b|\b[BD][♥♦♠♣]", re.IGNORECASE)   # German Bube, Dame
SPOKEN_ATTRIBUTES = {"title", "aria-label", "placeholder", "hx-confirm", "alt"}


class Spoken(HTMLParser):
    """The words a page shows or reads out: text and the attributes spoken to the user."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        self.parts += [value for name, value in attrs if name in SPOKEN_ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def german_in(page: str) -> list[str]:
    """The spoken parts of a page that look German (proper names removed)."""
    parser = Spoken()
    parser.feed(page)
    found = []
    for part in parser.parts:
        plain = part
        for proper in (*map(str, TITLES.values()), "RobinBird"):
            plain = plain.replace(proper, "")
        if GERMAN.search(plain):
            found.append(part.strip())
    return found


def test_the_detector_finds_german_card_letters():
    page = "<p>Q♥ was taken from the discard pile</p><p>D♥ was taken</p><p>Joker (B♦)</p><p>K♠ 10♣ J♦</p>"
    assert german_in(page) == ["D♥ was taken", "Joker (B♦)"]


def test_the_detector_finds_untranslated_engine_prose():
    page = ('<p title="Zurücknehmen">x</p><p>K♠ wurde vom Ablagestapel genommen und muss noch in diesem Zug '
            'auf den Tisch</p><h1>Gleich und gleich</h1><p>Anna draws 2 cards</p>')
    assert german_in(page) == ["Zurücknehmen", "K♠ wurde vom Ablagestapel genommen und muss noch in diesem Zug "
                                                "auf den Tisch"]


def seated_table(client, game: str, options: dict, names: list[str]) -> tuple[str, list[str]]:
    """A started table made through the API: its id and the people's seat tokens."""
    made = client.post("/api/tables", json={"game": game, "options": options, "name": names[0]}).json
    tokens = [made["token"]]
    for name in names[1:]:
        tokens.append(client.post(f"/api/tables/{made['id']}/seats",
                                  json={"join_code": made["join_code"], "name": name}).json["token"])
    started = client.post(f"/api/tables/{made['id']}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert started.status_code == 200, started.json
    return made["id"], tokens


@pytest.mark.skipif(os.environ.get("KT_TEST_DB") == "postgres",
                    reason="what a page says does not depend on the database: the SQLite run walks the games")
@pytest.mark.parametrize(("game", "options"), WALKS, ids=[f"{g}{'-solo' if o else ''}" for g, o in WALKS])
def test_every_step_of_a_game_reads_english(app, client, game, options):
    record = random_record(game, options, None, SEED)
    engine_game = new_game(game, record["options"], record["players"])
    humans = len(engine_game.players) - len(engine_game.bot_seats)
    table_id, tokens = seated_table(client, game, options, NAMES[:humans])
    phones = []
    for token in tokens:
        phone = app.test_client()
        phone.get(f"/t/{table_id}/s/{token}")
        phones.append(phone)
    for version, event in enumerate([*record["events"], None]):
        seat = engine_game.entered_by()
        phone = phones[seat if seat is not None else 0]
        page = phone.get(f"/t/{table_id}?lang=en").get_data(as_text=True)
        assert german_in(page) == [], (version, event)
        if event is not None and event.get("card") and engine_game.awaiting.kind == "act":   # the card picked
            picked = phone.get(f"/t/{table_id}/controls?lang=en&card={event['card']}").get_data(as_text=True)
            assert german_in(picked) == [], (version, event)
        if event is None:
            break
        answer = client.post(f"/api/tables/{table_id}/events", json={"event": event, "version": version},
                             headers={"Authorization": f"Bearer {tokens[0]}"})
        assert answer.status_code == 200, answer.json
        engine_game.apply(event)
    assert engine_game.outcome() is not None
