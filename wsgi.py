"""The WSGI entry point: ``gunicorn wsgi:app``."""
from webapp import create_app
from webapp.hosting import tune_garbage_collection
from webapp.sync import release_holds_on_sigterm

app = create_app()
release_holds_on_sigterm(app)
tune_garbage_collection()
