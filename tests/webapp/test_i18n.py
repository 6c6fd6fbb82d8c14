"""webapp/i18n.py: Flask-Babel's translations, asked once per request."""
from __future__ import annotations

import flask_babel
from flask import render_template_string

from webapp import i18n


def test_the_translations_are_asked_of_flask_babel_once_per_request(app, monkeypatch):
    asked = []
    original = flask_babel.get_translations
    monkeypatch.setattr(flask_babel, "get_translations", lambda: asked.append(1) or original())
    with app.test_request_context("/?lang=en"):
        said = [i18n.gettext("Nein"), i18n.ngettext("%(num)s Vogel", "%(num)s Vögel", 2),
                str(i18n.lazy_gettext("Nein")), render_template_string("{{ _('Nein') }}")]
        assert i18n.current_language() == "en"
    assert said == ["No", "2 birds", "No", "No"]
    assert len(asked) == 1
    with app.test_request_context("/"):  # a new request asks again: its language may differ
        assert i18n.gettext("Nein") == "Nein" and i18n.current_language() == "de"
    assert len(asked) == 2


def test_variables_are_formatted_as_flask_babel_does(app):
    with app.test_request_context("/?lang=en"):
        one = ("%(num)s Vogel", "%(num)s Vögel", 1)
        assert i18n.ngettext(*one) == flask_babel.ngettext(*one) == "1 bird"
        assert i18n.gettext("Nein", unused=1) == flask_babel.gettext("Nein", unused=1) == "No"


def test_outside_a_request_the_message_ids_are_returned():
    assert i18n.gettext("Nein") == "Nein" and i18n.current_language() == "de"
    assert str(i18n.lazy_gettext("Nein")) == "Nein"
