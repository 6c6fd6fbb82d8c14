"""The browser tests' watch on the console: every error a page logs (htmx logs an
aborted request as one) or throws fails the test that collected it."""
from __future__ import annotations


def watch_console(page, errors: list) -> None:
    """From now on, append every console error and uncaught exception of ``page`` to ``errors``."""
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}") if message.type == "error"
            else None)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))


def console_errors(page) -> list[str]:
    """The console errors ``page`` logs from now on."""
    errors: list[str] = []
    watch_console(page, errors)
    return errors
