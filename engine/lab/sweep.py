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
from .runs import balance, options_minus_defaults, solo, tournament
from .variants import RECOMMENDATIONS

ROOT = Path(__file__).resolve().parents[2]
CHART_DIR = ROOT / "docs" / "balance"
DOC = ROOT / "docs" / "balance.md"
BEGIN, END = "<!-- sweep:begin -->", "<!-- sweep:end -->"

PLAYERS = (2, 3, 4, 5)
BASE_CONFIGS = [("gleich-und-gleich", {}), ("cubirds", {})]
VARIANT_CONFIGS = [("gleich-und-gleich", {"rarer_faces": True}), ("gleich-und-gleich", {"fast": True})]
BIRD_GAMES = ("gleich-und-gleich", "cubirds")
HANDICAPS = (0, 1, 2, 3)
TEAMS = ("simple", "smart", "open")
# in the order they run: a sweep cut short has the most needed figures
PARTS = ("birds", "tournament", "solo", "rummy", "variants", "recommend", "strong-solo", "strong")
PART_KEYS = {"birds": "birds", "tournament": "tournaments", "rummy": "gemeinsame_sache", "solo": "solo",
             "variants": "birds", "recommend": "recommended", "strong-solo": "solo", "strong": "birds"}
IDENTITY = ("recommendation", "game", "team", "options", "players", "bot", "compared", "draw_pile")


def run_sweep(args) -> int:
    sizes = {"games": args.games, "strong_games": args.strong_games, "rummy_games": args.rummy_games,
             "tournament_games": args.tournament_games}
    processes = args.processes
    if args.quick:
        sizes, processes = {"games": 3, "strong_games": 1, "rummy_games": 10, "tournament_games": 2}, 1
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
        key, count, kept = PART_KEYS[part], 0, 0
        for stub, run in PART_RUNNERS[part](sizes, args.seed, processes):
            if args.resume and any(_identity(e) == _identity(stub) and e["games"] == stub["games"]
                                   and e["seed"] == stub["seed"] for e in figures.get(key, [])):
                kept += 1       # the same run (same size and seed) is already in the data file
                continue
            for entry in run():
                figures[key] = [e for e in figures.get(key, []) if _identity(e) != _identity(entry)] + [entry]
                count += 1
            if not args.quick:
                write_figures(figures)      # after every entry: a sweep cut short keeps what it has
        timing[part] = {"seconds": round(time.perf_counter() - started, 1),
                        "cpu_seconds": round(_cpu_seconds() - cpu, 1),
                        "load_before": [round(x, 2) for x in load_before],
                        "load_after": [round(x, 2) for x in os.getloadavg()], "processes": processes,
                        "configurations": count, "kept": kept}
        print(f"{part}: {count} configurations ({kept} kept), {timing[part]['seconds']} s "
              f"({timing[part]['cpu_seconds']} s CPU), load {timing[part]['load_before']} → {timing[part]['load_after']}",
              flush=True)
        if not args.quick:
            write_figures(figures)
    return 0


def _identity(entry: dict) -> tuple:
    """What an entry is a figure of (a new run of the same replaces it)."""
    return tuple(json.dumps(entry.get(k), sort_keys=True) for k in IDENTITY)


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


def _job(stub: dict, run) -> tuple[dict, object]:
    """A figure to make: what it will be a figure of, and how to make it (its entries)."""
    return stub, run


def _birds(sizes, seed, processes, bot="greedy", games_key="games", configs=BASE_CONFIGS):
    n = sizes[games_key]
    for game, options in configs:
        for players in PLAYERS:
            stub = {"game": game, "options": options_minus_defaults(game, options), "players": players, "bot": bot,
                    "games": n, "seed": seed}
            yield _job(stub, lambda g=game, o=options, p=players: [balance(g, p, o, bot, n, seed, processes)])


def _solo(sizes, seed, processes, bot="greedy", games_key="games"):
    n = sizes[games_key]
    for game in BIRD_GAMES:
        for handicap in HANDICAPS:
            stub = {"game": game, "options": {"robin_handicap": handicap}, "bot": bot, "games": n, "seed": seed}
            yield _job(stub, lambda g=game, h=handicap: [solo(g, {}, bot, h, n, seed, processes)])


def _variants(sizes, seed, processes):
    yield from _birds(sizes, seed, processes, configs=VARIANT_CONFIGS)


def _strong_solo(sizes, seed, processes):
    yield from _solo(sizes, seed, processes, "strong", "strong_games")


def _strong(sizes, seed, processes):
    """The strong bot in every seat (the issue's bot), at the size the budget allows."""
    yield from _birds(sizes, seed, processes, "strong", "strong_games", BASE_CONFIGS + VARIANT_CONFIGS)


def _tournament(sizes, seed, processes):
    """Greedy against strong at every player count (random's place below greedy
    is the test's and the table's in docs/balance.md)."""
    n, bots = sizes["tournament_games"], ["greedy", "strong"]
    for players in PLAYERS:
        for game in BIRD_GAMES:
            stub = {"game": game, "options": {}, "players": players, "compared": bots, "games": n, "seed": seed}
            yield _job(stub, lambda g=game, p=players: [tournament(g, p, bots, n, seed, processes)])


def _recommend(sizes, seed, processes):
    n = sizes["games"]
    for name in RECOMMENDATIONS:
        for players in PLAYERS:
            stub = {"recommendation": name, "game": name, "options": {}, "players": players, "bot": "greedy",
                    "games": n, "seed": seed}
            yield _job(stub, lambda m=name, p=players:
                       [{**balance(m, p, {}, "greedy", n, seed, processes), "recommendation": m}])


def _rummy(sizes, seed, processes):
    from .rummy import sweep_team

    n = sizes["rummy_games"]
    for team in TEAMS:
        for size in range(1, 34):
            stub = {"team": team, "options": {"open_hands": True} if team == "open" else {}, "draw_pile": size,
                    "games": n, "seed": seed}
            yield _job(stub, lambda t=team, z=size: sweep_team(t, [z], n, seed, processes))


PART_RUNNERS = {"birds": _birds, "tournament": _tournament, "solo": _solo, "rummy": _rummy,
                "variants": _variants, "recommend": _recommend, "strong-solo": _strong_solo, "strong": _strong}
