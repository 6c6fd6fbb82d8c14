"""The start page's screenshot for the README, at phone size (``./kt screenshots`` writes it)."""
from __future__ import annotations

import pytest

from shots import png_size, shoot

pytestmark = pytest.mark.presentation  # the same HTML on any database: ./kt test-postgres leaves it out


def test_start_page_screenshot(phone):
    page = phone()
    response = page.goto("/")
    assert response is not None and response.status == 200, f"the start page answered {response and response.status}"
    assert page.locator("h1").first.inner_text().strip(), "the start page has no heading"
    png = shoot(page, "start")["start"]
    assert png_size(png)[0] == page.viewport_size["width"], "the screenshot is not as wide as the phone"
