"""Gemeinsame Sache: cooperative rummy for two against the draw-pile clock."""
