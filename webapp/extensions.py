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


def select_locale() -> str:
    """German unless English was chosen (``?lang=en`` or the language cookie)."""
    wanted = request.args.get("lang") or request.cookies.get(LANGUAGE_COOKIE)
    return wanted if wanted in LANGUAGES else "de"


db = SQLAlchemy()
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=get_remote_address, storage_uri="memory://")
htmx = HTMX()
