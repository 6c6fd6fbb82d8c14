"""Servers for one load point on 127.0.0.1: gunicorn serving the app (``bench.wsgi``)
of this tree or of an earlier commit (the "before"), on a throwaway database; or
the zero-work floor (``bench.floor``) with the same gunicorn settings."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import contextlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from webapp.hosting import gunicorn_subprocess, serving

from .bare import BARE_PATH

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_ADMIN = os.environ.get("KT_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


@dataclass
class Server:
    url: str
    database: str
    process: subprocess.Popen
    workers: int

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
def gunicorn(kind: str, log: Path | None = None, commit: str | None = None):
    """gunicorn (as ``python -m webapp`` starts it) with the bench app on a free loopback
    port; the app of ``commit`` (a git revision) instead of this tree's, if given."""
    with database(kind) as url, tree_of(commit) as tree:
        env = os.environ | {"DATABASE_URL": url, "RATELIMIT_ENABLED": "false", "KT_RATELIMIT_ENABLED": "false",
                            "SECRET_KEY": "bench-" + uuid.uuid4().hex}
        if (tree / "migrations" / "env.py").exists():  # (an app that migrates itself finds nothing to do)
            subprocess.run([sys.executable, "-m", "flask", "--app", "webapp", "db", "upgrade"], cwd=tree, env=env,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with _served("bench.wsgi:app", kind, env, log, tree) as server:
            yield server


@contextmanager
def floor(kind: str, log: Path | None = None):
    """The zero-work floor (``bench.floor``) with the gunicorn settings of the app on ``kind``."""
    with tempfile.TemporaryDirectory(prefix="kt-floor-") as peers:
        with _served("bench.floor:app", kind, os.environ | {"KT_FLOOR_PEERS": peers}, log, ROOT) as server:
            yield server


@contextmanager
def _served(app: str, kind: str, env: dict, log: Path | None, tree: Path):
    """``app`` served as ``python -m webapp`` serves the database ``kind`` (workers, threads)."""
    port = _free_port()
    workers, threads = serving("sqlite" if kind == "sqlite" else "postgresql")
    with (open(log, "ab") if log else contextlib.nullcontext(subprocess.DEVNULL)) as out, \
            gunicorn_subprocess(app, port, env, out, workers, threads, cwd=tree) as process:
        server = Server(f"http://127.0.0.1:{port}", kind, process, workers)
        _wait_until_up(server)
        yield server


@contextmanager
def tree_of(commit: str | None):
    """This tree, or ``commit``'s files unpacked into a temporary folder."""
    if commit is None:
        yield ROOT
        return
    with tempfile.TemporaryDirectory(prefix="kt-before-") as folder:
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        yield Path(folder)


def _wait_until_up(server: Server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with code {server.process.returncode}")
        try:
            with urllib.request.urlopen(server.url + BARE_PATH, timeout=2) as answer:
                if answer.status == 200 and len(_children(server.process.pid)) >= server.workers:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer at {server.url} within {timeout} s")
