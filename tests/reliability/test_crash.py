"""The crash test (scripts/crash_test.py): ≥ 100 SIGKILLs of the server while
phones enter; every acknowledged entry survives and every table replays.

On SQLite under ``./kt test``; on a throwaway PostgreSQL database under
``./kt test-postgres`` (KT_TEST_DB=postgres). ``KT_CRASH_KILLS`` lowers the
count while developing.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "crash_test.py"
KILLS = int(os.environ.get("KT_CRASH_KILLS", "100"))


@pytest.fixture
def crash_database_url(request, tmp_path) -> str:
    if os.environ.get("KT_TEST_DB") == "postgres":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp_path / 'crash.sqlite3'}"


def test_acknowledged_entries_survive_sigkills_of_the_server(crash_database_url):
    run = subprocess.run([sys.executable, str(SCRIPT), "--kills", str(KILLS), "--database-url", crash_database_url],
                         capture_output=True, text=True, timeout=900)
    print(run.stdout[-3000:], run.stderr[-3000:])
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert f"crash test: {KILLS} SIGKILLs" in run.stdout
