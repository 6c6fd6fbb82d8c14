"""Drawings shared by the processes on one PostgreSQL database.

On PostgreSQL the app runs in several processes (gunicorn's workers, other
machines), each holding polls of the same tables. The process where a change is
made draws the new regions (``Sync.publish``), stores each drawing here, and only
then announces the change (``NOTIFY``): the phones that the announcement wakes in
the other processes find the drawing here instead of drawing it once more. So a
change costs one drawing per perspective, however many processes serve its phones.

One row per table, language, perspective and view holds the newest drawing
(gzipped); a table's rows go with it. SQLite runs in one process: there the
drawings in its memory are all there are, and nothing is stored.
"""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db
from .screens.generic import Perspective

CHANNEL = "kartentisch_revisions"  # NOTIFY '<table id> <revision>', heard by every process's watch (LISTEN)


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
_insert = insert(SharedDrawing)
STORE = _insert.on_conflict_do_update(
    index_elements=[SharedDrawing.table_id, SharedDrawing.language, SharedDrawing.perspective, SharedDrawing.view],
    set_={"revision": _insert.excluded.revision, "gzipped": _insert.excluded.gzipped},
    where=SharedDrawing.revision < _insert.excluded.revision)
NOTIFY = sa.select(sa.func.pg_notify(CHANNEL, sa.bindparam("payload")))


def row_key(table_id: str, language: str, perspective: Perspective | None, view: str | None) -> dict:
    """The primary key of a drawing as the statements' parameters."""
    seen_from = "-" if perspective is None else "*" if perspective.position is None else str(perspective.position)
    return {"table_id": table_id, "language": language, "perspective": seen_from, "view": view or ""}


def fetch(connection: sa.Connection, key: dict, revision: int) -> bytes | None:
    """The drawing at ``revision`` (gzipped), if a process stored it (None: not, or an older one)."""
    return connection.execute(FETCH, {**key, "revision": revision}).scalar_one_or_none()


def store(connection: sa.Connection, key: dict, revision: int, gzipped: bytes) -> None:
    """Keep the drawing at ``revision`` for the other processes (a newer one stays)."""
    connection.execute(STORE, {**key, "revision": revision, "gzipped": gzipped})


def announce(connection: sa.Connection, table_id: str, revision: int) -> None:
    """Tell every process's watch that the table is at ``revision`` now."""
    connection.execute(NOTIFY, {"payload": f"{table_id} {revision}"})
