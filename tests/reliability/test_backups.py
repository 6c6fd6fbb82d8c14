"""Backups (scripts/backup.py, behind ``./kt backup`` and ``./kt restore``): a copy
taken while phones enter is consistent, and a restore brings back every table and
game as the copy held them; the database it replaced is kept, so the restore can be
undone; it refuses to restore under a running server.

On SQLite under ``./kt test``; on a throwaway PostgreSQL database (pg_dump, psql)
under ``./kt test-postgres``. The commands run as they do for an operator: the
script in a subprocess, the database named by ``DATABASE_URL``.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
from pathlib import Path

import flask_migrate
import pytest
import sqlalchemy as sa

from engine.randomplay import random_record
from webapp import MIGRATIONS, create_app
from webapp.extensions import db

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "backup.py"
GAMES = [("gleich-und-gleich", {}, 3), ("cubirds", {}, 2), ("cubirds", {"solo": True}, 2), ("gemeinsame-sache", {}, 2)]


@pytest.fixture
def database_url(request, tmp_path) -> str:
    if os.environ.get("KT_TEST_DB") == "postgres":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp_path / 'kartentisch.sqlite3'}"


@pytest.fixture
def kt(monkeypatch, capsys, tmp_path):
    """``kt("backup"|"restore", …, url=…)``: the script behind ``./kt backup|restore``
    on ``url`` (its files in ``tmp_path/backups``), as (exit code, output, errors);
    ``apart=True`` runs it in a process of its own, as an operator does."""
    spec = importlib.util.spec_from_file_location("kt_backup", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    backups = tmp_path / "backups"
    monkeypatch.setattr(script, "BACKUPS", backups)

    def run(command: str, *args, url: str, apart: bool = False) -> tuple[int, str, str]:
        if apart:
            done = subprocess.run([sys.executable, str(SCRIPT), command, *map(str, args)], capture_output=True,
                                  text=True, timeout=300, env={**os.environ, "DATABASE_URL": url,
                                                               "KT_BACKUP_DIR": str(backups)})
            return done.returncode, done.stdout, done.stderr
        monkeypatch.setenv("DATABASE_URL", url)
        code = script.main([command, *map(str, args)])
        said = capsys.readouterr()
        return code, said.out, said.err

    run.backups = backups
    return run


def rows(url: str) -> dict[str, list[tuple]]:
    """Every row of every table Kartentisch keeps (but the timestamps' spelling), in order."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            names = sorted(sa.inspect(connection).get_table_names())
            return {name: [tuple(map(str, row)) for row in connection.execute(sa.text(f"SELECT * FROM {name} ORDER BY 1"))]
                    for name in names}
    finally:
        engine.dispose()


def open_app(url: str):
    """The app on ``url``, its schema upgraded (as the run command does before serving)."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "backup",
                      "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False})
    with app.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS))
    return app


def close_app(app) -> None:
    with app.app_context():
        db.engine.dispose()


def records(client, tables: dict[str, str]) -> dict[str, dict]:
    return {table_id: client.get(f"/api/tables/{table_id}/record", headers={"Authorization": f"Bearer {token}"}).json
            for table_id, token in tables.items()}


def test_a_backup_taken_while_phones_enter_restores_every_table_and_game(database_url, tmp_path, kt):
    from webapp import store

    app = open_app(database_url)
    client = app.test_client()
    tables, upcoming = {}, {}
    for seed, (game, options, players) in enumerate(GAMES * 2):
        record = random_record(game, options, players, seed)
        head = dict(record, events=record["events"][:10])
        made = client.post("/api/tables", json={"record": head}).json
        tables[made["id"]], upcoming[made["id"]] = made["token"], record["events"][10:]
    lobby = client.post("/api/tables", json={"game": "cubirds", "name": "Anna"}).json

    entering, entered = threading.Event(), []

    def phones():  # entries at every table, one after another, until told to stop
        phone = app.test_client()
        step = 0
        while not entering.is_set():
            for table_id, token in tables.items():
                version = 10 + step
                if step < len(upcoming[table_id]):
                    answer = phone.post(f"/api/tables/{table_id}/events", headers={"Authorization": f"Bearer {token}"},
                                        json={"event": upcoming[table_id][step], "version": version})
                    assert answer.status_code == 200, answer.json
                    entered.append((table_id, version + 1))
            step += 1

    writer = threading.Thread(target=phones)
    writer.start()
    while len(entered) < 20:
        threading.Event().wait(0.01)
    acknowledged = len(entered)
    made = kt("backup", tmp_path / "copy", url=database_url, apart=True)  # (a process of its own: the phones go on)
    during = len(entered) - acknowledged
    entering.set()
    writer.join()
    assert made[0] == 0, made
    copy = tmp_path / "copy"
    assert copy.is_file() and not list(tmp_path.glob("*.partial"))

    at_the_end = records(client, tables)
    close_app(app)
    assert during > 0 or acknowledged, "the phones entered nothing while the backup ran"

    assert kt("restore", copy, url=database_url)[0] == 0  # (the app is closed: nothing holds the database)
    store.clear_cache()  # (a restarted server replays from the rows)
    restored = open_app(database_url)
    client = restored.test_client()
    back = records(client, tables)
    for table_id, record in back.items():
        assert record["events"] == at_the_end[table_id]["events"][:len(record["events"])], "not a prefix"
        assert len(record["events"]) >= 10
    first_acknowledged = {}
    for table_id, version in entered[:acknowledged]:
        first_acknowledged[table_id] = version
    for table_id, version in first_acknowledged.items():  # acknowledged before the backup began: in it
        assert len(back[table_id]["events"]) >= version, (table_id, version)
    lobby_seats = client.get(f"/api/tables/{lobby['id']}", headers={"Authorization": f"Bearer {lobby['token']}"}).json
    assert lobby_seats["status"] == "lobby" and [s["name"] for s in lobby_seats["seats"]] == ["Anna"]
    close_app(restored)

    # the copy again, exactly: after more entries, a restore brings the copy's rows back
    copied = rows(database_url)
    after = open_app(database_url)
    more = after.test_client()
    table_id, token = next(iter(tables.items()))
    version = len(back[table_id]["events"])
    assert more.post(f"/api/tables/{table_id}/undo", headers={"Authorization": f"Bearer {token}"},
                     json={"version": version}).status_code == 200
    more.post("/api/tables", json={"game": "gleich-und-gleich", "name": "Neu"})
    changed = rows(database_url)
    assert changed != copied

    busy = kt("restore", copy, url=database_url, apart=True)  # this process (the server) holds the database
    assert busy[0] == 1 and "stop the server first" in busy[2], busy
    assert rows(database_url) == changed
    close_app(after)

    code, said, _ = kt("restore", copy, url=database_url)
    assert code == 0 and rows(database_url) == copied
    safety = sorted(kt.backups.glob("before-restore-*"))[-1]
    assert f"what was there is in {safety}" in said
    assert kt("restore", safety, url=database_url)[0] == 0  # and the way back again
    assert rows(database_url) == changed


def test_what_is_no_backup_is_refused_and_changes_nothing(database_url, tmp_path, kt):
    app = open_app(database_url)
    app.test_client().post("/api/tables", json={"game": "cubirds", "name": "Anna"})
    close_app(app)
    before = rows(database_url)
    for name, content in [("empty", b""), ("text", b"not a backup"), ("json", b'{"tables": []}')]:
        (tmp_path / name).write_bytes(content)
        code, _, said = kt("restore", tmp_path / name, url=database_url)
        assert code == 1 and said.startswith("kt: ") and name in said, said
    code, _, said = kt("restore", tmp_path / "nowhere", url=database_url)
    assert code == 1 and "there is no backup at" in said
    assert rows(database_url) == before
    assert not kt.backups.exists() or not list(kt.backups.iterdir())  # nothing saved, nothing replaced
