"""SQLite's stand-in for PostgreSQL's NOTIFY: the processes serving one database
file (gunicorn's workers) ring each other's doorbell after a commit, so a phone
held in another worker hears of an entry at once rather than at that worker's
next look at the database.

A doorbell is a UNIX datagram socket in a folder of the temporary directory
named after the database file; a process has one only while phones wait in it
(``listen``). The ring carries nothing: the woken watch reads the revisions
itself. A socket left behind by a process that died refuses the ring and is
removed by the ringer; the last process to take its doorbell down removes the folder.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import socket
import tempfile
from collections.abc import Callable
from pathlib import Path

from .watch import LISTEN_SECONDS

RING = b"!"
HANG_OUT_ATTEMPTS = 3


class Doorbells:
    """The doorbells of the processes serving the database file at ``database_path``."""

    def __init__(self, database_path: str):
        digest = hashlib.sha256(os.path.abspath(database_path).encode()).hexdigest()[:12]
        self.folder = Path(tempfile.gettempdir()) / f"kt-{digest}"  # short: socket paths have ~100 bytes
        self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sender.setblocking(False)
        self._own: str | None = None

    def ring(self) -> None:
        """Something was committed here: ring every other process's doorbell."""
        try:
            doorbells = [entry.path for entry in os.scandir(self.folder) if entry.name.endswith(".sock")]
        except FileNotFoundError:
            return  # nobody listens
        for path in doorbells:
            if path == self._own:
                continue
            try:
                self._sender.sendto(RING, path)
            except ConnectionRefusedError:  # its process is gone
                Path(path).unlink(missing_ok=True)
            except (FileNotFoundError, BlockingIOError):
                pass  # gone meanwhile, or rung so often that its queue is full: it reads anyway

    def listen(self, still_wanted: Callable[[], bool], listening: Callable[[], None],
               _tell, poke: Callable[[], None]) -> None:
        """Hang out this process's doorbell and ``poke`` at every ring, until
        ``still_wanted()`` is False (``watch.Listen``)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as doorbell:
            path = self._hang_out(doorbell)
            self._own = path
            try:
                doorbell.settimeout(LISTEN_SECONDS)
                listening()
                while still_wanted():
                    try:
                        doorbell.recv(len(RING))
                    except TimeoutError:
                        continue
                    poke()
            finally:
                self._own = None
                Path(path).unlink(missing_ok=True)
                with contextlib.suppress(OSError):  # another process's doorbell is still there
                    self.folder.rmdir()

    def _hang_out(self, doorbell: socket.socket) -> str:
        """Bind ``doorbell`` in the folder, made anew where another process has just
        removed it as empty."""
        path = str(self.folder / f"{os.getpid()}-{secrets.token_hex(3)}.sock")
        attempts = HANG_OUT_ATTEMPTS
        while True:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            try:
                doorbell.bind(path)
                return path
            except FileNotFoundError:
                attempts -= 1
                if attempts == 0:
                    raise


def doorbells_for(database_path: str | None) -> Doorbells | None:
    """Doorbells for an SQLite file where the system has UNIX datagram sockets."""
    if not database_path or database_path == ":memory:" or not hasattr(socket, "AF_UNIX"):
        return None
    try:
        return Doorbells(database_path)
    except OSError:  # e.g. Windows: AF_UNIX, but no datagrams
        return None
