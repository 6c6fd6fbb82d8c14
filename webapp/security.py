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

import functools
import ipaddress
from urllib.parse import urlsplit

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import InternalServerError

from .i18n import lazy_gettext as _l

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
INTERNAL_ERROR = _l("Da ist etwas schiefgegangen – bitte noch einmal versuchen")


def on_this_machine() -> bool:
    """Whether this request came in on the server's own machine (localhost,
    *.localhost, a loopback address): an address no phone can open."""
    return _loopback_host(request.host)


@functools.lru_cache(maxsize=256)  # a server is reached by a few names: asked at every answer, worked out once each
def _loopback_host(host: str) -> bool:
    """Whether ``host`` (a ``Host`` header: name or address, perhaps a port) names this machine."""
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def trustworthy_origin() -> bool:
    """Whether the browser treats this request's origin as potentially trustworthy
    (https, or this machine): only there does it honour a Cross-Origin-Opener-Policy."""
    return request.is_secure or on_this_machine()


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
