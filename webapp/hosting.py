"""Serving on the local network: the addresses phones can reach, a QR code of the
start page for the terminal, the gunicorn command line, and a worker's garbage collection."""
from __future__ import annotations

import contextlib
import gc
import io
import ipaddress
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import IO, Iterator

import qrcode

# Connecting a UDP socket sends nothing; it only asks the kernel which local
# address would carry traffic towards this (private, unroutable) address.
_ROUTE_PROBE = ("10.255.255.255", 1)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices may reach (not loopback
    or link-local), the one on the default route first."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_ROUTE_PROBE)
            found.append(probe.getsockname()[0])
        except OSError:
            pass  # no route at all: rely on the host name below
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found.extend(info[4][0] for info in infos)
    return [a for a in dict.fromkeys(found) if _reachable_from_lan(a)]


def _reachable_from_lan(address: str) -> bool:
    ip = ipaddress.IPv4Address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def start_urls(host: str, port: int, scheme: str = "http") -> list[str]:
    """The start page's URLs for a server bound to ``host``:``port``.

    Bound to all interfaces (``0.0.0.0``), one URL per LAN address; when the
    machine has none, the local one (which phones can't reach).
    """
    if host in ("0.0.0.0", ""):
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"{scheme}://{h}:{port}/" for h in hosts]


def terminal_qr(text: str) -> str:
    """``text`` as a QR code of block characters, for a terminal with light text
    on a dark background (the blocks draw the light modules)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def banner(urls: list[str]) -> str:
    """What the run command prints: where to open Kartentisch, and the QR code."""
    lines = ["", "Kartentisch läuft. Mit dem Handy im selben WLAN öffnen:", ""]
    lines += [f"    {url}" for url in urls]
    if urls and urls[0].split("://", 1)[1].startswith("127."):
        lines += ["", "(Kein Netzwerk gefunden: nur auf diesem Rechner erreichbar.)"]
    lines += ["", terminal_qr(urls[0])]
    return "\n".join(lines)


WORKERS = 2
# Threads per worker: each phone holds one sync poll open (a thread) until its table
# changes, so a worker needs about as many threads as the phones it serves; threads are
# started as needed. HOLD_RESERVE of them never hold a poll: they serve entries and pages.
THREADS = 800
HOLD_RESERVE = 16


def serving(database_url: str) -> tuple[int, int]:
    """Workers and threads for a database. SQLite: one process, which sees every commit
    itself (other processes would learn of one only by asking the database again and
    again); PostgreSQL: WORKERS processes, which its NOTIFY tells of every commit."""
    if database_url.startswith("sqlite"):
        return 1, WORKERS * THREADS
    return WORKERS, THREADS


def worker_connections(threads: int) -> int:
    """Connections a worker accepts: every thread busy and as many more idle between two
    polls. gunicorn's default (1,000) is below the threads: a worker then keeps no
    connection alive and stops accepting at 1,000 phones, while its threads idle and the
    further phones wait unanswered in the listen backlog until their polls time out."""
    return 2 * threads


def gunicorn_command(app: str, bind: str, workers: int = WORKERS, threads: int = THREADS) -> list[str]:
    """The gunicorn command line (gthread workers) for ``app`` (e.g. ``wsgi:app``). No
    control socket: nothing here uses ``gunicornc``, and every gunicorn of a user shares
    its one default path (~/.gunicorn/gunicorn.ctl), so servers started side by side
    (tests, benchmarks, a second table server) would take it from each other."""
    return [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--threads", str(threads),
            "--worker-connections", str(worker_connections(threads)), "--no-control-socket", "--bind", bind, app]


# CPython collects its youngest objects after 700 allocations; in a worker with hundreds of
# requests in flight, whatever they hold at that moment survives into the older generations,
# which then fill up and are collected in full (≈ 70 ms each at 100 tables, ten in 30 s).
YOUNG_COLLECTION_AFTER = 20_000  # allocations
OLDER_COLLECTION_AFTER = 20  # collections of the generation below


def tune_garbage_collection() -> None:
    """In a worker, once the app is loaded: what exists now (modules, the app, its
    extensions) lives as long as the process, so no collection looks at it again
    (``gc.freeze``); the younger generations are collected less often, so that a
    request's objects are mostly freed before a collection could promote them."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, OLDER_COLLECTION_AFTER, OLDER_COLLECTION_AFTER)


def sync_holds(threads: int) -> str:
    """``KT_SYNC_HOLDS`` for a worker with ``threads`` threads: held polls never take the last ones."""
    return str(max(0, threads - HOLD_RESERVE))


@contextlib.contextmanager
def gunicorn_subprocess(app: str, port: int, env: dict, output: IO | int,
                        workers: int = WORKERS, threads: int = THREADS,
                        cwd: Path | None = None) -> Iterator[subprocess.Popen]:
    """``gunicorn`` serving ``app`` (e.g. ``wsgi:app``) on 127.0.0.1:``port`` as a
    child process (for tests and benchmarks); stopped on exit, or else killed with its
    workers (in a session of its own: a worker must not outlive a master killed before
    its graceful timeout, and go on taking CPU from whatever runs next)."""
    process = subprocess.Popen(
        gunicorn_command(app, f"127.0.0.1:{port}", workers, threads),
        cwd=cwd, env={"KT_SYNC_HOLDS": sync_holds(threads)} | env, stdout=output, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
