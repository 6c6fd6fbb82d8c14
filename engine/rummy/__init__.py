"""Gemeinsame Sache: cooperative rummy for two against the draw-pile clock."""
from . import game  # noqa: F401  (registers the game)
