"""The hot requests in one process, without concurrency: the bare route, the
unchanged sync (204), the changed sync (the regions: drawn for the first phone of
a perspective, or already drawn for another), the drawing ahead alone (``publish``,
repeatable), an entry through the API (with its table's new regions drawn ahead for
the phone that waits, and with nobody waiting: the difference is what drawing a
change costs), and a phone's tap on the page (the same entry, answered with its regions).

``costs()`` gives the median CPU milliseconds per request of each (CPU time of
this one-threaded process, so a busy machine doesn't inflate it; medians over
batches; the bare route measured in the same run is the yardstick);
``python -m bench.profile`` shows where the time goes (pyinstrument).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from engine.randomplay import random_record

from .load import GAMES
from .server import database

REVISION = re.compile(r"[?&;]rev=(\d+)")
CSRF_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
ENTRY_KINDS = 3  # entry, entry with no phone waiting, page entry: they share the table's record
BATCHES = 5
MID_GAME = 40  # events entered before measuring
FSYNC_BYTES, FSYNC_REPEATS = 4096, 50
FSYNC = "disk flush (fsync of 4 KB, wall time)"


@contextmanager
def request_kinds(database_url: str | None = None, game: str = "cubirds"):
    """``{kind: make one request}`` on a started table of ``game`` (seated as in the
    load benchmark), in a throwaway SQLite database (or the given, empty, database)."""
    with tempfile.TemporaryDirectory() as directory:
        os.environ["DATABASE_URL"] = database_url or f"sqlite:///{directory}/profile.sqlite3"
        os.environ["KT_RATELIMIT_ENABLED"] = "false"
        from webapp import create_app, migrate_database, play

        from .bare import BARE_PATH, add_bare_route

        app = add_bare_route(create_app())
        migrate_database(app)
        client = app.test_client()
        record = random_record(game, {}, dict(GAMES)[game], 1)
        created = client.post("/api/tables", json={"game": game, "options": record["options"],
                                                   "name": record["players"][0]}).get_json()
        table_id, auth = created["id"], {"Authorization": f"Bearer {created['token']}"}
        for name in record["players"][1:]:
            client.post(f"/api/tables/{table_id}/seats", json={"join_code": created["join_code"], "name": name})
        client.post(f"/api/tables/{table_id}/start", headers=auth)
        client.get(created["seat_url"])
        events, version = iter(record["events"]), [0]

        def enter():
            answer = client.post(f"/api/tables/{table_id}/events", headers=auth,
                                 json={"event": next(events), "version": version[0], "key": uuid.uuid4().hex})
            if answer.status_code != 200:
                raise RuntimeError(f"entry refused: {answer.get_json()}")
            version[0] += 1

        def sync(rev) -> object:
            return client.get(f"/t/{table_id}/sync?rev={rev}&phase=play", headers={"HX-Request": "true"})

        for _ in range(MID_GAME):  # the syncs draw a game in play, not the empty setup
            enter()
        revision = REVISION.search(sync(-1).get_data(True)).group(1)
        def sync_drawn() -> object:
            """A changed poll of the first phone of its perspective: nothing drawn yet (the
            log is kept: in play, a new revision reads and words one new entry)."""
            play._drawings.clear()
            app.extensions["sync"]._drawings.clear()
            return sync(-1)

        def publish():
            """What an entry pays for drawing its change ahead (``Sync.publish``) for the phone
            that asked before, the revision's drawings cleared first so that it can be repeated
            (the log's sentences and the kept pieces stay: less than a new revision costs)."""
            play._drawings.clear()
            app.extensions["sync"]._drawings.clear()
            app.extensions["sync"].publish(table_id)

        page_headers = {"HX-Request": "true",
                        "X-CSRFToken": CSRF_TOKEN.search(client.get(f"/t/{table_id}").get_data(True)).group(1)}

        def enter_on_page():
            """A phone's tap (``play.enter_event`` as htmx sends it), answered with its regions."""
            answer = client.post(f"/t/{table_id}/event", headers=page_headers,
                                 data={"event": json.dumps(next(events)), "version": version[0]})
            if answer.status_code != 200:
                raise RuntimeError(f"tap refused: {answer.status_code}")
            version[0] += 1

        def enter_unwatched():
            """An entry no phone waits for: nothing is drawn ahead."""
            app.extensions["sync"]._asked.clear()
            enter()

        yield ({"bare": lambda: client.get(BARE_PATH), "sync 204": lambda: sync(revision),
                "sync 200, drawn": sync_drawn, "sync 200, shared": lambda: sync(-1), "publish": publish,
                "entry": enter, "entry, no phone waiting": enter_unwatched, "page entry": enter_on_page},
               len(record["events"]) - MID_GAME)


def costs(requests: int = 200) -> dict:
    """Median CPU ms per request of each kind, and its ratio to the bare route;
    beside them the wall time of one disk flush, which every entry waits for."""
    result = {}
    with request_kinds() as (kinds, events):
        per_batch = max(1, min(requests, (events - 1) // ENTRY_KINDS) // BATCHES)  # the entries share the record
        for kind, request in kinds.items():
            times = []
            for _ in range(BATCHES):
                started = time.process_time()
                for _ in range(per_batch):
                    request()
                times.append((time.process_time() - started) / per_batch * 1000)
            result[kind] = {"ms": round(statistics.median(times), 3), "requests": per_batch * BATCHES}
    result[FSYNC] = {"ms": fsync_ms(), "requests": FSYNC_REPEATS}
    for figures in result.values():
        figures["per_bare"] = round(figures["ms"] / result["bare"]["ms"], 2)
    return result


def fsync_ms() -> float:
    """Median wall ms to write and flush 4 KB to a new file in the temporary
    folder: the least a durable commit waits for, which no read ever pays."""
    times = []
    with tempfile.TemporaryDirectory() as directory:
        for n in range(FSYNC_REPEATS):
            with open(Path(directory) / f"{n}.bin", "wb") as file:
                started = time.perf_counter()
                file.write(os.urandom(FSYNC_BYTES))
                file.flush()
                os.fsync(file.fileno())
                times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 3)


def main(argv=None) -> None:
    from pyinstrument import Profiler

    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per kind (default 200)")
    parser.add_argument("--html", type=Path, help="also write one pyinstrument HTML page per kind here")
    parser.add_argument("--postgres", action="store_true", help="profile on a throwaway PostgreSQL database")
    parser.add_argument("--game", choices=[game for game, _ in GAMES], default="cubirds",
                        help="the game at the table (default cubirds)")
    args = parser.parse_args(argv)
    with database("postgres" if args.postgres else "sqlite") as url, request_kinds(url, args.game) as (kinds, events):
        count = min(args.requests, (events - 1) // ENTRY_KINDS)  # the entries share the record
        for kind, request in kinds.items():
            profiler = Profiler(interval=0.0005)
            with profiler:
                for _ in range(count):
                    request()
            print(f"\n===== {kind}: {count} requests")
            print(profiler.output_text(unicode=True, color=False, short_mode=True))
            if args.html:
                args.html.mkdir(parents=True, exist_ok=True)
                (args.html / f"{kind.replace(' ', '-')}.html").write_text(profiler.output_html())


if __name__ == "__main__":
    main()
