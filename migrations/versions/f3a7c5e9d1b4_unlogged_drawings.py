"""drawings: unlogged on PostgreSQL

The drawings are a cache that any process can draw again (webapp/shared_drawings.py):
written to the write-ahead log, each change wrote its drawings' bytes a second time
there, and the statement that stores them and sends the change's NOTIFY waited for
the log to reach the disk. Unlogged, they are written once, and that statement's
commit waits for nothing; after a crash PostgreSQL empties the table, and the
processes draw what they do not find. SQLite stores nothing in it.

Revision ID: f3a7c5e9d1b4
Revises: b7d4f2a8c6e1
Create Date: 2026-12-07 14:20:00

"""
from alembic import op

revision = 'f3a7c5e9d1b4'
down_revision = 'b7d4f2a8c6e1'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("ALTER TABLE drawings SET UNLOGGED")


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("ALTER TABLE drawings SET LOGGED")
