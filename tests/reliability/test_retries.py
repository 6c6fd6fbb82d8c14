"""The same idempotency key again (lost answer, double tap) applies once and
gets the very same answer — over real HTTP against the live server."""
from __future__ import annotations

import os
import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engine.randomplay import random_record

sys.path.insert(0, str(Path(__file__).parent))
from phones import Phone, seat_players  # noqa: E402
from test_races import event_seqs  # noqa: E402

RETRY_ROUNDS = int(os.environ.get("KT_RETRY_ROUNDS", "100"))
COPIES = 4  # the same entry sent at once by this many connections
GAME, PLAYERS = "gleich-und-gleich", ["Anna", "Ben", "Carla"]


def test_copies_of_one_entry_sent_at_once_apply_once_with_one_answer(live_server):
    setup = Phone(live_server.url)
    events = random_record(GAME, {}, len(PLAYERS), 3)["events"][:RETRY_ROUNDS]
    table = seat_players(setup, GAME, PLAYERS)
    barrier = threading.Barrier(COPIES, timeout=60)
    phones = threading.local()

    def send(body: dict) -> tuple[int, dict]:
        if not hasattr(phones, "phone"):
            phones.phone = Phone(live_server.url)
        barrier.wait()
        return phones.phone.call("POST", f"/api/tables/{table.id}/events", body, token=table.tokens[0])

    with ThreadPoolExecutor(max_workers=COPIES) as pool:
        for version, event in enumerate(events):
            body = {"event": event, "version": version, "key": uuid.uuid4().hex}
            answers = list(pool.map(send, [body] * COPIES))
            assert all(status == 200 for status, _ in answers), answers
            assert all(answer == answers[0][1] for _, answer in answers), "every copy gets the same answer"
            assert answers[0][1]["version"] == version + 1
    assert event_seqs(live_server.database_url, table.id) == list(range(1, len(events) + 1))


def test_a_lost_answer_asked_again_later_gets_the_stored_answer(live_server):
    phone = Phone(live_server.url)
    events = random_record(GAME, {}, len(PLAYERS), 4)["events"]
    table = seat_players(phone, GAME, PLAYERS)
    path = f"/api/tables/{table.id}"
    first = {"event": events[0], "version": 0, "key": "first-entry"}
    status, answer = phone.call("POST", f"{path}/events", first, token=table.tokens[0])
    assert status == 200
    status, _ = phone.call("POST", f"{path}/events", {"event": events[1], "version": 1, "key": "second"},
                           token=table.tokens[1])
    assert status == 200
    undo = {"version": 2, "key": "undo-once"}
    status, undone = phone.call("POST", f"{path}/undo", undo, token=table.tokens[2])
    assert status == 200 and undone["version"] == 3

    # the answers got lost; each phone sends the same entry again, from another seat even
    assert phone.call("POST", f"{path}/events", first, token=table.tokens[2]) == (200, answer)
    assert phone.call("POST", f"{path}/undo", undo, token=table.tokens[0]) == (200, undone)
    status, now = phone.call("GET", f"{path}/state", token=table.tokens[0])
    assert (status, now["version"]) == (200, 3)
    assert event_seqs(live_server.database_url, table.id) == [1, 2, 3]
    status, record = phone.call("GET", f"{path}/record", token=table.tokens[0])
    assert record["events"] == events[:1], "the undo took back the second entry only, once"
