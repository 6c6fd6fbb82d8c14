"""Past capacity (a benchmark, not a test): ``python -m bench.soak_capacity --phones 3000``.

More phones than the default server holds (``python -m webapp`` on SQLite: one gunicorn
worker of 1,600 threads, 1,584 of them for held polls) sync and enter as the load bench's
phones do (``bench/load.py``: each phone holding one sync poll open, one entry every
2–4 s per table through the API), ten phones a table. What is measured: how the answers
degrade (held polls, polls answered at once — the page's plain polling —, 503s, time-outs,
refused connections), the latency of entries and of the regions reaching the other phones,
the server process's threads, memory and open files every 2 s, and, afterwards, that
every acknowledged entry is in its table's record (nothing lost). The figures go to
``--out`` (JSON); docs/reliability.md describes them.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import threading
import uuid
import time
from pathlib import Path

import aiohttp

from .load import REQUEST_TIMEOUT, Phone, Run, set_up, summarise
from .soak import free_port, processes, sample, start_server

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_SECONDS = 2
PHONES_PER_TABLE = 10  # the load bench's five, each twice (seats and watchers): half the set-up


class Sampler(threading.Thread):
    """The server's processes (threads, memory, fds), every SAMPLE_SECONDS."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.samples, self.done = pid, [], threading.Event()
        self.started = time.monotonic()

    def run(self) -> None:
        while not self.done.wait(SAMPLE_SECONDS):
            found = [s for s in map(sample, processes(self.pid)) if s]
            self.samples.append({"second": round(time.monotonic() - self.started), "processes": found})


async def _lost(session: aiohttp.ClientSession, base: str, drivers) -> dict:
    """Each table's record against the entries its phones had acknowledged (asked again
    until answered: the polls still held when the run ended keep the server busy)."""
    lost = checked = tries = 0
    for driver in drivers:
        while True:
            tries += 1
            try:
                async with session.get(f"{base}/api/tables/{driver.id}/record", timeout=aiohttp.ClientTimeout(total=30),
                                       headers={"Authorization": f"Bearer {driver.tokens[0]}"}) as answer:
                    record = await answer.json()
                break
            except (aiohttp.ClientError, asyncio.TimeoutError):
                await asyncio.sleep(1)
        checked += driver.version
        if record["events"][:driver.version] != driver.events[:driver.version]:
            lost += 1
    return {"tables": len(drivers), "acknowledged_entries": checked, "tables_missing_entries": lost,
            "record_requests": tries}


async def _capacity(base: str, tables: int, seconds: float) -> dict:
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                     cookie_jar=aiohttp.DummyCookieJar()) as session:
        setup_started = time.perf_counter()
        drivers = await set_up(session, base, tables)
        for driver in drivers:
            driver.phones = [Phone(driver.phones[n % len(driver.phones)].cookie, driver.phones[0].revision)
                             for n in range(PHONES_PER_TABLE)]
        setup_seconds = time.perf_counter() - setup_started
        run = Run(session, base, seconds, seed=3)
        started = time.perf_counter()
        await asyncio.gather(*[run.phone(t, p) for t in drivers for p in t.phones], *[run.table(t) for t in drivers])
        elapsed = time.perf_counter() - started
        run.delivery_delays()
        result = summarise(run, tables, seconds, elapsed, setup_seconds, 0.0, 0.0)
        result["phones"] = sum(len(driver.phones) for driver in drivers)
        result["nothing_lost"] = await _lost(session, base, drivers)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak_capacity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=3000, help=f"phones ({PHONES_PER_TABLE} a table)")
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "soak_capacity.json")
    args = parser.parse_args(argv)
    tables = max(1, args.phones // PHONES_PER_TABLE)
    workdir = Path(tempfile.mkdtemp(prefix="kt-capacity-"))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{workdir / 'capacity.sqlite3'}",
           "SECRET_KEY": "capacity-" + uuid.uuid4().hex, "KT_RATELIMIT_ENABLED": "false"}
    port = free_port()
    with open(workdir / "server.log", "wb") as log:
        server = start_server(port, env, log)
        try:
            sampler = Sampler(server.pid)
            sampler.start()
            result = asyncio.run(_capacity(f"http://127.0.0.1:{port}", tables, args.seconds))
            sampler.done.set()
            sampler.join()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    result["server_log_errors"] = sum(1 for line in (workdir / "server.log").read_text(errors="replace").splitlines()
                                      if "[ERROR]" in line or "Traceback" in line)
    workers = [p for s in sampler.samples for p in s["processes"][1:]]
    result["server"] = {"max_threads": max((p["threads"] for p in workers), default=0),
                        "max_rss_mb": max((p["rss_mb"] for p in workers), default=0),
                        "max_fds": max((p["fds"] for p in workers), default=0)}
    result["samples"] = sampler.samples
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
