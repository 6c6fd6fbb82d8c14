"""Tapping a button on a phone page in the browser tests, the way both game tests do.

Seen in CI: right after another page of the same browser was in front (a screenshot,
a second phone), a page drew no frame for 30 s, so a click's stability check (two
animation frames) never ran. The phone in the player's hand is the page in front:
a click that keeps waiting brings its page to the front and tries again, and a button
that is really hidden or disabled still fails, with what the page says about it.
"""
from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ATTEMPTS = 3
WAIT_MS = 10000  # per attempt

WHY_NOT_CLICKABLE = """b => new Promise(done => {
  const timer = setTimeout(() => done("no animation frame in 1 s"), 1000);
  requestAnimationFrame(() => { clearTimeout(timer); done("frames are drawn"); });
}).then(frames => ({frames, attached: b.isConnected, disabled: b.disabled,
  shown: b.checkVisibility(), box: JSON.stringify(b.getBoundingClientRect()),
  turn: b.closest("[data-turn]")?.dataset.turn, me: document.querySelector("main")?.dataset.me}))"""


def click(page, locator, what: str):
    """Click the element ``locator`` finds on ``page``; its handle (to wait for it to be
    replaced). A sync answer that redraws the same controls just then is tried again."""
    for attempt in range(1, ATTEMPTS + 1):  # the last attempt returns or raises
        handle = locator.element_handle(timeout=WAIT_MS)
        try:
            handle.click(timeout=WAIT_MS)
            return handle
        except PlaywrightTimeoutError:
            if attempt == ATTEMPTS:
                raise AssertionError(f"{what}: could not be clicked in {ATTEMPTS * WAIT_MS // 1000} s; "
                                     f"{why_not_clickable(handle)}") from None
            page.bring_to_front()
        except PlaywrightError as error:  # replaced by a redraw between finding and clicking it
            if "not attached" not in str(error) or attempt == ATTEMPTS:
                raise


def why_not_clickable(handle) -> str:
    """What the page says about a button that a click kept waiting for (drawn frames, its state)."""
    try:
        return str(handle.evaluate(WHY_NOT_CLICKABLE))
    except PlaywrightError as error:
        return f"the page did not answer: {error.message.splitlines()[0]}"
