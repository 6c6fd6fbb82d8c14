"""The app as served in benchmarks (``gunicorn bench.wsgi:app``): the real app plus the bare route."""
from webapp import create_app
from webapp.hosting import tune_garbage_collection
from webapp.sync import release_holds_on_sigterm

from .bare import add_bare_route

app = add_bare_route(create_app())
release_holds_on_sigterm(app)
tune_garbage_collection()
