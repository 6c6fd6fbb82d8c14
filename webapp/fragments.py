"""Pieces of a drawing kept by what they show.

Most of a bird table's board is the same from one change to the next: three of
four rows, four of five collections. A macro that draws only from its arguments
(cards, a row without taps, a player's collection: no table, no phone, no
request) gives the same HTML for the same arguments in the same language, so
``{{ kept("player", p) }}`` draws it once per distinct arguments and
language and keeps the HTML; a change redraws only the pieces that changed, and
the perspectives of one change (Gemeinsame Sache draws three) share the pieces
they have in common. The macros are those named in ``KEPT``, taken from their
template's module (made without a context: only the globals, such as ``_``,
which follow the request's language).

Flask-Caching's ``{% cache %}`` keys fragments by strings joined from the values;
these are keyed by the values themselves (frozen into tuples), in a cachetools LRU
bounded by the bytes it holds.
"""
from __future__ import annotations

import threading

from cachetools import LRUCache
from flask import Flask
from markupsafe import Markup

from .i18n import current_language

BIRDS, RUMMY = "birds/_macros.html", "rummy/_cards.html"
# The macros that draw from their arguments alone (and ``_``), safe to keep by them, and their templates.
KEPT = {**dict.fromkeys(("cards", "row_line", "player", "collection", "known_line"), BIRDS),
        **dict.fromkeys(("side", "figures", "discard_pile"), RUMMY)}
KEPT_BYTES = 8 * 2**20  # per process


class Fragments:
    """The kept pieces of one app (``kept`` in its templates)."""

    def __init__(self, app: Flask):
        self._environment = app.jinja_env
        self._lock = threading.Lock()
        self._html: LRUCache[tuple, Markup] = LRUCache(maxsize=KEPT_BYTES, getsizeof=len)

    def kept(self, name: str, *args) -> Markup:
        """The macro ``name`` (of ``KEPT``) drawn with ``args`` in the request's language, drawn once."""
        template = KEPT.get(name)
        if template is None:
            raise ValueError(f"{name!r} is not a macro that draws from its arguments alone")
        key = (name, current_language(), _frozen(args))
        with self._lock:
            html = self._html.get(key)
        if html is None:
            html = getattr(self._environment.get_template(template).module, name)(*args)
            with self._lock:
                self._html[key] = html
        return html

    def clear(self) -> None:
        with self._lock:
            self._html.clear()


def _frozen(value):
    """``value`` as a hashable key that tells apart what draws differently (a list
    from a dict of the same items, True from 1, Markup from str)."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is list or kind is tuple:
        return tuple([_frozen(item) for item in value])  # (a list is built faster than a generator is run)
    if kind is dict:
        return (dict, tuple([(name, _frozen(item)) for name, item in value.items()]))
    return (kind, value)  # bool, Markup, a frozen dataclass (CardView): hashable, told apart by type


def init_app(app: Flask) -> None:
    fragments = app.extensions["fragments"] = Fragments(app)
    app.jinja_env.globals["kept"] = fragments.kept
