"""The phone screens of the bird games (Gleich und gleich, CuBirds, solo with RobinBird).

``BirdScreen.view`` turns the engine's state, ``legal_choices()``, ``catalogue()``,
``preview_play`` and ``SetupDraft`` into what the templates draw: the table
(rows, collections, piles) and the taps of the awaited step. A selection that
takes several taps (species and count, then a row end that enters the play; the
setup cards) travels in the query of ``GET /t/<id>/controls`` and in the form of
the entry that ends it, tied to the table version it was made at (``at``), so a
refused entry keeps it.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

from flask import url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from engine import EngineError
from engine.birds.rules import LEFT

from ..errors import Refusal
from .generic import OptionField, Perspective, Screen

SOLO = OptionField("solo", _l("Solo gegen RobinBird"))
INLINE_MIX_LIMIT = 2   # pair species: mixes up to this many cards are offered at once
REASONS = {
    "distinct-species": _l("genug verschiedene Arten gesammelt"),
    "two-triples": _l("zwei Arten mit je drei Vögeln gesammelt"),
    "most-birds": _l("Karten aufgebraucht – die meisten Vögel gesammelt"),
}
EVENT_NAMES = {  # what an undo took back
    "setup": _l("den Aufbau"), "play": _l("das Ausspielen"), "refill": _l("eine Auffüllkarte"),
    "draw": _l("das Ziehen"), "pass": _l("den Verzicht aufs Ziehen"), "flock": _l("den Schwarm"),
    "no-flock": _l("„kein Schwarm“"), "deal": _l("das Austeilen"), "robin-draw": _l("RobinBirds Karte"),
}
STEPS = {
    "setup": _l("Aufbau"), "play": _l("Ausspielen"), "refill": _l("Reihe auffüllen"),
    "draw": _l("Ziehen?"), "flock": _l("Schwarm?"), "deal": _l("Neu geben"),
    "robin-draw": _l("Karte für RobinBird"),
}


@dataclass
class Tap:
    """One button: ``event`` (entered at once) or ``params`` (the next selection step)."""

    label: str
    event: dict | None = None
    params: dict = field(default_factory=dict)
    note: str = ""
    cards: list = field(default_factory=list)
    disabled: bool = False
    value: str = ""      # what the tap chooses, short (data-value: for tests and styling)

    @property
    def query(self) -> str:
        """The selection as a query (its values are numbers, card and species ids, sides)."""
        return "&".join(f"{name}={value}" for name, value in self.params.items())


class BirdScreen(Screen):
    """Screen of both bird games."""

    def view(self, game, table, seat, values) -> dict:
        return {"birds": _View(game, table, seat, values).build()}

    def perspective(self, seat) -> Perspective | None:
        """Seated or watching: the own seat, and whether the step is its to tap, are
        marked by the page (``<main data-me>``), not here."""
        return Perspective() if seat is not None else None

    def step_label(self, kind: str) -> str:
        return str(STEPS.get(kind, kind))

    def outcome_label(self, reason: str) -> str:
        return reason_text(reason)

    def log_sentence(self, entry, players: list[str]) -> str:
        words = Words(players, entry.event or {})
        if entry.kind == "undo":
            who = entry.seat.name if entry.seat is not None else _("Import")
            return _("%(who)s nimmt zurück: %(what)s", who=who, what=words.event_name())
        return words.sentence(entry.effect or {})


# --- words ----------------------------------------------------------------------

def card_short(card: str) -> str:
    """Gleich und gleich cards by rank (K, 9, 7), CuBirds by species name."""
    return str(CUBIRDS_LABELS[card]) if card in CUBIRDS_LABELS else card


CUBIRDS_LABELS = {"flamingo": _l("Flamingo"), "owl": _l("Eule"), "toucan": _l("Tukan"), "duck": _l("Ente"),
                  "parrot": _l("Papagei"), "magpie": _l("Elster"), "reed-warbler": _l("Teichrohrsänger"),
                  "robin": _l("Rotkehlchen")}
SPECIES_LABELS = {**CUBIRDS_LABELS, "J": _l("Bube"), "Q": _l("Dame"), "K": _l("König")}


def reason_text(reason: str) -> str:
    """Why the game ended, in words."""
    return str(REASONS.get(reason, reason))


def cards_text(cards) -> str:
    return ", ".join(str(card_short(c)) for c in cards)


def played_text(cards) -> str:
    """"3 und 4", "3, 3 und 4", "2 × Eule"."""
    if cards and cards[0] in CUBIRDS_LABELS:
        return f"{len(cards)} × {card_short(cards[0])}"
    names = [str(card_short(c)) for c in cards]
    return names[0] if len(names) == 1 else _("%(first)s und %(last)s", first=", ".join(names[:-1]), last=names[-1])


def side_text(side: str) -> str:
    return _("links") if side == LEFT else _("rechts")


class Words:
    """Log sentences from an event and the engine's effect."""

    def __init__(self, players: list[str], event: dict):
        self.players, self.event = players, event

    def name(self, seat) -> str:
        return self.players[seat] if seat is not None and 0 <= seat < len(self.players) else "?"

    def event_name(self) -> str:
        kind = self.event.get("type", "?")
        return str(EVENT_NAMES.get(kind, kind))

    def sentence(self, effect: dict) -> str:
        kind = effect.get("type") or self.event.get("type")
        who = self.name(effect.get("player"))
        parts = [self._main(kind, who, effect)]
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
        return _("%(cards)s: %(size)s, %(kept)s in die Sammlung", cards=played_text(flock["cards"]), size=size,
                 kept=cards_text(flock["kept"]))

    def _main(self, kind: str, who: str, effect: dict) -> str:
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
            return f"{who}: {where} — {catch}"
        if kind == "refill":
            text = _("Reihe %(row)s: %(card)s %(side)s aufgedeckt", row=effect["row"] + 1,
                     card=card_short(effect["card"]), side=side_text(effect["side"]))
            if effect.get("reshuffled"):
                text += " (" + _("Ablagestapel gemischt") + ")"
            return text + (" — " + _("Reihe fertig") if effect.get("refill_done") else "")
        if kind == "draw":
            return _("%(who)s zieht %(n)s Karten", who=who, n=effect.get("drawn", 0))
        if kind == "pass":
            return _("%(who)s zieht nicht", who=who)
        if kind == "flock":
            return f"{who}: {self._flock(effect)}"
        if kind == "no-flock":
            return _("%(who)s: kein Schwarm", who=who)
        if kind == "deal":
            text = _("%(who)s gibt Runde %(round)s aus", who=who, round=effect.get("round"))
            return text + (" (" + _("Ablagestapel gemischt") + ")" if effect.get("reshuffled") else "")
        return str(EVENT_NAMES.get(kind, kind))


# --- the view ------------------------------------------------------------------------

def _whose_step(game) -> str:
    """Whose phone the step waited for is to tap (``data-turn``): a seat's position,
    or ``all`` for a step of anyone's (the engine's ``entered_by()``: the setup, RobinBird's cards)."""
    seat = game.entered_by()
    return "all" if seat is None else str(seat)


@dataclass(frozen=True)
class CardView:
    """One card as the screens draw it."""

    id: str
    label: str
    species: str
    tone: int
    bird: bool

    def html(self, size: str = "") -> Markup:
        return _card_html(self, size)


# A page draws up to a hundred cards and every phone draws the same ones: each
# card's view and markup is built once per language and size, not per drawing.
@functools.lru_cache(maxsize=4096)
def _card_view(card: str, species: str, tone: int, bird: bool, language: str) -> CardView:
    return CardView(card, str(card_short(card)), species, tone, bird)


@functools.lru_cache(maxsize=4096)
def _card_html(card: CardView, size: str) -> Markup:
    bird = f" bird b-{card.species}" if card.bird else ""
    return Markup('<span class="bcard sp-{}{} {}" data-card="{}"><span class="rank">{}</span></span>').format(
        card.tone, bird, size, card.id, card.label)


class _View:
    """Everything one phone draws, built from the engine."""

    def __init__(self, game, table, seat, values):
        self.game, self.table, self.seat, self.values = game, table, seat, values
        self.catalogue = game.catalogue()
        self.species_index = {s["species"]: i for i, s in enumerate(self.catalogue["species"])}
        self.species_of = {c: s["species"] for s in self.catalogue["species"] for c in s["cards"]}
        self.cubirds = game.name == "cubirds"
        self.error: str | None = None
        # a selection counts only at the version it was made at
        self.selecting = values.get("at") == str(table.version)

    def build(self) -> dict:
        state = self.game.state()
        view = {
            "rows": [[self.card(c) for c in row] for row in state["rows"]],
            "players": self.players(state), "draw_pile": state["draw_pile"],
            "discard_pile": state["discard_pile"], "round": state["round"],
            "dealer": self.name(state["dealer"]), "cubirds": self.cubirds,
            "robin_hand": [self.card(c) for c in state.get("robin_hand", [])],
            "outcome": self.outcome(state), "step": None,
            "enter_url": url_for("play.enter_event", table_id=self.table.id),
            "controls_url": url_for("play.controls", table_id=self.table.id),
        }
        awaiting = self.game.awaiting
        if awaiting is not None and self.seat is not None:
            view["step"] = getattr(self, "step_" + awaiting.kind.replace("-", "_"))(self.game.legal_choices())
            view["step"]["turn"] = _whose_step(self.game)
        view["selection_error"] = self.error
        if self.seat is not None and self.game.events:
            asking = self.selecting and self.values.get("undo") == "ask"
            view["undo"] = {"asking": asking, "ask": Tap("↶ " + _("Zurücknehmen"), params=self.params(undo="ask"), value="undo-ask"),
                            "cancel": Tap(_("Nein, behalten"), params=self.params())}
        return view

    # --- pieces -----------------------------------------------------------------
    def name(self, seat) -> str:
        return self.table.players[seat] if seat is not None else ""

    def card(self, card: str) -> CardView:
        species = self.species_of[card]
        return _card_view(card, species, self.species_index[species], self.cubirds, str(get_locale()))

    def species_label(self, species_id: str) -> str:
        """Translated where a name is a word (birds, faces); ranks stay as they are ("3–4")."""
        if species_id in SPECIES_LABELS:
            return str(SPECIES_LABELS[species_id])
        return self.catalogue["species"][self.species_index[species_id]]["label"]

    def players(self, state: dict) -> list[dict]:
        result = []
        for (seat, collection), progress in zip(enumerate(state["collections"]), self.game.progress()):
            distinct, triples = progress["goals"]
            result.append({
                "seat": seat, "name": self.name(seat), "hand": state["hands"][seat],
                "turn": state["turn"] == seat and state["status"] == "playing",
                "robin": self.game.robin == seat,
                "groups": [{"species": s["species"], "label": self.species_label(s["species"]),
                            "cards": [self.card(c) for c in collection if self.species_of[c] == s["species"]]}
                           for s in self.catalogue["species"] if s["species"] in progress["species"]],
                "distinct": distinct["have"], "distinct_goal": distinct["need"],
                "triples": triples["have"], "triples_goal": triples["need"], "total": progress["cards"],
                "known": [self.card(c) for c in state["known_hands"][seat]],
            })
        return result

    def outcome(self, state: dict) -> dict | None:
        if state["status"] != "over":
            return None
        return {"winners": [self.name(w) for w in state["winners"]],
                "reason": reason_text(state["reason"])}

    def picked(self) -> list[str]:
        """The cards of the selection so far (``pick``), each checked to be a card."""
        if not self.selecting or not self.values.get("pick"):
            return []
        cards = self.values["pick"].split(",")
        unknown = [c for c in cards if c not in self.species_of]
        if unknown:
            self.error = _("Unbekannte Karte in der Auswahl: %(card)s", card=unknown[0])
            return []
        return cards

    def selected_int(self, name: str, limit: int) -> int | None:
        raw = self.values.get(name) if self.selecting else None
        if raw is None:
            return None
        if not raw.isdigit() or int(raw) >= limit:
            self.error = _("Ungültige Auswahl: %(field)s = %(value)s", field=name, value=raw)
            return None
        return int(raw)

    def params(self, **extra) -> dict:
        return {"at": self.table.version, **{k: v for k, v in extra.items() if v is not None}}

    def engine_error(self, err: EngineError) -> None:
        self.error = Refusal.from_engine(err).message

    def card_taps(self, counts: dict, make) -> list[Tap]:
        """One tap per card of the catalogue; ``counts`` (card → copies left) disables the gone ones."""
        taps = []
        for species in self.catalogue["species"]:
            for card in species["cards"]:
                tap = make(card)
                tap.cards, tap.value = [self.card(card)], card
                tap.disabled = counts is not None and not counts.get(card)
                taps.append(tap)
        return taps

    # --- steps -----------------------------------------------------------------------
    def step_setup(self, legal: dict) -> dict:
        players = len(self.table.players)
        dealer = 0 if legal["solo"] else self.selected_int("dealer", players)
        if dealer is None:
            return {"mode": "dealer", "taps": [Tap(self.name(s), params=self.params(dealer=s), value=str(s))
                                               for s in range(players)
                                               if s != self.game.robin]}
        draft = self.game.setup_draft(dealer)
        picked, placed, last = self.picked(), [], None
        for card in picked:
            try:
                last = draft.add(card)
            except EngineError as err:
                self.engine_error(err)
                break
            placed.append(card)

        def add(card):
            return Tap(str(card_short(card)), params=self.params(dealer=dealer, pick=",".join(placed + [card])))

        needs = draft.needs()
        step = {"mode": "cards", "dealer": self.name(dealer), "needs": self.needs_text(needs),
                "counts": draft.counts(), "rows": [[self.card(c) for c in row] for row in draft.rows],
                "discards": [self.card(c) for c in draft.discards],
                "collections": [(self.name(p), self.card(c)) for p, c in enumerate(draft.collections)],
                "robin_hand": [self.card(c) for c in draft.robin_hand], "last": self.placed_text(last),
                "back": Tap(_("Letzte Karte zurück"), params=self.params(dealer=dealer, pick=",".join(placed[:-1])),
                           value="back")
                if placed else None,
                "restart": Tap(_("Anderer Geber"), params=self.params()) if not legal["solo"] else None}
        if draft.complete:
            step["done"] = Tap(_("Aufbau eintragen"), event=draft.event(),
                               params=self.params(dealer=dealer, pick=",".join(placed)), value="setup")
        else:
            step["taps"] = self.card_taps(None, add)
        return step

    def needs_text(self, needs: dict) -> str:
        if needs["kind"] == "row":
            return _("Reihe %(row)s, Karte %(card)s aufdecken", row=needs["row"] + 1, card=needs["card"])
        if needs["kind"] == "collection":
            return _("Erste Sammlungskarte von %(name)s", name=self.name(needs["player"]))
        if needs["kind"] == "robin_bonus":
            return _("Zusätzliche Karte für RobinBirds Sammlung: %(card)s von %(of)s", card=needs["card"],
                     of=needs["of"])
        if needs["kind"] == "robin_hand":
            return _("RobinBirds offene Hand: Karte %(card)s von %(of)s", card=needs["card"], of=needs["of"])
        return _("Aufbau vollständig – bitte eintragen")

    def placed_text(self, last: dict | None) -> str:
        if last is None:
            return ""
        card = card_short(last["card"])
        if last["to"] == "discard":
            return _("%(card)s: diese Art liegt schon in Reihe %(row)s – auf den Ablagestapel, "
                     "eine neue Karte aufdecken", card=card, row=last["row"] + 1)
        if last["to"] == "row":
            return _("%(card)s liegt in Reihe %(row)s", card=card, row=last["row"] + 1)
        if last["to"] == "collection":
            return _("%(card)s in die Sammlung von %(name)s", card=card, name=self.name(last["player"]))
        if last["to"] == "robin_bonus":
            return _("%(card)s zusätzlich in RobinBirds Sammlung", card=card)
        return _("%(card)s in RobinBirds Hand", card=card)

    def step_play(self, legal: dict) -> dict:
        cards = self.picked()
        by_species = {s["species"]: s for s in legal["species"]}
        if cards:
            entry = by_species.get(self.species_of[cards[0]])
            if entry and {self.species_of[c] for c in cards} == {entry["species"]} \
                    and entry["min"] <= len(cards) <= entry["max"]:
                return self.play_ends(cards)
            self.error = _("Ungültige Auswahl: %(field)s = %(value)s", field="pick", value=",".join(cards))
        mix = self.values.get("sp") if self.selecting else None
        if mix in by_species:
            count = self.selected_int("n", 99)
            if count is not None:
                return {"mode": "mix", "title": self.species_label(mix),
                        "taps": [self.pick_tap(c) for c in self.game.mixes(mix, count)],
                        "back": Tap(_("Andere Art"), params=self.params())}
        return {"mode": "species", "question": _("Welche Art spielst du aus, wie viele?"),
                "groups": [self.species_taps(entry, self.pick_tap) for entry in legal["species"]]}

    def pick_tap(self, cards: list[str], note: str = "") -> Tap:
        one_rank = len(self.catalogue["species"][self.species_index[self.species_of[cards[0]]]]["cards"]) == 1
        return Tap(str(len(cards)) if one_rank else " ".join(str(card_short(c)) for c in cards),
                   params=self.params(pick=",".join(cards)), note=note, value=",".join(cards))

    def species_taps(self, entry: dict, make, notes=None) -> dict:
        """A species with its count taps; a pair species (two ranks) offers the short
        mixes at once and asks for the mix of longer ones in a second step."""
        taps, single = [], len(entry["cards"]) == 1
        for count in range(entry["min"], entry["max"] + 1):
            note = notes(count) if notes else ""
            if single:
                taps.append(make([entry["cards"][0]] * count, note))
            elif count <= INLINE_MIX_LIMIT:
                taps.extend(make(cards, note) for cards in self.game.mixes(entry["species"], count))
            else:
                taps.append(Tap(f"{count} …", params=self.params(sp=entry["species"], n=count), note=note,
                                value=f"{count}…"))
        return {"species": entry["species"], "label": self.species_label(entry["species"]),
                "tone": self.species_index[entry["species"]], "bird": self.cubirds, "taps": taps}

    def play_ends(self, cards: list[str]) -> dict:
        """Each row end enters the play at once; its button shows the engine's preview
        (the cards it would capture, whether the row is refilled after)."""
        pick = ",".join(cards)
        rows = []
        for index, row in enumerate(self.game.rows):
            ends = []
            for side in ("left", "right"):
                preview = self.game.preview_play(cards, index, side)
                captured = preview["captured"]
                ends.append({
                    "side": side, "captured": [self.card(c) for c in captured],
                    "note": _("schnappt %(n)s", n=len(captured)) if captured else _("schnappt nichts"),
                    "refill": preview["refill_needed"],
                    "tap": Tap(side_text(side), event={"type": "play", "cards": cards, "row": index, "side": side},
                               params=self.params(pick=pick, row=index, side=side), value=f"{index}:{side}")})
            rows.append({"number": index + 1, "cards": [self.card(c) for c in row], "ends": ends})
        return {"mode": "ends", "chosen": played_text(cards), "chosen_cards": [self.card(c) for c in cards],
                "rows": rows, "back": Tap(_("Ändern"), params=self.params())}

    def step_draw(self, legal: dict) -> dict:
        return {"mode": "draw", "drawn": legal["drawn"], "reshuffle": legal["reshuffle"],
                "yes": Tap(_("Ja, %(n)s ziehen", n=legal["drawn"]), event={"type": "draw"}, value="draw"),
                "no": Tap(_("Nein"), event={"type": "pass"}, value="pass")}

    def step_flock(self, legal: dict) -> dict:
        by_species = {s["species"]: s for s in legal["species"]}
        mix = self.values.get("sp") if self.selecting else None
        if mix in by_species:
            count = self.selected_int("n", 99)
            if count is not None:
                note = self.flock_note(mix, count)
                return {"mode": "mix", "title": self.species_label(mix) + " · " + note,
                        "taps": [self.flock_tap(c, note) for c in self.game.mixes(mix, count)],
                        "back": Tap(_("Andere Art"), params=self.params())}

        def notes_for(species_id):
            return lambda count: self.flock_note(species_id, count)

        groups = [self.species_taps(entry, self.flock_tap, notes_for(entry["species"])) for entry in legal["species"]]
        return {"mode": "flock", "groups": groups, "no": Tap(_("Kein Schwarm"), event={"type": "no-flock"}, value="no-flock")}

    def flock_note(self, species_id: str, count: int) -> str:
        flock = self.game.flock(species_id, count)
        if flock["size"] == "big":
            return _("groß → %(n)s", n=flock["keeps"])
        return _("klein → %(n)s", n=flock["keeps"])

    def flock_tap(self, cards: list[str], note: str = "") -> Tap:
        tap = self.pick_tap(cards, note)
        return Tap(tap.label, event={"type": "flock", "cards": cards}, note=note, cards=tap.cards, value=tap.value)

    def step_refill(self, legal: dict) -> dict:
        side = self.values.get("side") if self.selecting and self.values.get("side") in legal["sides"] else "right"
        other = "left" if side == "right" else "right"
        return {"mode": "turn-up", "question": _("Reihe %(row)s auffüllen: welche Karte liegt oben?",
                                                 row=legal["row"] + 1),
                "row": [self.card(c) for c in self.game.rows[legal["row"]]], "reshuffle": legal["reshuffle"],
                "side": side_text(side),
                "switch": Tap(_("Seite: %(side)s (wechseln)", side=side_text(side)), params=self.params(side=other), value="side"),
                "taps": self.card_taps(legal["cards"], lambda c: Tap(
                    str(card_short(c)), event={"type": "refill", "card": c, "side": side},
                    params=self.params(side=side)))}

    def step_robin_draw(self, legal: dict) -> dict:
        return {"mode": "turn-up", "question": _("Karte für RobinBird an Reihe %(row)s: welche wurde aufgedeckt?",
                                                 row=legal["row"] + 1),
                "row": [self.card(c) for c in self.game.rows[legal["row"]]], "reshuffle": legal["reshuffle"],
                "taps": self.card_taps(legal["cards"], lambda c: Tap(
                    str(card_short(c)), event={"type": "robin-draw", "card": c}))}

    def step_deal(self, legal: dict) -> dict:
        step = {"mode": "deal", "dealer": self.name(legal["dealer"]), "reshuffle": legal["reshuffle"]}
        if not legal["robin_hand"]:
            step["done"] = Tap(_("Ausgeteilt"), event={"type": "deal"}, value="deal")
            return step
        picked = self.picked()
        left = Counter(legal["cards"])
        left.subtract(picked)
        if picked and (len(picked) > legal["robin_hand"] or any(n < 0 for n in left.values())):
            self.error = _("So viele dieser Karten gibt es nicht mehr")
            picked, left = [], Counter(legal["cards"])
        step.update(robin_hand=[self.card(c) for c in picked], needed=legal["robin_hand"],
                    back=Tap(_("Letzte Karte zurück"), params=self.params(pick=",".join(picked[:-1])))
                    if picked else None)
        if len(picked) == legal["robin_hand"]:
            step["done"] = Tap(_("Ausgeteilt"), event={"type": "deal", "robin_hand": picked},
                               params=self.params(pick=",".join(picked)), value="deal")
        else:
            step["taps"] = self.card_taps(left, lambda c: Tap(str(card_short(c)),
                                                               params=self.params(pick=",".join(picked + [c]))))
        return step


gleich_und_gleich = BirdScreen(
    folder="birds",
    stylesheet="birds.css",
    own_undo=True,
    option_fields=[
        OptionField("fast", _l("Schnelles Spiel")),
        OptionField("rarer_faces", _l("Seltenere Seltene")),
        SOLO,
    ],
)

cubirds = BirdScreen(folder="birds", stylesheet="birds.css", own_undo=True, option_fields=[SOLO])
