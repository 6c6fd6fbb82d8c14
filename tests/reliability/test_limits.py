"""The rate limits on creating and joining tables hold for the whole server, not per
worker: ``gunicorn -w 2`` on PostgreSQL with the limits counted in Redis (127.0.0.1:6379,
a key prefix of its own per test). gunicorn's access log names the worker (pid) that
answered each request, so the test sees both workers serving while the limit holds
over their sum. With each worker counting in memory, the same requests get through
up to twice the limit (the test would fail).

Runs under ``./kt test-postgres`` (once; the PostgreSQL stage); the run command's
choice of a storage is checked in-process.
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

import webapp.__main__ as run_command
from webapp import create_app, extensions, migrate_database
from webapp.hosting import gunicorn_subprocess
from webapp.tables import CREATE_LIMIT, JOIN_LIMIT

REPO = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379"
ACCESS = re.compile(r"^kt-access <(\d+)> (\d{3}) (POST) (\S+)$", re.M)


def _limit(text: str) -> int:
    return int(text.split()[0])


def _redis_or_skip() -> None:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("KT_REQUIRE_POSTGRES") == "1":  # CI: the machine's services are there
            pytest.fail(f"Redis at {REDIS_URL} is not reachable ({error})")
        pytest.skip(f"Redis at {REDIS_URL} is not reachable ({error})")


def _post(port: int, path: str, body: dict) -> int:
    """One POST on a connection of its own (so either worker may take it)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Connection": "close"})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.postgres
def test_creating_and_joining_are_limited_for_the_whole_server_across_two_workers(postgres_url, tmp_path):
    if os.environ.get("KT_TEST_DB") != "postgres":
        pytest.skip("runs once, under ./kt test-postgres")
    _redis_or_skip()
    app = create_app({"SQLALCHEMY_DATABASE_URI": postgres_url, "SECRET_KEY": "limits-test"})
    migrate_database(app)
    with app.app_context():
        extensions.db.engine.dispose()
    prefix = f"kt-test-{uuid.uuid4().hex}"
    env = {**os.environ, "DATABASE_URL": postgres_url, "SECRET_KEY": "limits-test", "KT_RATELIMIT_ENABLED": "true",
           "KT_RATELIMIT_STORAGE_URI": REDIS_URL, "KT_RATELIMIT_KEY_PREFIX": prefix,
           "GUNICORN_CMD_ARGS": "--access-logfile - --access-logformat 'kt-access %(p)s %(s)s %(m)s %(U)s'"}
    port = _free_port()
    log_path = tmp_path / "gunicorn.log"
    created, joins = _limit(CREATE_LIMIT), _limit(JOIN_LIMIT)
    try:
        with open(log_path, "wb") as log, gunicorn_subprocess("wsgi:app", port, env, log, workers=2, threads=4,
                                                             cwd=REPO) as server:
            _wait_for(port, server)
            with ThreadPoolExecutor(8) as pool:
                creations = list(pool.map(lambda n: _post(port, "/api/tables", {"game": "gleich-und-gleich",
                                                                                 "name": f"P{n}"}),
                                          range(created + 20)))
            assert creations.count(201) == created and creations.count(429) == 20, sorted(creations)
            table = _first_table(postgres_url)
            with ThreadPoolExecutor(8) as pool:
                joined = list(pool.map(lambda n: _post(port, f"/api/tables/{table[0]}/seats",
                                                       {"join_code": table[1], "name": f"J{n}"}),
                                       range(joins + 20)))
            # A full table refuses a join (4xx) and still counts: only the 20 past the limit are 429.
            assert joined.count(429) == 20 and joined.count(201) >= 1, sorted(joined)
        served = ACCESS.findall(log_path.read_text(errors="replace"))
    finally:
        keys = redis.Redis.from_url(REDIS_URL)
        for key in keys.scan_iter(f"{prefix}*"):
            keys.delete(key)
    workers = {pid for pid, _status, _method, _path in served}
    assert len(workers) == 2, f"the requests were served by {len(workers)} worker(s): {served[:5]}"
    answered_201 = [pid for pid, status, _m, path in served if path == "/api/tables" and status == "201"]
    assert len(answered_201) == created


def _wait_for(port: int, server: subprocess.Popen) -> None:
    import time
    import urllib.request

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, "gunicorn exited"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("gunicorn did not answer")


def _first_table(database_url: str) -> tuple[str, str]:
    import sqlalchemy as sa

    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            return tuple(connection.execute(sa.text("SELECT id, join_code FROM tables LIMIT 1")).one())
    finally:
        engine.dispose()


def test_the_run_command_shares_the_limits_of_several_workers_in_redis(monkeypatch, capsys):
    _redis_or_skip()
    monkeypatch.setattr(run_command, "upgrade_database", lambda: None)
    monkeypatch.setattr(run_command.os, "execv", lambda path, argv: None)
    monkeypatch.setattr(run_command.os, "environ", {})
    run_command.main(["--port", "9003", "--workers", "2"])
    assert run_command.os.environ["KT_RATELIMIT_STORAGE_URI"] == REDIS_URL
    assert f"gemeinsam gezählt in {REDIS_URL}" in capsys.readouterr().out


def test_without_redis_the_run_command_says_each_worker_counts_alone(monkeypatch, capsys):
    monkeypatch.setattr(extensions, "SHARED_LIMITS_REDIS", ("127.0.0.1", _free_port()))  # nobody listens
    monkeypatch.setattr(run_command, "upgrade_database", lambda: None)
    monkeypatch.setattr(run_command.os, "execv", lambda path, argv: None)
    monkeypatch.setattr(run_command.os, "environ", {})
    run_command.main(["--port", "9004", "--workers", "2"])
    assert "KT_RATELIMIT_STORAGE_URI" not in run_command.os.environ
    assert "jeder Prozess zählt die Ratenlimits für sich" in capsys.readouterr().out


def test_one_worker_counts_in_memory(monkeypatch, capsys):
    monkeypatch.setattr(run_command, "upgrade_database", lambda: None)
    monkeypatch.setattr(run_command.os, "execv", lambda path, argv: None)
    monkeypatch.setattr(run_command.os, "environ", {})
    run_command.main(["--port", "9005", "--workers", "1"])
    assert "KT_RATELIMIT_STORAGE_URI" not in run_command.os.environ
    assert "Ratenlimits" not in capsys.readouterr().out
