"""Screenshots of the main screens at phone size (Pixel 7), taken on the page tour
(tests/e2e/pages_tour.py) so the README's pictures stay current (``./kt screenshots``
writes them to docs/screenshots/). The start page is test_screenshots.py's."""
from __future__ import annotations

import pytest

from pages_tour import tour
from shots import shoot

pytestmark = pytest.mark.presentation  # the same HTML on any database: ./kt test-postgres leaves it out

LIGHT = ("lobby", "join", "gleich-und-gleich-play", "cubirds-flock", "gemeinsame-sache-act", "cubirds-over",
         "play-viewer")
DARK = ("gemeinsame-sache-act", "lobby")


def test_screenshots_of_the_main_screens(phone):
    player, viewer = phone(), phone()
    taken = {}
    for stop, page in tour(player, viewer, "de"):
        if stop in LIGHT:
            taken.update(shoot(page, stop, dark=stop in DARK))
    expected = {*LIGHT, *(name + "-dark" for name in DARK)}
    assert set(taken) == expected, f"not on the tour: {sorted(expected - set(taken))}"
    assert taken["lobby"] != taken["lobby-dark"], "the dark screenshot looks like the light one"
