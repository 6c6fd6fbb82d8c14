"""Security headers on every answer and a plain page for internal errors.

* Content-Security-Policy: scripts, styles, images, connections only from this
  server; no inline scripts or styles, no ``eval``, no framing, no plugins,
  forms post only here. The pages carry no inline script (htmx's injected
  indicator style is switched off in the ``htmx-config`` meta).
* ``Referrer-Policy: no-referrer``: seat links (``/t/<id>/s/<token>``) carry a
  seat's token and must never leak to another site.
* ``Cross-Origin-Opener-Policy: same-origin`` only on a trustworthy origin
  (https, or this machine by name): over plain http on a LAN address, as most
  tables are served, the browser ignores it and logs an error on every page.
  Behind a reverse proxy the scheme is the proxy's: gunicorn takes it from
  ``X-Forwarded-Proto`` (``--forwarded-allow-ips``, docs/deployment.md), so
  ``request.is_secure`` tells.
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
}
# Sent only where the browser honours it (``trustworthy_origin``).
TRUSTWORTHY_ORIGIN_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
}
# Names a browser treats as this machine, hence as a trustworthy origin even over http.
LOOPBACK_HOSTS = ("localhost", "[::1]")  # and 127.0.0.0/8, *.localhost

INTERNAL_ERROR = _l("Da ist etwas schiefgegangen – bitte noch einmal versuchen")


def trustworthy_origin() -> bool:
    """Whether the browser treats this request's origin as potentially trustworthy
    (https, or a loopback name): only there does it honour a Cross-Origin-Opener-Policy."""
    if request.is_secure:
        return True
    host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    host = host.lower()
    return host in LOOPBACK_HOSTS or host.endswith(".localhost") or host.startswith("127.")


def init_app(app: Flask) -> None:
    """Register the headers and the 500 page on ``app``."""

    @app.after_request
    def add_security_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if trustworthy_origin():
            for name, value in TRUSTWORTHY_ORIGIN_HEADERS.items():
                response.headers.setdefault(name, value)
        return response

    @app.errorhandler(InternalServerError)
    def internal_error(_err):
        message = str(INTERNAL_ERROR)
        if request.path.startswith("/api/"):
            return jsonify({"error": message, "code": "http-500"}), 500
        return render_template("error.html", message=message), 500
