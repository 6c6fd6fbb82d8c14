"""Shared fixtures of the whole suite.

* ``app`` / ``client`` / ``make_app``: the real app (``create_app``, migrations
  applied) on a throwaway database, TESTING on, rate limits and CSRF off.
* ``live_server`` / ``base_url``: the real app served over HTTP for the browser
  tests (one per xdist worker, its own database).
* ``phone``: opens another phone (a Playwright page emulating a Pixel 7) at
  the live server, so one test can seat three players at one table.
* ``postgres_url``: a throwaway PostgreSQL database for tests marked
  ``postgres``.

Environment switches (defaults in brackets):

* ``KT_TEST_DB`` [``sqlite``]: ``postgres`` puts every app and the live
  server on a fresh PostgreSQL database instead of SQLite.
* ``KT_TEST_SERVER`` [``thread``]: ``gunicorn`` serves the live server with
  ``gunicorn -w 2`` in a subprocess instead of a werkzeug thread.
* ``KT_TEST_POSTGRES_URL`` [``postgresql://postgres@127.0.0.1:5432/postgres``]:
  the server (and a database to connect to) on which throwaway databases are
  created and dropped.
* ``KT_REQUIRE_POSTGRES`` [unset]: ``1`` turns "PostgreSQL unreachable" from
  a skip into a failure (CI sets it).

Tests under ``tests/e2e/`` are marked ``e2e`` automatically.
"""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import WSGIRequestHandler

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
PHONE_DEVICE = "Pixel 7"
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
TEST_SECRET_KEY = "kartentisch-test-secret"
SERVER_START_TIMEOUT = 30.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test below ``tests/e2e/`` as ``e2e``."""
    for item in items:
        if "e2e" in item.path.relative_to(TESTS).parts[:-1]:
            item.add_marker(pytest.mark.e2e)


# --- databases ---------------------------------------------------------------

def _postgres_server_url() -> str:
    return os.environ.get("KT_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def _postgres_unreachable_reason() -> str | None:
    """Why the test PostgreSQL server can't be used, or None when it can."""
    try:
        import psycopg

        with psycopg.connect(_postgres_server_url(), connect_timeout=3):
            return None
    except Exception as error:  # any failure means: no server for us
        return f"PostgreSQL at {_postgres_server_url()} is not reachable ({error.__class__.__name__}: {error})"


def _require_postgres() -> None:
    """Skip (or fail, with KT_REQUIRE_POSTGRES=1) when PostgreSQL is unreachable."""
    reason = _postgres_unreachable_reason()
    if reason is None:
        return
    if os.environ.get("KT_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{reason}; KT_REQUIRE_POSTGRES=1 demands it")
    pytest.skip(reason)


@contextlib.contextmanager
def throwaway_postgres_database() -> Iterator[str]:
    """Create a fresh PostgreSQL database; yield its SQLAlchemy URL; drop it."""
    import psycopg
    from psycopg import sql

    _require_postgres()
    server = _postgres_server_url()
    name = f"kt_test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlsplit(server)._replace(scheme="postgresql+psycopg", path=f"/{name}").geturl()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextlib.contextmanager
def throwaway_database(directory: Path) -> Iterator[str]:
    """A fresh database of the backend chosen by KT_TEST_DB; yields its URL."""
    backend = os.environ.get("KT_TEST_DB", "sqlite")
    if backend == "postgres":
        with throwaway_postgres_database() as url:
            yield url
    elif backend == "sqlite":
        yield f"sqlite:///{directory / 'kartentisch-test.sqlite3'}"
    else:
        raise pytest.UsageError(f"KT_TEST_DB must be 'sqlite' or 'postgres', not {backend!r}")


def app_test_config(database_url: str, **overrides) -> dict:
    """The config every test app gets; ``overrides`` win."""
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "SECRET_KEY": TEST_SECRET_KEY,
        "RATELIMIT_ENABLED": False,
        "WTF_CSRF_ENABLED": False,
        **overrides,
    }


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL database (SQLAlchemy URL, ``postgresql+psycopg``)."""
    with throwaway_postgres_database() as url:
        yield url


# --- the app in-process ------------------------------------------------------

@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., "object"]]:
    """Factory: ``make_app(**config_overrides)`` builds an app on a fresh database.

    Each call gets its own database; e.g. ``make_app(WTF_CSRF_ENABLED=True)``
    or ``make_app(RATELIMIT_ENABLED=True)`` to test those guards.
    """
    from webapp import create_app, migrate_database

    with contextlib.ExitStack() as stack:
        def build(**overrides):
            directory = tmp_path / f"app-{uuid.uuid4().hex[:8]}"
            directory.mkdir()
            url = stack.enter_context(throwaway_database(directory))
            app = create_app(app_test_config(url, **overrides))
            migrate_database(app)
            stack.callback(_dispose_engines, app)
            return app

        yield build


def _dispose_engines(app) -> None:
    """Let the app's held polls go and close its pooled connections (so a throwaway database can go)."""
    from webapp.extensions import db

    app.extensions["sync"].watch.close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def app(make_app):
    """The real app on a fresh database (TESTING, no rate limits, no CSRF)."""
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


# --- the app over HTTP -------------------------------------------------------

class LiveServer:
    """A running server of the real app; ``url`` has no trailing slash.
    ``log_path``: gunicorn's output (tracebacks of 500s), None for the thread."""

    def __init__(self, url: str, database_url: str, log_path: Path | None = None):
        self.url = url
        self.database_url = database_url
        self.log_path = log_path


LOG_LINES_ON_FAILURE = 60


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test against gunicorn shows the end of gunicorn's log (worker
    timeouts, tracebacks): the server runs in another process, its output is not captured."""
    report = yield
    server = getattr(item, "funcargs", {}).get("live_server")
    if report.failed and call.when == "call" and server is not None and server.log_path is not None:
        lines = server.log_path.read_text(errors="replace").splitlines()[-LOG_LINES_ON_FAILURE:]
        report.sections.append(("gunicorn's log (its end)", "\n".join(lines)))
    return report


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_serving(url: str, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the test server exited with code {process.returncode} before serving {url}")
        try:
            with urllib.request.urlopen(url + "/", timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answers: the server is up
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the test server did not answer at {url} within {SERVER_START_TIMEOUT:.0f} s")


class _QuietRequestHandler(WSGIRequestHandler):
    """werkzeug's request handler without its line per request: a held poll's line could be
    written after the test that sent it ended, into that test's closed captured stream."""

    def log_request(self, code="-", size="-") -> None:
        pass


@contextlib.contextmanager
def _thread_server(database_url: str) -> Iterator[LiveServer]:
    from werkzeug.serving import make_server

    from webapp import create_app, migrate_database

    # A thread per request, as many as asked for: hold sync polls as gunicorn does (KT_SYNC_HOLDS).
    app = create_app(app_test_config(database_url, WTF_CSRF_ENABLED=True, SYNC_HOLDS=200))
    migrate_database(app)
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_QuietRequestHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        _wait_until_serving(url)
        yield LiveServer(url, database_url)
    finally:
        app.extensions["sync"].watch.close()
        server.shutdown()
        thread.join(timeout=10)
        _dispose_engines(app)


@contextlib.contextmanager
def _gunicorn_server(database_url: str, log_path: Path) -> Iterator[LiveServer]:
    """``gunicorn -w 2 wsgi:app`` on a free port, migrations applied beforehand."""
    from webapp import create_app, migrate_database
    from webapp.hosting import gunicorn_subprocess

    app = create_app(app_test_config(database_url))
    migrate_database(app)  # once, before the workers start, as the run command does
    _dispose_engines(app)
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": TEST_SECRET_KEY,
        "KT_RATELIMIT_ENABLED": "false",
    }
    with open(log_path, "wb") as log, gunicorn_subprocess("wsgi:app", port, env, log, cwd=REPO) as process:
        url = f"http://127.0.0.1:{port}"
        _wait_until_serving(url, process)
        yield LiveServer(url, database_url, log_path)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real app served on 127.0.0.1 (CSRF on, rate limits off), own database."""
    directory = tmp_path_factory.mktemp("live-server")
    kind = os.environ.get("KT_TEST_SERVER", "thread")
    with throwaway_database(directory) as database_url:
        if kind == "gunicorn":
            server = _gunicorn_server(database_url, directory / "gunicorn.log")
        elif kind == "thread":
            server = _thread_server(database_url)
        else:
            raise pytest.UsageError(f"KT_TEST_SERVER must be 'thread' or 'gunicorn', not {kind!r}")
        with server as running:
            yield running


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    return live_server.url


# --- browsers ----------------------------------------------------------------

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's Chromium (installed by ``make test``), no sandbox as root."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with `apt-get install -y chromium` (make test does)")
    args = list(browser_type_launch_args.get("args", []))
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": args}


@pytest.fixture(scope="session")
def phone_device(playwright) -> dict:
    """The context options of the emulated phone (without its default browser)."""
    device = dict(playwright.devices[PHONE_DEVICE])
    device.pop("default_browser_type", None)
    return device


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict, phone_device: dict) -> dict:
    """Every context (also the plain ``page`` fixture) is a phone at the live server."""
    return {**phone_device, **browser_context_args}


@pytest.fixture
def phone(new_context) -> Callable[..., "object"]:
    """Factory: ``phone()`` opens a page in a new phone context (own cookies).

    ``phone(locale="en-GB")`` passes further context options through; the
    device's own (viewport, user_agent, …, base_url) can't be repeated here —
    change them for a whole test with
    ``@pytest.mark.browser_context_args(viewport=…)``. The contexts are closed
    after the test (with traces/screenshots on failure, as configured).
    """
    def open_phone(**context_options):
        return new_context(**context_options).new_page()

    return open_phone
