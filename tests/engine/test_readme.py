"""engine/README.md's example runs as written (python-chess's README is the model)."""
import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "engine" / "README.md"


def test_the_readme_example_runs():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0
