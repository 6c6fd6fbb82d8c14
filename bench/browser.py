"""In a real browser (Debian's Chromium via Playwright, an emulated phone):
the page weight of a table page and of an entry, and the time an entry takes
from one phone to another.

Both phones are pages of one browser, so their ``Date.now()`` is one clock.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

from engine.randomplay import random_record

from .load import percentile

CHROMIUM = Path("/usr/bin/chromium")
PHONE = "Pixel 7"
PROPAGATION_ENTRIES = 40
SYNC_SUFFIX = "/sync"
IDLE_MS = 21_000  # the server holds an unchanged poll 20 s

# The status bar shows the table's version ("v12"); stamp when each one first appears.
WATCH_VERSIONS = """() => {
  window.__seen = {};
  const note = () => {
    const text = document.querySelector('#status .version')?.textContent.trim();
    if (text && !(text in window.__seen)) window.__seen[text] = Date.now();
  };
  new MutationObserver(note).observe(document.body, {childList: true, subtree: true, characterData: true});
  note();
}"""
# An entry as the game's buttons send it (hx-post of event, version and key; the
# regions come back as out-of-band swaps), whatever buttons the game's screen has.
SUBMIT_STAMPED = """([path, event, version]) => {
  const key = 'bench-' + version + '-' + Math.random().toString(36).slice(2);
  window.__sent = Date.now();
  htmx.ajax('POST', path, {source: '#controls', swap: 'none',
                           values: {event: JSON.stringify(event), version: version, key: key}});
  return window.__sent;
}"""


def _post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _table(base: str, seed: int) -> tuple[str, list[str], list[dict]]:
    """A started two-player Cubirds table: its id, seat links and a legal record's events."""
    record = random_record("cubirds", {}, 2, seed)
    created = _post(f"{base}/api/tables", {"game": "cubirds", "options": record["options"], "name": "Anna"})
    joined = _post(f"{base}/api/tables/{created['id']}/seats", {"join_code": created["join_code"], "name": "Ben"})
    _post(f"{base}/api/tables/{created['id']}/start", {}, created["token"])
    return created["id"], [created["seat_url"], joined["seat_url"]], record["events"]


class Traffic:
    """What a page fetched over the network (Chrome DevTools Protocol): per
    request the encoded bytes received, headers included; cache hits excluded.
    Bytes sent come from Playwright's ``request.sizes()``."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.sent: dict[str, tuple[str, str]] = {}
        self.cached: set[str] = set()
        self.received: list[tuple[str, str, int]] = []
        self.upload: dict[str, int] = {}
        self.cdp.on("Network.requestWillBeSent", self._will_be_sent)
        self.cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        self.cdp.on("Network.loadingFinished", self._finished)
        page.on("requestfinished", self._uploaded)
        self.cdp.send("Network.enable")

    def _will_be_sent(self, event: dict) -> None:
        self.sent[event["requestId"]] = (event["request"]["method"], urlsplit(event["request"]["url"]).path)

    def _finished(self, event: dict) -> None:
        request_id = event["requestId"]
        if request_id in self.sent and request_id not in self.cached and event["encodedDataLength"] > 0:
            method, path = self.sent[request_id]
            self.received.append((method, path, int(event["encodedDataLength"])))

    def _uploaded(self, request) -> None:
        sizes = request.sizes()
        key = f"{request.method} {urlsplit(request.url).path}"
        self.upload[key] = self.upload.get(key, 0) + sizes["requestHeadersSize"] + sizes["requestBodySize"]

    def take(self, polls: bool = False, method: str | None = None) -> dict:
        """The requests since the last ``take`` (only the sync polls, or all others)."""
        chosen = [r for r in self.received if r[1].endswith(SYNC_SUFFIX) == polls and method in (None, r[0])]
        up = sum(self.upload.get(f"{m} {p}", 0) for m, p in {(m, p) for m, p, _ in chosen})
        self.received, self.upload = [], {}
        return {"requests": len(chosen), "down_bytes": sum(r[2] for r in chosen), "up_bytes": up,
                "paths": sorted(r[1] for r in chosen)}


def _settle(page, quiet_ms: int = 700) -> None:
    page.wait_for_load_state("load")
    page.wait_for_timeout(quiet_ms)


def measure(base: str, entries: int = PROPAGATION_ENTRIES, seed: int = 7) -> dict:
    """Page weight (cold and warm cache, one entry, a held poll that ran out) and propagation."""
    table_id, seat_urls, events = _table(base, seed)
    table_url = f"{base}/t/{table_id}"
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as playwright:
        device = dict(playwright.devices[PHONE])
        device.pop("default_browser_type", None)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            anna_context, ben_context = browser.new_context(**device), browser.new_context(**device)
            for context, seat_url in zip((anna_context, ben_context), seat_urls):
                context.request.get(seat_url, max_redirects=0)  # the seat cookie, nothing cached yet
            anna, ben = anna_context.new_page(), ben_context.new_page()
            traffic = Traffic(anna)
            anna.goto(table_url)
            _settle(anna)
            first = traffic.take()
            anna.wait_for_timeout(IDLE_MS)  # nothing changes: the held poll is answered when its hold runs out
            idle_poll = traffic.take(polls=True)
            anna.goto(table_url)  # the phone opens the page again: static files come from its cache
            _settle(anna)
            warm = traffic.take()
            ben.goto(table_url)
            ben.evaluate(WATCH_VERSIONS)
            ben_traffic = Traffic(ben)
            weight = {"first_load": first, "warm_load": warm, "idle_poll": _per_request(idle_poll)}
            delays, entry_sizes, changed_poll_sizes = [], [], []
            for version in range(min(entries, len(events))):
                anna.wait_for_timeout(random.Random(seed + version).uniform(0, 600))  # out of step with the polls
                traffic.take(), ben_traffic.take()
                sent = anna.evaluate(SUBMIT_STAMPED, [f"/t/{table_id}/event", events[version], version])
                ben.wait_for_function("v => window.__seen[v] !== undefined", arg=f"v{version + 1}", timeout=10_000)
                delays.append(ben.evaluate("v => window.__seen[v]", f"v{version + 1}") - sent)
                anna.wait_for_function("v => document.querySelector('#status .version')?.textContent.trim() === v",
                                       arg=f"v{version + 1}", timeout=10_000)
                anna.wait_for_timeout(100)  # the entry's answer is in; let the traffic events arrive
                entry_sizes.append(traffic.take(method="POST"))
                changed_poll_sizes.append(ben_traffic.take(polls=True))
        finally:
            browser.close()
    weight["entry"] = _median_sizes(entry_sizes)
    weight["changed_poll"] = _median_sizes([_per_request(s) for s in changed_poll_sizes if s["requests"]])
    ordered = sorted(delays)
    return {"page_weight": weight,
            "propagation": {"entries": len(delays), "p50_ms": percentile(ordered, 50),
                            "p95_ms": percentile(ordered, 95), "max_ms": ordered[-1],
                            "mean_ms": round(statistics.fmean(ordered), 1)}}


def _per_request(sizes: dict) -> dict:
    """Sizes of one request (the average, when several were taken)."""
    count = max(sizes["requests"], 1)
    return {"requests": 1, "down_bytes": round(sizes["down_bytes"] / count), "up_bytes": round(sizes["up_bytes"] / count)}


def _median_sizes(samples: list[dict]) -> dict:
    return {key: statistics.median(s[key] for s in samples) for key in ("requests", "down_bytes", "up_bytes")} \
        | {"samples": len(samples)}


if __name__ == "__main__":
    from .server import gunicorn

    with gunicorn("sqlite") as server:
        started = time.perf_counter()
        print(json.dumps(measure(server.url, entries=int(os.environ.get("KT_BENCH_ENTRIES", PROPAGATION_ENTRIES))),
                         indent=1))
        print(f"{time.perf_counter() - started:.1f} s")
