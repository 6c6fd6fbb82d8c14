"""The WSGI entry point: ``gunicorn wsgi:app``."""
from webapp import create_app
from webapp.sync import release_holds_on_sigterm

app = create_app()
release_holds_on_sigterm(app)
