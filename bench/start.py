"""The start of a game in a real browser: three phones (Debian's Chromium, emulated
Pixel 7) in a CuBirds lobby on gunicorn + SQLite, the first taps "Spiel starten".
Counted until 1.5 s after every phone shows v0: the game page loads of each phone
and their bytes, the time from the tap until every phone shows v0, and the server's
CPU from the tap on.

``python -m bench.start [--starts 8] [--before REV]`` prints the medians for this
tree (and for the app of git revision REV, measured the same way).
"""
from __future__ import annotations

import argparse
import statistics
import time
from urllib.parse import urlsplit

from playwright.sync_api import expect, sync_playwright

from .browser import CHROMIUM, PHONE
from .server import gunicorn

PHONES = ("Anna", "Ben", "Carla")
SETTLE_S = 1.5  # after every phone shows v0: time for polls sent meanwhile to come back


def _start_once(browser, device: dict, base: str, cpu_seconds) -> dict:
    contexts = [browser.new_context(**device, base_url=base) for _ in PHONES]
    try:
        pages = [context.new_page() for context in contexts]
        first = pages[0]
        first.goto("/")
        game = first.locator("details.game", has_text="CuBirds").first
        game.evaluate("details => { details.open = true; }")
        game.locator("input[name=name]").fill(PHONES[0])
        game.get_by_role("button", name="Tisch erstellen").click()
        join_url = first.locator("#join-url").inner_text()
        for page, name in zip(pages[1:], PHONES[1:]):
            page.goto(join_url)
            page.locator("input[name=name]").fill(name)
            page.get_by_role("button", name="Platz nehmen").click()
        expect(first.locator("#lobby .seat .name")).to_have_count(len(PHONES))
        table_path = urlsplit(first.url).path
        loads: list[list] = [[] for _ in pages]
        for page, requests in zip(pages, loads):
            page.on("request", lambda request, requests=requests:
                    requests.append(request) if urlsplit(request.url).path == table_path else None)
        cpu_before, tapped = cpu_seconds(), time.perf_counter()
        first.get_by_role("button", name="Spiel starten").click()
        for page in pages:
            expect(page.locator("#status .version")).to_have_text("v0", timeout=10_000)
        shown = time.perf_counter() - tapped
        first.wait_for_timeout(SETTLE_S * 1000)
        sizes = [request.sizes() for requests in loads for request in requests]
        return {"loads": [len(requests) for requests in loads],
                "bytes": sum(size["responseBodySize"] + size["responseHeadersSize"] for size in sizes),
                "shown_ms": shown * 1000, "cpu_ms": (cpu_seconds() - cpu_before) * 1000}
    finally:
        for context in contexts:
            context.close()


def measure(starts: int, commit: str | None = None) -> dict:
    """``starts`` starts on a fresh gunicorn + SQLite (the app of ``commit``, if given): the medians."""
    with gunicorn("sqlite", commit=commit) as server, sync_playwright() as playwright:
        device = {k: v for k, v in playwright.devices[PHONE].items() if k != "default_browser_type"}
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            runs = [_start_once(browser, device, server.url, server.cpu_seconds) for _ in range(starts)]
        finally:
            browser.close()
    return {"page_loads_per_phone": [run["loads"] for run in runs],
            "bytes": statistics.median(run["bytes"] for run in runs),
            "until_all_show_v0_ms": round(statistics.median(run["shown_ms"] for run in runs)),
            "server_cpu_ms": round(statistics.median(run["cpu_ms"] for run in runs))}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.start", description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=8, help="starts per app (default 8)")
    parser.add_argument("--before", help="also measure the app of this git revision")
    args = parser.parse_args(argv)
    if args.starts < 1:
        parser.error("--starts must be at least 1")
    print("after:", measure(args.starts))
    if args.before:
        print(f"before ({args.before}):", measure(args.starts, args.before))


if __name__ == "__main__":
    main()
