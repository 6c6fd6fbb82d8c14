"""The installable app: the web app manifest and the service worker.

The service worker is served at ``/sw.js`` so that its scope is the whole site.
It is ``static/sw.js`` with the version of the static files and their list
filled in, so any change to a static file makes a new worker, which caches the
new files and drops the old cache. Pages, sync and the API are never cached.
"""
from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for

bp = Blueprint("pwa", __name__)

ALWAYS_REVALIDATE = {"Cache-Control": "no-cache"}  # may be kept, but is asked for anew every time
CACHED_SUFFIXES = {".css", ".js", ".png", ".svg", ".woff2"}  # what the pages load; not licences, notes, the worker


@cache
def _static_files(folder: str) -> tuple[tuple[str, ...], str]:
    """The static files (relative paths, sorted) and a hash of their contents."""
    root = Path(folder)
    files = sorted(p for p in root.rglob("*") if p.suffix in CACHED_SUFFIXES and p.name != "sw.js")
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return tuple(str(p.relative_to(root)) for p in files), digest.hexdigest()[:16]


@bp.get("/sw.js")
def service_worker():
    files, version = _static_files(current_app.static_folder)
    source = (Path(current_app.static_folder) / "sw.js").read_text(encoding="utf-8")
    assets = [url_for("static", filename=name) for name in files]
    body = source.replace('"__VERSION__"', json.dumps(version)).replace('"__ASSETS__"', json.dumps(assets))
    return Response(body, mimetype="text/javascript", headers={**ALWAYS_REVALIDATE, "Service-Worker-Allowed": "/"})


@bp.get("/manifest.webmanifest")
def manifest():
    path = Path(current_app.static_folder) / "manifest.webmanifest"
    return Response(path.read_bytes(), mimetype="application/manifest+json", headers=ALWAYS_REVALIDATE)
