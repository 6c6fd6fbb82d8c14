"""Gemeinsame Sache: cooperative rummy for two against the draw-pile clock."""
from .game import GemeinsameSache  # registers the game
from .rules import suggest_level

__all__ = ["GemeinsameSache", "suggest_level"]
