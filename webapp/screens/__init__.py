"""Per-game screens: which templates and view helpers show a game.

``screen_for(game_name)`` gives the screen; games without their own screen
(e.g. a test game) get the generic one.
"""
from __future__ import annotations

from ..i18n import lazy_gettext as _l
from . import birds, generic, rummy

TITLES = {
    "gleich-und-gleich": _l("Gleich und gleich"),
    "cubirds": _l("CuBirds"),
    "gemeinsame-sache": _l("Gemeinsame Sache"),
}

SCREENS: dict[str, generic.Screen] = {
    "gleich-und-gleich": birds.gleich_und_gleich,
    "cubirds": birds.cubirds,
    "gemeinsame-sache": rummy.screen,
}


def screen_for(game: str) -> generic.Screen:
    return SCREENS.get(game, generic.screen)


def title(game: str) -> str:
    return str(TITLES.get(game, game))
