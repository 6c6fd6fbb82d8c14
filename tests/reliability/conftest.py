"""The web tests' helpers (``new_table``, tables made through the API) for the reliability tests."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "webapp_test_helpers", Path(__file__).resolve().parent.parent / "webapp" / "conftest.py")
_helpers = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _helpers  # (its dataclass looks itself up there)
_spec.loader.exec_module(_helpers)

new_table = _helpers.new_table
