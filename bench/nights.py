"""``python -m bench.nights``: what game nights cost, in one process (test client,
SQLite in a temporary folder, or ``--database-url``): the night page of a night
with 20 games, ``/statistik`` over 10,000 finished games (warm: charts drawn
before; cold: every chart drawn anew), a replay step of a long game, and — as the
yardsticks of the same run — the bare route and an entry (an event appended
through the API). Wall-clock medians; the ratios to the bare route are what to
compare between runs (these machines are noisy). Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import sqlalchemy as sa

from engine.randomplay import random_record

from .bare import BARE_PATH, add_bare_route

GAMES = 10_000
NIGHT = 20
VARIANTS = [("gleich-und-gleich", "{}", 3), ("gleich-und-gleich", '{"fast":true}', 4), ("cubirds", "{}", 2),
            ("cubirds", "{}", 4), ("cubirds", '{"solo":true}', 2),
            ("gemeinsame-sache", '{"draw_pile":17,"level":"schwer"}', 2), ("gemeinsame-sache", "{}", 2)]
REASONS = {"gleich-und-gleich": ("distinct-species", "two-triples", "most-birds"),
           "cubirds": ("distinct-species", "two-triples", "most-birds"),
           "gemeinsame-sache": ("all-laid", "clock", "gave-up")}


def median_ms(call, runs: int, before=None) -> float:
    """The median time of ``call()`` (``before()`` runs first each time, untimed)."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        started = time.perf_counter()
        answer = call()
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code < 400, answer.status_code
    return statistics.median(times)


def fill(db, count: int, chain: int, rng: random.Random, only=None) -> str:
    """``count`` finished games (the first ``chain`` of them one night; all of variant
    ``only`` if given); the id of its last table."""
    from webapp.models import Table
    from webapp.nights_store import GameSummary

    now = datetime.now(timezone.utc)
    tables, summaries, previous = [], [], None
    for n in range(count):
        game, variant, players = only or (VARIANTS[n % len(VARIANTS)] if n >= chain else VARIANTS[0])
        table_id = secrets.token_urlsafe(16)
        names = ["Anna", "Ben", "Carla", "Dora", "Emil"][:players]
        tables.append({"id": table_id, "join_code": secrets.token_hex(6), "game": game, "options": json.loads(variant),
                       "players": names, "status": "playing", "version": 100, "revision": 100,
                       "created_at": now, "previous_id": previous if n < chain else None})
        previous = table_id
        winners = [0, 1] if game == "gemeinsame-sache" else [rng.randrange(players)]
        summaries.append({"table_id": table_id, "game": game, "variant": variant, "players": players,
                          "solo": "solo" in variant, "first_seat": 0, "winners": winners,
                          "winner_mask": sum(1 << w for w in winners), "won": rng.random() < .6,
                          "reason": rng.choice(REASONS[game]), "turns": rng.randint(15, 60),
                          "rounds": None if game == "gemeinsame-sache" else rng.randint(1, 4), "events": 100,
                          "started_at": now - timedelta(minutes=40), "ended_at": now})
    db.session.execute(sa.insert(Table), tables)
    db.session.execute(sa.insert(GameSummary), summaries)
    db.session.commit()
    return tables[max(chain, 1) - 1]["id"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="default: SQLite in a temporary folder")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    from webapp import create_app, migrate_database, nights_stats
    from webapp.extensions import db

    folder = Path(tempfile.mkdtemp())
    url = args.database_url or f"sqlite:///{folder / 'bench.sqlite3'}"
    app = add_bare_route(create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                                     "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False}))
    migrate_database(app)
    client = app.test_client()
    with app.app_context():
        night = fill(db, GAMES, NIGHT, random.Random(1))

    record = random_record("gleich-und-gleich", {}, 3, 2)
    long_game = client.post("/api/tables", json={"record": record}).json["id"]
    steps = [random.Random(2).randrange(len(record["events"])) for _ in range(args.runs)]
    step_of = iter(steps * 2)
    hx = {"HX-Request": "true"}

    entry_record = random_record("gleich-und-gleich", {}, 3, 3)
    made = client.post("/api/tables", json={"record": {**entry_record, "events": entry_record["events"][:40]}}).json
    auth = {"Authorization": f"Bearer {made['token']}"}
    version = [40]

    def entry():  # an event, then its undo: each is an entry of its own
        event = entry_record["events"][40]
        answer = client.post(f"/api/tables/{made['id']}/events", json={"event": event, "version": version[0]},
                             headers=auth)
        version[0] += 1
        client.post(f"/api/tables/{made['id']}/undo", json={"version": version[0]}, headers=auth)
        version[0] += 1
        return answer

    def cold_statistics():
        nights_stats.chart.cache_clear()
        nights_stats._sections.cache_clear()
        return client.get("/statistik")

    rng = random.Random(3)

    def one_game_ends():  # a finished game more (in one of the groups): the figures change
        with app.app_context():
            fill(db, 1, 0, rng, VARIANTS[rng.randrange(len(VARIANTS))])

    client.get("/statistik")  # warm-up of every path
    client.get(f"/t/{night}/abend")
    client.get(f"/t/{long_game}/wiederholung?schritt=1", headers=hx)
    rows = [("bare route", median_ms(lambda: client.get(BARE_PATH), args.runs)),
            ("entry (API event)", median_ms(entry, args.runs)),
            (f"night page, {NIGHT} games", median_ms(lambda: client.get(f"/t/{night}/abend"), args.runs)),
            (f"statistics, {GAMES:,} games, figures worked out before",
             median_ms(lambda: client.get("/statistik"), args.runs)),
            (f"statistics, {GAMES:,} games, right after a game ended (figures anew, its group's charts)",
             median_ms(lambda: client.get("/statistik"), args.runs, one_game_ends)),
            (f"statistics, {GAMES:,} games, figures and every chart anew", median_ms(cold_statistics, max(5, args.runs // 3))),
            (f"replay step, random steps of a {len(record['events'])}-event game",
             median_ms(lambda: client.get(f"/t/{long_game}/wiederholung?schritt={next(step_of)}", headers=hx),
                       args.runs))]
    bare = rows[0][1]
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {app.config['SQLALCHEMY_DATABASE_URI'].split(':')[0]}, "
          f"median of {args.runs} runs\n")
    print("| request | ms | × bare |\n|---|---:|---:|")
    for name, ms in rows:
        print(f"| {name} | {ms:.1f} | {ms / bare:.1f} |")


if __name__ == "__main__":
    main()
