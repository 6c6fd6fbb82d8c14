"""The app as served in benchmarks: the real app plus one bare route.

``/_bench/bare`` answers ``ok`` through the same Flask app, gunicorn workers and
extensions (sessions, Babel, limiter hooks) as every other route, and does
nothing else: the baseline that the sync and entry latencies are divided by.
It exists only here, never in ``wsgi.py``.
"""
from webapp import create_app

BARE_PATH = "/_bench/bare"

app = create_app()


@app.get(BARE_PATH)
def bare():
    return "ok"
