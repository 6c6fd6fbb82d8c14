"""Summaries with 95 % intervals, and games of one configuration in parallel.

Rates use the Wilson interval of engine/rummy/simulate.py; means the normal
approximation (mean ± 1.96 standard errors), fine at the sizes used here.
"""
from __future__ import annotations

import math
import multiprocessing

from ..rummy.simulate import wilson

Z95 = 1.959964


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run (as engine/rummy/simulate.py numbers them)."""
    return seed * 1_000_003 + index


def rate(wins: int, games: int) -> dict:
    low, high = wilson(wins, games) if games else (0.0, 1.0)
    return {"rate": round(wins / games, 4) if games else None, "ci95": [round(low, 4), round(high, 4)]}


def mean(values: list[float]) -> dict:
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    low = max(m - half, min(values))       # counts are never below the least one seen
    return {"mean": round(m, 3), "ci95": [round(low, 3), round(m + half, 3)]}


def run_parallel(work, jobs: list, processes: int | None, games: int) -> list:
    """``work(job)`` for every job, in a pool of forked processes when worth it
    (as engine/rummy/simulate.py's ``run_games`` does); results in job order."""
    processes = processes or multiprocessing.cpu_count()
    if processes > 1 and games >= 20 and len(jobs) > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            return pool.map(work, jobs)
    return [work(job) for job in jobs]


def chunks(games: int, processes: int | None) -> list[tuple[int, int]]:
    """(first, count) slices of ``games``: a few per process, so the pool stays busy."""
    processes = processes or multiprocessing.cpu_count()
    n = max(1, min(games, processes * 4))
    bounds = [games * i // n for i in range(n + 1)]
    return [(bounds[i], bounds[i + 1] - bounds[i]) for i in range(n)]
