"""Held sync polls: a phone whose table has not changed waits here until the
table's revision moves on (or the hold ends), instead of asking again and again.

One watch per app and process. While phones wait, a thread reads the
revisions of their tables (one SELECT for all of them) every ``interval``
seconds — that is how an entry made in another worker, or on another machine,
is noticed; on SQLite it reads only when ``PRAGMA data_version`` (far cheaper
than the SELECT) says that something was committed since. A commit in this
process is told at once (``tell``). Where the other processes' commits
can be heard (PostgreSQL's LISTEN), a second thread listens for them while
phones wait and the reads become a safety net, every ``listening_interval``
seconds. ``close`` lets every held poll go (shutdown).
Each held poll occupies a server thread, so at most ``holds`` are held at a
time; beyond that a poll is answered at once, as without holding.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

ReadRevisions = Callable[[list[str]], dict[str, int]]
# quiet(): True if nothing was committed to the database since the last call (cheaper than a read)
Quiet = Callable[[], bool]
# listen(still_wanted, listening, tell): block until still_wanted() is False, calling
# tell(table_id, revision) for each change; listening() once it hears every change.
Listen = Callable[[Callable[[], bool], Callable[[], None], Callable[[str, int], None]], None]
RECENT = 4096  # revisions heard of lately, also of tables nobody waited for at the time
RELISTEN_AFTER = 5.0  # seconds after a failed listen before it is tried again
LISTEN_SECONDS = 0.5  # how long a listener waits for news before it asks still_wanted() again


@dataclass
class _Watched:
    """A table with phones waiting: the highest revision seen, and their condition."""

    revision: int
    moved: threading.Condition
    waiting: int = 0


class RevisionWatch:
    def __init__(self, read_revisions: ReadRevisions, holds: int, interval: float,
                 listen: Listen | None = None, listening_interval: float = 1.0, quiet: Quiet | None = None):
        self._read_revisions = read_revisions
        self._quiet = quiet
        self.holds = holds
        self._interval = interval
        self._listen = listen
        self._listening_interval = listening_interval
        self._lock = threading.Lock()
        self._tables: dict[str, _Watched] = {}
        self._recent: OrderedDict[str, int] = OrderedDict()
        self._held = 0
        self._closing = threading.Event()  # set by close: the reader stops waiting
        self._reader: threading.Thread | None = None
        self._listener: threading.Thread | None = None
        self._listening = False
        self._listen_failed_at = -RELISTEN_AFTER
        self._closed = False

    def wait(self, table_id: str, revision: int, seconds: float) -> bool:
        """Block until the table's revision passes ``revision`` (True), or until
        ``seconds`` have passed, no hold is free or the watch closes (False)."""
        with self._lock:
            if self._closed or self._held >= self.holds or seconds <= 0:
                self._recent.pop(table_id, None)  # not held, so not woken: the next poll asks the database
                return False
            if self._recent.get(table_id, -1) > revision:  # heard of just before this phone came
                return True
            watched = self._tables.get(table_id)
            if watched is None:
                watched = self._tables[table_id] = _Watched(revision, threading.Condition(self._lock))
            elif revision > watched.revision:  # this phone knows a newer revision than the watch
                self._moved(watched, revision)
            watched.waiting += 1
            self._held += 1
            self._start_threads()
            try:
                moved = watched.moved.wait_for(lambda: watched.revision > revision or self._closed, seconds)
                if not moved:  # a hold ran out: the next poll asks the database again (a table deleted, say)
                    self._recent.pop(table_id, None)
                return watched.revision > revision and not self._closed
            finally:
                watched.waiting -= 1
                self._held -= 1
                if watched.waiting == 0:
                    del self._tables[table_id]

    def tell(self, table_id: str, revision: int) -> None:
        """The table is at ``revision`` now (committed here, or heard from the database)."""
        with self._lock:
            self._heard(table_id, revision)

    def known(self, table_id: str) -> int | None:
        """The table's newest revision as heard of lately (None: not heard of). Every
        commit of this process is told; another process's is heard from the database
        (LISTEN, or the reads while phones wait), so a poll held at a revision heard
        of here is woken by the next change, wherever it is made."""
        with self._lock:
            return self._recent.get(table_id)

    def close(self) -> None:
        """Let every held poll go (unanswered by a change) and hold no more (shutdown)."""
        with self._lock:
            self._closed = True
            for watched in self._tables.values():
                watched.moved.notify_all()
        self._closing.set()

    @property
    def held(self) -> int:
        return self._held

    @property
    def listening(self) -> bool:
        """Whether the database's announcements are heard (the reads are only a safety net)."""
        return self._listening

    def _heard(self, table_id: str, revision: int) -> None:
        """With the lock held: the table is at ``revision``; its waiting phones are woken."""
        self._recent[table_id] = max(revision, self._recent.get(table_id, revision))
        self._recent.move_to_end(table_id)
        if len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        watched = self._tables.get(table_id)
        if watched is not None and revision > watched.revision:
            self._moved(watched, revision)

    @staticmethod
    def _moved(watched: _Watched, revision: int) -> None:
        watched.revision = revision
        watched.moved.notify_all()

    def _waited_for(self) -> bool:
        return bool(self._tables) and not self._closed

    def _start_threads(self) -> None:
        """With the lock held, a phone waiting: make sure someone looks for changes."""
        if self._reader is None:
            self._reader = threading.Thread(target=self._read_while_waited_for, name="revision-watch",
                                            daemon=True)
            self._reader.start()
        if (self._listen is not None and self._listener is None
                and time.monotonic() - self._listen_failed_at >= RELISTEN_AFTER):
            self._listener = threading.Thread(target=self._listen_while_waited_for, name="revision-listen",
                                              daemon=True)
            self._listener.start()

    def _read_while_waited_for(self) -> None:
        """The reader thread: ends when nobody waits (the next wait starts it again).
        With ``quiet`` it reads only when something was committed since its last read,
        or a table is watched that the last read did not cover."""
        covered: set[str] = set()
        while True:
            with self._lock:
                table_ids = list(self._tables)
                if not self._waited_for():
                    self._reader = None
                    return
            try:
                if self._quiet is not None and covered.issuperset(table_ids) and self._quiet():
                    revisions = {}
                else:
                    covered = set(table_ids)
                    revisions = self._read_revisions(table_ids)
            except Exception:  # noqa: BLE001 — a database hiccup must not end the watch; polls time out meanwhile
                log.exception("reading the revisions of %d tables failed", len(table_ids))
                revisions = {}
            with self._lock:
                for table_id, revision in revisions.items():
                    self._heard(table_id, revision)
            self._closing.wait(self._listening_interval if self._listening else self._interval)

    def _listen_while_waited_for(self) -> None:
        """The listener thread: ends when nobody waits, or when listening fails (then the
        reader reads at its own pace again, and listening is tried anew a little later)."""
        try:
            self._listen(self._waited_for, self._now_listening, self.tell)
        except Exception:  # noqa: BLE001 — e.g. the database went away; the reads carry on
            if self._closed:  # shutting down: its connection may be cut before it noticed
                log.debug("listening for revisions ended with the watch closed", exc_info=True)
            else:
                log.exception("listening for revisions failed; reading them every %s s", self._interval)
            self._listen_failed_at = time.monotonic()
        finally:
            with self._lock:
                self._listening = False
                self._listener = None
                if self._waited_for():  # a phone came while it was ending
                    self._start_threads()

    def _now_listening(self) -> None:
        """From now on every commit is heard: what was heard of before (while not
        listening, another process's commits went unheard) is asked of the database again."""
        with self._lock:
            self._recent.clear()
            self._listening = True
