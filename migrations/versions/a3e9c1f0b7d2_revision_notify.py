"""PostgreSQL: a notification on every change of a table's revision

Each committed change of ``tables.revision`` sends ``NOTIFY kartentisch_revisions,
'<table id> <revision>'``; the workers' revision watches listen for it and wake
the phones that hold a sync poll at once (webapp/watch.py). SQLite has nothing
of the kind: there the watches read the revisions.

Revision ID: a3e9c1f0b7d2
Revises: 8f1c2d3e4a5b
Create Date: 2026-11-30 10:10:00

"""
from alembic import op


revision = 'a3e9c1f0b7d2'
down_revision = '8f1c2d3e4a5b'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
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


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute("DROP TRIGGER IF EXISTS tables_revision_notify ON tables")
    op.execute("DROP FUNCTION IF EXISTS kartentisch_notify_revision()")
