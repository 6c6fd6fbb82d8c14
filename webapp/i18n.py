"""Translated text: Flask-Babel's catalogues and locale selection, looked up once per
app context (a request, or a drawing ahead) instead of at every call.

Flask-Babel finds the translations anew for each string it translates: the domain,
the locale and the locale's name, each through Flask's context proxies. A table's
drawing translates some hundred strings, so that lookup was ≈ 8 % of the CPU of an
entry with its drawing (``docs/performance.md``). Here the first call in an app
context asks Flask-Babel (``flask_babel.get_translations``: the locale selector, the
catalogues it loaded) and keeps the answer in ``g``; the calls behave as Flask-Babel's
(``%`` formatting with the keyword arguments, ``num`` for plurals) and the templates'
``_`` and ``ngettext`` use them too (``init_app``).
"""
from __future__ import annotations

import flask_babel
from babel.support import NullTranslations
from flask import Flask, g, has_app_context
from flask_babel import LazyString

from .extensions import language

_NOTHING = NullTranslations()  # outside an app context, as Flask-Babel: the message ids themselves


def translations() -> NullTranslations:
    """The current app context's translations (asked of Flask-Babel once per context)."""
    if not has_app_context():
        return _NOTHING
    return _once_per_context("kt_translations", flask_babel.get_translations)


def current_language() -> str:
    """The current app context's language, "de" or "en" (Flask-Babel's locale, asked once per
    context); outside one, the message ids' German."""
    if not has_app_context():
        return language(None, None)
    return _once_per_context("kt_language", lambda: str(flask_babel.get_locale()))


def _once_per_context(name: str, make):
    """``make()``, kept in the app context's ``g`` under ``name``. Read from ``g`` itself: each
    attribute read through the ``g`` proxy looks the context up again (≈ 4 µs), and a drawing
    translates some hundred strings."""
    kept = g._get_current_object()
    found = getattr(kept, name, None)
    if found is None:
        found = make()
        setattr(kept, name, found)
    return found


def gettext(string: str, **variables) -> str:
    text = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % variables


def lazy_gettext(string: str, **variables) -> LazyString:
    """Translated when it is used as a string (in the language of that moment's request)."""
    return LazyString(gettext, string, **variables)


def init_app(app: Flask) -> None:
    """The templates' ``_``, ``gettext`` and ``ngettext`` (after Flask-Babel's ``init_app``,
    which installed its own). ``_`` is ``gettext`` itself: Jinja's ``_`` looks ``gettext`` up
    in the template's context at every call, which no template here overrides."""
    environment = app.jinja_env
    environment.install_gettext_callables(
        gettext=lambda string: translations().ugettext(string),
        ngettext=lambda singular, plural, num: translations().ungettext(singular, plural, num),
        newstyle=True)
    environment.globals["_"] = environment.globals["gettext"]
