"""webapp/watch.py: held polls end when their table's revision moves on, when
the hold runs out, when no hold is free, or when the watch closes."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from webapp.watch import RevisionWatch

LONG = 10.0  # a hold that a passing test never waits out


class FakeTables:
    """Revisions as the database would report them, with a count of the reads."""

    def __init__(self, **revisions: int):
        self.revisions = dict(revisions)
        self.reads = 0
        self.read = threading.Event()

    def __call__(self, table_ids: list[str]) -> dict[str, int]:
        self.reads += 1
        self.read.set()
        return {t: self.revisions[t] for t in table_ids if t in self.revisions}


def started(watch: RevisionWatch, table_id: str, revision: int, seconds: float = LONG):
    """Start ``watch.wait`` in a thread; return its future at once."""
    pool = ThreadPoolExecutor(1)
    future = pool.submit(watch.wait, table_id, revision, seconds)
    pool.shutdown(wait=False)
    return future


def waiting(watch: RevisionWatch, table_id: str, revision: int, seconds: float = LONG):
    """Start ``watch.wait`` in a thread; return the future once it is held (while no
    other poll ends meanwhile: that would hide the new hold from the count)."""
    held_before = watch.held
    future = started(watch, table_id, revision, seconds)
    deadline = time.monotonic() + 5
    while watch.held == held_before and not future.done():
        assert time.monotonic() < deadline, "the poll was never held"
        time.sleep(0.001)
    return future


def test_a_held_poll_ends_when_another_process_moves_its_table_on():
    tables = FakeTables(a=3, b=7)
    watch = RevisionWatch(tables, holds=4, interval=0.01)
    held = waiting(watch, "a", 3)
    other = waiting(watch, "b", 7)
    tables.revisions["a"] = 4
    assert held.result(timeout=2) is True
    assert not other.done()  # table b did not change: its phone still waits
    watch.close()
    assert other.result(timeout=2) is False


def test_the_hold_runs_out_unchanged():
    watch = RevisionWatch(FakeTables(a=3), holds=4, interval=0.01)
    started = time.monotonic()
    assert watch.wait("a", 3, 0.2) is False
    assert 0.2 <= time.monotonic() - started < 2
    assert watch.held == 0


def test_beyond_its_holds_a_poll_is_answered_at_once():
    watch = RevisionWatch(FakeTables(a=3), holds=2, interval=0.01)
    first, second = waiting(watch, "a", 3), waiting(watch, "a", 3)
    started = time.monotonic()
    assert watch.wait("a", 3, LONG) is False
    assert time.monotonic() - started < 1
    assert watch.held == 2 and not first.done() and not second.done()
    watch.close()
    assert first.result(timeout=2) is second.result(timeout=2) is False
    assert watch.held == 0


@pytest.mark.parametrize("holds, seconds", [(0, LONG), (4, 0)])
def test_no_holds_or_no_time_means_no_waiting(holds, seconds):
    watch = RevisionWatch(FakeTables(a=3), holds=holds, interval=0.01)
    started = time.monotonic()
    assert watch.wait("a", 3, seconds) is False
    assert time.monotonic() - started < 1


def test_a_phone_that_knows_a_newer_revision_wakes_the_older_ones():
    tables = FakeTables(a=3)  # the reader still reports 3: the newer revision comes from the phone
    watch = RevisionWatch(tables, holds=4, interval=0.01)
    older = waiting(watch, "a", 3)
    with ThreadPoolExecutor(1) as pool:
        newer = pool.submit(watch.wait, "a", 4, LONG)
        assert older.result(timeout=2) is True
        time.sleep(0.05)
        assert not newer.done() and watch.held == 1  # the newer phone waits on
        watch.close()
        assert newer.result(timeout=2) is False


def test_the_reader_stops_when_nobody_waits_and_survives_a_failing_database():
    calls = []

    def flaky(table_ids):
        calls.append(table_ids)
        if len(calls) == 1:
            raise OSError("database gone for a moment")
        return {"a": 9}

    def readers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "revision-watch"}

    others = readers()  # of other tests' watches
    watch = RevisionWatch(flaky, holds=4, interval=0.01)
    assert watch.wait("a", 3, LONG) is True
    assert len(calls) >= 2
    deadline = time.monotonic() + 2
    while readers() - others:
        assert time.monotonic() < deadline, "the reader thread kept running with nobody waiting"
        time.sleep(0.01)


def test_a_closed_watch_holds_nothing():
    watch = RevisionWatch(FakeTables(a=3), holds=4, interval=0.01)
    watch.close()
    started = time.monotonic()
    assert watch.wait("a", 3, LONG) is False
    assert time.monotonic() - started < 1


class FakeListener:
    """Stands for PostgreSQL's LISTEN: announces what ``announce`` is given."""

    def __init__(self, fail: bool = False):
        self.fail = fail
        self.started = 0
        self.queue: list[tuple[str, int]] = []
        self.ready = threading.Event()

    def __call__(self, still_wanted, listening, tell):
        self.started += 1
        if self.fail:
            raise ConnectionError("no database to listen to")
        listening()
        self.ready.set()
        while still_wanted():
            while self.queue:
                tell(*self.queue.pop(0))
            time.sleep(0.005)


def test_while_listening_a_change_comes_at_once_and_the_reads_slow_down():
    tables, listener = FakeTables(a=3), FakeListener()
    watch = RevisionWatch(tables, holds=4, interval=0.01, listen=listener, listening_interval=LONG)
    held = waiting(watch, "a", 3)
    assert listener.ready.wait(2) and watch.listening
    time.sleep(0.1)  # the reader's last quick wait ends; from now on it reads every LONG seconds
    reads = tables.reads
    time.sleep(0.2)
    assert tables.reads == reads  # not every 10 ms any more
    started = time.monotonic()
    listener.queue.append(("a", 4))  # the database still reports 3 to a read: only the listener knows
    assert held.result(timeout=2) is True
    assert time.monotonic() - started < 1
    watch.close()


def test_a_revision_announced_just_before_a_phone_comes_is_not_missed():
    tables, listener = FakeTables(a=3, b=1), FakeListener()
    watch = RevisionWatch(tables, holds=4, interval=LONG, listen=listener, listening_interval=LONG)
    other = waiting(watch, "b", 1)  # someone waits, so the listener runs
    assert listener.ready.wait(2)
    watch.tell("a", 4)  # nobody waited for table a yet
    started = time.monotonic()
    assert watch.wait("a", 3, LONG) is True
    assert time.monotonic() - started < 1
    watch.close()
    assert other.result(timeout=2) is False


def test_when_listening_fails_the_reads_carry_on_at_their_own_pace(caplog):
    tables, listener = FakeTables(a=3), FakeListener(fail=True)
    watch = RevisionWatch(tables, holds=4, interval=0.01, listen=listener, listening_interval=LONG)
    held = waiting(watch, "a", 3)
    time.sleep(0.1)
    assert listener.started == 1 and not watch.listening
    assert [r.levelname for r in caplog.records if r.name == "webapp.watch"] == ["ERROR"]
    tables.revisions["a"] = 4
    assert held.result(timeout=2) is True  # found by a read
    assert watch.wait("a", 4, 0.05) is False
    assert listener.started == 1  # not tried again at once: a little later


class CutOnClose(FakeListener):
    """A listener whose connection is cut as the app shuts down (the database goes with it)."""

    def __call__(self, still_wanted, listening, tell):
        super().__call__(still_wanted, listening, tell)
        raise ConnectionError("the connection was closed")


def test_a_listener_cut_off_by_the_shutdown_is_no_error(caplog):
    tables, listener = FakeTables(a=3), CutOnClose()
    watch = RevisionWatch(tables, holds=4, interval=LONG, listen=listener, listening_interval=LONG)
    held = waiting(watch, "a", 3)
    assert listener.ready.wait(2) and watch.listening
    watch.close()
    assert held.result(timeout=2) is False
    deadline = time.monotonic() + 2
    while watch.listening:
        assert time.monotonic() < deadline, "the listener never ended"
        time.sleep(0.005)
    time.sleep(0.05)  # its last words, if any, are logged by now
    assert [r.levelname for r in caplog.records if r.name == "webapp.watch"] in ([], ["DEBUG"])


def test_a_quiet_database_is_not_read_again_unless_a_new_table_is_watched():
    tables = FakeTables(a=3, b=1)
    committed = threading.Event()  # stands for PRAGMA data_version having moved

    def quiet() -> bool:
        moved = committed.is_set()
        committed.clear()
        return not moved

    watch = RevisionWatch(tables, holds=4, interval=0.01, quiet=quiet)
    held = waiting(watch, "a", 3)
    assert tables.read.wait(2)
    time.sleep(0.1)
    reads = tables.reads
    tables.revisions["a"] = 4  # written where the quiet check cannot see it: not read
    time.sleep(0.1)
    assert tables.reads == reads and not held.done()
    other = started(watch, "b", 1)  # a table the last read did not cover: read at once ...
    assert held.result(timeout=2) is True  # ... and that read finds table a moved on
    assert tables.reads == reads + 1 and watch.held == 1 and not other.done()  # b was read, so held
    tables.revisions["b"] = 2
    committed.set()  # a commit: read again
    assert other.result(timeout=2) is True


def test_what_the_watch_heard_of_is_known_until_a_hold_runs_out():
    tables = FakeTables(a=3)
    watch = RevisionWatch(tables, holds=4, interval=0.01)
    assert watch.known("a") is None  # never heard of: the sync reads it
    watch.tell("a", 4)
    watch.tell("a", 2)  # an older revision heard late changes nothing
    assert watch.known("a") == 4
    tables.revisions["a"] = 4
    assert watch.wait("a", 4, 0.05) is False
    assert watch.known("a") is None  # the next poll asks the database again (a table deleted meanwhile, say)
    watch.close()


def test_a_revision_found_by_a_read_is_known():
    tables = FakeTables(a=3)
    watch = RevisionWatch(tables, holds=4, interval=0.01)
    held = waiting(watch, "a", 2)
    assert held.result(timeout=2) is True
    assert watch.known("a") == 3
    watch.close()


def test_once_listening_what_was_heard_before_is_asked_of_the_database_again():
    """Before the listener listens, another process's commits go unheard: what the watch
    knew then may be old."""
    tables, listener = FakeTables(a=3, b=1), FakeListener()
    watch = RevisionWatch(tables, holds=4, interval=LONG, listen=listener, listening_interval=LONG)
    watch.tell("a", 3)
    other = waiting(watch, "b", 1)  # someone waits: the listener starts
    assert listener.ready.wait(2)
    assert watch.known("a") is None
    listener.queue.append(("a", 5))
    deadline = time.monotonic() + 2
    while watch.known("a") != 5:
        assert time.monotonic() < deadline, "the listener's news never arrived"
        time.sleep(0.005)
    watch.close()
    assert other.result(timeout=2) is False


def test_a_poll_that_finds_no_hold_free_makes_the_next_one_ask_the_database():
    """Not held, it is not woken by a change either: the revision heard of may be old by then."""
    watch = RevisionWatch(FakeTables(a=4), holds=0, interval=0.01)
    watch.tell("a", 4)
    assert watch.wait("a", 4, LONG) is False
    assert watch.known("a") is None
