"""Backups of Kartentisch's database, and the way back (``./kt backup``, ``./kt restore``).

    python scripts/backup.py backup [FILE]     # while the server runs
    python scripts/backup.py restore FILE      # with the server stopped

The database is the one the server uses (``DATABASE_URL``, else SQLite in
``instance/``). Backups go to ``instance/backups/`` (or ``KT_BACKUP_DIR``) unless
FILE is given.

* SQLite: the online backup API (``sqlite3.Connection.backup``) copies the database
  in one step under a read transaction — a consistent copy while the workers go on
  writing (WAL). The copy is checked (``PRAGMA integrity_check``) and made a single
  self-contained file before it is kept.
* PostgreSQL: ``pg_dump --format=custom`` (one snapshot; the server keeps serving),
  checked by ``pg_restore --list``.

A restore first saves the database as it is (``before-restore-….``, so that the
restore itself can be undone), then replaces all of it by the backup in one
transaction: SQLite's backup API the other way round; on PostgreSQL the schema
``public`` is dropped and the backup's SQL applied by ``psql --single-transaction``.
It refuses while another process has the database open (a running server keeps
replayed games in memory that would no longer match). A backup of an older release
is upgraded by the next start, as any database is.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
BACKUPS = Path(os.environ.get("KT_BACKUP_DIR") or ROOT / "instance" / "backups")


class BackupError(Exception):
    """Why a backup or restore could not be done (said to the operator as it is)."""


def database_url() -> str:
    """The server's database, as ``create_app`` finds it."""
    sys.path.insert(0, str(ROOT))
    from webapp import _database_url  # (the app's own rule: DATABASE_URL, else SQLite in instance/)

    return _database_url(ROOT / "instance")


def _stamp() -> str:
    """UTC time to the microsecond: two backups never share a name."""
    return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")


def _sqlite_path(url: sa.URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError(f"{url} is no database file")
    return Path(url.database)


def _libpq(url: sa.URL) -> str:
    """The URL for pg_dump/psql (no SQLAlchemy driver in the scheme)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, check=True, capture_output=True, **kwargs)
    except FileNotFoundError:
        raise BackupError(f"{command[0]} is missing (Debian: apt-get install -y postgresql-client)") from None
    except subprocess.CalledProcessError as failed:
        raise BackupError(f"{command[0]} failed: {failed.stderr.decode(errors='replace').strip()}") from None


def backup(url: str, target: Path | None = None) -> Path:
    """A consistent copy of the database at ``url`` in ``target`` (made anew; never half written)."""
    url = sa.make_url(url)
    sqlite = url.get_backend_name() == "sqlite"
    if target is None:
        BACKUPS.mkdir(parents=True, exist_ok=True)
        target = BACKUPS / f"kartentisch-{_stamp()}.{'sqlite3' if sqlite else 'pgdump'}"
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        if sqlite:
            _sqlite_copy(_sqlite_path(url), partial, source_must_exist=True)
        else:
            _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}",
                  f"--dbname={_libpq(url)}"])
            _run(["pg_restore", "--list", str(partial)])
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _sqlite_copy(source: Path, target: Path, source_must_exist: bool) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, checked, without a WAL."""
    if source_must_exist and not source.is_file():
        raise BackupError(f"there is no database at {source}")
    reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    writing = sqlite3.connect(target)
    try:
        reading.backup(writing)  # all pages in one step: one consistent snapshot
        writing.execute("PRAGMA journal_mode=DELETE")
        _check_sqlite(writing, target)
    finally:
        writing.close()
        reading.close()


def _check_sqlite(connection: sqlite3.Connection, path: Path) -> None:
    try:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{path} is no SQLite database ({err})") from None
    if verdict != "ok":
        raise BackupError(f"{path} is damaged: {verdict}")
    if not {"tables", "seats", "events", "alembic_version"} <= names:
        raise BackupError(f"{path} holds no Kartentisch database (tables: {', '.join(sorted(names)) or 'none'})")


def restore(url: str, source: Path) -> Path:
    """Replace the database at ``url`` by the backup ``source``; return the safety copy of what was there."""
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    parsed = sa.make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite:
        checked = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            _check_sqlite(checked, source)
        finally:
            checked.close()
    else:
        try:
            _run(["pg_restore", "--list", str(source)])
        except BackupError as err:
            raise BackupError(f"{source} is no backup of a PostgreSQL database ({err})") from None
    _refuse_while_in_use(parsed)
    BACKUPS.mkdir(parents=True, exist_ok=True)
    safety = BACKUPS / f"before-restore-{_stamp()}.{'sqlite3' if sqlite else 'pgdump'}"
    if sqlite and not _sqlite_path(parsed).exists():
        safety = None  # nothing to keep
    else:
        backup(url, safety)
    if sqlite:
        reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        writing = sqlite3.connect(_sqlite_path(parsed))
        try:
            reading.backup(writing)  # page by page, one transaction: all of it or nothing
        finally:
            writing.close()
            reading.close()
    else:
        script = _run(["pg_restore", "--no-owner", "--no-privileges", "--file=-", str(source)]).stdout
        _run(["psql", "-X", "--quiet", "--single-transaction", "-v", "ON_ERROR_STOP=1", f"--dbname={_libpq(parsed)}"],
             input=b"DROP SCHEMA public CASCADE; CREATE SCHEMA public;\n" + script)
    return safety


def _refuse_while_in_use(url: sa.URL) -> None:
    """A server holding the database would go on with games replayed from the old one."""
    if url.get_backend_name() == "sqlite":
        path = _sqlite_path(url).resolve()
        holders = sorted(pid for pid, opened in _open_files() if opened in (path, Path(f"{path}-wal")))
        if holders:
            raise BackupError(f"the database {path} is open in process(es) {', '.join(map(str, holders))}: "
                              "stop the server first")
        return
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            others = connection.execute(sa.text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()")).scalar_one()
    finally:
        engine.dispose()
    if others:
        raise BackupError(f"{others} other connection(s) to the database {url.database}: stop the server first")


def _open_files():
    """(pid, path) of every file open in a process of this machine that we may look at."""
    for process in Path("/proc").glob("[0-9]*"):
        if int(process.name) == os.getpid():
            continue
        try:
            for fd in (process / "fd").iterdir():
                yield int(process.name), Path(os.readlink(fd))
        except OSError:
            continue  # gone, or not ours to see


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./kt", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("backup", help="a consistent copy while the server runs")
    made.add_argument("file", nargs="?", type=Path, help="where (default: instance/backups/kartentisch-<time>.…)")
    back = commands.add_parser("restore", help="replace the database by a backup (server stopped)")
    back.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    url = database_url()
    shown = sa.make_url(url).render_as_string(hide_password=True)
    try:
        if args.command == "backup":
            print(f"Backup of {shown}: {backup(url, args.file)}")
        else:
            safety = restore(url, args.file)
            print(f"Restored {shown} from {args.file}" + (f"; what was there is in {safety}" if safety else ""))
            print("Start the server again: it upgrades the schema if the backup is older.")
    except BackupError as err:
        print(f"kt: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
