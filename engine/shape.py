"""Bounds on what a record or an event may be made of: plain JSON values, not
absurdly deep, long or big. Checked without recursion, so a hostile input cannot
exhaust the stack; each refusal names the field (``events[3].note[0]``).

A real record is a few levels deep (record → events → event → rows → row → card)
with short strings; the limits leave room for optional fields (records.md: "Add
optional fields freely") and stop what no table produces.
"""
from __future__ import annotations

import math

from .errors import EngineError

MAX_DEPTH = 16                   # containers inside containers, counted from the checked value
MAX_TEXT = 1000                  # characters of one string (a player's name: MAX_NAME)
MAX_NAME = 100
MAX_NODES = 20_000               # values inside one event (or one header part)
MAX_EVENTS = 100_000             # events in one record (a long real game has a few hundred)
MAX_RECORD_BYTES = 20_000_000    # a record file
MAX_INT = 2 ** 63                # integers beyond this are no count the games know


def json_int(text: str) -> int:
    """``json.loads``'s ``parse_int``: the number; for one of more digits than Python
    converts (4300) a power of two of its size, beyond ``MAX_INT`` — refused by
    ``shape_error`` naming its field, not by ``json`` in Python's English."""
    try:
        return int(text)
    except ValueError:
        stand_in = 1 << int((len(text.lstrip("-")) - 1) * math.log2(10))   # as many bits as the number
        return -stand_in if text.startswith("-") else stand_in


def shape_error(value, field: str, refusal: type[EngineError], max_nodes: int = MAX_NODES) -> EngineError | None:
    """The ``refusal`` (IllegalEvent or InvalidRecord) for the first thing
    that makes ``value`` no bounded JSON value; None when it is fine."""
    stack = [(value, field, 0)]
    nodes = 0
    while stack:
        item, path, depth = stack.pop()
        nodes += 1
        if isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                return refusal("too-deep", "Feld {field!r} ist zu tief verschachtelt (höchstens {limit} Ebenen)",
                             {"field": path, "limit": MAX_DEPTH})
            nodes += len(item)
            if nodes > max_nodes:
                return refusal("too-large", "Feld {field!r} enthält zu viele Werte (höchstens {limit})",
                             {"field": path, "limit": max_nodes})
            if isinstance(item, list):
                stack.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(item))
                continue
            for key, inner in item.items():
                if not isinstance(key, str) or len(key) > MAX_TEXT:
                    return refusal("not-json", "Feld {field!r} hat einen Schlüssel, der kein kurzer Text ist",
                                 {"field": path})
                stack.append((inner, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(item, str):
            if len(item) > MAX_TEXT:
                return refusal("too-large", "Feld {field!r}: ein Text ist länger als {limit} Zeichen",
                             {"field": path, "limit": MAX_TEXT})
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                return refusal("too-large", "Feld {field!r}: die Zahl ist zu groß", {"field": path})
        elif not isinstance(item, float) or not math.isfinite(item):
            return refusal("not-json", "Feld {field!r} ist kein JSON-Wert ({kind})",
                         {"field": path, "kind": "NaN/Infinity" if isinstance(item, float) else type(item).__name__})
    return None
