"""Kartentisch's web app: ``create_app()`` builds it (flaskr style)."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

import flask_migrate
import sqlalchemy as sa
from filelock import FileLock
from flask import Flask, request

from .extensions import LANGUAGE_COOKIE, LANGUAGES, babel, compress, csrf, db, htmx, limiter, migrate, select_locale

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "migrations"


def _secret_key(instance: Path) -> str:
    """Generated once into ``instance/secret_key`` (several workers may start at once)."""
    path = instance / "secret_key"
    with FileLock(instance / ".secret_key.lock"):
        if not path.exists():
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
    return path.read_text().strip()


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL for concurrent readers; synchronous=FULL so that a committed entry
    survives even a power cut (our write rate is tiny, the cost is nil);
    a busy timeout so that writers queue instead of failing."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _database_url(instance: Path) -> str:
    """``DATABASE_URL`` (the conventional name), else SQLite in ``instance/``."""
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'kartentisch.sqlite3'}"
    if url.startswith("postgres://"):  # the Heroku-style spelling
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def create_app(test_config: dict | None = None) -> Flask:
    """The app: its defaults, then ``KT_*`` from the environment (``KT_SYNC_HOLDS=784``
    sets ``SYNC_HOLDS``, ``KT_RATELIMIT_ENABLED=false`` turns the limits off, the run
    command's ``KT_LAN_URL`` is ``LAN_URL``), then ``test_config``. The database's
    schema is the run command's job (``flask db upgrade``; ``migrate_database``)."""
    instance = ROOT / "instance"
    instance.mkdir(exist_ok=True)
    app = Flask("webapp", instance_path=str(instance), root_path=str(ROOT / "webapp"),
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        SQLALCHEMY_DATABASE_URI=_database_url(instance),
        LAN_URL=None,  # the run command's first LAN start URL (C9)
        RATELIMIT_ENABLED=True,
        # One process counts in memory; several share a storage (KT_RATELIMIT_STORAGE_URI,
        # e.g. redis://127.0.0.1:6379; the run command picks it for several workers). If
        # that storage fails, each process counts in memory until it is back (logged).
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        BABEL_DEFAULT_LOCALE="de",
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        SESSION_REFRESH_EACH_REQUEST=False,  # no new cookie on every sync poll (30 days from taking a seat)
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        # Sync polls held open until their table changes (sync.py): how many at once per
        # process (each takes a server thread; `python -m webapp` sets it from its
        # threads), for how long, and how often the database is asked whether another
        # process committed (SQLite: PRAGMA data_version; the run command serves SQLite from
        # one process, which sees its own commits at once) — while the database announces
        # the changes itself (PostgreSQL), the tables are read only as a safety net.
        SYNC_HOLDS=0,
        SYNC_HOLD_SECONDS=20,
        SYNC_WATCH_INTERVAL=0.05,
        SYNC_WATCH_LISTENING_INTERVAL=1.0,
        # Flask-Compress: pages, regions and JSON of 500 bytes or more, brotli or gzip as the phone accepts.
        COMPRESS_ALGORITHM=["br", "gzip"],
    )
    app.config.from_prefixed_env("KT")
    if test_config:
        app.config.update(test_config)
    if not isinstance(app.config["SYNC_HOLDS"], int) or app.config["SYNC_HOLDS"] < 0:
        raise ValueError(f"KT_SYNC_HOLDS must be a whole number ≥ 0, not {app.config['SYNC_HOLDS']!r}")
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _secret_key(instance)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {"connect_args": {"timeout": 10}})

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    _init_limiter(app)
    htmx.init_app(app)
    compress.init_app(app)

    from . import (api, errors, fragments, i18n, nights, nights_replay, nights_stats, play, pwa, rulebook, seats,
                   security, static_files, sync, tables)
    from .screens.birds.words import preload_dictionaries

    app.session_interface = seats.SessionInterface()

    app.register_blueprint(tables.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(rulebook.bp)
    app.register_blueprint(nights.bp)
    app.register_blueprint(nights_replay.bp)
    app.register_blueprint(nights_stats.bp)
    csrf.exempt(api.bp)
    errors.register(app)
    i18n.init_app(app)  # after Flask-Babel's
    play.init_app(app)
    fragments.init_app(app)
    security.init_app(app)
    sync.init_app(app)
    preload_dictionaries(LANGUAGES)
    static_files.init_app(app)  # outermost: a static file never reaches Flask

    @app.after_request
    def remember_language(response):
        chosen = request.args.get("lang")
        if chosen in LANGUAGES:
            response.set_cookie(LANGUAGE_COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
        return response

    @app.context_processor
    def language_context():
        return {"current_language": i18n.current_language(), "languages": LANGUAGES}

    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            sa.event.listen(db.engine, "connect", _sqlite_pragmas)
    return app


def migrate_database(app: Flask) -> None:
    """Bring the database up to the newest migration (what ``flask db upgrade`` does)."""
    with app.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS))


def _init_limiter(app: Flask) -> None:
    """Flask-Limiter keeps one ``enabled`` flag per process (the last app wins);
    it stays on, and each limit asks its own app's RATELIMIT_ENABLED
    (``tables.limits_off``), so apps with and without limits can share a process."""
    wanted = app.config["RATELIMIT_ENABLED"]
    app.config["RATELIMIT_ENABLED"] = True
    limiter.init_app(app)
    app.config["RATELIMIT_ENABLED"] = wanted


__all__ = ["create_app", "migrate_database"]
