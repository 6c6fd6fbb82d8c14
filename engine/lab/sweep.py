"""``python -m engine sweep``: every figure of docs/balance.md in one run.

Writes ``engine/lab/data/simulated.json`` (contract C5), the charts
``docs/balance/*.svg`` and the generated tables between the markers in
``docs/balance.md``. Each entry carries the command that reproduces it alone.
"""
from __future__ import annotations

import datetime
import json
import os
import time
from pathlib import Path

from . import DATA_FILE, FORMAT
from .runs import balance, solo
from .variants import RECOMMENDATIONS

ROOT = Path(__file__).resolve().parents[2]
CHART_DIR = ROOT / "docs" / "balance"
DOC = ROOT / "docs" / "balance.md"
BEGIN, END = "<!-- sweep:begin -->", "<!-- sweep:end -->"

PLAYERS = (2, 3, 4, 5)
BIRD_CONFIGS = [("cubirds", {})] + [("gleich-und-gleich", o) for o in ({}, {"rarer_faces": True}, {"fast": True})]
SOLO_GAMES = ("cubirds", "gleich-und-gleich")
HANDICAPS = (0, 1, 2, 3)
TEAMS = ("simple", "smart", "open")
PARTS = ("birds", "rummy", "solo", "recommend")
PART_KEYS = {"birds": "birds", "rummy": "gemeinsame_sache", "solo": "solo", "recommend": "recommended"}


def run_sweep(args) -> int:
    sizes = {"games": args.games, "strong_games": args.strong_games, "rummy_games": args.rummy_games}
    processes = args.processes
    if args.quick:
        sizes, processes = {"games": 3, "strong_games": 1, "rummy_games": 10}, 1
    parts = [p for p in args.only.split(",") if p] or list(PARTS)
    unknown = set(parts) - set(PARTS)
    if unknown:
        print(f"invalid arguments: unknown part(s) {', '.join(sorted(unknown))}; known: {', '.join(PARTS)}")
        return 2
    figures = json.loads(DATA_FILE.read_text(encoding="utf-8")) if DATA_FILE.exists() and not args.quick else {}
    figures.update(format=FORMAT, generated=datetime.date.today().isoformat())
    timing = figures.setdefault("timing", {})
    for part in parts:
        load_before, started, cpu = os.getloadavg(), time.perf_counter(), _cpu_seconds()
        key, count = PART_KEYS[part], 0
        for entry in PART_RUNNERS[part](sizes, args.seed, processes):
            figures[key] = [e for e in figures.get(key, []) if _identity(e) != _identity(entry)] + [entry]
            count += 1
            if not args.quick:
                write_figures(figures)      # after every entry: a sweep cut short keeps what it has
        timing[part] = {"seconds": round(time.perf_counter() - started, 1),
                        "cpu_seconds": round(_cpu_seconds() - cpu, 1),
                        "load_before": [round(x, 2) for x in load_before],
                        "load_after": [round(x, 2) for x in os.getloadavg()], "processes": processes}
        print(f"{part}: {count} configurations, {timing[part]['seconds']} s "
              f"({timing[part]['cpu_seconds']} s CPU), load {timing[part]['load_before']} → {timing[part]['load_after']}",
              flush=True)
        if not args.quick:
            write_figures(figures)
    return 0


def _identity(entry: dict) -> tuple:
    """What an entry is a figure of (a new run of the same replaces it)."""
    return tuple(json.dumps(entry.get(k), sort_keys=True)
                 for k in ("recommendation", "game", "team", "options", "players", "bot", "draw_pile"))


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def write_figures(figures: dict) -> None:
    """The data file, the charts and the generated tables of docs/balance.md
    (entries of one configuration sorted as the sweep makes them)."""
    from .report import write_charts, write_tables

    for key in PART_KEYS.values():
        figures.setdefault(key, [])
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_charts(figures, CHART_DIR)
    write_tables(figures, DOC, BEGIN, END)


def _bot_sizes(sizes: dict) -> list[tuple[str, int]]:
    """The bird figures: greedy in every seat at full size, strong as a check."""
    return [(bot, n) for bot, n in (("greedy", sizes["games"]), ("strong", sizes["strong_games"])) if n]


def _birds(sizes, seed, processes):
    for bot, n in _bot_sizes(sizes):
        for game, options in BIRD_CONFIGS:
            for players in PLAYERS:
                yield balance(game, players, options, bot, n, seed, processes)


def _solo(sizes, seed, processes):
    for game in SOLO_GAMES:
        for bot, n in _bot_sizes(sizes):
            for handicap in HANDICAPS:
                yield solo(game, {}, bot, handicap, n, seed, processes)


def _recommend(sizes, seed, processes):
    for name in RECOMMENDATIONS:
        for players in PLAYERS:
            yield {**balance(name, players, {}, "greedy", sizes["games"], seed, processes), "recommendation": name}


def _rummy(sizes, seed, processes):
    from .rummy import sweep_team

    for team in TEAMS:
        for size in range(1, 34):
            yield from sweep_team(team, [size], sizes["rummy_games"], seed, processes)


PART_RUNNERS = {"birds": _birds, "solo": _solo, "recommend": _recommend, "rummy": _rummy}
