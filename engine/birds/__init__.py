"""The bird games: Gleich und gleich and CuBirds (solo with RobinBird)."""
