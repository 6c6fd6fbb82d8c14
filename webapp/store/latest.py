"""What this process knows of each table's newest entries: the table's row as the
newest entry made here left it, and the last few entries as the log and the replay
read them — made here, or heard of from another process (``webapp.sync`` hears the
entry with the announcement of its change).

The drawing of an entry's change (``webapp.sync``, right after the entry's commit)
needs the table at that revision and the entries its log has not worded yet; a
game replayed here before another process's entry needs that entry. All of it is
known here without asking the database. Entries are only appended and a table's
row changes only with a new revision, so what is kept for a revision or an entry
stays true; a revision or an entry it does not hold is read as before.
"""
from __future__ import annotations

import copy
import json
import threading
from typing import NamedTuple

import sqlalchemy as sa
from cachetools import LRUCache
from sqlalchemy.orm import make_transient_to_detached

from ..extensions import db
from ..models import Table
from ..screens.generic import LogEntry

KEPT = 4096  # tables
RUN = 8  # the newest entries kept per table (a log or a replayed game lags behind by one or two)
JSON_COLUMNS = tuple(column.name for column in Table.__table__.c if isinstance(column.type, sa.JSON))


class Known(NamedTuple):
    columns: dict | None  # the table's row after the newest entry made here (None: none made here)
    entries: tuple[LogEntry, ...]  # the newest entries, one after another by seq, oldest first


_latest: LRUCache[str, Known] = LRUCache(maxsize=KEPT)
_lock = threading.Lock()


def remember(columns: dict, entry: LogEntry) -> None:
    """A committed entry made here: ``columns``, the table's row as it left it;
    ``entry``, the entry itself (its event and effect as the database gives them back: JSON)."""
    entry = entry._replace(event=_as_stored(entry.event), effect=_as_stored(entry.effect))
    with _lock:
        known = _latest.get(columns["id"])
        _latest[columns["id"]] = Known(columns, _followed(known.entries if known else (), entry))


def heard(table_id: str, entry: LogEntry) -> None:
    """A committed entry, as another process announced it (one known here already stays)."""
    with _lock:
        known = _latest.get(table_id) or Known(None, ())
        if not known.entries or entry.seq > known.entries[-1].seq:
            _latest[table_id] = known._replace(entries=_followed(known.entries, entry))


def entered_table(table_id: str, revision: int) -> Table | None:
    """The table at ``revision`` in the current session, if an entry here made that
    revision (None: it must be read)."""
    known = _made_here(table_id, revision)
    if known is None:
        return None
    columns = known.columns
    row = Table(**columns | {name: copy.deepcopy(columns[name]) for name in JSON_COLUMNS})  # its own, as if read
    make_transient_to_detached(row)
    return db.session.merge(row, load=False)


def entered_revision(table_id: str, version: int) -> int | None:
    """The revision at which the newest entry made here left the table, if that entry
    moved it to ``version`` (None: another entry came since, or none was made here)."""
    with _lock:
        known = _latest.get(table_id)
    if known is None or known.columns is None or known.columns["version"] != version:
        return None
    return known.columns["revision"]


def entered(table_id: str, revision: int) -> LogEntry | None:
    """The entry that moved the table to ``revision``, if it was made here."""
    known = _made_here(table_id, revision)
    if known is None:
        return None
    newest = known.entries[-1]
    return newest if newest.seq == known.columns["version"] else None


def entries(table_id: str, after: int, upto: int) -> tuple[LogEntry, ...] | None:
    """The table's entries after seq ``after`` up to seq ``upto``, oldest first, if
    all of them are known here (None: they must be read)."""
    with _lock:
        known = _latest.get(table_id)
    if known is None or not known.entries:
        return None
    first, last = known.entries[0].seq, known.entries[-1].seq
    if after + 1 < first or upto > last:
        return None
    return known.entries[after + 1 - first:upto + 1 - first]


def clear() -> None:
    with _lock:
        _latest.clear()


def _made_here(table_id: str, revision: int) -> Known | None:
    """What is known of the table, if the entry that moved it to ``revision`` was made here."""
    with _lock:
        known = _latest.get(table_id)
    if known is None or known.columns is None or known.columns["revision"] != revision:
        return None
    return known


def _followed(entries: tuple[LogEntry, ...], entry: LogEntry) -> tuple[LogEntry, ...]:
    """The run of ``entries`` with ``entry`` as its newest (a run that does not lead up to it is dropped)."""
    before = tuple(known for known in entries if known.seq < entry.seq)
    if not before or before[-1].seq != entry.seq - 1:
        return (entry,)
    return (*before[-(RUN - 1):], entry)


def _as_stored(value):
    return json.loads(json.dumps(value)) if value is not None else None
