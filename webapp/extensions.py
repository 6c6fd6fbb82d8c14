"""The Flask extensions, created unbound and initialised in ``create_app``."""
import redis
from flask import request
from flask_babel import Babel
from flask_compress import Compress
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

# The rate limits' storage the run command shares among several workers when the
# operator named none (KT_RATELIMIT_STORAGE_URI): a Redis on this machine, if it answers.
SHARED_LIMITS_REDIS = ("127.0.0.1", 6379)

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
limiter = Limiter(key_func=get_remote_address)  # its storage: RATELIMIT_STORAGE_URI (create_app)
htmx = HTMX()
compress = Compress()


def shared_limits_storage() -> str | None:
    """``redis://…`` when a Redis answers at SHARED_LIMITS_REDIS, else None."""
    host, port = SHARED_LIMITS_REDIS
    try:
        redis.Redis(host=host, port=port, socket_timeout=1, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return None
    return f"redis://{host}:{port}"
