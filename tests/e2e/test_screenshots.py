"""Screenshots for the README, taken at phone size into docs/screenshots/."""
from __future__ import annotations

import struct
from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def test_start_page_screenshot(phone):
    page = phone()
    response = page.goto("/")
    assert response is not None and response.status == 200, f"the start page answered {response and response.status}"
    assert page.locator("h1").first.inner_text().strip(), "the start page has no heading"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "start.png"
    page.screenshot(path=shot, full_page=True, scale="css")
    width, _height = png_size(shot)
    assert width == page.viewport_size["width"], f"screenshot is {width} px wide, the phone {page.viewport_size['width']}"
