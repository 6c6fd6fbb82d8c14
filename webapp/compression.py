"""Small, cacheable answers: gzip for text bodies; static files under versioned
URLs (``?v=<content hash>``, added by ``url_for``) cached for a year.

Static files are compressed once per version and kept in memory (a few files
of a few KB); pages and htmx regions are compressed per answer (≈0.1 ms).
"""
from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

from flask import Flask, Response, request

COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "text/plain", "application/javascript",
                "application/json", "application/manifest+json", "image/svg+xml"}
MIN_BYTES = 512
STATIC_CACHE = "public, max-age=31536000, immutable"


def init_app(app: Flask) -> None:
    static_folder = Path(app.static_folder)
    versions: dict[str, tuple[float, str]] = {}
    gzipped_static: dict[tuple[str, str], bytes] = {}

    def version(filename: str) -> str | None:
        """A short hash of the file's bytes (recomputed when its mtime changes)."""
        path = static_folder / filename
        try:
            mtime = path.stat().st_mtime
        except OSError:
            return None
        known = versions.get(filename)
        if known is None or known[0] != mtime:
            known = (mtime, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
            versions[filename] = known
        return known[1]

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            stamp = version(values["filename"])
            if stamp:
                values["v"] = stamp

    @app.after_request
    def cache_and_compress(response: Response) -> Response:
        static = request.endpoint == "static"
        if static and response.status_code in (200, 304):
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args["v"] == version(filename):
                response.headers["Cache-Control"] = STATIC_CACHE
                response.headers.pop("Expires", None)
        if not _wants_gzip(response):
            return response
        response.direct_passthrough = False
        if static:
            key = (filename, version(filename))  # the current content, whatever ?v= was asked
            body = gzipped_static.get(key)
            if body is None:
                body = gzipped_static[key] = gzip.compress(response.get_data(), compresslevel=9, mtime=0)
        else:
            body = gzip.compress(response.get_data(), compresslevel=6, mtime=0)
        response.set_data(body)
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        etag, weak = response.get_etag()
        if etag and not weak:
            response.set_etag(etag, weak=True)  # another representation than the file itself
        return response


def _wants_gzip(response: Response) -> bool:
    if response.status_code != 200 or response.mimetype not in COMPRESSIBLE:
        return False
    if "Content-Encoding" in response.headers or "Content-Range" in response.headers:
        return False
    if response.is_streamed and not response.direct_passthrough:
        return False  # a generator: it is sent as it comes
    if not request.accept_encodings["gzip"]:  # absent or q=0
        return False
    return (response.content_length or MIN_BYTES) >= MIN_BYTES
