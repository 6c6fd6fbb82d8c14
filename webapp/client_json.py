"""JSON a client sent (API bodies, the entry form's event, record files): read as
RFC 8259 JSON in UTF-8 (or UTF-16/32 with a BOM, as ``json`` detects them), at most
``DEPTH_MAX`` levels deep, or refused with a 400 ``bad-json`` naming what is wrong.

Python's ``json`` alone would let through what the database or the engine then
fails on with a 500: ``NaN``/``Infinity`` and numbers too large for a float
(PostgreSQL's JSON type refuses them), lone UTF-16 surrogates (no encoding
can store them) and nesting deep enough to exhaust the recursion limit. An
integer of more digits than Python converts is read as one beyond the engine's
bounds (``engine.shape.json_int``), so the engine refuses it naming its field. Records,
events and options are a few levels deep; ``DEPTH_MAX`` leaves room to spare.
"""
from __future__ import annotations

import json
import math

from engine.shape import json_int

from .errors import Refusal
from .i18n import lazy_gettext as _l

DEPTH_MAX = 20

TOO_DEEP = _l("Das JSON ist zu tief verschachtelt (höchstens {max} Ebenen)")
BAD_NUMBER = _l("Das JSON enthält eine Zahl, die JSON nicht kennt: {number}")
BAD_TEXT = _l("Das JSON enthält einen Text mit einem ungültigen Zeichen (einem halben UTF-16-Paar)")


class _NotJson(Exception):
    """A number JSON has no place for (raised while parsing)."""

    def __init__(self, number: str):
        super().__init__(number)
        self.number = number


def _constant(name: str):
    raise _NotJson(name)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _NotJson(text)
    return number


def load(raw: bytes | str, not_json) -> object:
    """The value of ``raw``; ``not_json`` is the refusal's message when ``raw`` is no JSON at all."""
    try:
        value = json.loads(raw, parse_constant=_constant, parse_float=_finite, parse_int=json_int)
    except _NotJson as err:
        raise Refusal(400, "bad-json", BAD_NUMBER, {"number": err.number[:40]}) from None
    except RecursionError:
        raise Refusal(400, "bad-json", TOO_DEEP, {"max": DEPTH_MAX}) from None
    except ValueError:  # also a wrong encoding
        raise Refusal(400, "bad-json", not_json) from None
    _check_tree(value)
    return value


def _check_tree(value) -> None:
    """Refuse nesting deeper than DEPTH_MAX and text no encoding can store (without recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, (list, dict)):
            if depth > DEPTH_MAX:
                raise Refusal(400, "bad-json", TOO_DEEP, {"max": DEPTH_MAX})
            if isinstance(item, dict):
                for key in item:
                    _check_text(key)
                item = item.values()
            pending.extend((child, depth + 1) for child in item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal(400, "bad-json", BAD_TEXT) from None
