"""Typed errors of the engine. Every refusal names what was wrong.

Messages are German first (the UI's default language). ``template`` and
``params`` let the web layer translate the same sentence (Flask-Babel uses the
German template as message id).
"""
from __future__ import annotations


class Word(str):
    """A word of the game in a refusal's parameters (a card, a species, a step):
    German like the templates, and a message id the web layer translates too
    (``Word("König")``; names and numbers stay plain strings)."""


class Phrase(str):
    """A parameter made of words and plain text (a card label is ``Word("D")`` +
    ``"♥"``): German as a string, and ``parts`` for the web layer to translate the
    words in (English "Q♥")."""

    parts: tuple[str, ...]

    def __new__(cls, parts):
        parts = tuple(parts)
        phrase = super().__new__(cls, "".join(parts))
        phrase.parts = parts
        return phrase

    @classmethod
    def joined(cls, separator: str, items) -> "Phrase":
        """Words, phrases or plain texts with ``separator`` between them (``"Eule, Tukan"``)."""
        parts: list[str] = []
        for item in items:
            parts += [separator] * bool(parts) + list(item.parts if isinstance(item, Phrase) else (item,))
        return cls(parts)


class _Shown(str):
    """A bad input shortened for a message; ``{value!r}`` shows it as it is."""

    def __repr__(self) -> str:
        return str(self)


_MAX_SHOWN = 60


def brief(value):
    """A parameter as a message may show it: words, phrases, short texts and numbers as they
    are; long texts, huge numbers and containers shortened, without recursion (the
    input may be hostile: megabytes, or nested a thousand levels deep)."""
    if isinstance(value, (Word, Phrase)) or value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, int):
        return value if abs(value) < 10 ** 18 else _Shown(f"<a number of {value.bit_length()} bits>")
    if isinstance(value, str):
        return value if len(value) <= _MAX_SHOWN else value[:_MAX_SHOWN - 1] + "…"
    if isinstance(value, (list, tuple, dict)):
        items = list(value.items())[:4] if isinstance(value, dict) else list(value)[:4]
        shown = [f"{brief(k)!r}: {_flat(v)}" for k, v in items] if isinstance(value, dict) else map(_flat, items)
        more = ", …" if len(value) > 4 else ""
        opening, closing = {dict: "{}", tuple: "()"}.get(type(value), "[]")
        text = opening + ", ".join(shown) + more + closing
        return _Shown(text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN - 2] + "…" + closing)
    return _Shown(f"<{type(value).__name__}>")


def _flat(value) -> str:
    """One item inside a shortened container: containers inside it are not opened."""
    if isinstance(value, dict):
        return "{…}"
    if isinstance(value, (list, tuple)):
        return "[…]"
    return repr(brief(value))


class EngineError(Exception):
    """Base of every error the engine raises on purpose. ``params`` are shortened
    (``brief``), so a message stays short whatever the input was."""

    def __init__(self, code: str, template: str, params: dict | None = None):
        self.code = code
        self.template = template
        self.params = {name: brief(value) for name, value in (params or {}).items()}
        self.message = template.format(**self.params)
        super().__init__(self.message)

    def to_dict(self) -> dict:
        return {"code": self.code, "error": self.message}

    def reason(self) -> dict:
        """The refusal as data (``legal_choices()`` reasons): ``code``, the German
        ``template`` (a message id) and its ``params``; JSON-serialisable."""
        return {"code": self.code, "template": self.template, "params": dict(self.params)}


class IllegalEvent(EngineError):
    """An event the rules refuse. The game is left exactly as it was.

    ``index`` is the position of the event in the record when it was met
    during a replay (None when applied one by one).
    """

    def __init__(self, code: str, template: str, params: dict | None = None, index: int | None = None):
        super().__init__(code, template, params)
        self.index = index

    def at(self, index: int) -> "IllegalEvent":
        """The same refusal, located at ``index`` of a record."""
        return IllegalEvent(self.code, self.template, self.params, index)


class InvalidRecord(EngineError):
    """A record (or its header: game, options, players) that is not well-formed."""
