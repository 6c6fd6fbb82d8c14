"""The rule book: each game's rules readable in the app, one page per game (from the
texts in ``texts/``), and the "Warum?" beside each step and refusal: the rule
sentence behind it (``why``, for the templates)."""
from __future__ import annotations

import functools
import textwrap
from typing import NamedTuple

import markdown
from flask import Blueprint, render_template, url_for
from markupsafe import Markup

from ..errors import Refusal
from ..i18n import current_language, gettext, lazy_gettext as _l
from ..screens import title
from .citations import WHY
from .decisions_de import DECISIONS_DE
from .texts import SOURCES, decisions, rule_text

bp = Blueprint("rulebook", __name__)


@bp.get("/regeln/")
def index():
    return render_template("rulebook/index.html", games=[(game, title(game)) for game in SOURCES])


@bp.get("/regeln/<game>")
def game_page(game: str):
    if game not in SOURCES:
        raise Refusal(404, "no-such-game", _l("Für dieses Spiel gibt es keine Regeln"))
    items = DECISIONS_DE[game] if current_language() == "de" else decisions(game)
    return render_template("rulebook/game.html", game=game, game_title=title(game), text=rule_text(game),
                           decisions=[_decision(item) for item in items])


def _decision(item: str) -> tuple[str, Markup]:
    """A numbered decision (Markdown) as its number and HTML."""
    number, body = item.split(". ", 1)
    first, _newline, rest = body.partition("\n")
    return number, Markup(markdown.markdown(first + "\n" + textwrap.dedent(rest), extensions=["tables"]))


class Citation(NamedTuple):
    """A rule behind a step or a refusal: its sentences, and links to them."""

    sentences: tuple[str, ...]
    href: str
    decision: int | None
    decision_href: str


@bp.app_template_global("rule_why")
def why(game: str, key: str) -> Citation | None:
    """The rule behind a step (``"step:<kind>"``) or a refusal (its code) of ``game``:
    its sentences in this language, and links to them on the game's rule page (every
    step's controls show one: looked up once per game, key and language). A template
    global, ``rule_why``, so that the macro of "Warum?" is imported without a context
    (its module made once, not at every drawing)."""
    return _why(game, key, current_language())


@functools.lru_cache(maxsize=1024)
def _why(game: str, key: str, _language: str) -> Citation | None:
    entry = WHY.get(game, {}).get(key)
    if entry is None:
        return None
    section = rule_text(game).section_of(entry.sentences[0])
    return Citation(
        sentences=tuple(gettext(sentence) for sentence in entry.sentences),
        href=url_for("rulebook.game_page", game=game, _anchor=section.anchor if section else None),
        decision=entry.decision,
        decision_href=url_for("rulebook.game_page", game=game, _anchor=f"decision-{entry.decision}"))


@bp.app_template_global()
def rules_href(game: str) -> str | None:
    """The address of ``game``'s rule page, None if the app has no rules for it."""
    return url_for("rulebook.game_page", game=game) if game in SOURCES else None

