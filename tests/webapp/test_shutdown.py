"""Shutdown never hangs (#17 point 8): SIGTERM to gunicorn's whole process group,
twice (as systemd's KillMode=control-group and any group kill send it), answers
every held sync poll and stops the server within a few seconds."""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import signal
import subprocess
import time
import urllib.request

import pytest

from tests.conftest import REPO, TEST_SECRET_KEY, _dispose_engines, _free_port, _wait_until_serving, app_test_config
from webapp import create_app, migrate_database
from webapp.hosting import gunicorn_command

HELD_POLLS = 300
STOPPED_WITHIN = 8.0


async def hold_polls(port: int, path: str, count: int) -> list[asyncio.Task]:
    async def poll() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        writer.close()
        return status

    return [asyncio.create_task(poll()) for _ in range(count)]


@pytest.mark.parametrize("signals", [1, 2])
def test_a_group_sigterm_answers_every_held_poll_and_stops_the_server(tmp_path, signals):
    url = f"sqlite:///{tmp_path / 'shutdown.sqlite3'}"
    app = create_app(app_test_config(url))
    migrate_database(app)  # before the workers start
    _dispose_engines(app)
    port = _free_port()
    env = os.environ | {"DATABASE_URL": url, "SECRET_KEY": TEST_SECRET_KEY, "KT_RATELIMIT_ENABLED": "false",
                        "KT_SYNC_HOLDS": str(HELD_POLLS)}
    log = open(tmp_path / "gunicorn.log", "wb")
    server = subprocess.Popen(gunicorn_command("wsgi:app", f"127.0.0.1:{port}", 2, HELD_POLLS + 16),
                              cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_until_serving(base, server)
        request = urllib.request.Request(f"{base}/api/tables", json.dumps({"game": "cubirds", "name": "Anna"}).encode(),
                                         {"Content-Type": "application/json"})
        table = json.load(urllib.request.urlopen(request, timeout=10))
        revision = 0  # a new table in the lobby
        path = f"/t/{table['id']}/sync?rev={revision}&phase=lobby&hold=1"

        async def scenario() -> tuple[list, float]:
            polls = await hold_polls(port, path, HELD_POLLS)
            await asyncio.sleep(3)  # every poll arrived and is held (holds last 20 s)
            early = [p.result() if not p.exception() else p.exception() for p in polls if p.done()]
            assert early == [], f"{len(early)} polls were answered before the signal: {early[:3]}"
            started = time.monotonic()
            for _ in range(signals):
                os.killpg(server.pid, signal.SIGTERM)
                await asyncio.sleep(0.2)
            try:
                answers = await asyncio.wait_for(asyncio.gather(*polls, return_exceptions=True), STOPPED_WITHIN)
            except TimeoutError:
                pytest.fail(f"held polls unanswered {STOPPED_WITHIN} s after the signal: {server_log(tmp_path)}")
            return answers, time.monotonic() - started

        # In a thread of its own: a browser test before it in this process leaves
        # Playwright's event loop running in the main thread, where asyncio.run refuses.
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as runner:
            answers, seconds = runner.submit(asyncio.run, scenario()).result()
        assert [a for a in answers if not (isinstance(a, bytes) and a.startswith(b"HTTP/1.1 204"))] == [], answers[:3]
        try:
            server.wait(timeout=STOPPED_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server did not stop: {server_log(tmp_path)}")
        print(f"\n{HELD_POLLS} held polls answered in {seconds:.2f} s after {signals} group SIGTERM(s)")
    finally:
        if server.poll() is None:  # the test failed: its report shows the server's log (captured output)
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
            print(server_log(tmp_path))
        log.close()


def server_log(tmp_path) -> str:
    return (tmp_path / "gunicorn.log").read_text()[-3000:]
