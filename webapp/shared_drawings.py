"""Drawings shared by the processes on one PostgreSQL database.

On PostgreSQL the app runs in several processes (gunicorn's workers, other
machines), each holding polls of the same tables. The process where a change is
made draws the new regions (``Sync.publish``), stores each drawing here, and only
then announces the change (``NOTIFY``): the phones that the announcement wakes in
the other processes find the drawing here instead of drawing it once more. So a
change costs one drawing per perspective, however many processes serve its phones.

One row per table, language, perspective and view holds the newest drawing
(gzipped); a table's rows go with it. The table is a cache: unlogged, so storing a
drawing writes no log and its commit waits for no disk (after a crash it is empty,
and the processes draw what they do not find). SQLite runs in one process: there
the drawings in its memory are all there are, and nothing is stored.

A change is stored and announced by one statement (``publish``): its drawings go
into the table, and its notes out on ``CHANNEL`` when that commits, so a process
that hears of a change finds its drawings stored. The notes are JSON: first each
drawing that fits into a note (PostgreSQL takes up to 8,000 bytes), base64 of its
gzip, which a process keeps if its phones asked for that drawing — no fetch —; then
the announcement, with a digest of the table's seats, so that a process that read
the same seats at an earlier revision need not read them again, and the entry that
made the change, so that a process need not read it for its log or its replay. Every
note begins with its sender (``note_prefix``): the process that sent it hears it back
and passes over it unread.
"""
from __future__ import annotations

import base64
import functools
import json

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db
from .screens.generic import EnteredBy, LogEntry, Perspective

CHANNEL = "kartentisch_changes"  # the notes of ``publish``, heard by every process's watch (LISTEN)
NOTE_BYTES = 7999  # the longest payload PostgreSQL's NOTIFY takes


class SharedDrawing(db.Model):
    """The newest drawing of a table's regions for one language, perspective and view."""

    __tablename__ = "drawings"

    table_id: Mapped[str] = mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    language: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    perspective: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    view: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    revision: Mapped[int] = mapped_column(sa.Integer)
    gzipped: Mapped[bytes] = mapped_column(sa.LargeBinary)


_KEY = (SharedDrawing.table_id == sa.bindparam("table_id"), SharedDrawing.language == sa.bindparam("language"),
        SharedDrawing.perspective == sa.bindparam("perspective"), SharedDrawing.view == sa.bindparam("view"))
FETCH = sa.select(SharedDrawing.gzipped).where(*_KEY, SharedDrawing.revision == sa.bindparam("revision"))
# The drawings as arrays (one statement text, however many: prepared once; a newer one stays), stored before
# the notes are sent: a data-modifying WITH runs to completion, and NOTIFY goes out when the statement commits.
# Its parameters go in binary (psycopg's ``%(name)b``): in text, psycopg escapes every array element in Python,
# which cost a change 0.1–0.15 ms of CPU per drawing (docs/performance.md); in binary they go as they are.
STORE_AND_SEND = """
WITH stored AS (
    INSERT INTO drawings (table_id, language, perspective, view, revision, gzipped)
    SELECT %(table_id)b, drawn.language, drawn.perspective, drawn.view, %(revision)b, drawn.gzipped
    FROM unnest(CAST(%(languages)b AS text[]), CAST(%(perspectives)b AS text[]), CAST(%(views)b AS text[]),
                CAST(%(gzipped)b AS bytea[])) AS drawn(language, perspective, view, gzipped)
    ON CONFLICT (table_id, language, perspective, view) DO UPDATE
    SET revision = excluded.revision, gzipped = excluded.gzipped
    WHERE drawings.revision < excluded.revision)
SELECT pg_notify(%(channel)b, note.payload)
FROM unnest(CAST(%(notes)b AS text[])) WITH ORDINALITY AS note(payload, position) ORDER BY note.position
"""


def row_key(table_id: str, language: str, perspective: Perspective | None, view: str | None) -> dict:
    """The primary key of a drawing as the statements' parameters."""
    seen_from = "-" if perspective is None else "*" if perspective.position is None else str(perspective.position)
    return {"table_id": table_id, "language": language, "perspective": seen_from, "view": view or ""}


def drawing_key(row: dict) -> tuple[str, Perspective | None, str | None]:
    """(language, perspective, view) of a drawing's ``row_key`` (a note's, say): what its phones asked for."""
    seen_from = row["perspective"]
    perspective = None if seen_from == "-" else Perspective(None if seen_from == "*" else int(seen_from))
    return row["language"], perspective, row["view"] or None


def fetch(connection: sa.Connection, key: dict, revision: int) -> bytes | None:
    """The drawing at ``revision`` (gzipped), if a process stored it (None: not, or an older one)."""
    return connection.execute(FETCH, {**key, "revision": revision}).scalar_one_or_none()


def store(connection: sa.Connection, key: dict, revision: int, gzipped: bytes) -> None:
    """Keep the drawing at ``revision`` for the other processes (a newer one stays)."""
    _store_and_send(connection, key["table_id"], revision, [(key, gzipped)], [])


def publish(connection: sa.Connection, table_id: str, revision: int, seats: str | None,
            drawings: list[tuple[dict, bytes]], entry: LogEntry | None = None, sender: str = "") -> None:
    """Store the table's ``drawings`` at ``revision`` (row key, gzip) and tell every
    process's watch that the table is at ``revision`` now (``notes``)."""
    _store_and_send(connection, table_id, revision, drawings, notes(table_id, revision, seats, drawings, entry, sender))


def notes(table_id: str, revision: int, seats: str | None, drawings: list[tuple[dict, bytes]],
          entry: LogEntry | None = None, sender: str = "") -> list[str]:
    """The notes of a change, signed by ``sender`` (``note_prefix``): the ``drawings`` that
    fit one, then the announcement that the table is at ``revision`` now, whose seats have
    the digest ``seats`` (None: not known), with the ``entry`` that moved it there if the
    change was one (left out where it would not fit the note)."""
    found = [note for row, gzipped in drawings
             if len(note := json.dumps({"from": sender, **row, "revision": revision,
                                         "gzipped": base64.b64encode(gzipped).decode()})) <= NOTE_BYTES]
    announcement = {"from": sender, "table_id": table_id, "revision": revision, "seats": seats}
    with_entry = json.dumps(announcement | {"entry": entry}) if entry is not None else None
    fits = with_entry is not None and len(with_entry) <= NOTE_BYTES
    return found + [with_entry if fits else json.dumps(announcement)]


@functools.lru_cache(maxsize=8)  # asked for every note heard, with the one sender of its process
def note_prefix(sender: str) -> str:
    """How every note of ``sender`` (a process's token of letters and digits) begins: its JSON's first key."""
    return json.dumps({"from": sender})[:-1]


def _store_and_send(connection: sa.Connection, table_id: str, revision: int, drawings: list[tuple[dict, bytes]],
                    notes: list[str]) -> None:
    columns = {name: [row[name] for row, _ in drawings] for name in ("language", "perspective", "view")}
    connection.exec_driver_sql(STORE_AND_SEND, {
        "table_id": table_id, "revision": revision, "channel": CHANNEL, "notes": notes,
        "languages": columns["language"], "perspectives": columns["perspective"], "views": columns["view"],
        "gzipped": [gzipped for _, gzipped in drawings]})


def read_note(payload: str) -> dict:
    """A note of ``publish``: ``table_id``, ``revision`` and either ``seats`` (the
    announcement, with its ``entry`` if it had one) or a drawing's row key and its
    ``gzipped`` (decoded); not its sender."""
    note = json.loads(payload)
    note.pop("from", None)
    if "gzipped" in note:
        note["gzipped"] = base64.b64decode(note["gzipped"])
    if "entry" in note:
        seq, kind, event, effect, seat = note["entry"]
        note["entry"] = LogEntry(seq, kind, event, effect, EnteredBy(*seat) if seat is not None else None)
    return note
