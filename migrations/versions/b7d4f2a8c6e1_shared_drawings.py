"""drawings: the newest drawing of each table's regions, shared by the processes

On PostgreSQL the process where a change is made stores its drawings here and
then sends the change's NOTIFY itself (webapp/shared_drawings.py), so the other
processes' phones find the drawing instead of drawing it again; the trigger that
sent the NOTIFY at commit, before anything was drawn, goes. SQLite (one process)
gets the table too but stores nothing in it.

Revision ID: b7d4f2a8c6e1
Revises: e5b8a1c3d9f2
Create Date: 2026-12-03 10:45:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b7d4f2a8c6e1'
down_revision = 'e5b8a1c3d9f2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'drawings',
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('language', sa.String(length=16), nullable=False),
        sa.Column('perspective', sa.String(length=16), nullable=False),
        sa.Column('view', sa.String(length=16), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('gzipped', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', 'language', 'perspective', 'view'),
    )
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP TRIGGER IF EXISTS tables_revision_notify ON tables")
        op.execute("DROP FUNCTION IF EXISTS kartentisch_notify_revision()")


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("""
            CREATE FUNCTION kartentisch_notify_revision() RETURNS trigger AS $$
            BEGIN
                PERFORM pg_notify('kartentisch_revisions', NEW.id || ' ' || NEW.revision);
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql
        """)
        op.execute("""
            CREATE TRIGGER tables_revision_notify
            AFTER UPDATE OF revision ON tables
            FOR EACH ROW WHEN (NEW.revision IS DISTINCT FROM OLD.revision)
            EXECUTE FUNCTION kartentisch_notify_revision()
        """)
    op.drop_table('drawings')
