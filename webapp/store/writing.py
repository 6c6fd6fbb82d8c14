"""The one way to change a table: ``with changing(table_id) as table:``.

The table row is locked first (``UPDATE tables SET revision = revision + 1``),
so SQLite takes its write lock at once (no lock upgrade, no ``SQLITE_BUSY``
deadlock in WAL) and PostgreSQL serialises the writers of a table; the change
counts up the revision the sync polls watch. The block commits when it ends and
rolls back when it raises — a ``Refusal`` included, so a refused change leaves
nothing behind. New tables and seats are made here too.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from blinker import Namespace
from flask import current_app

from ..errors import NOT_FOUND, Refusal
from ..extensions import db
from ..models import Seat, Table, token_hash
from .reads import JOIN_CODE_LENGTH, is_table_id, join_code_taken

# Sent with the app and the table's id once a change of the table is committed (webapp.sync listens).
changed = Namespace().signal("table-changed")

# no vowels (a code never spells a word), no 0/O, 1/I/L: 27 letters and digits, 27^6 codes
JOIN_ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789"


@contextmanager
def committed() -> Iterator[None]:
    """Commit what the block added, or roll it all back if it raises. Inside another
    ``committed()`` block it leaves both to the outer one: one transaction (a night file)."""
    info = db.session.info
    if info.get("committing"):
        yield
        return
    info["committing"] = True
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    finally:
        info["committing"] = False


@contextmanager
def changing(table_id: str) -> Iterator[Table]:
    """The table, locked for a change that the block makes (see the module text)."""
    if not is_table_id(table_id):
        raise Refusal(404, "no-such-table", NOT_FOUND)
    start_writing()
    with committed():
        locked = db.session.execute(
            sa.update(Table).where(Table.id == table_id).values(revision=Table.revision + 1))
        if locked.rowcount == 0:
            raise Refusal(404, "no-such-table", NOT_FOUND)
        yield db.session.get(Table, table_id, populate_existing=True)
    announce(table_id)


def start_writing() -> None:
    """Before a change: on SQLite a fresh transaction, so that the change's first
    statement takes the write lock (a read before it would have to upgrade its lock:
    ``SQLITE_BUSY`` in WAL). PostgreSQL locks rows, not the database: the change goes
    on in the transaction of the request's reads (READ COMMITTED: each statement sees
    what is committed), which saves the round trips of a ROLLBACK and a BEGIN."""
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.rollback()


def announce(table_id: str, entered_revision: int | None = None) -> None:
    """Tell whoever listens (the held sync polls) that the table changed;
    ``entered_revision``: the revision an entry moved it to (an entry leaves the
    seats as they were; any other change passes None)."""
    changed.send(current_app._get_current_object(), table_id=table_id, entered_revision=entered_revision)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_seat(table: Table, position: int, name: str) -> tuple[Seat, str]:
    token = new_token()
    seat = Seat(table_id=table.id, position=position, name=name, token_hash=token_hash(token))
    db.session.add(seat)
    return seat, token


def delete_tables(table_ids: list[str]) -> int:
    """Delete the tables; their seats, entries and summaries go with them (cascades)."""
    with committed():
        deleted = db.session.execute(sa.delete(Table).where(Table.id.in_(table_ids))).rowcount
    return deleted


def new_table(game: str, options: dict, players: list | None, status: str) -> Table:
    """Add a table with a fresh id and an unused join code."""
    for _attempt in range(20):
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if not join_code_taken(code):
            table = Table(id=secrets.token_urlsafe(16), join_code=code, game=game, options=options,
                          players=players, status=status, version=0, revision=0)
            db.session.add(table)
            return table
    raise RuntimeError("no free join code")  # 20 misses in a row among 27^6 codes: practically never
