"""Security headers on every answer and a plain page for internal errors.

* Content-Security-Policy: scripts, styles, images, connections only from this
  server; no inline scripts or styles, no ``eval``, no framing, no plugins,
  forms post only here. The pages carry no inline script (htmx's injected
  indicator style is switched off in the ``htmx-config`` meta).
* ``Referrer-Policy: no-referrer``: seat links (``/t/<id>/s/<token>``) carry a
  seat's token and must never leak to another site.
* A 500 is a short German sentence, never a stack trace or a debug page; the
  exception goes to the log.
"""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import InternalServerError

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

INTERNAL_ERROR = _l("Da ist etwas schiefgegangen – bitte noch einmal versuchen")


def init_app(app: Flask) -> None:
    """Register the headers and the 500 page on ``app``."""

    @app.after_request
    def add_security_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.errorhandler(InternalServerError)
    def internal_error(_err):
        message = str(INTERNAL_ERROR)
        if request.path.startswith("/api/"):
            return jsonify({"error": message, "code": "http-500"}), 500
        return render_template("error.html", message=message), 500
