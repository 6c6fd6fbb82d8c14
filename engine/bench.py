"""``python -m engine bench``: events applied per second, the replay time of a long
game, and (Gemeinsame Sache) simulated games per second.

The machine is shared and noisy: times are CPU time of this process (what one
core spends, not the wall clock of a busy machine), every figure is a median over
repeats, and a fixed pure-Python loop measured in the same run is reported as the
baseline, so results can be compared as ratios across runs and machines.
"""
from __future__ import annotations

import inspect
import json
import platform
import statistics
import time

from . import GAMES, new_game, replay
from .randomplay import random_record

LONG_GAME_EVENTS = 300


def median_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.process_time()
        fn()
        times.append(time.process_time() - started)
    return statistics.median(times)


def baseline_loop() -> int:
    """A fixed amount of plain Python work (the yardstick of this machine, now)."""
    total = 0
    for i in range(300_000):
        total += i * i % 7
    return total


def apply_all(records: list[dict]) -> None:
    for record in records:
        game = new_game(record["game"], record["options"], record["players"])
        for event in record["events"]:
            game.apply(event)


def bench_game(name: str, games: int, repeats: int) -> dict:
    """Events/s over ``games`` random records; replay time of the one closest to 300 events."""
    try:
        records = [random_record(name, {}, None, seed) for seed in range(games)]
    except (ImportError, AttributeError, NotImplementedError) as err:
        return {"game": name, "available": False, "why": str(err)}
    events = sum(len(r["events"]) for r in records)
    seconds = median_seconds(lambda: apply_all(records), repeats)
    long_game = min(records, key=lambda r: (abs(len(r["events"]) - LONG_GAME_EVENTS), -len(r["events"])))
    long_seconds = median_seconds(lambda: replay(long_game), repeats * 10)
    return {"game": name, "available": True, "records": games, "events": events,
            "events_per_second": round(events / seconds), "long_game_events": len(long_game["events"]),
            "long_game_replay_ms": round(long_seconds * 1000, 3)}


def bench_rummy_simulation(games: int) -> dict:
    """Gemeinsame Sache: simulated games/s on one process (Normal: 22 cards)."""
    try:
        from .rummy.simulate import run_games
    except ImportError:
        return {"available": False}
    kwargs = {"draw_pile": 22, "games": games, "seed": 1}
    if "processes" in inspect.signature(run_games).parameters:
        kwargs["processes"] = 1
    seconds = median_seconds(lambda: run_games(**kwargs), 3)
    return {"available": True, "games": games, "games_per_second": round(games / seconds, 1)}


def run(quick: bool) -> dict:
    repeats = 3 if quick else 7
    baseline = median_seconds(baseline_loop, repeats)
    results = [bench_game(name, 15 if quick else 60, repeats) for name in sorted(GAMES)]
    for result in results:
        if result["available"]:
            result["events_per_baseline"] = round(result["events_per_second"] * baseline)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "quick": quick, "baseline_ms": round(baseline * 1000, 2), "games": results,
        "rummy_simulation": bench_rummy_simulation(100 if quick else 500),
    }


def main(args) -> int:
    report = run(bool(getattr(args, "quick", False)))
    if getattr(args, "json", False):
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['date']}  {report['machine']}  baseline loop {report['baseline_ms']} ms")
    for g in report["games"]:
        if not g["available"]:
            print(f"{g['game']:<20} not available ({g['why']})")
            continue
        print(f"{g['game']:<20} {g['events_per_second']:>9,} events/s ({g['events_per_baseline']:,} per baseline loop)"
              f"  {g['long_game_events']}-event game replayed in {g['long_game_replay_ms']} ms")
    sim = report["rummy_simulation"]
    print("gemeinsame-sache simulation: "
          + (f"{sim['games_per_second']} games/s (draw pile 22, one process)" if sim["available"] else "not available"))
    return 0
