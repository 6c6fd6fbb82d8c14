"""game_summaries: the statistics' covering index

``/statistik`` groups the summaries by game, variant, players, solo, ending and
winning seats and adds up won, turns and rounds: with every one of those columns
in one index the GROUP BY reads the index alone (in order, no temporary B-tree,
no row lookups). It replaces the index on (game, variant, players), its prefix.

Revision ID: e5b8a1c3d9f2
Revises: c4d2e7a9b1f3
Create Date: 2026-12-02 06:00:00

"""
from alembic import op

revision = 'e5b8a1c3d9f2'
down_revision = 'c4d2e7a9b1f3'
branch_labels = None
depends_on = None

COLUMNS = ['game', 'variant', 'players', 'solo', 'reason', 'winner_mask', 'won', 'turns', 'rounds']


def upgrade():
    op.create_index('ix_game_summaries_figures', 'game_summaries', COLUMNS)
    op.drop_index('ix_game_summaries_game_variant', table_name='game_summaries')


def downgrade():
    op.create_index('ix_game_summaries_game_variant', 'game_summaries', ['game', 'variant', 'players'])
    op.drop_index('ix_game_summaries_figures', table_name='game_summaries')
