"""Small, cacheable answers: pages and regions compressed (Flask-Compress) where it
pays and is accepted; static files (WhiteNoise) under hashed names cached for
good, in the variant the phone accepts; plain names revalidated."""
from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import brotli
import pytest
from flask import Flask, url_for

from webapp import static_files

ALL = {"Accept-Encoding": "gzip, deflate, br"}
GZIP = {"Accept-Encoding": "gzip"}
YEAR = 365 * 24 * 3600
HTMX = "vendor/htmx-2.0.11.min.js"
DECOMPRESS = {"gzip": gzip.decompress, "br": brotli.decompress}
# The page's CSRF token (in <body hx-headers> and in each form) is signed with the time:
# two requests a second apart carry two tokens.
CSRF_TOKEN = re.compile(rb'("X-CSRFToken": "|name="csrf_token" value=")[^"]+"')


def without_csrf_token(page: bytes) -> bytes:
    return CSRF_TOKEN.sub(rb'\1-"', page)


def static_url(app, filename: str) -> str:
    with app.test_request_context():
        return url_for("static", filename=filename)


def max_age(answer) -> int:
    directives = dict(part.strip().partition("=")[::2] for part in answer.headers.get("Cache-Control", "").split(","))
    return int(directives.get("max-age") or 0)


@pytest.mark.parametrize("accept, encoding", [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=0.5, gzip", "gzip")])
def test_a_page_is_compressed_as_the_client_accepts_and_decompresses_to_the_plain_page(client, accept, encoding):
    plain = client.get("/")
    packed = client.get("/", headers={"Accept-Encoding": accept})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data)
    assert CSRF_TOKEN.search(plain.data)
    assert without_csrf_token(DECOMPRESS[encoding](packed.data)) == without_csrf_token(plain.data)


@pytest.mark.parametrize("accept", [None, "identity", "deflate"])  # (a q=0 coding: docs/architecture.md)
def test_nothing_is_compressed_unless_the_client_accepts_it(client, app, accept):
    headers = {"Accept-Encoding": accept} if accept else {}
    page = client.get("/", headers=headers)
    script = client.get(static_url(app, HTMX), headers=headers)
    assert page.status_code == script.status_code == 200
    assert "Content-Encoding" not in page.headers and "Content-Encoding" not in script.headers
    assert page.data.lstrip().lower().startswith(b"<!doctype html")
    assert script.data == (Path(app.static_folder) / HTMX).read_bytes()


@pytest.mark.parametrize("accept, encoding", [("gzip, deflate, br", "br"), ("gzip", "gzip")])
def test_a_static_text_file_comes_compressed_to_its_exact_bytes(client, app, accept, encoding):
    url = static_url(app, HTMX)
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": accept})
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert DECOMPRESS[encoding](packed.data) == plain.data == (Path(app.static_folder) / HTMX).read_bytes()
    assert len(packed.data) < len(plain.data) / 2


def test_binary_and_small_answers_stay_uncompressed(client, app):
    png = client.get(static_url(app, "icons/icon-512.png"), headers=ALL)
    assert png.status_code == 200 and png.mimetype == "image/png"
    assert "Content-Encoding" not in png.headers
    assert png.data == (Path(app.static_folder) / "icons/icon-512.png").read_bytes()
    small = client.get("/api/tables/no-such-table", headers=ALL)  # a short JSON refusal
    assert len(small.data) < 500 and "Content-Encoding" not in small.headers


def test_an_error_answer_is_not_compressed(client):
    missing = client.get("/t/no-such-table-here", headers=ALL)
    assert missing.status_code == 404
    assert "Content-Encoding" not in missing.headers


def test_url_for_static_names_the_file_by_its_content_hash(app):
    digest = hashlib.sha256((Path(app.static_folder) / "app.css").read_bytes()).hexdigest()[:12]
    assert static_url(app, "app.css") == f"/static/app.{digest}.css"
    assert static_url(app, HTMX) == f"/static/vendor/htmx-2.0.11.min.{hashlib.sha256((Path(app.static_folder) / HTMX).read_bytes()).hexdigest()[:12]}.js"


def test_a_hashed_static_url_is_cached_for_good_a_plain_one_is_revalidated(client, app):
    hashed = client.get(static_url(app, "app.css"))
    plain = client.get("/static/app.css")
    assert hashed.status_code == plain.status_code == 200
    assert hashed.data == plain.data
    assert max_age(hashed) >= YEAR and "immutable" in hashed.headers["Cache-Control"]
    assert "public" in hashed.headers["Cache-Control"]
    assert max_age(plain) == 0 and "immutable" not in plain.headers["Cache-Control"]


def test_static_files_carry_the_security_headers(client, app):
    answer = client.get(static_url(app, "app.css"))
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_an_unknown_static_file_is_a_404(client):
    assert client.get("/static/no-such-file.css").status_code == 404
    assert client.get("/static/app.000000000000.css").status_code == 404


def test_a_page_is_never_cached_for_good(client):
    page = client.get("/?v=anything")
    assert "immutable" not in page.headers.get("Cache-Control", "")


# --- a static folder of our own: the name follows the content -----------------

def small_site(tmp_path) -> Flask:
    """A bare Flask app serving tmp_path/static, its copies in tmp_path/instance."""
    site = Flask("small_site", static_folder=str(tmp_path / "static"), instance_path=str(tmp_path / "instance"))
    static_files.init_app(site)
    return site


def test_a_changed_file_gets_a_new_name_and_the_old_name_keeps_the_old_content(tmp_path):
    style = tmp_path / "static" / "site.css"
    style.parent.mkdir()
    red, blue = "body { color: red; }\n" * 60, "body { color: blue; }\n" * 60
    style.write_text(red)
    before = small_site(tmp_path)
    old_url = static_url(before, "site.css")
    assert static_url(before, "site.css") == old_url  # stable while the file is

    style.write_text(blue)
    after = small_site(tmp_path)  # the next start
    new_url = static_url(after, "site.css")
    assert new_url != old_url
    client = after.test_client()
    assert client.get(new_url).text == blue and client.get(old_url).text == red  # a page of before still gets its style
    for url in (old_url, new_url):
        answer = client.get(url, headers=GZIP)
        assert "immutable" in answer.headers["Cache-Control"] and answer.headers["Content-Encoding"] == "gzip"
    assert client.get("/static/site.css").text == blue


def test_a_file_whose_compression_does_not_pay_is_kept_plain(tmp_path):
    (tmp_path / "static").mkdir()
    noise = b"".join(hashlib.sha512(bytes([n])).digest() for n in range(16))  # 1 KB that does not compress
    (tmp_path / "static" / "noise.txt").write_bytes(noise)
    site = small_site(tmp_path)
    answer = site.test_client().get(static_url(site, "noise.txt"), headers=ALL)
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    assert not list((tmp_path / "instance" / "static").glob("*.gz"))
