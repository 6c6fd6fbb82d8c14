"""webapp/sync.py: every sync poll of a known table is answered before Flask —
the unchanged one with an empty 204, a changed one with the regions drawn once
for its perspective — and exactly as the ``play.sync`` view would answer it."""
from __future__ import annotations

import gzip
from functools import partial

import pytest
from flask import Flask, request, request_started
from werkzeug.test import Client

from webapp import store

from .conftest import random_events


@pytest.fixture
def flask_requests(app):
    """The paths of the requests that reached Flask (the sync polls of known tables never do)."""
    seen: list[str] = []

    def note(sender, **_extra):
        seen.append(request.full_path)

    request_started.connect(note, app)
    yield seen
    request_started.disconnect(note, app)


@pytest.fixture
def normal_view(app):
    """A client of the same app without the sync in front: Flask's own WSGI callable."""
    return Client(partial(Flask.wsgi_app, app), app.response_class)


def revision_of(app, table_id: str) -> int:
    with app.app_context():
        return store.get_table(table_id).revision


def test_the_current_revision_gets_an_empty_204_without_entering_flask(app, client, new_table, flask_requests):
    table = new_table()
    rev = revision_of(app, table.id)
    flask_requests.clear()
    answer = client.get(f"/t/{table.id}/sync?rev={rev}")
    assert answer.status_code == 204
    assert answer.data == b""
    assert "Set-Cookie" not in answer.headers
    assert flask_requests == []


def test_a_stale_revision_gets_the_regions_without_entering_flask(app, client, new_table, flask_requests,
                                                                  normal_view):
    table = new_table()
    rev = revision_of(app, table.id)
    flask_requests.clear()
    answer = client.get(f"/t/{table.id}/sync?rev={rev - 1}", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    text = gzip.decompress(answer.data).decode()
    assert f'rev={rev}' in text and 'id="board"' in text  # the regions and the new poller
    assert flask_requests == []
    assert normal_view.get(f"/t/{table.id}/sync?rev={rev - 1}").get_data(as_text=True) == text


def test_a_revision_of_another_table_is_not_taken_for_this_ones(app, client, new_table, flask_requests):
    busy, quiet = new_table(), new_table(start=False, names=("Dora",))
    busy_rev, quiet_rev = revision_of(app, busy.id), revision_of(app, quiet.id)
    assert busy_rev != quiet_rev  # the premise: 3 joins and a start against none
    flask_requests.clear()
    assert client.get(f"/t/{quiet.id}/sync?rev={busy_rev}").status_code == 200


def test_an_unknown_table_goes_to_the_view_and_gets_its_404(client, flask_requests, normal_view):
    for path in ("/t/NoSuchTable123/sync?rev=0", "/t/NoSuchTable123/sync?rev=None"):
        assert normal_view.get(path).status_code == 404
        flask_requests.clear()
        assert client.get(path).status_code == 404
        assert flask_requests == [path]


@pytest.mark.parametrize("query", [
    "", "rev=", "rev=abc", "rev=%ZZ", "rev=1e3", "rev=-1", "ref={rev}", "rev={rev}x", "rev=+{rev}",
    "rev={rev}&rev=0", "rev=0&rev={rev}", "rev={rev}&phase=lobby",
])
def test_any_query_gets_the_status_of_the_normal_view(app, client, new_table, normal_view, flask_requests, query):
    table = new_table()
    query = query.format(rev=revision_of(app, table.id))
    path = f"/t/{table.id}/sync?{query}"
    expected = normal_view.get(path).status_code
    flask_requests.clear()
    answer = client.get(path)
    assert answer.status_code == expected and flask_requests == []


@pytest.mark.parametrize("path", ["/t/{id}/sync/?rev={rev}", "/t/{id}/sync?rev={rev}&", "/t/{id}/syncx?rev={rev}"])
def test_only_the_exact_sync_path_is_answered_early(app, client, new_table, normal_view, flask_requests, path):
    table = new_table()
    path = path.format(id=table.id, rev=revision_of(app, table.id))
    expected = normal_view.get(path).status_code
    flask_requests.clear()
    answer = client.get(path)
    assert answer.status_code == expected
    assert flask_requests == ([] if path.startswith(f"/t/{table.id}/sync?") else [path])


def test_other_methods_go_to_flask(app, client, new_table, flask_requests):
    table = new_table()
    path = f"/t/{table.id}/sync?rev={revision_of(app, table.id)}"
    flask_requests.clear()
    assert client.post(path).status_code == 405
    assert len(flask_requests) == 1


def test_a_new_entry_ends_the_204_at_once(app, client, new_table):
    table = new_table(names=("Anna", "Ben"))
    rev = revision_of(app, table.id)
    assert client.get(f"/t/{table.id}/sync?rev={rev}").status_code == 204
    state = client.get(f"/api/tables/{table.id}/state", headers=table.auth()).json
    first = random_events("gleich-und-gleich", 2, seed=3)[0]
    entered = client.post(f"/api/tables/{table.id}/events", headers=table.auth(),
                          json={"event": first, "version": state["version"]})
    assert entered.status_code == 200, entered.json
    assert client.get(f"/t/{table.id}/sync?rev={rev}").status_code == 200
    assert client.get(f"/t/{table.id}/sync?rev={rev + 1}").status_code == 204


@pytest.mark.parametrize("caller", ["viewer", "seat-elsewhere", "seated"])
@pytest.mark.parametrize("started", [True, False])
def test_no_caller_learns_more_than_from_the_normal_view(app, new_table, caller, started):
    """Seated or not: every poll gets the status the normal view gives that
    caller, and an early 204 carries no body and no header beyond the status."""
    table = new_table(start=started)
    other = new_table()
    fast = app.test_client()
    normal = Client(partial(Flask.wsgi_app, app), app.response_class)
    if caller != "viewer":
        seat_table, token = (table, table.tokens[1]) if caller == "seated" else (other, other.tokens[0])
        for browser in (fast, normal):
            assert browser.get(f"/t/{seat_table.id}/s/{token}").status_code == 302
    rev = revision_of(app, table.id)
    for query in (f"rev={rev}", f"rev={rev - 1}", "rev=x", ""):
        path = f"/t/{table.id}/sync?{query}"
        fast_answer, normal_answer = fast.get(path), normal.get(path)
        assert fast_answer.status_code == normal_answer.status_code, path
        if fast_answer.status_code == 204:
            assert fast_answer.data == b""
            assert not set(fast_answer.headers.keys()) - {"Content-Length"}, dict(fast_answer.headers)


def test_a_phone_whose_seat_went_to_another_phone_is_sent_to_the_table_page(app, new_table):
    """C10: its next sync answer sends it to the table page (HX-Location), cheaply."""
    table = new_table()
    ben = app.test_client()
    assert ben.get(f"/t/{table.id}/s/{table.tokens[1]}").status_code == 302
    rev = revision_of(app, table.id)
    assert ben.get(f"/t/{table.id}/sync?rev={rev}").status_code == 204
    moved = app.test_client().post(f"/api/tables/{table.id}/seats/1/token", headers=table.auth())
    assert moved.status_code == 200  # Ben's seat has a new link: his phone's token holds no seat
    answer = ben.get(f"/t/{table.id}/sync?rev={rev}&phase=play")
    assert answer.status_code == 204 and answer.headers["HX-Location"] == f"/t/{table.id}"
    assert "HX-Location" not in app.test_client().get(f"/t/{table.id}/sync?rev={rev}&phase=play").headers


def test_cookies_that_are_not_the_servers_are_not_kept(app, new_table):
    """A made-up session cookie holds no seat, and is not kept: clients that send ever new
    ones cannot fill the memory. The server's own cookies are kept, decoded once."""
    table = new_table(start=True)
    sync = app.extensions["sync"]
    kept = len(sync._tokens)
    for n in range(50):
        phone = app.test_client()
        phone.set_cookie(app.config["SESSION_COOKIE_NAME"], f"made-up.{n}.cookie")
        assert phone.get(f"/t/{table.id}/sync?rev=0&phase=play").status_code == 200  # a watcher's regions
    assert len(sync._tokens) == kept
    ben = app.test_client()
    assert ben.get(f"/t/{table.id}/s/{table.tokens[1]}").status_code == 302
    assert "Du schaust zu" not in ben.get(f"/t/{table.id}/sync?rev=0&phase=play").text
    assert len(sync._tokens) == kept + 1
