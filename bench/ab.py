"""``python -m bench.ab --before REV``: one kind of request of ``bench.profile`` in
this tree against the same in an earlier revision, measured in one run.

This machine's one-process timings swing 2–3× between runs minutes apart, more than
most changes are worth. So two worker processes, one on each tree, each with its own
table (the same game, 40 events in; on SQLite, or with ``--postgres`` on
PostgreSQL), take turns: each runs the kind ``--batch`` times and reports its CPU
time per request, for ``--rounds`` rounds, the order alternating. The figure is the
median of the paired ratios (after ÷ before) with its quartiles: a swing of the
machine falls on both sides of a pair alike.

The earlier revision is unpacked into a temporary folder and measured with its own
``bench.profile.request_kinds``, so ``--kind`` must exist there too (``publish``,
the drawing ahead alone, exists from the commit that added this command on).
"""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

KINDS = ("publish", "entry", "page entry", "sync 200, drawn", "sync 200, shared", "sync 204", "bare")
ENTRIES = ("entry", "page entry")  # they use up their table's record
GAMES = ("cubirds", "gleich-und-gleich", "gemeinsame-sache")
WARMUP = 5


def _worker(kind: str, game: str, database_kind: str) -> None:
    """In the tree given as the working folder: make the table (on a throwaway database of
    ``database_kind``, "sqlite" or "postgres"), say ``ready``, then for
    each line ``N`` read from stdin run the kind N times and print CPU ms per request. An
    entry uses up its table's record: then a new table is made (not counted)."""
    sys.path[0] = os.getcwd()  # this tree's webapp and bench, not the caller's
    from bench.profile import request_kinds
    from bench.server import database

    with contextlib.ExitStack() as tables:
        def new_table():
            tables.close()
            url = tables.enter_context(database(database_kind))
            kinds, events = tables.enter_context(request_kinds(url, game=game))
            return kinds.get(kind), (events - 1 if kind in ENTRIES else math.inf)

        run, left = new_table()
        if run is None:
            print(f"no kind {kind!r} here", flush=True)
            return
        for _ in range(WARMUP):
            run()
        left -= WARMUP
        print("ready", flush=True)
        for line in sys.stdin:
            times, spent = int(line), 0.0
            for _ in range(times):
                if left == 0:
                    run, left = new_table()
                started = time.process_time()
                run()
                spent += time.process_time() - started
                left -= 1
            print(spent / times * 1000, flush=True)


def compare(before: Path, after: Path, kind: str, game: str, rounds: int, batch: int,
            database_kind: str = "sqlite") -> dict:
    """The paired ratios of ``kind`` on ``game`` between the two trees (see the module text)."""
    command = [sys.executable, __file__, "--worker", kind, game, database_kind]
    workers = [subprocess.Popen(command, cwd=tree, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
               for tree in (before, after)]
    try:
        for worker, tree in zip(workers, (before, after)):
            said = worker.stdout.readline().strip()
            if said != "ready":
                raise RuntimeError(f"the worker in {tree} did not start: {said or 'it exited'}")
        ms: dict[int, list[float]] = {0: [], 1: []}
        for turn in range(rounds):
            for side in ((0, 1) if turn % 2 == 0 else (1, 0)):
                workers[side].stdin.write(f"{batch}\n")
                workers[side].stdin.flush()
                ms[side].append(float(workers[side].stdout.readline()))
    finally:
        for worker in workers:
            if worker.stdin:
                worker.stdin.close()
            worker.wait(timeout=60)
    ratios = [a / b for a, b in zip(ms[1], ms[0])]
    low, _median, high = statistics.quantiles(ratios, n=4)
    return {"kind": kind, "game": game, "rounds": rounds, "batch": batch,
            "before_ms": round(statistics.median(ms[0]), 3), "after_ms": round(statistics.median(ms[1]), 3),
            "ratio": round(statistics.median(ratios), 3), "quartiles": [round(low, 3), round(high, 3)]}


def main(argv: list[str] | None = None) -> int:
    from .server import ROOT, tree_of

    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the git revision to compare this tree with")
    parser.add_argument("--kind", choices=KINDS, default="publish", help="the kind of request (default publish)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default all three)")
    parser.add_argument("--rounds", type=int, default=30, help="turns each (default 30)")
    parser.add_argument("--batch", type=int, default=20, help="requests per turn (default 20)")
    parser.add_argument("--postgres", action="store_true", help="on throwaway PostgreSQL databases (default SQLite)")
    args = parser.parse_args(argv)
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    if unknown := set(games) - set(GAMES):
        parser.error(f"--games: unknown {', '.join(sorted(unknown))} ({', '.join(GAMES)})")
    if args.rounds < 4 or args.batch < 1:
        parser.error("--rounds must be at least 4 (for quartiles), --batch at least 1")
    with tree_of(args.before) as before:
        for game in games:
            try:
                figures = compare(before, ROOT, args.kind, game, args.rounds, args.batch,
                                  "postgres" if args.postgres else "sqlite")
            except RuntimeError as error:
                parser.exit(1, f"python -m bench.ab: {error}\n")
            print(f"{game}, {args.kind}: after ÷ before {figures['ratio']} (quartiles {figures['quartiles'][0]}–"
                  f"{figures['quartiles'][1]}); before {figures['before_ms']} ms, after {figures['after_ms']} ms "
                  f"CPU per request ({args.rounds} turns of {args.batch} each)", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        _worker(*sys.argv[2:5])
    else:
        sys.exit(main())
