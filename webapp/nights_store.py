"""Game nights in the database: the summary row of each finished game, and the
chain of games at one table (rematches, ``Table.previous_id``) that makes a night.

The store calls :func:`entry_appended` inside the transaction of every entry that
:func:`changes_summary` and of an import (contract C6), so a summary exists exactly
while its game is over.
"""
from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, defer, joinedload, mapped_column

from engine import Game

from .extensions import db
from .models import Event, Seat, Table, token_hash
from .nights_summary import summarize

FIGURE_COLUMNS = ("game", "variant", "players", "solo", "reason", "winner_mask", "won", "turns", "rounds")
NIGHT_MAX = 500  # games followed along one chain (a guard; a long night has twenty)


class GameSummary(db.Model):
    """A finished game (see ``nights_summary.Summary``); gone with its table."""

    __tablename__ = "game_summaries"
    # the statistics' GROUP BY reads this index alone (covering), never the rows
    __table_args__ = (sa.Index("ix_game_summaries_figures", *FIGURE_COLUMNS),)

    table_id: Mapped[str] = mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(40))
    variant: Mapped[str] = mapped_column(sa.String(400))
    players: Mapped[int] = mapped_column(sa.Integer)
    solo: Mapped[bool] = mapped_column(sa.Boolean)
    first_seat: Mapped[int] = mapped_column(sa.Integer)
    winners: Mapped[list] = mapped_column(sa.JSON)
    winner_mask: Mapped[int] = mapped_column(sa.Integer)
    won: Mapped[bool] = mapped_column(sa.Boolean)
    reason: Mapped[str] = mapped_column(sa.String(40))
    turns: Mapped[int] = mapped_column(sa.Integer)
    rounds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    events: Mapped[int] = mapped_column(sa.Integer)
    started_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    ended_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


# --- written by the store -------------------------------------------------------------
def changes_summary(game: Game, kind: str) -> bool:
    """C6: whether an entry of ``kind`` that leaves ``game`` takes the summary back (an
    undo) or writes it (the game is over): what ``entry_appended`` does something for."""
    return kind == "undo" or game.outcome() is not None


def entry_appended(table_id: str, game: Game, kind: str) -> None:
    """C6: an entry (``kind`` "event" or "undo") was added to the session for
    ``table_id`` and ``game`` is the game after it. An undo takes the summary back;
    an event that leaves the game over writes it. Committed with the entry."""
    if kind == "undo":
        db.session.execute(sa.delete(GameSummary).where(GameSummary.table_id == table_id))
    elif game.outcome() is not None:
        effects, started, ended = effects_in_force(table_id)
        summary = summarize(game, effects, started, ended)
        db.session.merge(GameSummary(table_id=table_id, **vars(summary)))


def effects_in_force(table_id: str) -> tuple[list[dict], datetime, datetime]:
    """The effects of a table's events in force, and the times of its first and last entry."""
    rows = db.session.execute(sa.select(Event.kind, Event.effect, Event.created_at)
                              .where(Event.table_id == table_id).order_by(Event.seq)).all()
    return [row.effect or {} for row in in_force(rows)], rows[0].created_at, rows[-1].created_at


def entries_in_force(table_id: str) -> list[Event]:
    """A table's event rows in force (with who entered them), in order."""
    rows = db.session.execute(sa.select(Event).where(Event.table_id == table_id).order_by(Event.seq)
                              .options(defer(Event.answer, raiseload=True), joinedload(Event.seat))).scalars()
    return in_force(rows)


def in_force(rows) -> list:
    """Entry rows (with ``kind``) in seq order → the events not taken back by an undo."""
    kept: list = []
    for row in rows:
        if row.kind == "undo":
            kept.pop()
        else:
            kept.append(row)
    return kept


# --- reading a night ------------------------------------------------------------------
def night_ids(table_id: str) -> list[str]:
    """The ids of the night's tables, first game first: back along ``previous_id``
    to the first game, then forward along the rematches (two recursive queries)."""
    back = sa.select(Table.id, Table.previous_id, sa.literal(0).label("depth")).where(Table.id == table_id) \
        .cte("back", recursive=True)
    back = back.union_all(sa.select(Table.id, Table.previous_id, back.c.depth + 1)
                          .join(back, Table.id == back.c.previous_id).where(back.c.depth < NIGHT_MAX))
    first = db.session.execute(sa.select(back.c.id).order_by(back.c.depth.desc()).limit(1)).scalar()
    if first is None:
        return []
    ahead = sa.select(Table.id, sa.literal(0).label("depth")).where(Table.id == first).cte("ahead", recursive=True)
    ahead = ahead.union_all(sa.select(Table.id, ahead.c.depth + 1)
                            .join(ahead, Table.previous_id == ahead.c.id).where(ahead.c.depth < NIGHT_MAX))
    return list(db.session.execute(sa.select(ahead.c.id).order_by(ahead.c.depth)).scalars())


def night_tables(ids: list[str]) -> list[tuple[Table, GameSummary | None]]:
    """The night's tables in order, each with its summary (None: not over)."""
    found = {table.id: (table, summary) for table, summary in db.session.execute(
        sa.select(Table, GameSummary).outerjoin(GameSummary, GameSummary.table_id == Table.id)
        .where(Table.id.in_(ids)))}
    return [found[i] for i in ids if i in found]


def holds_seat(ids: list[str], tokens: dict[str, str]) -> bool:
    """Whether one of ``tokens`` (table id → seat token, as in the session) holds
    a seat at one of the night's tables."""
    hashes = [token_hash(token) for table_id, token in tokens.items() if table_id in ids and isinstance(token, str)]
    if not hashes:
        return False
    return db.session.execute(sa.select(sa.func.count()).select_from(Seat).where(
        Seat.table_id.in_(ids), Seat.token_hash.in_(hashes))).scalar() > 0

