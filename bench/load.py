"""A game-night load: N tables × 5 phones against a running server (loopback only).

Each phone syncs as the page does: it holds one poll open
(``GET /t/<id>/sync?rev=R&phase=play&hold=1`` with htmx's headers and its
session cookie) until the server answers — with the changed regions when the
table moved on (the phone asks again at once with the new revision), with a
204 when the hold ran out (again at once) or, when the server had no hold
free, a 204 at once (then again after 500 ms, the page's poll interval). Each
table gets one entry every few seconds (uniformly 2–4 s), the next event of a
random legal record, through ``POST /api/tables/<id>/events``. Baseline phones
(one per 20 phones, at least 5) request the bare route (``/_bench/bare``) every
500 ms at the same time, so they queue like the phones do and their latency is
the baseline of this run.

What a sync costs a player is the time from an entry to the other phones'
answer: for each changed answer, from the later of the entry's answer (at the
entering phone) and the poll's sending to its arrival (*propagation*). Beside it,
*tap to phones* counts from the entry's sending instead: the whole wait of the
table, whichever request the server does its work in.

Bounded: a fixed number of tables, a fixed duration, no retries; every
request has a timeout. The client is one asyncio process (aiohttp) on the same
machine as the server.
"""
from __future__ import annotations

import asyncio
import os
import random
import re
import statistics
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import aiohttp

from engine import game_class
from engine.randomplay import random_record

from .bare import BARE_PATH

PHONES_PER_TABLE = 5
POLL_SECONDS = 0.5
HOLD_TIMEOUT = 30  # the page's timeout of a held poll (hx-request), above the server's 20 s hold
HELD = 5.0  # a 204 later than this ended a hold (one without a hold comes at once)
ENTRY_SECONDS = (2.0, 4.0)
BARE_SHARE = 20  # one baseline phone (polling the bare route) per this many real phones, at least 5
REQUEST_TIMEOUT = 10
SETUP_TIMEOUT = 120  # the set-up is not measured: a fresh server on a busy machine may take long
WARMUP_SECONDS = 5  # connections opened, caches filled: not measured
SETUP_CONCURRENCY = 8
RECORD_POOL = 12
GAMES = (("gleich-und-gleich", 5), ("cubirds", 5), ("gemeinsame-sache", 2))  # two seats, three phones watching
REVISION = re.compile(r"[?&;]rev=(\d+)")


@dataclass
class Phone:
    cookie: str
    revision: int


@dataclass
class TableDriver:
    id: str
    tokens: list[str]
    events: list[dict]
    phones: list[Phone]
    version: int = 0
    revision_offset: int = 0  # revision − version: every entry counts both up by one
    answered_at: dict[int, float] = field(default_factory=dict)  # revision → when its entry was answered
    sent_at: dict[int, float] = field(default_factory=dict)  # revision → when its entry was sent


@dataclass
class Delivery:
    """A changed sync answer: when its poll was sent and arrived, and the revision it brought."""

    table: TableDriver
    revision: int
    sent: float
    arrived: float


@dataclass
class Samples:
    """Latencies (seconds) and errors of one kind of request."""

    measure_from: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, sent: float, seconds: float) -> None:
        if sent >= self.measure_from:
            self.latencies.append(seconds)

    def error(self, sent: float, what: str) -> None:
        if sent >= self.measure_from:
            self.errors[what] = self.errors.get(what, 0) + 1

    def summary(self) -> dict:
        ms = sorted(x * 1000 for x in self.latencies)
        result = {"count": len(ms), "errors": sum(self.errors.values()), "error_kinds": dict(self.errors)}
        if ms:
            result |= {"p50": round(percentile(ms, 50), 2), "p95": round(percentile(ms, 95), 2),
                       "p99": round(percentile(ms, 99), 2), "max": round(ms[-1], 2),
                       "mean": round(statistics.fmean(ms), 2)}
        return result


def percentile(ordered: list[float], p: float) -> float:
    """The p-th percentile of sorted values (nearest rank)."""
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def record_pool() -> list[dict]:
    """Random legal records of every game, shared out over the tables."""
    return [random_record(game, {}, players if game != "gemeinsame-sache" else None, seed)
            for seed in range(RECORD_POOL // len(GAMES)) for game, players in GAMES]


async def _json(session: aiohttp.ClientSession, method: str, url: str, token: str | None = None, **body) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with session.request(method, url, json=body or None, headers=headers) as answer:
        data = await answer.json()
        if answer.status >= 300:
            raise RuntimeError(f"{method} {url}: {answer.status} {data}")
        return data


async def _session_cookie(session: aiohttp.ClientSession, seat_url: str) -> str:
    """Open a seat link as a phone does; its session cookie (``name=value``)."""
    async with session.get(seat_url, allow_redirects=False) as answer:
        morsel = answer.cookies.get("session")
        if answer.status != 302 or morsel is None:
            raise RuntimeError(f"seat link {seat_url}: {answer.status}, no session cookie")
        return f"session={morsel.value}"


def _chosen(record: dict) -> dict:
    """The record's options that differ from the defaults (what a player would choose; the
    same for an older server that may not know every option)."""
    defaults = game_class(record["game"]).validate_options({})
    return {name: value for name, value in record["options"].items() if defaults.get(name) != value}


async def _set_up_table(session: aiohttp.ClientSession, base: str, record: dict) -> TableDriver:
    """Create, seat (one phone per player, watchers fill up to five), start."""
    names = record["players"]
    created = await _json(session, "POST", f"{base}/api/tables", game=record["game"],
                          options=_chosen(record), name=names[0])
    table_id = created["id"]
    seats = [created]
    for name in names[1:]:
        seats.append(await _json(session, "POST", f"{base}/api/tables/{table_id}/seats",
                                 join_code=created["join_code"], name=name))
    started = await _json(session, "POST", f"{base}/api/tables/{table_id}/start", created["token"])
    cookies = [await _session_cookie(session, seat["seat_url"]) for seat in seats]
    async with session.get(f"{base}/t/{table_id}", headers={"Cookie": cookies[0]}) as page:
        found = REVISION.search(text := await page.text())
        if page.status != 200 or not found:
            raise RuntimeError(f"table page {table_id}: HTTP {page.status}, no sync revision in {text[:300]!r}")
        revision = int(found.group(1))
    phones = [Phone(cookies[i % len(cookies)], revision) for i in range(PHONES_PER_TABLE)]
    return TableDriver(table_id, [s["token"] for s in seats], record["events"], phones, started["version"],
                       revision - started["version"])


async def set_up(session: aiohttp.ClientSession, base: str, tables: int) -> list[TableDriver]:
    pool = record_pool()
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(index: int) -> TableDriver:
        async with limit:
            return await _set_up_table(session, base, pool[index % len(pool)])

    first = await one(0)  # alone: a fresh worker's first drawing loads what drawings need (templates, dictionaries)
    return [first, *await asyncio.gather(*(one(i) for i in range(1, tables)))]


class Run:
    def __init__(self, session: aiohttp.ClientSession, base: str, seconds: float, seed: int):
        self.session, self.base = session, base
        self.started = time.perf_counter()
        self.measure_from = self.started + WARMUP_SECONDS
        self.deadline = self.measure_from + seconds
        self.random = random.Random(seed)
        self.entry, self.sync_unchanged, self.sync_changed, self.tap_to_phones, self.bare = (
            Samples(self.measure_from) for _ in range(5))
        self.late: list[float] = []
        self.deliveries: list[Delivery] = []
        self.holds_ran_out = 0
        self.finished_tables = 0

    async def _wait_until(self, when: float) -> bool:
        """Sleep until ``when``; False once the run is over."""
        now = time.perf_counter()
        if when >= self.deadline:
            return False
        if when > now:
            await asyncio.sleep(when - now)
        elif when >= self.measure_from:
            self.late.append(now - when)
        return True

    async def phone(self, table: TableDriver, phone: Phone) -> None:
        url = f"{self.base}/t/{table.id}/sync"
        page = f"{self.base}/t/{table.id}"
        due = self.started + self.random.uniform(0, POLL_SECONDS)
        while await self._wait_until(due):
            headers = {"HX-Request": "true", "HX-Trigger": "sync", "HX-Current-URL": page, "Cookie": phone.cookie}
            sent = time.perf_counter()
            # A poll still held when the run ends is cut off there: not an error, not a sample.
            timeout = aiohttp.ClientTimeout(total=min(HOLD_TIMEOUT, self.deadline - sent))
            try:
                async with self.session.get(url, params={"rev": phone.revision, "phase": "play", "hold": "1"},
                                            headers=headers, timeout=timeout) as answer:
                    body = await answer.text()
                    arrived = time.perf_counter()
                    took = arrived - sent
                    if answer.status == 204 and took >= HELD:
                        self.holds_ran_out += sent >= self.measure_from
                    elif answer.status == 204:
                        self.sync_unchanged.add(sent, took)  # no hold was free: polling, as without holds
                        due = sent + POLL_SECONDS
                        continue
                    elif answer.status == 200 and (found := REVISION.search(body)):
                        phone.revision = int(found.group(1))
                        self.deliveries.append(Delivery(table, phone.revision, sent, arrived))
                    else:
                        self.sync_changed.error(sent, f"HTTP {answer.status}")
            except (aiohttp.ClientError, asyncio.TimeoutError) as err:
                if time.perf_counter() >= self.deadline:
                    return
                self.sync_changed.error(sent, type(err).__name__)
                due = sent + POLL_SECONDS
                continue
            due = time.perf_counter()  # asks again at once, as the page's new poller does

    def delivery_delays(self) -> None:
        """Each changed answer's delay after its entry (see the module text) into ``sync_changed``,
        and after the entry's sending into ``tap_to_phones``."""
        for d in self.deliveries:
            answered = d.table.answered_at.get(d.revision, d.arrived)  # an entry never answered: counts as 0
            self.sync_changed.add(d.sent, max(0.0, d.arrived - max(d.sent, answered)))
            if d.revision in d.table.sent_at:
                self.tap_to_phones.add(d.sent, max(0.0, d.arrived - max(d.sent, d.table.sent_at[d.revision])))

    async def table(self, table: TableDriver) -> None:
        due = self.started + self.random.uniform(0, ENTRY_SECONDS[1])
        while await self._wait_until(due):
            if table.version >= len(table.events):
                self.finished_tables += 1
                return
            body = {"event": table.events[table.version], "version": table.version, "key": uuid.uuid4().hex}
            token = self.random.choice(table.tokens)
            sent = time.perf_counter()
            try:
                async with self.session.post(f"{self.base}/api/tables/{table.id}/events", json=body,
                                             headers={"Authorization": f"Bearer {token}"}) as answer:
                    data = await answer.json()
                    took = time.perf_counter() - sent
                    if answer.status == 200 and data.get("version") == table.version + 1:
                        self.entry.add(sent, took)
                        table.version += 1
                        table.answered_at[table.version + table.revision_offset] = sent + took
                        table.sent_at[table.version + table.revision_offset] = sent
                    else:
                        self.entry.error(sent, f"HTTP {answer.status} {data.get('code') or data.get('error', '')}"[:80])
            except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as err:
                self.entry.error(sent, type(err).__name__)
            due = max(due + self.random.uniform(*ENTRY_SECONDS), time.perf_counter())

    async def bare_phone(self) -> None:
        """Polls the bare route exactly as a phone polls its table: the baseline."""
        due = self.started + self.random.uniform(0, POLL_SECONDS)
        while await self._wait_until(due):
            sent = time.perf_counter()
            try:
                async with self.session.get(self.base + BARE_PATH) as answer:
                    await answer.read()
                    took = time.perf_counter() - sent
                    self.bare.add(sent, took) if answer.status == 200 else self.bare.error(sent, f"HTTP {answer.status}")
            except (aiohttp.ClientError, asyncio.TimeoutError) as err:
                self.bare.error(sent, type(err).__name__)
            due = max(due + POLL_SECONDS, time.perf_counter())


def bare_phones(tables: int) -> int:
    return max(5, tables * PHONES_PER_TABLE // BARE_SHARE)


async def _load(base: str, tables: int, seconds: float, seed: int, cpu_of_server) -> dict:
    host = urlsplit(base).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"the load generator only targets loopback, not {host!r}")
    connector = aiohttp.TCPConnector(limit=0)  # one connection per phone, as real phones have
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    setup_started = time.perf_counter()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=SETUP_TIMEOUT),
                                     cookie_jar=aiohttp.DummyCookieJar()) as session:
        drivers = await set_up(session, base, tables)
    setup_seconds = time.perf_counter() - setup_started
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()) as session:
        run = Run(session, base, seconds, seed)

        async def counters_after_warmup() -> tuple[float, float, float]:
            await asyncio.sleep(run.measure_from - time.perf_counter())
            return cpu_of_server(), time.process_time(), time.perf_counter()

        tasks = [run.phone(t, p) for t in drivers for p in t.phones] + [run.table(t) for t in drivers]
        tasks += [run.bare_phone() for _ in range(bare_phones(tables))]
        *_, (server_cpu, client_cpu, measured_from) = await asyncio.gather(*tasks, counters_after_warmup())
        elapsed = time.perf_counter() - measured_from
        server_cpu, client_cpu = cpu_of_server() - server_cpu, time.process_time() - client_cpu
    run.delivery_delays()
    return summarise(run, tables, seconds, elapsed, setup_seconds, server_cpu, client_cpu)


def summarise(run: Run, tables: int, seconds: float, elapsed: float, setup_seconds: float,
              server_cpu: float, client_cpu: float) -> dict:
    result = {"tables": tables, "phones": tables * PHONES_PER_TABLE, "seconds": round(elapsed, 1),
              "setup_seconds": round(setup_seconds, 1),
              "entry": run.entry.summary(), "sync": run.sync_changed.summary(),
              "tap_to_phones": run.tap_to_phones.summary(),
              "sync_204": run.sync_unchanged.summary(), "holds_ran_out": run.holds_ran_out,
              "bare": run.bare.summary(), "finished_tables": run.finished_tables}
    requests = sum(result[k]["count"] for k in ("entry", "sync", "sync_204", "bare")) + run.holds_ran_out
    late = sorted(x * 1000 for x in run.late)
    result |= {"requests_per_second": round(requests / elapsed),
               "server_cpu_percent": round(100 * server_cpu / elapsed),
               "server_cpu_ms_per_request": round(1000 * server_cpu / max(requests, 1), 3),
               "server_cpu_ms_per_delivery": round(1000 * server_cpu / max(result["sync"]["count"], 1), 3),
               "client_cpu_percent": round(100 * client_cpu / elapsed),
               "client_late_p95_ms": round(percentile(late, 95), 1) if late else 0.0,
               "load_average": os.getloadavg()[0]}
    bare95 = result["bare"].get("p95")
    for kind in ("entry", "sync", "sync_204"):
        if bare95 and "p95" in result[kind]:
            result[kind]["p95_per_bare"] = round(result[kind]["p95"] / bare95, 2)
    result["errors"] = sum(result[k]["errors"] for k in ("entry", "sync", "sync_204", "bare"))
    return result


def run_load(base: str, tables: int, seconds: float, seed: int = 1, cpu_of_server=lambda: 0.0) -> dict:
    """Set up ``tables`` tables, load them for ``seconds``; the figures."""
    if tables < 1 or seconds <= 0:
        raise ValueError(f"tables must be ≥ 1 and seconds > 0 (got {tables}, {seconds})")
    return asyncio.run(_load(base, tables, seconds, seed, cpu_of_server))
