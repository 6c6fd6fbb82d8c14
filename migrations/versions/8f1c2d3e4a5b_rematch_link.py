"""tables.previous_id: the game a rematch follows

Revision ID: 8f1c2d3e4a5b
Revises: 6c10b3ac45bc
Create Date: 2026-11-30 04:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = '8f1c2d3e4a5b'
down_revision = '6c10b3ac45bc'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('previous_id', sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f('ix_tables_previous_id'), ['previous_id'], unique=False)


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tables_previous_id'))
        batch_op.drop_column('previous_id')
