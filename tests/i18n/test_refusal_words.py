"""Engine refusals reach an English phone in English, the game's words included
(``engine.Word`` parameters); names stay as they were typed."""
from __future__ import annotations

import pytest

from engine import IllegalEvent, Word, new_game
from engine.birds.knowledge import check_hidden
from engine.birds.rules import ruleset_for
from webapp.errors import Refusal


def refusal_in(app, language: str, err: IllegalEvent) -> str:
    with app.test_request_context(f"/?lang={language}"):
        return Refusal.from_engine(err).message


def test_a_card_word_in_a_refusal_is_translated(app):
    ruleset = ruleset_for("gleich-und-gleich", {})
    with pytest.raises(IllegalEvent) as refused:
        check_hidden(tuple(0 for _ in ruleset.cards), ("K",), ruleset)   # no King left hidden
    assert "König" in refusal_in(app, "de", refused.value)
    english = refusal_in(app, "en", refused.value)
    assert "King" in english and "König" not in english


def test_a_step_word_in_a_refusal_is_translated(app):
    game = new_game("gleich-und-gleich", {}, ["Anna", "Ben"])
    with pytest.raises(IllegalEvent) as refused:
        game.apply({"type": "no-flock"})
    assert refused.value.params["expected"] == "der Aufbau" and isinstance(refused.value.params["expected"], Word)
    english = refusal_in(app, "en", refused.value)
    assert "the setup" in english and "Aufbau" not in english


def test_names_and_numbers_are_not_translated(app):
    err = IllegalEvent("not-in-hand", "{player} hat {card} nicht auf der Hand: {n} Karte(n){held}",
                       {"player": "Dame", "card": Word("eine Dame"), "n": 3, "held": ""})
    english = refusal_in(app, "en", err)
    assert english.startswith("Dame ") and "a Queen" in english and "3" in english


@pytest.mark.parametrize("cards, german, english", [
    (["QH", "QS"], "D♥ ist schon im Spiel", "Q♥ is already in play"),
    (["JD", "2C"], "B♦ 2♣ ist kein Ansatz", "J♦ 2♣ is not a start"),
])
def test_a_card_in_a_refusal_is_labelled_in_the_pages_language(app, cards, german, english):
    """Gemeinsame Sache's cards are named as the rule text writes them in German (B, D, K)
    and as English writes them (J, Q, K) — never German letters on an English page."""
    game = new_game("gemeinsame-sache", {}, ["Anna", "Ben"])
    game.apply({"type": "setup", "first_discard": "QH", "first_player": 0})
    game.apply({"type": "draw", "from": "pile"})
    with pytest.raises(IllegalEvent) as refused:
        game.apply({"type": "start", "cards": cards})
    assert refusal_in(app, "de", refused.value).startswith(german)
    assert refusal_in(app, "en", refused.value).startswith(english)


def test_species_named_together_are_translated(app):
    game = new_game("cubirds", {}, ["Anna", "Ben"])
    with pytest.raises(IllegalEvent) as refused:
        game.preview_play(["owl", "toucan"], 0, "left")
    assert refusal_in(app, "de", refused.value) == "Alle Karten müssen eine Art sein, nicht Eule, Tukan"
    english = refusal_in(app, "en", refused.value)
    assert "Owl" in english and "Toucan" in english and "Eule" not in english
