"""Two phones submit at the same moment: exactly one entry applies.

Real HTTP against the live server (threaded werkzeug on SQLite under ``./kt
test``; ``gunicorn -w 2`` as ``./kt run`` starts it, on PostgreSQL under ``./kt
test-postgres``). Two threads, each with its own keep-alive connection, are
released together by a barrier for every pair; both send the next event of a
random legal game at the same version, each with its own idempotency key.
"""
from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sqlalchemy as sa

from engine.randomplay import random_record

sys.path.insert(0, str(Path(__file__).parent))
from phones import Phone, seat_players  # noqa: E402

RACE_PAIRS = int(os.environ.get("KT_RACE_PAIRS", "500"))
GAME, PLAYERS = "gleich-und-gleich", ["Anna", "Ben", "Carla", "Dora", "Emil"]
CHANGED = "Gerade hat jemand anderes etwas eingetragen"


def games_with_events(total: int) -> list[list[dict]]:
    """Random legal games (event lists) holding at least ``total`` events together."""
    games, seed = [], 1
    while sum(map(len, games)) < total:
        games.append(random_record(GAME, {}, len(PLAYERS), seed)["events"])
        seed += 1
    return games


def event_seqs(database_url: str, table_id: str) -> list[int]:
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(
                sa.text("SELECT seq FROM events WHERE table_id = :t ORDER BY seq"), {"t": table_id}).scalars())
    finally:
        engine.dispose()


def test_racing_pairs_exactly_one_wins_and_the_log_has_no_gap(live_server):
    setup = Phone(live_server.url)
    barrier = threading.Barrier(2, timeout=60)
    phones = threading.local()

    def send(table, token, event, version) -> tuple[int, dict]:
        if not hasattr(phones, "phone"):
            phones.phone = Phone(live_server.url)
        barrier.wait()
        return phones.phone.call("POST", f"/api/tables/{table.id}/events",
                                 {"event": event, "version": version, "key": uuid.uuid4().hex}, token=token)

    pairs, winners, tables = 0, [], []
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for events in games_with_events(RACE_PAIRS):
            table = seat_players(setup, GAME, PLAYERS)
            tables.append((table, events))
            for version, event in enumerate(events[:RACE_PAIRS - pairs]):
                answers = list(pool.map(lambda seat: send(table, table.tokens[seat], event, version), (0, 1)))
                statuses = sorted(status for status, _ in answers)
                assert statuses == [200, 409], f"pair {pairs}: {answers}"
                won = next(body for status, body in answers if status == 200)
                lost = next(body for status, body in answers if status == 409)
                assert won["version"] == version + 1
                assert CHANGED in lost["error"]
                assert (lost["version"], lost["state"]) == (won["version"], won["state"]), "the loser gets the fresh state"
                winners.append(next(seat for seat, (status, _) in enumerate(answers) if status == 200))
                pairs += 1
    seconds = time.monotonic() - started

    assert pairs == RACE_PAIRS
    for table, events in tables:
        status, record = setup.call("GET", f"/api/tables/{table.id}/record", token=table.tokens[0])
        assert status == 200
        applied = len(record["events"])
        assert record["events"] == events[:applied]
        assert event_seqs(live_server.database_url, table.id) == list(range(1, applied + 1)), "gap or duplicate"
    print(f"\n{pairs} racing pairs in {seconds:.1f} s ({1000 * seconds / pairs:.0f} ms a pair); "
          f"first phone won {winners.count(0)}, second {winners.count(1)}")
