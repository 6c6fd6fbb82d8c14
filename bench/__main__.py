"""``python -m bench`` (``make bench``): every benchmark, figures into docs/performance.md.

1. the engine (``python -m engine bench``),
2. the cost of each kind of request in one process (no concurrency),
3. the server under a game-night load at 10, 100 and 300 tables: the zero-work
   floor (``bench/floor.py``), then this tree's app and the app before
   (``--before``, a git revision) on SQLite and PostgreSQL, each against a fresh
   gunicorn and a throwaway database,
4. a real browser: page weight and the propagation of an entry.

The raw figures go to bench/results.json, the tables between the markers in
docs/performance.md (the text around them is kept).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from engine import bench as engine_bench

from . import browser, profile, report
from .load import run_load
from .server import floor, gunicorn

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
DOC = ROOT / "docs" / "performance.md"
PARTS = {"engine", "costs", "load", "browser"}
SECONDS_AT = {10: 60, 100: 30, 300: 15}  # measured seconds per size (after 5 s warm-up; 10 tables: ~200 entries)
# Runs of the floor and this tree's app per size, taking turns: the verdict at 100 tables is decided by
# ratios that vary from run to run on a busy 2-core machine (2.9-3.9x in one morning), so it takes their median.
RUNS_AT = {10: 1, 100: 3, 300: 1}
BEFORE = "af68935"  # the sync before #17 (a Flask request per phone, doorbells): what "before" measures


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"table counts are whole numbers separated by commas, not {text!r}") from None
    if not sizes or min(sizes) < 1 or max(sizes) > 1000:
        raise argparse.ArgumentTypeError(f"table counts must be between 1 and 1000, not {text!r}")
    return sizes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test of the benchmark itself)")
    parser.add_argument("--tables", type=_sizes, default=sorted(SECONDS_AT), help="table counts (default 10,100,300)")
    parser.add_argument("--databases", default="sqlite,postgres", help="sqlite and/or postgres (default both)")
    parser.add_argument("--runs", type=int, choices=range(1, 10), metavar="N",
                        help="runs of the floor and the app per size, taking turns (default: 3 at 100 tables, else 1)")
    parser.add_argument("--before", default=BEFORE,
                        help=f"the git revision whose app the load is measured on too (default {BEFORE}; 'none': skip)")
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: " + ", ".join(sorted(PARTS)))
    parser.add_argument("--no-write", action="store_true", help="print the figures, leave the files alone")
    parser.add_argument("--report-only", action="store_true",
                        help="measure nothing: write docs/performance.md again from bench/results.json")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    databases = [d.strip() for d in args.databases.split(",") if d.strip()]
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if unknown := set(databases) - {"sqlite", "postgres"}:
        parser.error(f"--databases: unknown {', '.join(sorted(unknown))} (sqlite, postgres)")
    if unknown := skip - PARTS:
        parser.error(f"--skip: unknown {', '.join(sorted(unknown))} ({', '.join(sorted(PARTS))})")
    if args.report_only:
        report.write_into(DOC, report.markdown(json.loads(RESULTS.read_text())))
        return 0
    started = time.perf_counter()
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": _machine(),
               "command": " ".join(["python -m bench", *(sys.argv[1:] if argv is None else argv)]),
               "load_average_before": os.getloadavg()[0]}
    failed = []

    def part(name: str, measure) -> None:
        """Run one part; a failure is reported (and makes the exit code 1), the other parts still run."""
        if name in skip:
            return
        _say(name)
        try:
            results[name] = measure()
        except Exception as err:  # noqa: BLE001 — any failure of a part is reported, not hidden
            failed.append(name)
            results[name] = {"failed": f"{type(err).__name__}: {err}"[:500]}
            _say(f"{name} FAILED: {results[name]['failed']}")

    part("engine", lambda: engine_bench.run(args.quick))
    part("costs", lambda: profile.costs(100 if args.quick else 300))
    before = None if args.before == "none" else args.before
    results["before"] = before
    part("load", lambda: _load_points(databases, args.tables, before, args.quick, args.runs))
    part("browser", lambda: _browser(10 if args.quick else browser.PROPAGATION_ENTRIES))
    results["load_average_after"] = os.getloadavg()[0]
    results["total_seconds"] = round(time.perf_counter() - started)
    text = report.markdown(results)
    print(text)
    if not args.no_write:
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        report.write_into(DOC, text)
        _say(f"written: {RESULTS.relative_to(ROOT)}, {DOC.relative_to(ROOT)}")
    return 1 if failed else 0


def _load_points(databases: list[str], sizes: list[int], before: str | None, quick: bool,
                 runs: int | None = None) -> list[dict]:
    """For each size and database: the floor and this tree's app, run after run, taking turns
    (floor first in even runs, the app first in odd ones, so neither always meets the machine
    as the other left it); then the app before, once."""
    points = []
    for tables in sizes:
        seconds = 5 if quick else SECONDS_AT.get(tables, 20)
        for database in databases:
            serve = {"floor": lambda: floor(database), "after": lambda: gunicorn(database)}
            for run in range(runs or RUNS_AT.get(tables, 1)):
                for code in ("floor", "after") if run % 2 == 0 else ("after", "floor"):
                    points.append(_load_point(code, database, tables, seconds, serve[code], run))
            if before:
                points.append(_load_point("before", database, tables, seconds,
                                          lambda: gunicorn(database, commit=before)))
    return points


def _load_point(code: str, database: str, tables: int, seconds: float, serve, run: int = 0) -> dict:
    _say(f"load: {tables} tables × 5 phones, {code}, {database}, run {run + 1}, {seconds} s measured")
    with serve() as server:
        figures = {"code": code, "database": database, "run": run} | run_load(
            server.url, tables, seconds, cpu_of_server=server.cpu_seconds)
    _say(report.load_line(figures))
    return figures


def _browser(entries: int) -> dict:
    _say("browser: page weight and propagation (Chromium, SQLite)")
    with gunicorn("sqlite") as server:
        return browser.measure(server.url, entries=entries)


def _machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "?")
    return f"{os.cpu_count()} cores ({cpu}), {platform.python_implementation()} {platform.python_version()}, {platform.system()}"


def _say(text: str) -> None:
    print(f"[bench] {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
