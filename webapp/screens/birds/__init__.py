"""The phone screens of the bird games (Gleich und gleich, CuBirds, solo with RobinBird).

``BirdScreen.view`` turns the engine's game into what ``templates/birds/`` draws:
the table (``table.py``) and the taps of the awaited step (``steps.py``), worded
by ``words.py``. A selection that takes several taps travels in the query of
``GET /t/<id>/controls`` and in the form of the entry that ends it (``taps.py``).
"""
from __future__ import annotations

from engine.birds.rules import MAX_ROBIN_HANDICAP

from ...i18n import gettext as _, lazy_gettext as _l
from ..generic import EnteredBy, LogEntry, OptionField, Perspective, Screen
from .steps import Steps
from .table import Cards, table_view
from .taps import Selection, Tap
from .words import Words, event_text, reason_text, species_lines, step_label

SOLO = OptionField("solo", _l("Solo gegen RobinBird"))
HANDICAP = OptionField("robin_handicap", _l("Solo: Vorsprung für RobinBird (Karten in ihrer Sammlung)"),
                       number=(0, MAX_ROBIN_HANDICAP))


class BirdScreen(Screen):
    """Screen of both bird games."""

    def view(self, game, table, seat, values, around=None) -> dict:
        """The board for everyone; for a seated phone also the awaited step and undo.
        ``table`` gives the names, the version and the id; ``values`` the selection."""
        cards = Cards(game)
        selection = Selection(values, table.version, cards.species_of)
        view = table_view(game, cards, list(table.players))
        view["step"] = Steps(game, cards, list(table.players), selection).build() \
            if seat is not None and game.awaiting is not None else None
        view["undo"] = self.undo(game, selection) if seat is not None and game.events else None
        view["selection_error"] = selection.error
        view["names"] = {species: species_lines(species) for species in cards.index}   # for the pads' narrow taps
        return {"birds": view}

    @staticmethod
    def undo(game, selection: Selection) -> dict:
        """Undo with a confirmation (it names what it takes back: ``undo_sentence``, the
        log's line of the entry in force, or ``event_label`` of the engine's last event)."""
        asking = selection.choice("undo", ("ask",)) == "ask"
        return {"asking": asking,
                "ask": Tap(_("Zurücknehmen"), params=selection.params(undo="ask"), value="undo-ask"),
                "cancel": Tap(_("Nein, behalten"), params=selection.params(), value="undo-cancel")}

    def perspective(self, seat) -> Perspective | None:
        """Seated or watching: the own seat, and whether the step is its to tap, are
        marked by the page (``<main data-me>``), not here."""
        return Perspective() if seat is not None else None

    def event_label(self, event: dict) -> str:
        return event_text(event)

    def step_label(self, kind: str) -> str:
        return step_label(kind)

    def outcome_label(self, reason: str) -> str:
        return reason_text(reason)

    def log_sentence(self, entry, players: list[str]) -> str:
        words = Words(players)
        if entry.kind == "undo":
            return self.undo_sentence(entry, players)
        sentence = words.sentence(entry.event or {}, entry.effect or {})
        if entry.seat is not None and self.actor(entry) is None:   # the whole table's step: who entered it
            return _("%(who)s: %(action)s", who=entry.seat.name, action=sentence)
        return sentence

    def undo_sentence(self, entry, players: list[str]) -> str:
        """"Ben nimmt zurück: „…“": the taken-back entry as the log (and the undo's
        question) worded it, with whose entry it was unless it was the undoer's own
        move entered by them. An undo kept without the taken-back entry's facts
        (older rows) names the event alone."""
        who = entry.seat.name if entry.seat is not None else _("Import")
        undone = (entry.effect or {}).get("undone")
        if undone is None:
            return _("%(who)s nimmt zurück: %(what)s", who=who, what=event_text(entry.event or {}))
        position = undone.get("seat")
        by = EnteredBy(players[position], position) if position is not None and 0 <= position < len(players) else None
        taken = LogEntry(None, "event", entry.event or {}, undone.get("effect") or {}, by)
        own = by is not None and entry.seat is not None and by.position == entry.seat.position \
            and self.actor(taken) in (None, by.position)
        what = self.log_action(taken, players) if own else self.log_line(taken, players)
        return _("%(who)s nimmt zurück: „%(what)s“", who=who, what=what)

    def log_action(self, entry, players: list[str]) -> str:
        """After "Carla für Ben:": the sentence without Ben's name."""
        return Words(players).sentence(entry.event or {}, entry.effect or {}, named=False)


gleich_und_gleich = BirdScreen(
    folder="birds",
    stylesheet="birds.css",
    own_undo=True,
    option_fields=[
        OptionField("fast", _l("Schnelles Spiel")),
        OptionField("rarer_faces", _l("Seltenere Seltene")),
        SOLO, HANDICAP,
    ],
)

cubirds = BirdScreen(folder="birds", stylesheet="birds.css", own_undo=True, option_fields=[SOLO, HANDICAP])
