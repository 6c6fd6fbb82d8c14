"""Screenshots of the main screens at phone size (Pixel 7, 412 px wide) into
docs/screenshots/, taken on the page tour (tests/e2e/pages_tour.py) so the
README's pictures stay current. The start page is test_screenshots.py's."""
from __future__ import annotations

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from pages_tour import tour  # noqa: E402

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LIGHT = ("lobby", "join", "gleich-und-gleich-play", "cubirds-flock", "gemeinsame-sache-act", "cubirds-over",
         "play-viewer")
DARK = ("gemeinsame-sache-act", "lobby")


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def shoot(page, name: str) -> Path:
    path = SCREENSHOTS / f"{name}.png"
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    page.screenshot(path=path, scale="css", animations="disabled")
    width, height = png_size(path)
    viewport = page.viewport_size
    assert (width, height) == (viewport["width"], viewport["height"]), f"{path.name} is {width}×{height}"
    return path


def test_screenshots_of_the_main_screens(phone):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    player, viewer = phone(), phone()
    taken = {}
    for scheme, names in (("light", LIGHT), ("dark", DARK)):
        for page in (player, viewer):
            page.emulate_media(color_scheme=scheme)
        suffix = "" if scheme == "light" else "-dark"
        for stop, page in tour(player, viewer, "de"):
            if stop in names:
                taken[stop + suffix] = shoot(page, stop + suffix)
    expected = {*LIGHT, *(name + "-dark" for name in DARK)}
    assert set(taken) == expected, f"not on the tour: {sorted(expected - set(taken))}"
    light, dark = (taken["lobby"].read_bytes(), taken["lobby-dark"].read_bytes())
    assert light != dark, "the dark screenshot looks like the light one"
