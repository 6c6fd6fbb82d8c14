"""Screenshots of the screens as a person sees them (the phone's viewport), for the
README and ``docs/screenshots/``.

Tests call ``shoot(page, name)`` wherever a screen is worth a picture. The picture is
always taken (so a test can check it), but written only when ``KT_SCREENSHOTS`` names a
folder — ``./kt screenshots`` sets it to ``docs/screenshots`` — so that ``./kt test``
leaves the checkout as it found it.
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

FOLDER_VARIABLE = "KT_SCREENSHOTS"


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", png[16:24])


def _folder() -> Path | None:
    folder = os.environ.get(FOLDER_VARIABLE)
    return Path(folder) if folder else None


def _take(page, name: str) -> bytes:
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    png = page.screenshot(scale="css", animations="disabled")
    viewport = page.viewport_size
    assert png_size(png) == (viewport["width"], viewport["height"]), \
        f"the screenshot {name} is {png_size(png)}, the viewport {viewport}"
    folder = _folder()
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.png").write_bytes(png)
    return png


def shoot(page, name: str, dark: bool = False) -> dict[str, bytes]:
    """A viewport-sized screenshot ``name`` (and ``name-dark`` in dark mode when
    ``dark``); returns the PNGs by name. The page's colour scheme is restored."""
    taken = {name: _take(page, name)}
    if dark:
        was_dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        page.emulate_media(color_scheme="dark")
        taken[f"{name}-dark"] = _take(page, f"{name}-dark")
        page.emulate_media(color_scheme="dark" if was_dark else "light")
    return taken
