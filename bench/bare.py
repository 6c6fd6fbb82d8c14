"""The baseline route of the benchmarks: ``/_bench/bare`` answers ``ok``.

It runs through the same gunicorn workers, Flask app and extension hooks
(sessions, Babel, limiter, compression) as every other route and does nothing
else, so ratios to it say what the app's own work costs. Only the benchmark
app (``bench.wsgi``) has it, never the production ``wsgi.py``.
"""
from flask import Flask

BARE_PATH = "/_bench/bare"


def bare() -> str:
    return "ok"


def add_bare_route(app: Flask) -> Flask:
    app.add_url_rule(BARE_PATH, "bench_bare", bare)
    return app
