"""Refusals: every bad input ends as a 4xx with a sentence naming what was wrong."""
from __future__ import annotations

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from engine import EngineError, Phrase, Word

from .i18n import gettext, lazy_gettext as _l


class Refusal(Exception):
    """A refused request: HTTP ``status``, a stable ``code``, a German message
    ``template`` (a lazy gettext string) and its ``params``. ``extra`` goes into
    the JSON answer (e.g. the current version and state of a 409)."""

    def __init__(self, status: int, code: str, template, params: dict | None = None, extra: dict | None = None):
        super().__init__(code)
        self.status = status
        self.code = code
        self.template = template
        self.params = dict(params or {})
        self.extra = dict(extra or {})

    @property
    def message(self) -> str:
        return str(self.template).format(**self.params)

    @classmethod
    def from_engine(cls, err: EngineError, status: int = 422) -> "Refusal":
        """An engine error, translated (see ``from_reason``)."""
        refusal = cls.from_reason(err.reason(), status)
        if getattr(err, "index", None) is not None:
            refusal.extra["index"] = err.index
        return refusal

    @classmethod
    def from_reason(cls, reason: dict, status: int = 422) -> "Refusal":
        """A refusal as the engine gives it as data (``EngineError.reason()``, e.g. a
        ``legal_choices()`` reason), translated: the German template and the words
        among the parameters (``engine.Word``, also inside an ``engine.Phrase``) are message ids;
        names and numbers stay."""
        params = {name: translated(value) for name, value in reason["params"].items()}
        return cls(status, reason["code"], gettext(reason["template"]), params)

    def to_dict(self) -> dict:
        return {"error": self.message, "code": self.code, **self.extra}


def translated(value):
    """An engine parameter in the page's language: a ``Word`` translated, a ``Phrase``
    with its words translated (German "D♥" is English "Q♥"), anything else as it is."""
    if isinstance(value, Phrase):
        return "".join(map(translated, value.parts))
    return gettext(value) if isinstance(value, Word) else value


NOT_FOUND = _l("Diesen Tisch gibt es nicht")


def wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app) -> None:
    """JSON answers under /api/, small HTML pages elsewhere — never a stack trace."""

    @app.errorhandler(Refusal)
    def refused(err: Refusal):
        if wants_json():
            return jsonify(err.to_dict()), err.status
        return render_template("error.html", message=err.message), err.status

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        messages = {
            400: _l("Die Anfrage ist fehlerhaft"),
            401: _l("Bitte mit dem Schlüssel eines Platzes anmelden"),
            403: _l("Dieser Schlüssel gehört zu keinem Platz an diesem Tisch"),
            404: _l("Diese Seite gibt es nicht"),
            405: _l("Diese Methode ist hier nicht erlaubt"),
            413: _l("Die Anfrage ist zu groß"),
            429: _l("Zu viele Anfragen – bitte kurz warten"),
        }
        message = str(messages.get(err.code, err.name))
        if err.code == 400 and getattr(err, "description", "") and "CSRF" in err.description:
            message = str(_l("Die Seite ist veraltet – bitte neu laden"))
        if wants_json():
            return jsonify({"error": message, "code": f"http-{err.code}"}), err.code
        return render_template("error.html", message=message), err.code
