"""Many bot games of one configuration, in parallel, and what they add up to:
tournaments (which bot wins) and balance figures (how the game behaves).

Game ``i`` of a run with seed ``S`` uses the seed ``S × 1 000 003 + i`` (as the
Gemeinsame Sache simulation does), so each figure can be reproduced exactly,
whatever the number of processes.
"""
from __future__ import annotations

import itertools
import json
import time
from collections import Counter

from .arena import GameResult, play_game
from .stats import chunks, game_seed, mean, rate, run_parallel
from .variants import make_game

ENDINGS = ("distinct-species", "two-triples", "most-birds")


def _play_chunk(job) -> tuple[list[GameResult], float]:
    game, options, schedule, seed, first, count, handicap = job
    started = time.process_time()
    results = [play_game(game, options, list(schedule[i % len(schedule)]), game_seed(seed, i), handicap)[0]
               for i in range(first, first + count)]
    return results, time.process_time() - started


def play_many(game: str, options: dict, schedule: list, games: int, seed: int, processes: int | None,
              handicap: int = 0) -> tuple[list[GameResult], dict]:
    """``games`` games; game ``i`` seats the lineup ``schedule[i % len]``.
    Returns the results in game order and the run's timing."""
    jobs = [(game, options, schedule, seed, first, count, handicap) for first, count in chunks(games, processes)]
    started = time.perf_counter()
    parts = run_parallel(_play_chunk, jobs, processes, games)
    timing = {"seconds": round(time.perf_counter() - started, 2), "cpu_seconds": round(sum(p[1] for p in parts), 2)}
    return [r for part, _ in parts for r in part], timing


def lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """Every seating in which the bots' seat counts differ by at most one (so
    each bot sits in every seat equally often over a full cycle)."""
    result = []
    for seating in itertools.product(bots, repeat=players):
        counts = [seating.count(b) for b in bots]
        if max(counts) - min(counts) <= 1:
            result.append(seating)
    return result


def check_config(game: str, options: dict, players: int) -> dict:
    """The engine's normalised options for this configuration (InvalidRecord if bad)."""
    names = [f"Spieler {i + 1}" for i in range(players)]
    return make_game(game, options, names).options


def options_minus_defaults(game: str, options: dict) -> dict:
    defaults = make_game(game, {}, ["A", "B"]).options
    return {k: v for k, v in options.items() if defaults.get(k) != v}


# --- tournaments ---------------------------------------------------------------------------------
def tournament(game: str, players: int, bots: list[str], games: int, seed: int, processes: int | None = None,
               options: dict | None = None) -> dict:
    """Per bot: win rate over the seats it took (shared wins count), Wilson
    interval, seats played, and its mean thinking time per turn."""
    options = dict(options or {})
    check_config(game, options, players)
    results, timing = play_many(game, options, lineups(bots, players), games, seed, processes)
    seats, wins, think, turns = Counter(), Counter(), Counter(), Counter()
    for r in results:
        for k, bot in enumerate(r.seats):
            seats[bot] += 1
            wins[bot] += k in r.winners
            think[bot] += r.think[k]
            turns[bot] += r.decided_turns[k]
    rows = [{"bot": bot, "games": seats[bot], "wins": wins[bot], "win_rate": rate(wins[bot], seats[bot])["rate"],
             "ci95": rate(wins[bot], seats[bot])["ci95"],
             "ms_per_turn": round(1000 * think[bot] / turns[bot], 3) if turns[bot] else None} for bot in bots]
    return {"game": game, "players": players, "options": options_minus_defaults(game, options), "compared": bots,
            "bots": rows,
            "games": games, "seed": seed, **timing,
            "command": f"python -m engine tournament --game {game} --players {players} --bots {','.join(bots)} "
                       f"--games {games} --seed {seed}" + _options_arg(options)}


def _options_arg(options: dict) -> str:
    return f" --options '{json.dumps(options, sort_keys=True)}'" if options else ""


# --- balance ---------------------------------------------------------------------------------------
def balance(game: str, players: int, options: dict, bot: str, games: int, seed: int,
            processes: int | None = None) -> dict:
    """How a game behaves with ``bot`` in every seat (a C5 "birds" entry)."""
    options = dict(options)
    check_config(game, options, players)
    results, timing = play_many(game, options, [(bot,) * players], games, seed, processes)
    endings = Counter(r.reason for r in results)
    seat_wins = Counter(k for r in results for k in r.winners)
    think = sum(sum(r.think) for r in results)
    turns = sum(r.turns for r in results)
    return {
        "game": game, "options": options_minus_defaults(game, options), "players": players, "bot": bot,
        "games": games, "seed": seed,
        "command": f"python -m engine balance --game {game} --players {players} --bot {bot} --games {games} "
                   f"--seed {seed}" + _options_arg(options),
        "turns": mean([r.turns for r in results]), "rounds": mean([r.rounds for r in results]),
        "endings": {reason: round(endings[reason] / games, 4) for reason in ENDINGS},
        "endings_ci95": {reason: rate(endings[reason], games)["ci95"] for reason in ENDINGS},
        "seat_win_rate": [{"seat": k, **rate(seat_wins[k], games)} for k in range(players)],
        "shared_wins": round(sum(1 for r in results if len(r.winners) > 1) / games, 4),
        "reshuffles": mean([r.reshuffles for r in results]),
        "ms_per_turn": round(1000 * think / turns, 3), **timing,
    }


def solo(game: str, options: dict, bot: str, handicap: int, games: int, seed: int,
         processes: int | None = None) -> dict:
    """The human seat's win rate against RobinBird with ``handicap`` cards in her
    collection (a C5 "solo" entry; a shared win counts as a win)."""
    options = {**options, "solo": True}
    check_config(game, options, 2)
    results, timing = play_many(game, options, [(bot,)], games, seed, processes, handicap)
    wins = sum(1 for r in results if 0 in r.winners)
    extra = options_minus_defaults(game, {k: v for k, v in options.items() if k != "solo"})
    return {"game": game, "options": {**extra, "robin_handicap": handicap}, "bot": bot, "games": games,
            "seed": seed, "win_rate": rate(wins, games)["rate"], "ci95": rate(wins, games)["ci95"],
            "turns": mean([r.turns for r in results]),
            "endings": {reason: round(sum(1 for r in results if r.reason == reason) / games, 4)
                        for reason in ENDINGS},
            "command": f"python -m engine balance --game {game} --players 1 --bot {bot} --games {games} "
                       f"--seed {seed} --options '{{\"robin_handicap\": {handicap}}}'",
            **timing}
