"""The Flask extensions, created unbound and initialised in ``create_app``."""
from flask import request
from flask_babel import Babel
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

LANGUAGES = ("de", "en")
LANGUAGE_COOKIE = "lang"


def language(asked: str | None, kept: str | None) -> str:
    """German unless English was chosen: ``asked`` (``?lang=``) or ``kept`` (the language cookie)."""
    wanted = asked or kept
    return wanted if wanted in LANGUAGES else "de"


def select_locale() -> str:
    return language(request.args.get("lang"), request.cookies.get(LANGUAGE_COOKIE))


db = SQLAlchemy()
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=get_remote_address, storage_uri="memory://")
htmx = HTMX()
