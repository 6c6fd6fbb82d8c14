"""The database rows: a Table, its Seats and its Events (the event log is the truth)."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

LOBBY = "lobby"
PLAYING = "playing"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def token_hash(token: str) -> str:
    """Seat tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


class Table(db.Model):
    """One game at one real table. ``version`` counts the event rows (undo
    included); ``revision`` counts every change (lobby and play) for the sync poll."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    join_code: Mapped[str] = mapped_column(sa.String(12), unique=True)
    game: Mapped[str] = mapped_column(sa.String(40))
    options: Mapped[dict] = mapped_column(sa.JSON, default=dict)
    players: Mapped[list | None] = mapped_column(sa.JSON, nullable=True)
    status: Mapped[str] = mapped_column(sa.String(10), default=LOBBY)
    version: Mapped[int] = mapped_column(sa.Integer, default=0)
    revision: Mapped[int] = mapped_column(sa.Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    previous_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True, index=True)  # a rematch's game before

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.position", cascade="all, delete-orphan")

    @property
    def started(self) -> bool:
        return self.status == PLAYING


class Seat(db.Model):
    """A human seat at a table; ``position`` is the clockwise order from 0."""

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(sa.Integer)
    name: Mapped[str] = mapped_column(sa.String(40))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    joined_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    table: Mapped[Table] = relationship(back_populates="seats")


class Event(db.Model):
    """One entry: ``kind`` is ``event`` (``event`` holds the record's event) or
    ``undo`` (``undoes`` is the seq it took back). ``answer`` is the stored reply
    for the idempotency ``key``; ``effect`` is what the engine reported."""

    __tablename__ = "events"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
        sa.UniqueConstraint("table_id", "key", name="uq_events_table_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(sa.Integer)
    kind: Mapped[str] = mapped_column(sa.String(10))
    event: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    undoes: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    effect: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    seat_id: Mapped[int | None] = mapped_column(sa.ForeignKey("seats.id", ondelete="SET NULL"), nullable=True)
    key: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    answer: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    seat: Mapped[Seat | None] = relationship()
