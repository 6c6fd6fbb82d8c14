"""Static files, served by WhiteNoise in front of Flask under names that carry a
hash of their content, cached by browsers for good.

When the app is made, each file of ``static/`` is copied once into
``instance/static/`` as ``<name>.<hash><suffix>`` (``app.css`` →
``app.3f2a1b9c0d4e.css``), with the gzip and brotli variants WhiteNoise's
compressor makes where they pay; a copy whose name exists already is kept, so
this costs a hash of each file on later starts. ``url_for("static",
filename="app.css")`` gives the hashed URL, which WhiteNoise answers with
``Cache-Control: max-age=<ten years>, public, immutable`` and the best variant
the phone accepts: a changed file gets a new name, never a stale copy. The
plain names are served too, revalidated on every use (``max-age=0``). Flask's
own ``static`` route only builds the URLs and answers 404 for what is not
there. The copies of earlier versions stay and are served too, so a page
loaded before an upgrade still gets its styles. Names are hashed when the app
is made: a file changed while the server runs is seen after a restart.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from filelock import FileLock
from flask import Flask
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from .security import SECURITY_HEADERS

HASH_LENGTH = 12


def init_app(app: Flask) -> None:
    """Serve ``app.static_folder`` through WhiteNoise, with hashed names for ``url_for``."""
    source = Path(app.static_folder)
    build = Path(app.instance_path) / "static"
    prefix = app.static_url_path.rstrip("/") + "/"
    hashed = build_hashed_copies(source, build)

    def add_security_headers(headers, _path, _url) -> None:
        for name, value in SECURITY_HEADERS.items():
            headers.setdefault(name, value)

    static = WhiteNoise(app.wsgi_app, max_age=0, allow_all_origins=False,
                        immutable_file_test=lambda path, _url: Path(path).is_relative_to(build),
                        add_headers_function=add_security_headers)
    static.add_files(str(source), prefix)
    static.add_files(str(build), prefix)  # also the copies of earlier versions: pages still open may ask for them
    app.wsgi_app = static

    @app.url_defaults
    def hashed_static_name(endpoint: str, values: dict) -> None:
        if endpoint == "static" and values.get("filename") in hashed:
            values["filename"] = hashed[values["filename"]]


def build_hashed_copies(source: Path, build: Path) -> dict[str, str]:
    """Copy each file of ``source`` into ``build`` under its hashed name (with its
    compressed variants) unless it is there; the manifest: name → hashed name."""
    build.mkdir(parents=True, exist_ok=True)
    compressor = Compressor(quiet=True)
    manifest: dict[str, str] = {}
    with FileLock(build.with_name(build.name + ".lock")):  # several workers start at once
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            name = path.relative_to(source).as_posix()
            manifest[name] = hashed_name(name, path.read_bytes())
            target = build / manifest[name]
            if target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = build.parent / f".{build.name}-partial-{target.name}"  # outside: never served
            shutil.copyfile(path, partial)
            if compressor.should_compress(target.name):
                for variant in compressor.compress(str(partial)):
                    os.replace(variant, str(target) + variant[len(str(partial)):])
            os.replace(partial, target)  # last: a target that exists is complete with its variants
    return manifest


def hashed_name(name: str, content: bytes) -> str:
    """``dir/app.css`` → ``dir/app.<hash>.css``."""
    stem, dot, suffix = name.rpartition(".")
    digest = hashlib.sha256(content).hexdigest()[:HASH_LENGTH]
    if not dot or "/" in suffix:
        return f"{name}.{digest}"
    return f"{stem}.{digest}.{suffix}"
