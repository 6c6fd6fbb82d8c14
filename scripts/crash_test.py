"""Crash test: kill the server with SIGKILL again and again while phones enter.

    .venv/bin/python scripts/crash_test.py [--kills 100] [--clients 4] [--database-url URL]

Starts the real app (werkzeug, threaded) on 127.0.0.1, lets ``--clients``
phones stream entries through the JSON API (each its own table, imported from
a random legal game: events, and now and then an undo and the event again),
and kills the server with SIGKILL a random 0.1–0.5 s after its first answer,
``--kills`` times, restarting it each time. A phone whose request got no answer sends the very
same request (same idempotency key) again until it gets one, as the pages do.

The server processes are forked from a preloaded forkserver (the app's modules
imported once), so a restart costs only ``create_app``; the process that is
killed is the one holding the database connections, mid-request.

At the end, against the database and a freshly started server:
  * every acknowledged entry (an answer 200) is in the log at its version with its key;
  * every table's log has seq 1..version, no gap, no duplicate;
  * every table replays (the engine, from the rows) and the server's record of
    each phone's table equals what the phone was told.
Exit code 0 when all hold; the figures are printed.
"""
from __future__ import annotations

import argparse
import http.client
import logging
import multiprocessing
import os
import random
import signal
import socket
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "reliability"))

GAME, PLAYERS = "gleich-und-gleich", ["Anna", "Ben", "Carla"]
UNDO_EVERY = 7  # every 7th step of a phone is an undo (then the event is entered again)
KILL_AFTER = (0.1, 0.5)  # seconds the server serves (from its first answer) before SIGKILL
START_TIMEOUT = 30.0


def serve(port: int, database_url: str) -> None:
    """The server process: the real app on 127.0.0.1:port (runs until killed)."""
    from werkzeug.serving import make_server

    from webapp import create_app, migrate_database

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "crash-test",
                      "RATELIMIT_ENABLED": False})
    migrate_database(app)
    make_server("127.0.0.1", port, app, threaded=True).serve_forever()


@dataclass
class Ack:
    table_id: str
    version: int
    key: str


@dataclass
class PhoneLog:
    """What one phone was told: acknowledged entries and its tables' events in force."""

    acks: list[Ack] = field(default_factory=list)
    tables: dict[str, tuple[str, list[dict]]] = field(default_factory=dict)  # id -> (token, events in force)
    retries: int = 0
    error: str | None = None


SERVING = threading.Event()  # set by a phone when the (re)started server has answered


def answered(phone, log: PhoneLog, stop: threading.Event, method: str, path: str, body: dict,
             token: str | None = None) -> tuple[int, dict] | None:
    """Send until an answer comes (the same body, so the same key); None if stopped."""
    while not stop.is_set():
        try:
            reply = phone.call(method, path, body, token=token)
            SERVING.set()
            return reply
        except (OSError, http.client.HTTPException):
            log.retries += 1
            time.sleep(0.02)
    return None


def run_phone(number: int, url: str, stop: threading.Event, log: PhoneLog) -> None:
    """Stream entries until ``stop``; any unexpected answer ends the phone with an error."""
    from engine.randomplay import random_record
    from phones import Phone

    phone, rng, seed = Phone(url, timeout=10), random.Random(number), 1000 * number
    try:
        while not stop.is_set():
            seed += 1
            record = random_record(GAME, {}, len(PLAYERS), seed)
            made = answered(phone, log, stop, "POST", "/api/tables", {"record": {**record, "events": []}})
            if made is None:
                return
            assert made[0] == 201, made
            table_id, token = made[1]["id"], made[1]["token"]
            in_force: list[dict] = []
            log.tables[table_id] = (token, in_force)
            version, steps = 0, 0
            while len(in_force) < len(record["events"]) and not stop.is_set():
                steps += 1
                key = uuid.uuid4().hex
                undoing = in_force and steps % UNDO_EVERY == 0 and rng.random() < 0.9
                if undoing:
                    path, body = f"/api/tables/{table_id}/undo", {"version": version, "key": key}
                else:
                    path = f"/api/tables/{table_id}/events"
                    body = {"event": record["events"][len(in_force)], "version": version, "key": key}
                reply = answered(phone, log, stop, "POST", path, body, token)
                if reply is None:
                    return
                status, answer = reply
                assert status == 200 and answer["version"] == version + 1, (path, body, reply)
                version += 1
                if undoing:
                    in_force.pop()
                else:
                    in_force.append(body["event"])
                log.acks.append(Ack(table_id, version, key))
    except Exception as error:  # reported by the main thread
        log.error = f"phone {number}: {error.__class__.__name__}: {error}"[:2000]
        stop.set()


def wait_serving(port: int, process) -> float:
    started = time.monotonic()
    while time.monotonic() - started < START_TIMEOUT:
        if not process.is_alive():
            raise RuntimeError(f"the server exited with code {process.exitcode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return time.monotonic() - started
        time.sleep(0.01)
    raise RuntimeError(f"the server did not listen on port {port} within {START_TIMEOUT:.0f} s")


def check(database_url: str, url: str, logs: list[PhoneLog]) -> list[str]:
    """The checks of the docstring; the list of what failed."""
    import sqlalchemy as sa

    from engine import new_game
    from phones import Phone

    problems: list[str] = []
    engine = sa.create_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(sa.text(
            "SELECT table_id, seq, kind, event, key FROM events ORDER BY table_id, seq")
            .columns(event=sa.JSON)).all()
        tables = connection.execute(sa.text("SELECT id, game, options, players, version FROM tables")
                                    .columns(options=sa.JSON, players=sa.JSON)).all()
    engine.dispose()
    by_table: dict[str, list] = {}
    for row in rows:
        by_table.setdefault(row.table_id, []).append(row)
    keys = {(row.table_id, row.key): row.seq for row in rows}

    for log in logs:
        for ack in log.acks:
            if keys.get((ack.table_id, ack.key)) != ack.version:
                problems.append(f"acknowledged entry lost: table {ack.table_id} version {ack.version} key {ack.key}")

    for table in tables:
        table_rows = by_table.get(table.id, [])
        if [row.seq for row in table_rows] != list(range(1, table.version + 1)):
            problems.append(f"table {table.id}: seqs {[row.seq for row in table_rows]} for version {table.version}")
            continue
        try:
            game = new_game(table.game, table.options, table.players)
            for row in table_rows:
                game.undo() if row.kind == "undo" else game.apply(row.event)
        except Exception as error:
            problems.append(f"table {table.id} does not replay: {error}")

    phone = Phone(url)
    for log in logs:
        for table_id, (token, in_force) in log.tables.items():
            status, record = phone.call("GET", f"/api/tables/{table_id}/record", token=token)
            if status != 200 or record["events"] != in_force:
                problems.append(f"table {table_id}: the server's record differs from what the phone was told")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--database-url", help="default: a fresh SQLite file in a temporary folder")
    args = parser.parse_args(argv)

    workdir = tempfile.TemporaryDirectory(prefix="kt-crash-")
    database_url = args.database_url or f"sqlite:///{Path(workdir.name) / 'crash.sqlite3'}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["webapp", "engine", "werkzeug.serving", "flask_migrate", "alembic.command",
                                     "alembic.script", "alembic.runtime.migration", "alembic.runtime.environment"])

    def start():
        process = context.Process(target=serve, args=(port, database_url), daemon=True)
        process.start()
        return process, wait_serving(port, process)

    stop, logs = threading.Event(), [PhoneLog() for _ in range(args.clients)]
    server, _ = start()
    phones = [threading.Thread(target=run_phone, args=(n, url, stop, log), daemon=True) for n, log in enumerate(logs)]
    for thread in phones:
        thread.start()
    rng, started, start_times, acks_at_kill = random.Random(7), time.monotonic(), [], []
    for _kill in range(args.kills):
        if stop.is_set():
            break
        SERVING.wait(timeout=START_TIMEOUT)  # the kill hits a server in use
        time.sleep(rng.uniform(*KILL_AFTER))
        os.kill(server.pid, signal.SIGKILL)
        server.join()
        acks_at_kill.append(sum(len(log.acks) for log in logs))
        SERVING.clear()
        server, seconds = start()
        start_times.append(seconds)
    time.sleep(0.5)  # the phones get their last answers from the live server
    stop.set()
    for thread in phones:
        thread.join(timeout=30)
    elapsed = time.monotonic() - started

    errors = [log.error for log in logs if log.error]
    problems = errors + check(database_url, url, logs)
    os.kill(server.pid, signal.SIGKILL)
    server.join()
    workdir.cleanup()

    acks = sum(len(log.acks) for log in logs)
    rounds_with_acks = sum(later > earlier for earlier, later in zip([0] + acks_at_kill, acks_at_kill))
    print(f"crash test: {len(start_times)} SIGKILLs in {elapsed:.1f} s, {args.clients} phones, "
          f"{acks} acknowledged entries on {sum(len(log.tables) for log in logs)} tables, "
          f"{sum(log.retries for log in logs)} tries without an answer (sent again), "
          f"entries acknowledged between kills in {rounds_with_acks} of {len(acks_at_kill)} rounds, "
          f"restart {1000 * sum(start_times) / max(len(start_times), 1):.0f} ms on average; "
          f"database {database_url.split('://')[0]}")
    if len(start_times) < args.kills:
        problems.append(f"only {len(start_times)} of {args.kills} kills happened")
    if rounds_with_acks == 0:
        problems.append("no entry was acknowledged between two kills: the crashes hit nothing")
    for problem in problems[:50]:
        print("PROBLEM:", problem)
    print("crash test:", "FAILED" if problems else "passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
