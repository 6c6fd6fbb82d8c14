"""Everything the bird screens say: card and species names, the steps' questions,
the log sentences (from the engine's effects) and what an undo takes back.

German is the message id (Flask-Babel); the engine gives codes and cards, never prose."""
from __future__ import annotations

import functools
import threading

import pyphen

from engine.birds.rules import LEFT, RIGHT, TRIPLE_SIZE, TRIPLES_TO_WIN

from ...i18n import current_language, gettext as _, lazy_gettext as _l, ngettext

BIRDS = {"flamingo": _l("Flamingo"), "owl": _l("Eule"), "toucan": _l("Tukan"), "duck": _l("Ente"),
         "parrot": _l("Papagei"), "magpie": _l("Elster"), "reed-warbler": _l("Teichrohrsänger"),
         "robin": _l("Rotkehlchen")}
RANK_LETTERS = {"J": _l("B"), "Q": _l("D"), "K": _l("K")}   # as on German cards (the rule text: B, D, K)
FACES = {"J": _l("Bube"), "Q": _l("Dame"), "K": _l("König")}
SOFT_HYPHEN = "\u00ad"
ONE_LINE = 8   # a name this short stays on one line
REASONS = {
    "distinct-species": _l("genug verschiedene Arten gesammelt"),
    "two-triples": _l("%(n)s Arten mit je %(size)s Vögeln gesammelt", n=TRIPLES_TO_WIN, size=TRIPLE_SIZE),
    "most-birds": _l("Karten aufgebraucht – die meisten Vögel gesammelt"),
}
EVENT_NAMES = {
    "setup": _l("den Aufbau"), "draw": _l("das Ziehen"), "pass": _l("den Verzicht aufs Ziehen"),
    "no-flock": _l("„kein Schwarm“"), "deal": _l("das Austeilen"),
}
STEPS = {
    "setup": _l("Aufbau"), "play": _l("Ausspielen"), "refill": _l("Reihe auffüllen"),
    "draw": _l("Ziehen?"), "flock": _l("Schwarm?"), "deal": _l("Neu geben"),
    "robin-draw": _l("Karte für RobinBird"),
}


def card_label(card: str) -> str:
    """A card as the table writes it: a rank (B, D, K in German; J, Q, K in English), or
    a CuBirds card's bird name; a pair species' id (a flock card shown without its rank,
    C3) as its ranks ("9–10")."""
    if card in BIRDS:
        return str(BIRDS[card])
    if card in RANK_LETTERS:
        return str(RANK_LETTERS[card])
    if "-" in card:
        return "–".join(card_label(rank) for rank in card.split("-"))
    return card


def species_label(species: str) -> str:
    """A species by name: a bird, a face (Bube, Dame, König), or a pair of ranks ("3–4")."""
    if species in BIRDS:
        return str(BIRDS[species])
    if species in FACES:
        return str(FACES[species])
    return card_label(species)


def species_lines(species: str) -> tuple[str, int]:
    """A species' name for a narrow box, in this request's language (``name_lines``)."""
    return name_lines(species_label(species), current_language())


@functools.lru_cache(maxsize=64)
def name_lines(name: str, language: str) -> tuple[str, int]:
    """A name that may take two lines, broken only where words break: soft hyphens
    where the language's hyphenation dictionary allows (pyphen), and its spaces; and
    the length of its longer line broken at the best of them (the box sizes its
    letters by it). Short names stay whole."""
    if len(name) <= ONE_LINE:
        return name, len(name)
    dictionary = _dictionary(language)
    lengths = [max(at + 1, len(name) - at) for at in dictionary.positions(name)]
    lengths += [max(at, len(name) - at - 1) for at, letter in enumerate(name) if letter == " "]
    return dictionary.inserted(name, hyphen=SOFT_HYPHEN), min(lengths, default=len(name))


_dictionaries: dict[str, pyphen.Pyphen] = {}
_loading = threading.Lock()


def _dictionary(language: str) -> pyphen.Pyphen:
    """The language's hyphenation dictionary, loaded once per process (a second or so):
    the threads that ask meanwhile wait for it instead of each loading their own."""
    with _loading:
        if language not in _dictionaries:
            _dictionaries[language] = pyphen.Pyphen(lang=language)
        return _dictionaries[language]


def preload_dictionaries(languages) -> None:
    """Load the languages' dictionaries in a thread of their own, so that the first bird
    screen after a start finds them loaded instead of waiting (seconds on a busy machine)."""
    threading.Thread(target=lambda: [_dictionary(language) for language in languages],
                     name="hyphenation", daemon=True).start()


def refill_note() -> str:
    """"auffüllen" on a row end's narrow tap: it may break where the word does (``name_lines``)."""
    return name_lines(_("auffüllen"), current_language())[0]


def cards_text(cards) -> str:
    return ", ".join(card_label(c) for c in cards)


def played_text(cards) -> str:
    """"3 und 4", "3, 3 und 4", "2 × Eule"."""
    if cards and cards[0] in BIRDS:
        return f"{len(cards)} × {card_label(cards[0])}"
    names = [card_label(c) for c in cards]
    return names[0] if len(names) == 1 else _("%(first)s und %(last)s", first=", ".join(names[:-1]), last=names[-1])


def side_text(side: str) -> str:
    return _("links") if side == LEFT else _("rechts")


def reason_text(reason: str) -> str:
    """Why the game ended, in words."""
    return str(REASONS.get(reason, reason))


def step_label(kind: str) -> str:
    return str(STEPS.get(kind, kind))


class Words:
    """Sentences about one game's entries; ``players`` are the names in seat order."""

    def __init__(self, players: list[str]):
        self.players = players

    def name(self, seat) -> str:
        return self.players[seat] if seat is not None and 0 <= seat < len(self.players) else "?"

    def sentence(self, event: dict, effect: dict, named: bool = True) -> str:
        """The log's sentence of an entry, from the engine's effect: whose move it was
        ("Anna: …"; without it when ``named`` is false), what happened and what followed."""
        kind = effect.get("type") or event.get("type")
        action = self._action(kind, effect)
        parts = [_("%(who)s: %(action)s", who=self.name(effect["player"]), action=action)
                 if named and effect.get("player") is not None else action]
        for flock in effect.get("robin_flocks", []):
            parts.append(_("RobinBird fliegt %(flock)s", flock=self._flock(flock)))
        if effect.get("refill_skipped") or effect.get("robin_rows_skipped"):
            parts.append(_("keine Karte mehr zum Aufdecken"))
        if effect.get("round_over"):
            over = effect["round_over"]
            parts.append(_("Runde vorbei: %(who)s hat keine Handkarten mehr", who=self.name(over["emptied_by"])))
        if effect.get("game_over"):
            over = effect["game_over"]
            winners = ", ".join(self.name(w) for w in over["winners"])
            parts.append(_("Spiel vorbei – %(winners)s gewinnt (%(reason)s)", winners=winners,
                           reason=reason_text(over["reason"])))
        return " · ".join(parts)

    def _flock(self, flock: dict) -> str:
        size = _("großer Schwarm") if flock["size"] == "big" else _("kleiner Schwarm")
        shown = f"{len(flock['cards'])} × {species_label(flock['species'])}"   # the discarded ranks are not entered (C3)
        return _("%(cards)s: %(size)s, %(kept)s in die Sammlung", cards=shown, size=size, kept=cards_text(flock["kept"]))

    def _action(self, kind: str, effect: dict) -> str:
        """What an entry did, without whose move it was."""
        if kind == "setup":
            return _("Aufbau fertig – %(dealer)s beginnt; Nachziehstapel %(draw)s, Ablage %(discard)s",
                     dealer=self.name(effect.get("dealer")), draw=effect.get("draw_pile"),
                     discard=effect.get("discard_pile"))
        if kind in ("play", "robin-draw"):
            cards = effect.get("cards") or [effect.get("card")]
            where = _("%(cards)s %(side)s an Reihe %(row)s", cards=played_text(cards),
                      side=side_text(effect.get("side")), row=effect.get("row", 0) + 1)
            captured = effect.get("captured") or []
            catch = (_("schnappt %(cards)s", cards=cards_text(captured)) if captured
                     else _("schnappt nichts"))
            return f"{where} — {catch}"
        if kind == "refill":
            text = _("%(card)s %(side)s an Reihe %(row)s aufgedeckt", row=effect["row"] + 1,
                     card=card_label(effect["card"]), side=side_text(effect["side"]))
            if effect.get("reshuffled"):
                text += " (" + _("Ablagestapel gemischt") + ")"
            return text + (" — " + _("Reihe fertig") if effect.get("refill_done") else "")
        if kind == "draw":
            return ngettext("zieht %(num)s Karte", "zieht %(num)s Karten", effect.get("drawn", 0))
        if kind == "pass":
            return _("zieht nicht")
        if kind == "flock":
            return self._flock(effect)
        if kind == "no-flock":
            return _("kein Schwarm")
        if kind == "deal":
            text = _("gibt Runde %(round)s aus", round=effect.get("round"))
            return text + (" (" + _("Ablagestapel gemischt") + ")" if effect.get("reshuffled") else "")
        return kind


def event_text(event: dict) -> str:
    """An event in force in a few words, from the event alone (what an undo takes back)."""
    kind = event.get("type")
    if kind == "play":
        return _("%(cards)s %(side)s an Reihe %(row)s", cards=played_text(event["cards"]),
                 side=side_text(event["side"]), row=event["row"] + 1)
    if kind == "refill":
        return _("Auffüllkarte %(card)s %(side)s", card=card_label(event["card"]),
                 side=side_text(event.get("side", RIGHT)))
    if kind == "robin-draw":
        return _("RobinBirds Karte %(card)s", card=card_label(event["card"]))
    if kind == "flock":
        return _("Schwarm %(cards)s", cards=f"{len(event['cards'])} × {species_label(event['cards'][-1])}")
    return str(EVENT_NAMES.get(kind, kind))


def needs_text(needs: dict, name) -> str:
    """What the setup wizard asks to turn up next (``needs`` from the engine's draft)."""
    if needs["kind"] == "row":
        return _("Reihe %(row)s, Karte %(card)s: welche liegt offen?", row=needs["row"] + 1, card=needs["card"])
    if needs["kind"] == "collection":
        return _("Erste Sammlungskarte von %(name)s?", name=name(needs["player"]))
    if needs["kind"] == "robin_bonus":
        return _("Vorsprung für RobinBird: Karte %(card)s von %(of)s?", card=needs["card"], of=needs["of"])
    if needs["kind"] == "robin_hand":
        return _("RobinBirds offene Hand: wie viele von jeder Art?")
    return _("Aufbau vollständig – stimmt alles?")


def placed_text(last: dict | None, name) -> str:
    """Where the setup card just entered went (the draft's answer)."""
    if last is None:
        return ""
    card = card_label(last["card"])
    if last["to"] == "discard":
        return _("%(card)s: diese Art liegt schon in Reihe %(row)s – auf den Ablagestapel, "
                 "eine neue Karte aufdecken", card=card, row=last["row"] + 1)
    if last["to"] == "row":
        return _("%(card)s liegt in Reihe %(row)s", card=card, row=last["row"] + 1)
    if last["to"] == "collection":
        return _("%(card)s in die Sammlung von %(name)s", card=card, name=name(last["player"]))
    if last["to"] == "robin_bonus":
        return _("%(card)s zusätzlich in RobinBirds Sammlung", card=card)
    return _("%(card)s in RobinBirds Hand", card=card)
