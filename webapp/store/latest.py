"""What the newest entry made in this process left at each table: the table's row
and the entry as the log reads it.

The drawing of an entry's change (``webapp.sync``, right after the entry's commit)
needs the table at that revision and the one entry its log has not worded yet;
both are known here without asking the database. Entries are only appended and a
table's row changes only with a new revision, so what is kept for a revision stays
true; a revision or version it does not hold is read as before.
"""
from __future__ import annotations

import copy
import json
import threading

import sqlalchemy as sa
from cachetools import LRUCache
from sqlalchemy.orm import make_transient_to_detached

from ..extensions import db
from ..models import Table
from ..screens.generic import LogEntry

KEPT = 4096  # tables
JSON_COLUMNS = tuple(column.name for column in Table.__table__.c if isinstance(column.type, sa.JSON))

_latest: LRUCache[str, tuple[dict, LogEntry]] = LRUCache(maxsize=KEPT)
_lock = threading.Lock()


def remember(columns: dict, entry: LogEntry) -> None:
    """A committed entry: ``columns``, the table's row as it left it; ``entry``, the
    entry itself (its event and effect as the database gives them back: JSON)."""
    entry = entry._replace(event=_as_stored(entry.event), effect=_as_stored(entry.effect))
    with _lock:
        _latest[columns["id"]] = (columns, entry)


def entered_table(table_id: str, revision: int) -> Table | None:
    """The table at ``revision`` in the current session, if an entry here made that
    revision (None: it must be read)."""
    with _lock:
        known = _latest.get(table_id)
    if known is None or known[0]["revision"] != revision:
        return None
    columns = known[0]
    row = Table(**columns | {name: copy.deepcopy(columns[name]) for name in JSON_COLUMNS})  # its own, as if read
    make_transient_to_detached(row)
    return db.session.merge(row, load=False)


def entry(table_id: str, seq: int) -> LogEntry | None:
    """The entry ``seq`` of the table, if it is the newest one made here."""
    with _lock:
        known = _latest.get(table_id)
    return known[1] if known is not None and known[1].seq == seq else None


def clear() -> None:
    with _lock:
        _latest.clear()


def _as_stored(value):
    return json.loads(json.dumps(value)) if value is not None else None
