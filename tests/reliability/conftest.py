"""The web tests' helpers (``new_table``, tables made through the API) for the
reliability tests, and the fuzz tests' wire and ledgers (fuzzing.py)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "webapp_test_helpers", Path(__file__).resolve().parent.parent / "webapp" / "conftest.py")
_helpers = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _helpers  # (its dataclass looks itself up there)
_spec.loader.exec_module(_helpers)

new_table = _helpers.new_table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzzing import Ledger, Wire  # noqa: E402


@pytest.fixture
def wire(live_server):
    """A keep-alive connection to the live server."""
    wire = Wire(live_server.url)
    yield wire
    wire.close()


@pytest.fixture
def ledger_for(live_server):
    """``ledger_for([table ids])``: a Ledger of the live server's database (closed afterwards)."""
    made = []

    def make(tables) -> Ledger:
        made.append(Ledger(live_server.database_url, list(tables)))
        return made[-1]

    yield make
    for ledger in made:
        ledger.close()


def pytest_terminal_summary(terminalreporter):
    """How many fuzzed inputs the fuzz tests sent (each records ``fuzz_inputs``)."""
    counts = [value for report in terminalreporter.stats.get("passed", []) if report.when == "call"
              for name, value in report.user_properties if name == "fuzz_inputs"]
    if counts:
        terminalreporter.write_line(f"fuzz: {sum(counts):,} inputs sent and checked by {len(counts)} tests")
