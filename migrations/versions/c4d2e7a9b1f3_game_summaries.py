"""game_summaries: one row per finished game (game nights, statistics), backfilled

Every table whose game is already over gets its summary, computed as the store
computes it when a game ends (webapp/nights_summary.py): the events in force are
replayed through the engine.

Revision ID: c4d2e7a9b1f3
Revises: a3e9c1f0b7d2
Create Date: 2026-12-01 21:30:00

"""
import logging

import sqlalchemy as sa
from alembic import op

revision = 'c4d2e7a9b1f3'
down_revision = 'a3e9c1f0b7d2'
branch_labels = None
depends_on = None

log = logging.getLogger('alembic.runtime.migration')


def upgrade():
    summaries = op.create_table(
        'game_summaries',
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('game', sa.String(length=40), nullable=False),
        sa.Column('variant', sa.String(length=400), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('solo', sa.Boolean(), nullable=False),
        sa.Column('first_seat', sa.Integer(), nullable=False),
        sa.Column('winners', sa.JSON(), nullable=False),
        sa.Column('winner_mask', sa.Integer(), nullable=False),
        sa.Column('won', sa.Boolean(), nullable=False),
        sa.Column('reason', sa.String(length=40), nullable=False),
        sa.Column('turns', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('events', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_index('ix_game_summaries_game_variant', 'game_summaries', ['game', 'variant', 'players'])
    _backfill(op.get_bind(), summaries)


def downgrade():
    op.drop_index('ix_game_summaries_game_variant', table_name='game_summaries')
    op.drop_table('game_summaries')


def _backfill(connection, summaries):
    from engine import EngineError, new_game
    from webapp.nights_summary import summarize

    tables = sa.table('tables', sa.column('id'), sa.column('game'), sa.column('options', sa.JSON),
                      sa.column('players', sa.JSON), sa.column('status'))
    events = sa.table('events', sa.column('table_id'), sa.column('seq'), sa.column('kind'),
                      sa.column('event', sa.JSON), sa.column('effect', sa.JSON),
                      sa.column('created_at', sa.DateTime(timezone=True)))
    rows = []
    for table in connection.execute(sa.select(tables).where(tables.c.status == 'playing')).all():
        entries = connection.execute(sa.select(events.c.kind, events.c.event, events.c.effect, events.c.created_at)
                                     .where(events.c.table_id == table.id).order_by(events.c.seq)).all()
        if not entries:
            continue
        try:
            game, effects = new_game(table.game, table.options or {}, list(table.players or [])), []
            for kind, event, effect, _at in entries:
                if kind == 'undo':
                    game.undo()
                    effects.pop()
                else:
                    game.apply(event)
                    effects.append(effect or {})
        except EngineError as err:  # a record the engine no longer accepts: left out, said in the log
            log.warning('game_summaries: table %s not summarised (%s)', table.id, err)
            continue
        summary = summarize(game, effects, entries[0].created_at, entries[-1].created_at)
        if summary is not None:
            rows.append({'table_id': table.id, **vars(summary)})
    if rows:
        op.bulk_insert(summaries, rows)
