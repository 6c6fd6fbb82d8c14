"""The bird games: Gleich und gleich and CuBirds (solo with RobinBird)."""
from . import game  # noqa: F401  (registers both games)
