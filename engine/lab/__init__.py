"""The playtest lab: bird-game bots, tournaments, balance sweeps and the price
of silence in Gemeinsame Sache (docs/balance.md).

``simulated_figures()`` is what the app reads (contract C5): the figures of the
last full sweep, shipped as ``engine/lab/data/simulated.json``.
"""
from __future__ import annotations

import json
from pathlib import Path

DATA_FILE = Path(__file__).with_name("data") / "simulated.json"
FORMAT = "kartentisch-simulated/1"


def simulated_figures(path: str | Path | None = None) -> dict:
    """The parsed figures file; an empty structure when there is none."""
    try:
        data = json.loads(Path(path or DATA_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return empty_figures()
    for key, value in empty_figures().items():
        data.setdefault(key, value)
    return data


def empty_figures() -> dict:
    return {"format": FORMAT, "generated": None, "birds": [], "solo": [], "gemeinsame_sache": []}


__all__ = ["DATA_FILE", "FORMAT", "empty_figures", "simulated_figures"]
