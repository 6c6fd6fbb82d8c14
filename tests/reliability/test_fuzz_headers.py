"""Fuzzing the headers through real HTTP: cookies (the session, the language),
``Authorization``, ``Content-Type``, the htmx and CSRF headers, huge ones and
malformed ones, on requests of every kind.

Each request is one that must not change anything whatever its headers say (a
page, a poll, a state read, or a change that is refused for its body anyway: a
stale version, a name too long); with the fuzzed headers it must still be
answered — a refusal naming what was wrong, from the app or from the HTTP server
in front of it (a header too large for it) — never a 5xx, and the database stays
as it was (fuzzing.py).
"""
from __future__ import annotations

import base64
import json
from urllib.parse import urlsplit

from hypothesis import given, strategies as st

from fuzzing import Browser, Wire, form_body, fuzz_settings, import_subject

header_bytes = st.binary(max_size=40).map(lambda raw: raw.replace(b"\r", b"").replace(b"\n", b""))
header_names = st.text(st.characters(codec="ascii", categories=["L", "N"], include_characters="-_!#$%&'*+.^`|~"),
                       min_size=1, max_size=30)
cookie_values = st.sampled_from([
    "", ".", "..", "x" * 3000, "e30.ZZZZ.abc", ".eJyrVkrLz1eyUkpKLFKqBQAeUwRS.ZZ.bad", '"quoted"', "a;b", "\x00",
    base64.urlsafe_b64encode(b"\xff" * 60).decode(), "de", "en", "fr", "x" * 9000]) | header_bytes.map(
        lambda raw: raw.decode("latin-1").replace(";", ""))
content_types = st.sampled_from([
    "application/json", "application/json; charset=utf-16", "application/json; charset=latin-1",
    "application/json; charset=\x00", "application/x-www-form-urlencoded", "multipart/form-data",
    "multipart/form-data; boundary=", "multipart/form-data; boundary=x", "multipart/form-data; boundary=" + "x" * 200,
    "text/plain", "text/html; charset=utf-7", "application/merge-patch+json", "*/*", ";", "application/json;;;",
    "application/x-www-form-urlencoded; charset=utf-16"]) | header_bytes.map(lambda raw: raw.decode("latin-1"))
authorization = st.sampled_from(["", "Bearer", "Bearer ", "Bearer  x", "bearer " + "A" * 43, "Basic dXNlcjpwdw==",
                                 "Bearer " + "A" * 9000, "Bearer \x00", "Digest x", "Bearer a b c"]) | header_bytes.map(
    lambda raw: raw.decode("latin-1"))


def test_fuzzed_headers_never_get_a_5xx_or_change_anything(ledger_for, live_server, record_property):
    setup = Wire(live_server.url)
    subject = import_subject(setup, "gleich-und-gleich", 12)
    browser = Browser(live_server.url)
    assert browser.open(urlsplit(subject.seat_url).path).status == 200 and browser.csrf
    ledger = ledger_for([subject.id])
    revision = ledger.before[1][0][2]
    stale = {"event": subject.upcoming[0], "version": 3}
    requests = {  # (method, target, own headers, body): none may change anything
        "page": ("GET", f"/t/{subject.id}", [], b""),
        "controls": ("GET", f"/t/{subject.id}/controls?at=12", [("HX-Request", "true")], b""),
        "poll": ("GET", f"/t/{subject.id}/sync?rev={revision + 1}&phase=play", [("HX-Request", "true")], b""),
        "state": ("GET", f"/api/tables/{subject.id}/state", [("Authorization", f"Bearer {subject.token}")], b""),
        "api entry": ("POST", f"/api/tables/{subject.id}/events", [
            ("Authorization", f"Bearer {subject.token}"), ("Content-Type", "application/json")],
            json.dumps(stale).encode()),
        "form entry": ("POST", f"/t/{subject.id}/event", [
            ("X-CSRFToken", browser.csrf), ("Content-Type", "application/x-www-form-urlencoded")],
            form_body([("event", json.dumps(stale["event"])), ("version", "3")]).encode()),
        "create": ("POST", "/api/tables", [("Content-Type", "application/json")],
                   json.dumps({"game": "cubirds", "name": "x" * 41}).encode()),
        "import": ("POST", "/import", [("X-CSRFToken", browser.csrf),
                                       ("Content-Type", "application/x-www-form-urlencoded")], b"record=%7B"),
        "start page": ("GET", "/?lang=en", [], b""),
    }
    changes = {"page", "controls", "poll", "state", "start page"}  # these are answered; the others refused

    @fuzz_settings(2000)
    @given(st.sampled_from(sorted(requests)), st.data())
    def send(kind, data):
        draw = data.draw
        method, target, headers, body = requests[kind]
        headers = dict(headers)
        for _ in range(draw(st.integers(1, 3))):
            what = draw(st.sampled_from(["cookie", "cookie", "authorization", "content-type", "csrf", "htmx",
                                         "language", "extra", "many", "huge", "drop"]))
            if what == "cookie":
                headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in draw(st.lists(st.tuples(
                    st.sampled_from(["session", "lang", "x"]) | header_names, cookie_values), max_size=4)))
            elif what == "authorization":
                headers["Authorization"] = draw(authorization)
            elif what == "content-type":
                headers["Content-Type"] = draw(content_types)
            elif what == "csrf":
                headers["X-CSRFToken"] = draw(st.sampled_from(["", "x", browser.csrf[:-1], browser.csrf + "x"]))
            elif what == "htmx":
                headers[draw(st.sampled_from(["HX-Request", "HX-Target", "HX-Current-URL", "HX-Trigger"]))] = \
                    draw(st.sampled_from(["true", "false", "", "\x00", "x" * 3000]))
            elif what == "language":
                headers["Accept-Language"] = draw(st.sampled_from(["de", "en-GB,en;q=0.9", "*", ";q=x", "x" * 2000]))
            elif what == "extra":
                headers[draw(header_names)] = draw(header_bytes).decode("latin-1")
            elif what == "many":
                headers.update({f"X-Many-{n}": "v" for n in range(draw(st.sampled_from([50, 99, 120])))})
            elif what == "huge":
                headers[draw(st.sampled_from(["Cookie", "X-Huge", "Authorization", "User-Agent"]))] = \
                    "h" * draw(st.sampled_from([4000, 8200, 20_000, 70_000]))
            elif headers:
                del headers[draw(st.sampled_from(sorted(headers)))]
        sent = [(name, value.encode("latin-1") if isinstance(value, str) else value) for name, value in headers.items()]
        answer = browser.send(method, target, sent, body, jar="Cookie" not in headers)
        if kind in changes and answer.status < 400:
            ledger.answered(answer)
        else:
            ledger.refused(answer)

    send()
    setup.close()
    browser.close()
    ledger.done(2000, record_property)
