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


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, code: str, template: str, params: dict | None = None):
        self.code = code
        self.template = template
        self.params = dict(params or {})
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
