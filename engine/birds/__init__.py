"""The bird games: Gleich und gleich and CuBirds (solo with RobinBird)."""
from .game import BirdGame, CuBirds, GleichUndGleich  # registers both games
from .setup import SetupDraft

__all__ = ["BirdGame", "CuBirds", "GleichUndGleich", "SetupDraft"]
