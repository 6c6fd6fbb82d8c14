"""The taps of the bird screens and the selection they carry.

A tap either enters an event at once (``event``) or leads to the next screen of a
step (``params``: the selection so far, sent as the query of ``GET /t/<id>/controls``
and with the entry that ends it). A selection counts only at the table version it
was made at (``at``), so a stale one is dropped instead of entering something
nobody meant.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from urllib.parse import quote_plus, urlencode

from ...i18n import gettext as _


@dataclass
class Tap:
    """One button: ``event`` (entered at once) or ``params`` (the next selection)."""

    label: str = ""
    event: dict | None = None
    params: dict = field(default_factory=dict)
    value: str = ""          # what the tap chooses, short (data-value: for tests and styling)
    disabled: bool = False
    pressed: bool = False    # part of the selection shown
    note: str = ""
    cards: list = field(default_factory=list)   # CardViews drawn on the button
    count: int = 0           # a count pad's number
    look: str = ""           # a CSS class more (e.g. "big" for a big flock)

    @property
    def query(self) -> str:
        return urlencode(self.params, quote_via=_quoted)


@functools.lru_cache(maxsize=4096)  # a pad's taps share their names and most values: quoted once each
def _quoted(text: str, safe: str = "", encoding: str | None = None, errors: str | None = None) -> str:
    return quote_plus(text, safe, encoding, errors)


class Selection:
    """The selection in a request's query or form, read field by field; a value that
    is no card (or number, or choice) is named in ``error`` and ignored."""

    def __init__(self, values, version: int, cards):
        self.values, self.cards = values, cards
        self.version = version
        self.current = values.get("at") == str(version)   # made at this version
        self.error: str | None = None

    def params(self, **chosen) -> dict:
        """The query of a next selection: the version and the chosen values (None: left out)."""
        return {"at": self.version, **{name: value for name, value in chosen.items() if value is not None}}

    def raw(self, name: str) -> str | None:
        return self.values.get(name) if self.current else None

    def card_list(self, name: str) -> list[str]:
        """A comma-separated list of cards (``pick``, ``hand``)."""
        raw = self.raw(name)
        if not raw:
            return []
        cards = raw.split(",")
        unknown = [card for card in cards if card not in self.cards]
        if unknown:
            self.error = _("Unbekannte Karte in der Auswahl: %(card)s", card=unknown[0])
            return []
        return cards

    def number(self, name: str, limit: int = 99) -> int | None:
        raw = self.raw(name)
        if raw is None:
            return None
        if not raw.isdigit() or int(raw) >= limit:
            self.refuse(name, raw)
            return None
        return int(raw)

    def choice(self, name: str, options) -> str | None:
        raw = self.raw(name)
        if raw is None:
            return None
        if raw not in options:
            self.refuse(name, raw)
            return None
        return raw

    def refuse(self, name: str, value: str) -> None:
        self.error = _("Ungültige Auswahl: %(field)s = %(value)s", field=name, value=value)
