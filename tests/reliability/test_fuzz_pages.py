"""Fuzzing the pages through real HTTP, as a phone's browser sends them: the forms
(entries, undo, the lobby, creating and joining tables, deleting a game night) with
and without htmx and the CSRF token, the query strings of the controls, the sync
poll and the replay (``schritt``), and paths.

A form that asks for a change must be refused with the page's sentence naming
what was wrong (or carried out when it is valid); a page or poll must be answered,
never with a 5xx; either way the database stays as it was (fuzzing.py).
"""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

import pytest
from hypothesis import assume, given, strategies as st

from fuzzing import (
    NO_JSON, Browser, as_received, engine_verdict, fuzz_settings, import_subject, json_text, lobby_subject,
    mutate, name_ok, names, odd_text, strict_json)

from webapp.screens import SCREENS

DIGITS = re.compile(r"[ \t\r\n]*[0-9]+[ \t\r\n]*")  # as the server reads a form number (not \s: "\x1f")
HX_GET = re.compile(r'hx-get="([^"]+)"')
form_text = odd_text | st.sampled_from(["", "0", "-1", "12", " 9 ", "+9", "1_0", "１２", "1e9", "null", "{}"])


def key_ok(key: str) -> bool:
    """A form's idempotency key: none (empty), or 1 to 64 printable characters."""
    return key == "" or (len(key) <= 64 and key.isprintable())


def seated_browser(live_server, subject) -> Browser:
    """A phone that opened the seat link of seat 0 and holds the table page's CSRF token."""
    browser = Browser(live_server.url)
    page = browser.open(urlsplit(subject.seat_url).path)
    assert page.status == 200 and browser.csrf, page
    return browser


@pytest.mark.parametrize("kind, at", [("gleich-und-gleich", 12), ("gemeinsame-sache", 10)])
def test_entry_and_undo_forms_are_refused_with_a_reason(ledger_for, live_server, wire, record_property, kind, at):
    subject = import_subject(wire, kind, at)
    browser = seated_browser(live_server, subject)
    ledger = ledger_for([subject.id])

    @fuzz_settings(700)
    @given(st.data(), st.sampled_from(["event", "undo"]), st.booleans(), st.sampled_from(["ok", "ok", "ok", "none"]))
    def form(data, route, htmx, csrf):
        draw = data.draw
        version = draw(form_text | st.just(str(at)) | st.just(f" {at} "))
        key = draw(form_text)
        fields = [("version", version), ("key", key)]
        if route == "event":
            text = draw(form_text | st.builds(lambda event: json_text(mutate(event, draw), draw),
                                              st.sampled_from(subject.upcoming)))
            fields.append(("event", text))
        version, key = as_received(version), as_received(key)
        in_order = csrf == "ok" and DIGITS.fullmatch(version) and int(version) == at and key_ok(key)
        if route == "undo":
            assume(not in_order)
        else:
            value = strict_json(as_received(text))
            legal = value is not NO_JSON and engine_verdict(
                lambda: subject.game.apply(value), undo=subject.game.undo) is None
            assume(not (in_order and legal))
        answer = browser.post_form(f"/t/{subject.id}/{route}", draw(st.permutations(fields)), htmx, csrf == "ok")
        ledger.refused(answer)

    form()
    browser.close()
    ledger.done(700, record_property)


def harvested_queries(browser: Browser, subject, at: int) -> list[str]:
    """The GET targets the table page really uses (controls taps, the sync poll), from its HTML."""
    page = browser.open(f"/t/{subject.id}")
    found = sorted({html.unescape(target) for target in HX_GET.findall(page.text)})
    assert any("/sync" in target for target in found), page
    return found + [f"/t/{subject.id}/controls?at={at}", f"/t/{subject.id}/mitte", f"/t/{subject.id}"]


def mutated_query(target: str, draw) -> str:
    """A real target with its query string changed: a value replaced, a parameter
    dropped, added or repeated, or the whole query replaced by random bytes."""
    path, _, query = target.partition("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    how = draw(st.sampled_from(["replace", "drop", "add", "repeat", "bytes"] if pairs else ["add", "bytes"]))
    if how == "bytes":
        return path + "?" + quote(draw(st.binary(max_size=60)), safe="=&")
    if how == "add":
        pairs.append((draw(st.sampled_from(["at", "pick", "sp", "side", "undo", "card", "rev", "hold", "phase",
                                            "lang", "seat", "schritt"]) | odd_text), draw(form_text)))
    else:
        index = draw(st.integers(0, len(pairs) - 1))
        if how == "replace":
            pairs[index] = (pairs[index][0], draw(form_text))
        elif how == "drop":
            del pairs[index]
        else:
            pairs.insert(index, (pairs[index][0], draw(form_text)))
    return path + "?" + urlencode([(k.encode("utf-8", "surrogatepass"), v.encode("utf-8", "surrogatepass"))
                                   for k, v in pairs])


def holds(target: str, revision: int) -> bool:
    """Whether the sync poll would be held open (20 s) for this query: not sent. The
    server reads the first value of each name (``request.args.to_dict()``)."""
    path, _, query = target.partition("?")
    first = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        first.setdefault(name, value)
    return path.endswith("/sync") and first.get("hold") == "1" and first.get("rev") == str(revision)


@pytest.mark.parametrize("kind, at", [("gleich-und-gleich", 12), ("cubirds", 9), ("gemeinsame-sache", 10)])
def test_query_strings_of_controls_and_sync_are_answered(ledger_for, live_server, wire, record_property, kind, at):
    """A seat and a viewer ask for the controls, the sync poll and the pages with mutated query strings."""
    subject = import_subject(wire, kind, at)
    seated, viewer = seated_browser(live_server, subject), Browser(live_server.url)
    targets = harvested_queries(seated, subject, at)
    ledger = ledger_for([subject.id])
    revision = ledger.before[1][0][2]

    @fuzz_settings(400)
    @given(st.data(), st.sampled_from(targets), st.booleans(), st.booleans())
    def ask(data, target, as_seat, htmx):
        mutated = mutated_query(target, data.draw)
        assume(not holds(mutated, revision))
        headers = [("HX-Request", "true")] if htmx else []
        ledger.answered((seated if as_seat else viewer).send("GET", mutated, headers))

    ask()
    ledger.done(400, record_property)


def test_query_strings_of_the_replay_are_answered(ledger_for, live_server, wire, record_property):
    """The replay of a finished game (phone view and centre view) with mutated ``schritt`` and other queries."""
    subject = import_subject(wire, "gemeinsame-sache", 10_000)
    viewer = Browser(live_server.url)
    targets = []
    for path in (f"/t/{subject.id}/wiederholung", f"/t/{subject.id}/wiederholung/mitte"):
        page = viewer.open(f"{path}?schritt=3")
        assert page.status == 200, page
        targets += sorted({html.unescape(target) for target in HX_GET.findall(page.text)})
    assert any("schritt=" in target for target in targets)
    ledger = ledger_for([subject.id])

    @fuzz_settings(400)
    @given(st.data(), st.sampled_from(targets), st.booleans())
    def ask(data, target, htmx):
        headers = [("HX-Request", "true")] if htmx else []
        if htmx and data.draw(st.booleans()):
            headers.append(("HX-Trigger-Name", data.draw(st.sampled_from(["schritt", "", "schritt "])
                                                         | st.text("abcXYZ019.-_", max_size=12))))
        ledger.answered(viewer.send("GET", mutated_query(target, data.draw), headers))

    ask()
    viewer.close()
    ledger.done(400, record_property)


def test_deleting_a_night_is_refused_unless_a_seat_of_it_asks(ledger_for, live_server, wire, record_property):
    """The night's deletion form: carried out for a phone holding a seat of the night
    (with its CSRF token), whatever else the form holds; refused with a reason for any
    other phone or without the token, and nothing deleted."""
    def night():
        subject = import_subject(wire, "cubirds", 10_000)
        return subject, seated_browser(live_server, subject)

    state = dict(zip(("subject", "seat"), night()))
    stranger = Browser(live_server.url)
    assert stranger.open("/").status == 200 and stranger.csrf
    ledger = ledger_for([state["subject"].id])

    @fuzz_settings(300)
    @given(st.data(), st.sampled_from(["seat", "stranger"]), st.booleans(),
           st.sampled_from(["ok", "ok", "none", "garbage"]))
    def form(data, who, htmx, csrf):
        draw = data.draw
        fields = draw(st.lists(st.tuples(odd_text, form_text), max_size=3))
        browser = state["seat"] if who == "seat" else stranger
        kept = browser.csrf
        if csrf == "garbage":
            browser.csrf = draw(st.sampled_from(["", "null", kept[:-1], kept[::-1]])
                                | st.text("abcXYZ019.-_", max_size=40))  # (a header: latin-1 only)
        answer = browser.post_form(f"/t/{state['subject'].id}/abend/loeschen", fields, htmx, csrf != "none")
        browser.csrf = kept
        if who == "seat" and csrf == "ok":
            assert answer.status == 200 and "gelöscht" in answer.text, answer
            ledger.accepted()
            state["seat"].close()
            state["subject"], state["seat"] = night()
            ledger.watch(state["subject"].id)
        else:
            ledger.refused(answer)

    form()
    state["seat"].close()
    stranger.close()
    ledger.done(300, record_property)


def test_lobby_create_and_join_forms_are_refused_or_carried_out(ledger_for, live_server, wire, record_property):
    """The lobby's forms at a table of one seat (nothing can move, go or start), and
    the forms that create and join tables: a valid one is carried out (303), any
    other is refused with a reason."""
    lobby = lobby_subject(wire)
    browser = seated_browser(live_server, lobby)
    joining = lobby_subject(wire, "gleich-und-gleich", ("Anna",))
    ledger = ledger_for([lobby.id, joining.id])
    option_fields = sorted({f"option-{option.name}" for screen in SCREENS.values() for option in screen.option_fields})
    games = st.sampled_from(sorted(SCREENS)) | form_text
    state = {"joining": joining, "joined": 1}

    @fuzz_settings(1500)
    @given(st.data(), st.sampled_from(["move", "remove", "link", "start", "create", "join"]), st.booleans(),
           st.sampled_from(["ok", "ok", "ok", "none"]))
    def form(data, route, htmx, csrf):
        draw = data.draw
        if route in ("move", "remove", "link", "start"):
            seat = draw(form_text | st.sampled_from(["0", "1", " 0 "]))
            assume(not (route == "link" and csrf == "ok" and DIGITS.fullmatch(as_received(seat))
                        and int(as_received(seat)) == 0))
            path = f"/t/{lobby.id}/start" if route == "start" else f"/t/{lobby.id}/seats/{route}"
            fields = [("seat", seat), ("direction", draw(form_text | st.sampled_from(["up", "down"])))]
            ledger.refused(browser.post_form(path, fields, htmx, csrf == "ok"))
            return
        name = draw(names)
        received = as_received(name)
        if route == "create":
            game = draw(games)
            chosen = draw(st.lists(st.sampled_from(option_fields), unique=True, max_size=3))
            fields = [("game", game), ("name", name)] + [(field, draw(form_text | st.sampled_from(
                ["1", "leicht", "normal", "schwer", "custom", "22", "34"]))) for field in chosen]
            answer = browser.post_form("/tables", fields, htmx, csrf == "ok")
            if answer.status == 303:
                assert csrf == "ok" and as_received(game) in SCREENS and name_ok(received), answer
                ledger.accepted()
            else:
                assert not (csrf == "ok" and as_received(game) in SCREENS and name_ok(received) and not chosen), answer
                ledger.refused(answer)
            return
        guest = Browser(live_server.url)  # a new phone: its own session and CSRF token
        guest.open(f"/j/{state['joining'].join_code}")
        answer = guest.post_form(f"/j/{state['joining'].join_code}", [("name", name)], htmx, csrf == "ok")
        guest.close()
        if csrf == "ok" and name_ok(received):
            assert answer.status == 303, answer
            ledger.accepted()
            state["joined"] += 1
            if state["joined"] == 5:  # full: the next ones join a new table
                state["joining"], state["joined"] = lobby_subject(wire), 1
                ledger.watch(state["joining"].id)
        else:
            ledger.refused(answer)

    form()
    browser.close()
    ledger.done(1500, record_property)


PATHS = ["/t/{}", "/t/{}/sync", "/t/{}/controls", "/t/{}/mitte", "/t/{}/record.json", "/t/{}/qr.svg", "/j/{}",
         "/t/{}/s/{}", "/api/tables/{}", "/api/tables/{}/state", "/api/tables/{}/record", "/t/{}/event",
         "/t/{}/undo", "/t/{}/rematch", "/t/{}/start", "/t/{}/seats/move", "/{}", "/static/{}", "/{}/{}"]


def test_random_paths_are_refused_with_a_reason(ledger_for, live_server, wire, record_property):
    subject = import_subject(wire, "cubirds", 9)
    ledger = ledger_for([subject.id])
    segment = st.text(max_size=30) | st.binary(max_size=30) | st.sampled_from(
        ["x" * 5000, "%00", "..", ".", "%2e%2e", "\x00", subject.join_code.lower()[:5], subject.id[:-1]])

    @fuzz_settings(800)
    @given(st.sampled_from(PATHS), segment, segment, st.sampled_from(["GET", "POST", "PUT", "DELETE"]))
    def visit(path, first, second, method):
        parts = [part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass") for part in (first, second)]
        assume(b"/" not in parts[0] + parts[1])  # (werkzeug redirects "//" to "/": no refusal, no page)
        assume(parts[0] not in (subject.id.encode(), subject.join_code.encode(), b"", b"static"))
        ledger.refused(wire.send(method, path.format(*(quote(part, safe="") for part in parts))))

    visit()
    ledger.done(800, record_property)
