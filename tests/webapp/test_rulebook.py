"""The rule book: one page per game from the texts in the repository, and a "Warum?"
for every step and every refusal the engine can raise, quoting the rule text."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from engine import new_game
from engine.randomplay import random_record
from webapp.rulebook import why
from webapp.rulebook.citations import WHY
from webapp.rulebook.decisions_de import DECISIONS_DE
from webapp.rulebook.texts import SOURCES, decisions, rule_text, squeeze

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GAMES_OF = {"rummy": ("gemeinsame-sache",), "birds": ("gleich-und-gleich", "cubirds")}
RANDOM_GAMES = [("gleich-und-gleich", {}, 3), ("cubirds", {}, 2), ("cubirds", {"solo": True}, 2),
                ("gemeinsame-sache", {}, 2)]


@functools.cache
def refusal_codes() -> dict[str, set[str]]:
    """Every refusal code in the engine's source (the first argument of each
    ``IllegalEvent(...)``), by the games whose engine part raises it."""
    found = {game: set() for game in SOURCES}
    for path in ENGINE.rglob("*.py"):
        part = path.relative_to(ENGINE).parts[0]
        if part == "lab" or path.name == "errors.py":   # errors.py: the class itself
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "IllegalEvent":
                code = node.args[0]
                assert isinstance(code, ast.Constant), f"{path}:{node.lineno}: a refusal code that is no literal"
                for game in GAMES_OF.get(part, SOURCES):
                    found[game].add(code.value)
    return found


@functools.cache
def step_kinds() -> dict[str, set[str]]:
    """Every kind of step the engine awaited in random complete games."""
    found = {game: set() for game in SOURCES}
    for game, options, players in RANDOM_GAMES:
        for seed in range(6):
            record = random_record(game, options, players, seed)
            replayed = new_game(game, record["options"], record["players"])
            for event in record["events"]:
                found[game].add(replayed.awaiting.kind)
                replayed.apply(event)
    return found


def test_every_refusal_the_engine_can_raise_has_its_rule_or_is_marked_malformed():
    for game, codes in refusal_codes().items():
        missing = sorted(codes - set(WHY[game]))
        assert not missing, f"{game}: add these codes to webapp/rulebook/citations.py (a rule sentence, or MALFORMED): {missing}"


def test_every_step_has_its_rule():
    for game, kinds in step_kinds().items():
        missing = sorted(kind for kind in kinds if WHY[game].get(f"step:{kind}") is None)
        assert not missing, f"{game}: no rule sentence for the steps {missing}"


def test_nothing_is_cited_for_a_code_or_step_that_does_not_exist():
    codes, kinds = refusal_codes(), step_kinds()
    for game, entries in WHY.items():
        stale = [key for key in entries if key not in codes[game] and key.removeprefix("step:") not in kinds[game]]
        assert not stale, f"{game}: {stale}"


@pytest.mark.parametrize("game", sorted(SOURCES))
def test_every_sentence_is_quoted_word_for_word_from_the_games_text(game):
    text = rule_text(game)
    for key, why in WHY[game].items():
        for sentence in (why.sentences if why else ()):
            assert text.section_of(sentence) is not None, f"{game} {key}: not in the rule text: {sentence!r}"
        if why and why.decision is not None:
            assert why.decision in [int(item.split(".")[0]) for item in decisions(game)], (game, key)


def test_the_decisions_are_the_readmes_item_for_item_in_german():
    for game in SOURCES:
        numbers = [item.split(".")[0] for item in decisions(game)]
        assert numbers and numbers == [item.split(".")[0] for item in DECISIONS_DE[game]], game


@pytest.mark.parametrize("game", sorted(SOURCES))
def test_each_game_has_its_rule_page(client, game):
    page = client.get(f"/regeln/{game}").text
    text = rule_text(game)
    for section in text.sections:
        assert f'id="{section.anchor}"' in page and section.heading in page
    assert 'id="decision-2"' in page
    assert "Die Regeln stehen hier auf Deutsch" not in page
    english = client.get(f"/regeln/{game}?lang=en").text
    assert "The rules are shown here in German" in english and squeeze(text.sections[0].blocks[0].text)[:30] in squeeze(english)


def test_the_rule_pages_quote_the_decisions_in_the_pages_language(client):
    assert "Ace low or high, never around the corner" in client.get("/regeln/gemeinsame-sache?lang=en").text
    german = client.get("/regeln/gemeinsame-sache?lang=de").text
    assert "Das Ass unten oder oben, nie um die Ecke" in german and "<table>" in client.get("/regeln/gleich-und-gleich").text
    assert client.get("/regeln/schach").status_code == 404
    index = client.get("/regeln/").text
    assert all(f"/regeln/{game}" in index for game in SOURCES)


def test_the_rule_behind_a_step_is_quoted_in_each_requests_language(app):
    """``why`` is looked up once per game, key and language: a German phone's lookup is
    not what an English phone gets afterwards, nor the other way round."""
    def asked(language):
        with app.test_request_context(f"/?lang={language}"):
            return why("gleich-und-gleich", "step:play")

    german, english, german_again = asked("de"), asked("en"), asked("de")
    assert german.sentences == tuple(WHY["gleich-und-gleich"]["step:play"].sentences)  # the rule text's German
    assert english.sentences != german.sentences and german_again == german
    assert english.href == german.href and german.href.startswith("/regeln/gleich-und-gleich#")
    with app.test_request_context("/"):
        assert why("gleich-und-gleich", "no-such-code") is None
