"""The screens only word what they are handed: no store or database queries inside
a screen (contract C8: the route hands them everything), and what a finished game
shows of the games around it comes from the route's ``Around``."""
from __future__ import annotations

import ast
from pathlib import Path

from engine import replay
from engine.game import Outcome
from engine.rummy.simulate import random_record
from webapp.screens.generic import Around
from webapp.screens.rummy import screen as rummy_screen

SCREENS = Path(__file__).resolve().parents[2] / "webapp" / "screens"
FORBIDDEN = {"store", "models", "extensions", "nights_store"}   # the database, the store, the session


def imported_modules(path: Path) -> set[str]:
    """The webapp modules a screen module imports (relative imports resolved to their last name)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".")
            found.update(parts[-1:] if node.module else ())
            if not node.module or node.level:
                found.update(alias.name for alias in node.names)
            found.update(part for part in parts if part in FORBIDDEN)
        elif isinstance(node, ast.Import):
            found.update(part for alias in node.names for part in alias.name.split("."))
    return found


def test_the_checker_sees_a_store_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from .. import store\nfrom ..models import Table\nimport webapp.extensions\n")
    assert imported_modules(sample) & FORBIDDEN == {"store", "models", "extensions"}


def test_no_screen_queries_the_store():
    for path in sorted(SCREENS.rglob("*.py")):
        assert not imported_modules(path) & FORBIDDEN, path


def test_the_level_suggestion_counts_the_earlier_games_the_route_hands_over(app):
    """rules/004 Schwierigkeitsstufen: „Ist euch das Spiel zu leicht oder zu schwer, ändert zuerst
    die Zahl der Karten, die ihr beiseitelegt.“ — three wins in a row at Normal: try Schwer."""
    game = next(g for seed in range(50) if (g := replay(random_record({"level": "normal"}, seed))).outcome().won)
    won = Outcome("all-laid", (0, 1), True)
    with app.test_request_context("/"):
        alone = rummy_screen.view(game, None, None, {}, None)["rummy"]["next"]
        three = rummy_screen.view(game, None, None, {}, Around((won, won), {"level": "leicht", "draw_pile": 28}))
    assert alone["message"].startswith("1 von 1 gewonnen") and alone["next_game"] is None
    nxt = three["rummy"]["next"]
    assert nxt["message"] == "3 von 3 gewonnen – versucht Schwer (17)" and nxt["options"]["draw_pile"] == 17
    assert nxt["next_game"] == "Leicht (28)"
