"""A game's variant reads in the page's language wherever the app names it: the lobby
("Gespielt wird: …", also as its sync poll draws it), the night page (also its poll),
its CSV and JSON exports and BG Stats link, and the statistics page (headings, rows,
the level chart). The variant is worded from the start page's option labels and
Gemeinsame Sache's level names.

For each game and variant, the German page shows the German words and the English
page none of them but their English translations (looked up in the English
catalogue, so this test names no English text of its own). Each page is asked for in
English, German, English, German: a drawing cached across languages shows up as the
other language's words. The games' names are proper names ("Gleich und gleich",
"Gemeinsame Sache" in English too) and are not variant words."""
from __future__ import annotations

import csv
import html
import io
import json
import re
from urllib.parse import unquote

import pytest
from flask_babel import gettext

from engine.randomplay import random_record

from .test_pages import create_by_form

HANDICAP = "Solo: Vorsprung für RobinBird (Karten in ihrer Sammlung)"
# game, players, the start page's form fields, the engine's options, the German words of the variant
CASES = [
    ("gleich-und-gleich", 3, {"fast": "1"}, {"fast": True}, ["Schnelles Spiel"]),
    ("gleich-und-gleich", 3, {"rarer_faces": "1"}, {"rarer_faces": True}, ["Seltenere Seltene"]),
    ("gleich-und-gleich", 4, {"fast": "1", "rarer_faces": "1"}, {"fast": True, "rarer_faces": True},
     ["Schnelles Spiel", "Seltenere Seltene"]),
    ("gleich-und-gleich", 2, {"solo": "1"}, {"solo": True}, ["Solo gegen RobinBird"]),
    ("gleich-und-gleich", 2, {"fast": "1", "rarer_faces": "1", "solo": "1", "robin_handicap": "2"},
     {"fast": True, "rarer_faces": True, "solo": True, "robin_handicap": 2},
     ["Schnelles Spiel", "Seltenere Seltene", "Solo gegen RobinBird", HANDICAP]),
    ("cubirds", 2, {"solo": "1"}, {"solo": True}, ["Solo gegen RobinBird"]),
    ("cubirds", 2, {"solo": "1", "robin_handicap": "3"}, {"solo": True, "robin_handicap": 3},
     ["Solo gegen RobinBird", HANDICAP]),
    ("gemeinsame-sache", 2, {"level": "leicht"}, {"level": "leicht"}, ["Leicht"]),
    ("gemeinsame-sache", 2, {"level": "schwer", "open_hands": "1", "ace_low_only": "1", "max_starts": "1"},
     {"level": "schwer", "open_hands": True, "ace_low_only": True, "max_starts": 3},
     ["Schwer", "Offene Hände", "Ass unten", "Drei Ansätze"]),
    ("gemeinsame-sache", 2, {"draw_pile": "12"}, {"level": "custom", "draw_pile": 12}, ["Eigene Größe"]),
]
SEED = 3
SOLO_ROW = r'<article class="stats-group solo">.*?<tr data-variant="[^"]*"><th scope="row">(.*?)</th>'
GROUP_HEADING = r'<article class="stats-group" data-players="\d+" data-variant="[^"]*">\s*<h3>(.*?) · '
LANGUAGES = ("en", "de", "en", "de")   # each language asked for after the other one


def english_of(app, words: list[str]) -> list[str]:
    """The English catalogue's words for the German ones (a missing entry stays German)."""
    with app.test_request_context("/?lang=en"):
        return [gettext(word) for word in words]


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(page))


def the_variant(pattern: str, page: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found, pattern
    return text_of(found.group(1))


def check(shown: str, everything: str, language: str, german: list[str], english: list[str], where: str) -> None:
    """``shown``: the variant as the page words it; ``everything``: all the page says."""
    if language == "de":
        for word in german:
            assert word in shown, (where, language, word, shown)
        return
    for word in german:
        assert word not in everything, (where, language, word, shown)
    for word in english:
        assert word in shown, (where, language, word, shown)


@pytest.mark.parametrize(("game", "players", "fields", "options", "german"), CASES,
                         ids=[f"{c[0]}-{'-'.join(c[3])}" for c in CASES])
def test_the_lobby_names_the_variant_in_the_page_language(app, client, game, players, fields, options, german):
    english = english_of(app, german)
    table_id = create_by_form(client, game, **fields)
    for language in LANGUAGES:
        page = client.get(f"/t/{table_id}?lang={language}").get_data(as_text=True)
        check(the_variant(r'<p class="hint variant">(.*?)</p>', page), text_of(page), language, german, english, "lobby")
        poll = client.get(f"/t/{table_id}/sync?rev=-1&phase=lobby&lang={language}").get_data(as_text=True)
        check(the_variant(r'<p class="hint variant">(.*?)</p>', poll), text_of(poll), language, german, english,
              "lobby poll")


@pytest.mark.parametrize(("game", "players", "fields", "options", "german"), CASES,
                         ids=[f"{c[0]}-{'-'.join(c[3])}" for c in CASES])
def test_the_night_and_the_statistics_name_the_variant_in_the_page_language(app, client, game, players, fields,
                                                                             options, german):
    english = english_of(app, german)
    record = random_record(game, dict(options), players, SEED)
    made = client.post("/api/tables", json={"record": record})
    assert made.status_code == 201, made.json
    table_id = made.json["id"]
    for language in LANGUAGES:
        page = client.get(f"/t/{table_id}/abend?lang={language}").get_data(as_text=True)
        check(the_variant(r'<span class="variant">· (.*?)</span>', page), text_of(page), language, german, english,
              "night page")
        board = json.loads(unquote(re.search(r'createPlay\.html\?data=([^"]+)"', page).group(1)))["board"]
        check(board, board, language, german, english, "BG Stats link")

        poll = client.get(f"/t/{table_id}/sync?rev=-1&phase=abend&lang={language}").get_data(as_text=True)
        check(the_variant(r'<span class="variant">· (.*?)</span>', poll), text_of(poll), language, german, english,
              "night poll")

        exported = client.get(f"/t/{table_id}/abend.json?lang={language}").get_data(as_text=True)
        variant = json.loads(exported)["games"][0]["summary"]["variant"]
        check(variant, exported, language, german, english, "JSON export")

        table = client.get(f"/t/{table_id}/abend.csv?lang={language}").get_data(as_text=True)
        [row] = csv.DictReader(io.StringIO(table))
        check(row["variant"], table, language, german, english, "CSV export")

        stats = client.get(f"/statistik?lang={language}").get_data(as_text=True)
        if game == "gemeinsame-sache":   # a row per level, the ending per level, the level chart's label
            shown = [the_variant(r'<tr data-draw-pile="\d+"><th scope="row">(.*?)</th>', stats),
                     the_variant(r'<ul class="endings"><li>(.*?):', stats),
                     the_variant(r'<svg.*?class="axis x.*?<text[^>]*>([^<]*)</text>', stats)]
        elif options.get("solo"):
            shown = [the_variant(SOLO_ROW, stats)]
        else:
            shown = [the_variant(GROUP_HEADING, stats)]
        for words in shown:
            check(words, text_of(stats), language, german, english, "statistics")
