"""Kept pieces of a drawing (webapp/fragments.py): a piece kept by its arguments
draws exactly what its macro draws, in every language and perspective, at every
point of a game; and a change redraws only the pieces that changed."""
from __future__ import annotations

import json

import pytest
from webapp import play

from .conftest import random_events
from .test_pages import HX
from .test_regions import started_table, sync

GAMES = (("gemeinsame-sache", ("Anna", "Ben")), ("gleich-und-gleich", ("Anna", "<b>Ben</b>", "Carla")),
         ("cubirds", ("Anna", "Ben")))
EVENTS = 120  # per game: setup, rounds of play, a Gemeinsame Sache game to its end


class KeepsNothing(dict):
    """A fragment store that forgets at once: every piece is drawn by its macro."""

    def __setitem__(self, key, value) -> None:
        pass


def drawn_by_every_phone(app, phones, table_id: str, language: str) -> list[str]:
    """Each phone's regions at the table's revision, drawn anew (no whole drawing kept)."""
    play._drawings.clear()
    app.extensions["sync"]._drawings.clear()
    return [sync(phone, table_id, lang=language) for phone in phones]


@pytest.mark.parametrize("game,names", GAMES, ids=[game for game, _ in GAMES])
def test_kept_pieces_draw_what_their_macros_draw(app, client, monkeypatch, game, names):
    table_id, others = started_table(app, client, names=names, game=game)
    phones = [client, *others, app.test_client()]  # every seat, and a phone that watches
    fragments = app.extensions["fragments"]
    kept_store = fragments._html
    for version, event in enumerate(random_events(game, len(names), seed=3)[:EVENTS]):
        entered = client.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(event), "version": version})
        assert entered.status_code == 200, entered.text
        language = ("de", "en")[version % 2]
        kept = drawn_by_every_phone(app, phones, table_id, language)  # pieces kept since the game began
        monkeypatch.setattr(fragments, "_html", KeepsNothing())
        fresh = drawn_by_every_phone(app, phones, table_id, language)
        monkeypatch.setattr(fragments, "_html", kept_store)
        assert kept == fresh, f"{game} at version {version + 1} ({language})"
    assert len(kept_store) > 0


def test_a_change_redraws_only_the_pieces_that_changed(app, client):
    table_id, _others = started_table(app, client, names=("Anna", "Ben", "Carla"), game="gleich-und-gleich")
    store = app.extensions["fragments"]._html
    events = random_events("gleich-und-gleich", 3, seed=4)
    for version, event in enumerate(events[:30]):
        assert client.post(f"/t/{table_id}/event", headers=HX,
                           data={"event": json.dumps(event), "version": version}).status_code == 200
    before = len(store)
    entered = client.post(f"/t/{table_id}/event", headers=HX, data={"event": json.dumps(events[30]), "version": 30})
    assert entered.status_code == 200  # its answer is the drawing at the new revision
    pieces = entered.text.count('class="birds-player') + entered.text.count('class="birds-row"') + 3  # + memory aid
    assert 0 < len(store) - before <= pieces // 2, "most pieces come from the drawing before"


def test_only_macros_that_draw_from_their_arguments_are_kept(app):
    with app.test_request_context("/"):
        with pytest.raises(ValueError, match="'tap'"):
            app.extensions["fragments"].kept("tap", {})


def test_every_kept_macro_is_in_its_template(app):
    from webapp.fragments import KEPT

    for name, template in KEPT.items():
        module = app.jinja_env.get_template(template).module
        assert callable(getattr(module, name, None)), f"{name} in {template}"
