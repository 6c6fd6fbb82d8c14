"""webapp/doorbell.py: the processes on one SQLite file ring each other after a commit."""
from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from webapp.doorbell import Doorbells, doorbells_for


@pytest.fixture
def database(tmp_path: Path) -> str:
    return str(tmp_path / "kartentisch.sqlite3")


def hung_out(doorbells: Doorbells):
    """``doorbells`` listening in a thread: (rings heard, stop), once it listens."""
    heard, wanted, ready = threading.Semaphore(0), threading.Event(), threading.Event()
    wanted.set()
    listener = threading.Thread(target=doorbells.listen, args=(wanted.is_set, ready.set, None, heard.release))
    listener.start()
    assert ready.wait(2)

    def stop():
        wanted.clear()
        listener.join(timeout=5)
        assert not listener.is_alive()

    return heard, stop


def test_a_ring_reaches_the_other_process_on_the_same_file_and_no_other(database, tmp_path):
    here, there, elsewhere = Doorbells(database), Doorbells(database), Doorbells(str(tmp_path / "other.sqlite3"))
    heard_there, stop_there = hung_out(there)
    heard_here, stop_here = hung_out(here)
    heard_elsewhere, stop_elsewhere = hung_out(elsewhere)
    try:
        here.ring()
        assert heard_there.acquire(timeout=2)
        assert not heard_here.acquire(timeout=0.2)  # its own commit: its watch was poked directly
        assert not heard_elsewhere.acquire(timeout=0.1)  # another database
    finally:
        stop_here(), stop_there(), stop_elsewhere()
    assert not here.folder.exists()  # taken down when nobody waits, the folder by the last one


def test_a_folder_removed_just_before_the_doorbell_is_hung_out_is_made_anew(database):
    doorbells = Doorbells(database)

    class Racing:
        """A doorbell whose folder another process removes (as empty) just before the first bind."""

        def __init__(self):
            self.socket, self.binds = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM), 0

        def bind(self, path):
            self.binds += 1
            if self.binds == 1:
                doorbells.folder.rmdir()
            self.socket.bind(path)

    racing = Racing()
    with racing.socket:
        path = doorbells._hang_out(racing)
        assert racing.binds == 2 and Path(path).exists()
        Path(path).unlink()


def test_the_doorbell_of_a_process_that_died_is_taken_down_by_the_next_ring(database):
    doorbells = Doorbells(database)
    doorbells.folder.mkdir(mode=0o700, exist_ok=True)
    left_behind = doorbells.folder / "99999999-dead.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as gone:
        gone.bind(str(left_behind))
    assert left_behind.exists()
    doorbells.ring()
    assert not left_behind.exists()


def test_ringing_with_nobody_listening_changes_nothing(database):
    doorbells = Doorbells(database)
    assert not doorbells.folder.exists()
    doorbells.ring()
    assert not doorbells.folder.exists()


def test_only_a_database_file_has_doorbells(database):
    assert doorbells_for(database) is not None
    assert doorbells_for(":memory:") is None and doorbells_for(None) is None
