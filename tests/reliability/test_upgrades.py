"""Upgrades keep every game: a database made by the first migration (``6c10b3ac45bc``)
and filled as the first release filled it is upgraded to the newest schema, one
migration at a time, then served by today's app.

The rows come from ``data/first_schema_games.json``, written by that release's own
app through its API (``scripts/first_schema_games.py``): finished games of all three
games with undos, games in the middle, a lobby, an imported record. After the upgrade
every table must replay to the game the old app showed (the same events in force,
every field of its state as it was), its seats must still hold their tokens, a lost
answer asked again must get its stored answer, and the tables must go on: an undo,
a rematch, a join and a start. Whatever migrations are added later, the walk goes
through all of them (a single head). On SQLite under ``./kt test``; on a throwaway
PostgreSQL database under ``./kt test-postgres``.
"""
from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory
from flask import Flask
from flask_sqlalchemy import SQLAlchemy

from webapp import MIGRATIONS, create_app

FIRST = "6c10b3ac45bc"
GAMES = json.loads((Path(__file__).parent / "data" / "first_schema_games.json").read_text())
JSON_COLUMNS = {"options", "players", "event", "effect", "answer"}


@pytest.fixture
def upgrade_database_url(request, tmp_path) -> str:
    if os.environ.get("KT_TEST_DB") == "postgres":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp_path / 'upgrade.sqlite3'}"


def revisions() -> list[str]:
    """Every migration from the first to the newest, in order (there must be one head)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    assert len(script.get_heads()) == 1, f"the migrations have several heads: {script.get_heads()}"
    walk = [revision.revision for revision in script.walk_revisions("base", "heads")][::-1]
    assert walk[0] == FIRST
    return walk


def migrate_to(url: str, revision: str) -> None:
    """``flask db upgrade REVISION`` on ``url`` (an app with nothing but Flask-Migrate)."""
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    db = SQLAlchemy(app)
    flask_migrate.Migrate(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision=revision)
        db.engine.dispose()


def fill_as_the_first_release(engine: sa.Engine) -> None:
    """The old app's rows, into the tables as the first migration made them."""
    schema = sa.MetaData()
    schema.reflect(engine, only=["tables", "seats", "events"])
    with engine.begin() as connection:
        for name in ("tables", "seats", "events"):
            rows = GAMES["rows"][name]
            connection.execute(schema.tables[name].insert(), [
                {column: _value(column, value) for column, value in zip(rows["columns"], values)}
                for values in rows["values"]])
        if engine.dialect.name == "postgresql":  # the old app's ids came from its own sequences
            for name in ("seats", "events"):
                connection.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                           f"(SELECT max(id) FROM {name}))"))


def _value(column: str, value):
    if column.endswith("_at"):
        stamp = datetime.fromisoformat(value)
        return stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)
    return value


def old_rows(engine: sa.Engine) -> dict[str, list[tuple]]:
    """The first schema's columns of every row, as they are in the database now."""
    found = {}
    with engine.connect() as connection:
        for name in ("tables", "seats", "events"):
            columns = [c for c in GAMES["rows"][name]["columns"] if not c.endswith("_at")]
            rows = connection.execute(sa.text(f"SELECT {', '.join(columns)} FROM {name} ORDER BY id"))
            found[name] = [tuple(json.loads(v) if c in JSON_COLUMNS and isinstance(v, str) else v
                                 for c, v in zip(columns, row)) for row in rows]
    return found


def test_a_database_of_the_first_release_upgrades_with_every_game_intact(upgrade_database_url):
    walk = revisions()
    migrate_to(upgrade_database_url, FIRST)
    engine = sa.create_engine(upgrade_database_url)
    fill_as_the_first_release(engine)
    before = old_rows(engine)
    for revision in walk[1:]:
        migrate_to(upgrade_database_url, revision)
        assert old_rows(engine) == before, f"migration {revision} changed the rows of the first release"

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": upgrade_database_url, "SECRET_KEY": "upgrade",
                      "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False})  # the server, restarted
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == walk[-1]
    client = app.test_client()
    for table_id, answers in GAMES["answers"].items():
        token = GAMES["tokens"][table_id][0]
        auth = {"Authorization": f"Bearer {token}"}
        if answers is None:
            continue
        record = client.get(f"/api/tables/{table_id}/record", headers=auth).json
        old = answers["record"]
        assert (record["game"], record["players"], record["events"]) == (old["game"], old["players"], old["events"])
        assert all(record["options"][name] == value for name, value in old["options"].items())
        state = client.get(f"/api/tables/{table_id}/state", headers=auth).json
        assert state["version"] == answers["state"]["version"]
        changed = {k: v for k, v in answers["state"]["state"].items() if state["state"].get(k) != v}
        assert not changed, f"{old['game']} at {table_id}: the upgrade changed {sorted(changed)}"
        phone = app.test_client()
        assert phone.get(f"/t/{table_id}/s/{token}").status_code == 302
        assert phone.get(f"/t/{table_id}").status_code == 200  # its log worded from the old effects

    _stored_answers_still_answer_retries(client)
    _the_tables_go_on(app, client)
    engine.dispose()
    with app.app_context():
        from webapp.extensions import db
        db.engine.dispose()


def _stored_answers_still_answer_retries(client) -> None:
    """The last entry of each table kept its answer: sent again, the very same answer comes back."""
    rows = GAMES["rows"]["events"]
    for values in rows["values"]:
        row = dict(zip(rows["columns"], values))
        if row["answer"] is None:
            continue
        token = GAMES["tokens"][row["table_id"]][0]
        route, body = ("events", {"event": row["event"]}) if row["kind"] == "event" else ("undo", {})
        again = client.post(f"/api/tables/{row['table_id']}/{route}", headers={"Authorization": f"Bearer {token}"},
                            json={**body, "version": row["seq"] - 1, "key": row["key"]})
        assert again.status_code == 200 and again.json == row["answer"], again.json


def _the_tables_go_on(app, client) -> None:
    """An undo at every game, a rematch of a finished one, a join and a start in the lobby."""
    for table_id, answers in GAMES["answers"].items():
        auth = {"Authorization": f"Bearer {GAMES['tokens'][table_id][0]}"}
        if answers is None:  # the lobby
            lobby = client.get(f"/api/tables/{table_id}", headers=auth).json
            joined = client.post(f"/api/tables/{table_id}/seats", json={"join_code": lobby["join_code"], "name": "Neu"})
            assert joined.status_code == 201, joined.json
            assert client.post(f"/api/tables/{table_id}/start", headers=auth).status_code == 200
            continue
        version = answers["state"]["version"]
        undone = client.post(f"/api/tables/{table_id}/undo", headers=auth, json={"version": version})
        assert undone.status_code == 200 and undone.json["version"] == version + 1, undone.json
    finished = next(table_id for table_id, answers in GAMES["answers"].items()
                    if answers and answers["state"]["state"]["awaiting"] is None)
    answers, token = GAMES["answers"][finished], GAMES["tokens"][finished][0]
    over_again = client.post(f"/api/tables/{finished}/events", headers={"Authorization": f"Bearer {token}"},
                             json={"event": answers["record"]["events"][-1], "version": answers["state"]["version"] + 1})
    assert over_again.status_code == 200 and over_again.json["state"]["awaiting"] is None, over_again.json
    phone = app.test_client()
    phone.get(f"/t/{finished}/s/{token}")
    rematch = phone.post(f"/t/{finished}/rematch", data={})
    assert rematch.status_code == 303, rematch.get_data(as_text=True)[:300]
    assert phone.get(urlsplit(rematch.headers["Location"]).path).status_code == 200
