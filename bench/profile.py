"""Profile the hot requests in one process (pyinstrument): the unchanged sync
(204), the changed sync (regions), an entry through the API, the bare route.

    python -m bench.profile [--requests N] [--html DIR]
"""
from __future__ import annotations

import argparse
import re
import tempfile
import time
import uuid
from pathlib import Path

from pyinstrument import Profiler

from engine.randomplay import random_record

REVISION = re.compile(r"[?&;]rev=(\d+)")


def _app(directory: str):
    import os
    os.environ["RATELIMIT_ENABLED"] = "false"
    from .wsgi import app
    return app


def _table(client, record: dict) -> tuple[str, str]:
    created = client.post("/api/tables", json={"game": record["game"], "options": record["options"],
                                               "name": record["players"][0]}).get_json()
    for name in record["players"][1:]:
        client.post(f"/api/tables/{created['id']}/seats", json={"join_code": created["join_code"], "name": name})
    client.post(f"/api/tables/{created['id']}/start", headers={"Authorization": f"Bearer {created['token']}"})
    client.get(created["seat_url"])
    return created["id"], created["token"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per kind (default 300)")
    parser.add_argument("--html", type=Path, help="also write one pyinstrument HTML page per kind here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        import os
        os.environ["DATABASE_URL"] = f"sqlite:///{directory}/profile.sqlite3"
        client = _app(directory).test_client()
        record = random_record("cubirds", {}, 5, 1)
        table_id, token = _table(client, record)
        auth = {"Authorization": f"Bearer {token}"}
        events = iter(record["events"])
        version = [0]

        def enter():
            answer = client.post(f"/api/tables/{table_id}/events", headers=auth,
                                 json={"event": next(events), "version": version[0], "key": uuid.uuid4().hex})
            assert answer.status_code == 200, answer.get_json()
            version[0] += 1

        def revision() -> int:
            return int(REVISION.search(client.get(f"/t/{table_id}/sync?rev=-1&phase=play").get_data(True)).group(1))

        current = revision()
        kinds = {
            "bare": lambda: client.get("/_bench/bare"),
            "sync 204": lambda: client.get(f"/t/{table_id}/sync?rev={current}&phase=play", headers={"HX-Request": "true"}),
            "sync 200": lambda: client.get(f"/t/{table_id}/sync?rev=-1&phase=play", headers={"HX-Request": "true"}),
            "entry": enter,
        }
        count = min(args.requests, len(record["events"]) - 1)
        for kind, request in kinds.items():
            profiler = Profiler(interval=0.0005)
            started = time.perf_counter()
            with profiler:
                for _ in range(count):
                    request()
            per_request = (time.perf_counter() - started) / count * 1000
            print(f"\n===== {kind}: {per_request:.2f} ms per request (in-process, {count} requests)")
            print(profiler.output_text(unicode=True, color=False, show_all=False, short_mode=True)[:6000])
            if args.html:
                args.html.mkdir(parents=True, exist_ok=True)
                (args.html / f"{kind.replace(' ', '-')}.html").write_text(profiler.output_html())


if __name__ == "__main__":
    main()
