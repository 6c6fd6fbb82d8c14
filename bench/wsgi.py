"""The app as served in benchmarks (``gunicorn bench.wsgi:app``): the production
worker's app (``wsgi.py``: its SIGTERM handling and garbage collection included) plus the bare route."""
from wsgi import app

from .bare import add_bare_route

add_bare_route(app)
