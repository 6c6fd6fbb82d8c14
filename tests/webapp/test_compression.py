"""webapp/compression.py: gzip only where it pays and is accepted; versioned
static URLs cached for a year, unversioned ones revalidated."""
from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from flask import Flask, url_for

from webapp import compression

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
YEAR = "max-age=31536000"


def static_url(app, filename: str) -> str:
    with app.test_request_context():
        return url_for("static", filename=filename)


def test_a_page_is_gzipped_when_the_client_accepts_it_and_decompresses_to_the_plain_page(client):
    plain = client.get("/")
    packed = client.get("/", headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data)
    assert gzip.decompress(packed.data) == plain.data


@pytest.mark.parametrize("accept", [None, "identity", "br, deflate", "gzip;q=0"])
def test_no_gzip_unless_the_client_accepts_it(client, accept):
    headers = {"Accept-Encoding": accept} if accept else {}
    answer = client.get("/", headers=headers)
    assert answer.status_code == 200
    assert "Content-Encoding" not in answer.headers
    assert answer.data.lstrip().lower().startswith(b"<!doctype html")


def test_a_static_text_file_is_gzipped_to_its_exact_bytes_and_its_etag_becomes_weak(client, app):
    url = static_url(app, "vendor/htmx-2.0.11.min.js")
    plain = client.get(url)
    packed = client.get(url, headers=GZIP)
    again = client.get(url, headers=GZIP)  # served from the in-memory copy
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data == (Path(app.static_folder) / "vendor/htmx-2.0.11.min.js").read_bytes()
    assert again.data == packed.data
    assert not plain.headers["ETag"].startswith("W/")
    assert packed.headers["ETag"] == "W/" + plain.headers["ETag"]


def test_small_text_and_binary_answers_stay_uncompressed(client, app):
    small = Path(app.static_folder) / "img/birds/duck.svg"
    assert small.stat().st_size < compression.MIN_BYTES  # the premise of this test
    svg = client.get(static_url(app, "img/birds/duck.svg"), headers=GZIP)
    png = client.get(static_url(app, "icons/icon-512.png"), headers=GZIP)
    assert svg.status_code == png.status_code == 200
    assert "Content-Encoding" not in svg.headers
    assert svg.data == small.read_bytes()
    assert png.mimetype == "image/png"
    assert "Content-Encoding" not in png.headers
    assert png.data == (Path(app.static_folder) / "icons/icon-512.png").read_bytes()


def test_an_error_answer_is_not_gzipped(client):
    missing = client.get("/t/no-such-table-here", headers=GZIP)
    assert missing.status_code == 404
    assert "Content-Encoding" not in missing.headers


def test_url_for_static_adds_the_content_hash(app):
    import hashlib

    url = static_url(app, "app.css")
    digest = hashlib.sha256((Path(app.static_folder) / "app.css").read_bytes()).hexdigest()[:12]
    assert url == f"/static/app.css?v={digest}"


def test_a_versioned_static_url_is_cached_for_a_year_an_unversioned_or_wrong_one_is_not(client, app):
    versioned = client.get(static_url(app, "app.css"))
    unversioned = client.get("/static/app.css")
    wrong = client.get("/static/app.css?v=000000000000")
    assert versioned.status_code == unversioned.status_code == wrong.status_code == 200
    cache = versioned.headers["Cache-Control"]
    assert YEAR in cache and "immutable" in cache and "public" in cache
    assert "Expires" not in versioned.headers
    for answer in (unversioned, wrong):
        cache = answer.headers.get("Cache-Control", "")
        assert YEAR not in cache and "immutable" not in cache


def test_a_page_is_never_cached_for_a_year(client):
    page = client.get("/?v=anything")
    assert "immutable" not in page.headers.get("Cache-Control", "")


# --- a static folder of our own: the hash follows the content -----------------

@pytest.fixture
def small_site(tmp_path):
    """A bare Flask app with only compression on a static folder in tmp_path."""
    site = Flask("small_site", static_folder=str(tmp_path / "static"))
    Path(site.static_folder).mkdir()
    compression.init_app(site)
    return site


def rewrite(path: Path, text: str) -> None:
    """New content and a new mtime (a filesystem with coarse timestamps can't hide it)."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    os.utime(path, ns=(before + 2_000_000_000, before + 2_000_000_000))


def test_the_version_changes_with_the_content_and_the_old_one_loses_the_year(small_site):
    style = Path(small_site.static_folder) / "site.css"
    rewrite(style, "body { color: red; }\n" * 60)
    client = small_site.test_client()
    old_url = static_url(small_site, "site.css")
    assert static_url(small_site, "site.css") == old_url  # stable while the file is
    assert "immutable" in client.get(old_url).headers["Cache-Control"]

    rewrite(style, "body { color: blue; }\n" * 60)
    new_url = static_url(small_site, "site.css")
    assert new_url != old_url
    assert "immutable" in client.get(new_url).headers["Cache-Control"]
    assert "immutable" not in client.get(old_url).headers.get("Cache-Control", "")


@pytest.mark.parametrize("query", ["", "?v=made-up"])
def test_gzip_follows_a_changed_file_also_without_the_current_version(small_site, query):
    """Only the URL with the current hash may be served from a kept copy."""
    style = Path(small_site.static_folder) / "site.css"
    client = small_site.test_client()
    rewrite(style, "body { color: red; }\n" * 60)
    first = client.get("/static/site.css" + query, headers=GZIP)
    rewrite(style, "body { color: blue; }\n" * 60)
    second = client.get("/static/site.css" + query, headers=GZIP)
    assert first.headers["Content-Encoding"] == second.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(second.data) == style.read_bytes()
