"""``python -m webapp``: serve Kartentisch on the local network with gunicorn.

Brings the database up to date (``flask db upgrade``), prints the LAN URL(s)
and a QR code of the start page, then replaces itself with gunicorn (several
workers, threads each; the app keeps no state in a process). The workers get
the first LAN URL as ``KT_LAN_URL`` (none when there is no LAN address),
``KT_SYNC_HOLDS`` from the threads, and, with several workers, a shared storage of
the rate limits (``KT_RATELIMIT_STORAGE_URI``; see ``_share_limits``).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

from . import ROOT, _database_url
from .extensions import shared_limits_storage
from .hosting import banner, gunicorn_command, serving, start_urls, sync_holds, worker_connections


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 1 and 65535, not {port}")
    return port


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number ≥ 1, not {text!r}")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m webapp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="0.0.0.0", help="address to bind (default: all, 0.0.0.0)")
    parser.add_argument("--port", type=_port, default=os.environ.get("PORT", "8000"),
                        help="port (default: $PORT or 8000)")
    workers, threads = serving(_database_url(ROOT / "instance"))
    parser.add_argument("--workers", type=_positive, default=workers,
                        help=f"gunicorn worker processes (default {workers}: 1 on SQLite, 2 on PostgreSQL)")
    parser.add_argument("--threads", type=_positive, default=threads,
                        help=f"threads per worker, about one per phone it serves (default {threads})")
    parser.add_argument("--certfile", type=Path, help="TLS certificate (PEM): serve HTTPS")
    parser.add_argument("--keyfile", type=Path, help="TLS private key (PEM) of --certfile")
    return parser


def _gunicorn_argv(args: argparse.Namespace) -> list[str]:
    *argv, app = gunicorn_command("wsgi:app", f"{args.host}:{args.port}", args.workers, args.threads)
    argv += ["--chdir", str(ROOT)]
    if args.certfile:
        argv += ["--certfile", str(args.certfile), "--keyfile", str(args.keyfile)]
    return argv + [app]


def upgrade_database() -> None:
    """``flask db upgrade``: the schema of the newest migration, once, before the workers start."""
    subprocess.run([sys.executable, "-m", "flask", "--app", "webapp", "db", "upgrade"], cwd=ROOT, check=True)


def _allow_open_files(needed: int) -> None:
    """Raise this process's (and so the workers') soft limit of open files to ``needed``,
    as far as the hard limit lets: each phone's connection is one (a soft limit of 1,024
    is common, which a worker would exceed)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _share_limits() -> str:
    """Several workers count the rate limits in one storage: KT_RATELIMIT_STORAGE_URI, else
    a Redis on this machine; without one, each worker counts for itself (said so)."""
    if os.environ.get("KT_RATELIMIT_STORAGE_URI", "memory://") != "memory://":
        return f"Ratenlimits: gemeinsam gezählt in {os.environ['KT_RATELIMIT_STORAGE_URI']}"
    storage = shared_limits_storage()
    if storage is None:
        return ("Achtung: kein Redis unter 127.0.0.1:6379 – jeder Prozess zählt die Ratenlimits für sich "
                "(KT_RATELIMIT_STORAGE_URI=redis://… setzen, oder --workers 1).")
    os.environ["KT_RATELIMIT_STORAGE_URI"] = storage
    return f"Ratenlimits: gemeinsam gezählt in {storage}"


def main(argv: list[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    if bool(args.certfile) != bool(args.keyfile):
        parser.error("--certfile and --keyfile go together")
    for path in (args.certfile, args.keyfile):
        if path and not path.is_file():
            parser.error(f"no such file: {path}")

    upgrade_database()
    scheme = "https" if args.certfile else "http"
    urls = start_urls(args.host, args.port, scheme)
    print(banner(urls), flush=True)
    lan = [url.rstrip("/") for url in urls if not url.split("://", 1)[1].startswith("127.")]
    if lan:
        os.environ["KT_LAN_URL"] = lan[0]
    else:
        os.environ.pop("KT_LAN_URL", None)
    os.environ.setdefault("KT_SYNC_HOLDS", sync_holds(args.threads))
    # glibc gives each of the hundreds of threads' allocations up to 8 arenas per core, and
    # memory freed in one is not reused by another: with two the workers' memory levels off.
    os.environ.setdefault("MALLOC_ARENA_MAX", "2")
    _allow_open_files(worker_connections(args.threads) + 256)
    if args.workers > 1:
        print(_share_limits(), flush=True)
    os.execv(sys.executable, _gunicorn_argv(args))


if __name__ == "__main__":
    main()
