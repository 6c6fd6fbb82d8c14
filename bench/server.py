"""A throwaway database and gunicorn serving ``bench.wsgi`` on 127.0.0.1, for one run."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid
import contextlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from webapp.hosting import THREADS, WORKERS, gunicorn_subprocess

from .bare import BARE_PATH

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_ADMIN = os.environ.get("KT_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


@dataclass
class Server:
    url: str
    database: str
    process: subprocess.Popen

    def cpu_seconds(self) -> float:
        """User + system CPU of gunicorn's master and workers so far."""
        pids = [self.process.pid] + _children(self.process.pid)
        return sum(_cpu_of(pid) for pid in pids)


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def database(kind: str):
    """A fresh, empty database URL of ``kind`` (sqlite or postgres), removed afterwards."""
    if kind == "sqlite":
        directory = tempfile.mkdtemp(prefix="kt-bench-")
        try:
            yield f"sqlite:///{directory}/bench.sqlite3"
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    if kind != "postgres":
        raise ValueError(f"database kind must be 'sqlite' or 'postgres', not {kind!r}")
    name = f"kt_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def gunicorn(kind: str, log: Path | None = None):
    """gunicorn (as ``python -m webapp`` starts it) with the bench app on a free loopback port."""
    with database(kind) as url:
        port = _free_port()
        env = os.environ | {"DATABASE_URL": url, "RATELIMIT_ENABLED": "false",
                            "SECRET_KEY": "bench-" + uuid.uuid4().hex}
        with (open(log, "ab") if log else contextlib.nullcontext(subprocess.DEVNULL)) as out, \
                gunicorn_subprocess("bench.wsgi:app", port, env, out, WORKERS, THREADS, cwd=ROOT) as process:
            server = Server(f"http://127.0.0.1:{port}", kind, process)
            _wait_until_up(server)
            yield server


def _wait_until_up(server: Server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with code {server.process.returncode}")
        try:
            with urllib.request.urlopen(server.url + BARE_PATH, timeout=2) as answer:
                if answer.status == 200 and len(_children(server.process.pid)) >= WORKERS:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer at {server.url} within {timeout} s")
