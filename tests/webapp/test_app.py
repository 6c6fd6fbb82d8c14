"""The app factory: config, migrations, secret key, language, error pages."""
from __future__ import annotations

import sqlalchemy as sa

import pytest

from webapp import _database_url, _secret_key, create_app
from webapp.extensions import db


def test_migrations_create_the_schema(app):
    with app.app_context():
        inspector = sa.inspect(db.engine)
        assert {"tables", "seats", "events", "alembic_version"} <= set(inspector.get_table_names())
        uniques = {tuple(u["column_names"]) for u in inspector.get_unique_constraints("events")}
        assert {("table_id", "seq"), ("table_id", "key")} <= uniques


def test_a_second_start_on_the_same_database_keeps_the_data(make_app, tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first = make_app(SQLALCHEMY_DATABASE_URI=url)
    made = first.test_client().post("/api/tables", json={"game": "cubirds", "name": "Anna"})
    second = make_app(SQLALCHEMY_DATABASE_URI=url)
    auth = {"Authorization": f"Bearer {made.json['token']}"}
    assert second.test_client().get(f"/api/tables/{made.json['id']}", headers=auth).json["seats"][0]["name"] == "Anna"


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    first = _secret_key(tmp_path)
    assert len(first) == 64 and _secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"}).secret_key == "from-env"


def test_settings_come_from_kt_variables(tmp_path, monkeypatch):
    monkeypatch.setenv("KT_SYNC_HOLDS", "784")
    monkeypatch.setenv("KT_LAN_URL", "http://192.168.1.23:8000")
    monkeypatch.setenv("KT_RATELIMIT_ENABLED", "false")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"})
    assert (app.config["SYNC_HOLDS"], app.config["LAN_URL"], app.config["RATELIMIT_ENABLED"]) == \
        (784, "http://192.168.1.23:8000", False)
    monkeypatch.setenv("KT_SYNC_HOLDS", "many")
    with pytest.raises(ValueError, match="KT_SYNC_HOLDS"):
        create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"})


def test_database_url_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert _database_url(tmp_path) == f"sqlite:///{tmp_path / 'kartentisch.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", "postgres://u@h/db")
    assert _database_url(tmp_path) == "postgresql+psycopg://u@h/db"


def test_german_by_default_english_by_choice_kept_in_a_cookie(client):
    assert '<html lang="de">' in client.get("/").text
    chosen = client.get("/?lang=en")
    assert '<html lang="en">' in chosen.text
    assert "lang=en" in chosen.headers["Set-Cookie"]
    assert '<html lang="en">' in client.get("/").text


def test_unknown_pages_and_api_routes_answer_cleanly(client):
    page = client.get("/t/nope")
    assert page.status_code == 404 and "Diesen Tisch gibt es nicht" in page.text
    api = client.get("/api/nothing")
    assert api.status_code == 404 and api.json["code"] == "http-404"


def test_csrf_guards_the_html_forms_but_not_the_api(make_app):
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    refused = client.post("/tables", data={"game": "cubirds", "name": "Anna"})
    assert refused.status_code == 400 and "veraltet" in refused.text
    assert client.post("/api/tables", json={"game": "cubirds", "name": "Anna"}).status_code == 201


def test_creating_tables_is_rate_limited(make_app):
    client = make_app(RATELIMIT_ENABLED=True).test_client()
    answers = [client.post("/api/tables", json={"game": "cubirds", "name": "Anna"}).status_code for _ in range(31)]
    assert answers[:30] == [201] * 30 and answers[30] == 429


def test_rate_limits_follow_each_apps_own_setting(make_app):
    limited = make_app(RATELIMIT_ENABLED=True).test_client()
    unlimited = make_app(RATELIMIT_ENABLED=False).test_client()
    limited_answers = [limited.post("/api/tables", json={"game": "cubirds", "name": "A"}).status_code for _ in range(31)]
    free_answers = [unlimited.post("/api/tables", json={"game": "cubirds", "name": "A"}).status_code for _ in range(31)]
    assert limited_answers[-1] == 429 and set(free_answers) == {201}


def test_the_app_loads_the_hyphenation_dictionaries_before_the_first_bird_screen(make_app, monkeypatch):
    """The first bird screen after a start must not wait seconds for pyphen's dictionaries:
    the factory starts loading them at once, without a request."""
    import threading

    from webapp.extensions import LANGUAGES
    from webapp.screens.birds import words

    monkeypatch.setattr(words, "_dictionaries", {})
    make_app()
    for loader in [thread for thread in threading.enumerate() if thread.name == "hyphenation"]:
        loader.join(timeout=60)
    assert set(words._dictionaries) == set(LANGUAGES)
