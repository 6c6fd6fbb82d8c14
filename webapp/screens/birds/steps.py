"""The step builders: for the awaited step, its question, its taps and the part of
the table they refer to, as view data for ``templates/birds/steps/<mode>.html``.

Every number and every choice comes from the engine (``legal_choices()``,
``mixes``, ``kept_choices``, ``flock``, ``preview_play``, the setup draft); the
builders only arrange them as taps. A count pad (a line per species, a cell per
count of each of its cards) counts as one control, like a card pad laid out as
the deck.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine import EngineError
from engine.birds.rules import RIGHT, SIDES

from ...errors import Refusal
from ...i18n import gettext as _
from .table import Cards
from .taps import Selection, Tap
from .words import needs_text, placed_text, played_text, refill_note, side_text

LINE_CELLS = 6        # count cells on a pad's line (shared by a pair species' two ranks); each ≥ 44 px
BIRD_LINE_CELLS = 5   # CuBirds: the line also shows the bird and its name
FLOCK_CELLS = 5


@dataclass
class PadGroup:
    """The cells of one card of a species (or of the species, for a flock)."""

    card: object                       # CardView, or None for a species' count
    cells: list[Tap] = field(default_factory=list)


@dataclass
class PadLine:
    species: str
    label: str
    tone: int
    groups: list[PadGroup] = field(default_factory=list)


@dataclass
class Pad:
    """A count pad: ``lines`` per species; ``more``/``less`` page through longer counts.
    ``spoken`` names a cell for a screen reader: a %-format of its count ``n`` and its
    ``card`` (or species), translated once for all the pad's cells."""

    lines: list[PadLine]
    kind: str                          # "cards" (a cell per card and count) or "flock"
    spoken: str
    more: Tap | None = None
    less: Tap | None = None


class Steps:
    """Builds the awaited step of one game for the phones that may enter it."""

    def __init__(self, game, cards: Cards, names: list[str], selection: Selection):
        self.game, self.cards, self.names, self.sel = game, cards, names, selection
        self.state = game.state()

    def build(self) -> dict:
        kind = self.game.awaiting.kind
        step = getattr(self, "step_" + kind.replace("-", "_"))(self.game.legal_choices())
        seat = self.game.entered_by()
        step.update(kind=kind, turn="all" if seat is None else str(seat))
        return step

    # --- helpers ----------------------------------------------------------------
    def name(self, seat) -> str:
        return self.names[seat] if seat is not None else ""

    def refuse(self, err: EngineError) -> None:
        self.sel.error = Refusal.from_engine(err).message

    def page(self) -> int:
        return self.sel.number("more", 9) or 0

    def card_pad(self, available: dict, make) -> list[dict]:
        """A card pad laid out like the deck: a column per species, its cards in it;
        a card of which no copy can be turned up any more is greyed out."""
        columns = []
        for species in self.cards.species:
            taps = []
            for card in species["cards"]:
                tap = make(card)
                tap.cards, tap.value, tap.disabled = [self.cards(card)], card, not available.get(card)
                taps.append(tap)
            columns.append({"species": species["species"], "tone": self.cards.index[species["species"]],
                            "label": self.cards.label(species["species"]), "taps": taps})
        return columns

    def paged(self, counts: list[int], width: int) -> tuple[list[int], bool]:
        """The counts on the current page of a pad, and whether more follow."""
        start = self.page() * width
        return counts[start:start + width], len(counts) > start + width

    def pad(self, lines: list[PadLine], kind: str, more: bool, **params) -> Pad:
        page = self.page()
        return Pad(lines, kind, _("%(n)s × %(card)s"),
                   more=Tap(_("größere Anzahlen") + " ▸", params=self.sel.params(more=page + 1, **params),
                            value="more") if more else None,
                   less=Tap("◂ " + _("kleinere Anzahlen"), params=self.sel.params(more=page - 1 or None, **params),
                            value="less")
                   if page else None)

    def cells_per_card(self, cards: list) -> int:
        return (BIRD_LINE_CELLS if self.cards.birds else LINE_CELLS) // len(cards)

    def line(self, species: str, groups: list[PadGroup]) -> PadLine:
        return PadLine(species, self.cards.label(species), self.cards.index[species], groups)

    # --- a hand as counts (RobinBird's open cards) -----------------------------------------
    def hand_pad(self, hand: list[str], size: int, available: dict, **params) -> Pad:
        """Cells set how many of a card the hand holds (a pressed cell unsets it); the
        counts are capped by the hand's size and the copies left."""
        held = Counter(hand)
        lines, more = [], False
        for species in self.cards.species:
            groups = []
            for card in species["cards"]:
                room = size - len(hand) + held[card]
                counts, later = self.paged(list(range(1, min(room, available.get(card, 0)) + 1)),
                                           self.cells_per_card(species["cards"]))
                more |= later
                cells = []
                for count in counts:
                    chosen = Counter(held)
                    chosen[card] = 0 if held[card] == count else count
                    cells.append(Tap(params=self.sel.params(hand=",".join(self.in_order(chosen)) or None, **params),
                                     value=f"{card}:{count}", count=count, cards=[self.cards(card)] * count,
                                     pressed=held[card] == count))
                groups.append(PadGroup(self.cards(card), cells))
            lines.append(self.line(species["species"], groups))
        return self.pad(lines, "cards", more, hand=",".join(hand) or None, **params)

    def in_order(self, counts: Counter) -> list[str]:
        return [card for s in self.cards.species for card in s["cards"] for _ in range(counts[card])]

    # --- setup ------------------------------------------------------------------------------
    def step_setup(self, legal: dict) -> dict:
        dealers = legal["dealers"]
        dealer = dealers[0] if len(dealers) == 1 else self.sel.number("dealer", legal["players"])
        if dealer is None:
            return {"mode": "dealer", "taps": [Tap(self.name(s), params=self.sel.params(dealer=s), value=str(s))
                                               for s in dealers]}
        chosen = dealer if len(dealers) > 1 else None
        draft = self.game.setup_draft(dealer)
        placed, last = self.enter_all(draft, self.sel.card_list("pick"))
        hand, _last = self.enter_all(draft, self.sel.card_list("hand")) if draft.needs()["kind"] == "robin_hand" \
            else ([], None)
        needs = draft.needs()
        pick = ",".join(placed) or None
        step = {"mode": "setup", "needs": needs["kind"], "question": needs_text(needs, self.name),
                "dealer": self.name(dealer), "counts": draft.counts(),
                # where the last tapped card went; once RobinBird's hand is counted in, nothing of before
                "last": placed_text(None if hand else last, self.name),
                "hand_size": self.game.numbers()["hand_size"],
                "rows": [self.cards.many(row) for row in draft.rows],
                "row": needs.get("row"), "discards": self.cards.many(draft.discards),
                "collections": [(self.name(p), self.cards(c)) for p, c in enumerate(draft.collections)],
                "robin_bonus": self.cards.many(draft.robin_bonus), "robin_hand": self.cards.many(draft.robin_hand),
                "restart": Tap(_("Anderer Geber"), params=self.sel.params(), value="restart") if chosen is not None
                else None}
        if hand:
            step["back"] = Tap(_("Letzte Karte zurück"), value="back", params=self.sel.params(
                dealer=chosen, pick=pick, hand=",".join(hand[:-1]) or None))
        elif placed:
            step["back"] = Tap(_("Letzte Karte zurück"), value="back", params=self.sel.params(
                dealer=chosen, pick=",".join(placed[:-1]) or None))
        if draft.complete:
            step["done"] = Tap(_("Aufbau eintragen"), event=draft.event(),
                               params=self.sel.params(dealer=chosen, pick=pick, hand=",".join(hand) or None),
                               value="setup")
        elif needs["kind"] == "robin_hand":
            held = Counter(hand)
            available = {card: n + held[card] for card, n in draft.available().items()}
            step["pad"] = self.hand_pad(hand, self.game.numbers()["robin_hand"], available, dealer=chosen, pick=pick)
        else:
            step["cardpad"] = self.card_pad(draft.available(), lambda card: Tap(
                params=self.sel.params(dealer=chosen, pick=",".join(placed + [card]))))
        return step

    def enter_all(self, draft, cards: list[str]) -> tuple[list[str], dict | None]:
        """Add the cards to the draft up to the first one it refuses (named in the error)."""
        placed, last = [], None
        for card in cards:
            try:
                last = draft.add(card)
            except EngineError as err:
                self.refuse(err)
                break
            placed.append(card)
        return placed, last

    # --- play -----------------------------------------------------------------------------
    def step_play(self, legal: dict) -> dict:
        choices = {entry["species"]: entry for entry in legal["species"]}
        mixes = {species: [mix for n in range(entry["min"], entry["max"] + 1)
                           for mix in self.game.mixes(species, n)] for species, entry in choices.items()}
        pick = self.sel.card_list("pick")
        species = self.cards.species_of[pick[0]] if pick else None
        if pick and (species not in mixes or pick not in mixes[species]):
            self.sel.refuse("pick", ",".join(pick))
            pick, species = [], None
        lines, more = [], False
        for entry in legal["species"]:
            if species is None or species == entry["species"]:   # once chosen, only its line stays
                line, later = self.play_line(entry, mixes[entry["species"]], pick)
                lines.append(line)
                more |= later
        return {"mode": "play", "pick": self.cards.many(pick), "chosen": played_text(pick) if pick else "",
                "pair": species is not None and len(self.cards.of(species)["cards"]) > 1,
                "pad": self.pad(lines, "cards", more, pick=",".join(pick) or None),
                "rows": self.play_rows(pick),
                "back": Tap(_("Andere Art"), params=self.sel.params(), value="other") if pick else None}

    def play_line(self, entry: dict, mixes: list[list[str]], pick: list[str]) -> tuple[PadLine, bool]:
        """A species' cells: for each of its cards, the counts some legal mix holds; a
        cell sets that card's count and keeps the other card's as far as a mix allows."""
        held = Counter(pick)
        counted = [(mix, Counter(mix)) for mix in mixes]
        groups, more = [], False
        width = self.cells_per_card(entry["cards"])
        for card in entry["cards"]:
            possible = sorted({counts[card] for _mix, counts in counted} - {0})
            counts, later = self.paged(possible, width)
            more |= later
            cells = []
            for count in counts:
                pressed = held[card] == count
                chosen = self.nearest_mix(counted, card, 0 if pressed else count, held)
                cells.append(Tap(params=self.sel.params(pick=",".join(chosen) or None), value=f"{card}:{count}",
                                 count=count, cards=[self.cards(card)] * count, pressed=pressed))
            groups.append(PadGroup(self.cards(card), cells))
        return self.line(entry["species"], groups), more

    @staticmethod
    def nearest_mix(counted: list[tuple[list[str], Counter]], card: str, count: int, held: Counter) -> list[str]:
        """Of the legal mixes (each with its counts), the one with ``count`` of ``card`` whose
        other cards are closest to those held (a count of 0 unsets the card: the mix
        without it, if one is legal)."""
        fitting = [(mix, counts) for mix, counts in counted if counts[card] == count]
        if not held:  # nothing held yet: the distance is the mix's size
            return min(fitting, key=lambda found: len(found[0]), default=([], None))[0]

        def distance(found: tuple[list[str], Counter]) -> tuple[int, int]:
            mix, counts = found
            return sum(abs(counts[c] - held[c]) for c in counts.keys() | held.keys()), len(mix)

        return min(fitting, key=distance, default=([], None))[0]

    def play_rows(self, pick: list[str]) -> list[dict]:
        """The rows with their ends; once cards are chosen, each end enters the play and
        shows the engine's preview: the cards it would catch, whether a refill follows."""
        rows = []
        for index, row in enumerate(self.game.rows):
            caught, ends = {}, []
            for side in SIDES:
                end = {"side": side, "label": side_text(side), "tap": None, "caught": 0, "refill": ""}
                if pick:
                    preview = self.game.preview_play(pick, index, side)
                    end.update(caught=len(preview["captured"]),
                               refill=refill_note() if preview["refill_needed"] else "",
                               tap=Tap(side_text(side), event={"type": "play", "cards": pick, "row": index,
                                                               "side": side},
                                       params=self.sel.params(pick=",".join(pick)), value=f"{index}:{side}"))
                    caught.update((position, side) for position in preview["captured_positions"])
                ends.append(end)
            rows.append({"index": index, "cards": self.cards.many(row), "caught": caught, "ends": ends})
        return rows

    # --- refill, RobinBird's cards ------------------------------------------------------------
    def step_refill(self, legal: dict) -> dict:
        side = self.sel.choice("side", legal["sides"]) or RIGHT
        index = legal["row"]
        ends = [{"side": s, "label": side_text(s), "refill": "", "caught": 0,
                 "tap": Tap(side_text(s), params=self.sel.params(side=s), value=f"side:{s}", pressed=s == side)}
                for s in legal["sides"]]
        return {"mode": "turn-up", "row_index": index, "reshuffle": legal["reshuffle"], "side": side_text(side),
                "rows": [{"index": index, "cards": self.cards.many(self.game.rows[index]), "caught": {},
                          "ends": ends}],
                "cardpad": self.card_pad(legal["cards"], lambda card: Tap(
                    event={"type": "refill", "card": card, "side": side}, params=self.sel.params(side=side)))}

    def step_robin_draw(self, legal: dict) -> dict:
        index = legal["row"]
        return {"mode": "turn-up", "row_index": index, "reshuffle": legal["reshuffle"], "robin": True,
                "rows": [{"index": index, "cards": self.cards.many(self.game.rows[index]), "caught": {}, "ends": []}],
                "cardpad": self.card_pad(legal["cards"], lambda card: Tap(event={"type": "robin-draw", "card": card}))}

    # --- draw or pass ---------------------------------------------------------------------------
    def step_draw(self, legal: dict) -> dict:
        """Draw or not; where the engine says no card is left to draw, one tap goes on
        (drawing nothing and not drawing are one and the same at the table)."""
        if not legal["drawn"]:
            return {"mode": "draw", "drawn": 0, "reshuffle": False, "draw_pile": self.state["draw_pile"],
                    "no": Tap(_("Weiter – keine Karte zum Ziehen"), event={"type": "pass"}, value="pass")}
        return {"mode": "draw", "drawn": legal["drawn"], "reshuffle": legal["reshuffle"],
                "draw_pile": self.state["draw_pile"],
                "yes": Tap(_("Ja, %(n)s ziehen", n=legal["drawn"]), event={"type": "draw"}, value="draw"),
                "no": Tap(_("Nein"), event={"type": "pass"}, value="pass")}

    # --- flock -----------------------------------------------------------------------------------
    def step_flock(self, legal: dict) -> dict:
        choices = {entry["species"]: entry for entry in legal["species"]}
        species = self.sel.choice("sp", choices)
        count = self.sel.number("n") if species else None
        if species and count is not None:
            kept = self.game.kept_choices(species, count)
            if kept:
                return {"mode": "kept", "species": self.cards.label(species), "count": count,
                        "keeps": len(kept[0]),
                        "taps": [self.flock_tap(species, count, cards) for cards in kept],
                        "collection": self.collection(self.game.turn),
                        "back": Tap(_("Andere Art oder Anzahl"), params=self.sel.params(), value="back")}
            self.sel.refuse("n", str(count))
        lines, more = [], False
        for entry in legal["species"]:
            counts, later = self.paged(list(range(entry["min"], entry["max"] + 1)), FLOCK_CELLS)
            more |= later
            lines.append(self.line(entry["species"], [PadGroup(None, [self.flock_cell(entry, n) for n in counts])]))
        player = self.game.turn
        return {"mode": "flock", "pad": self.pad(lines, "flock", more) if lines else None,
                "collection": self.collection(player),
                "no": Tap(_("Kein Schwarm"), event={"type": "no-flock"}, value="no-flock")}

    def flock_cell(self, entry: dict, count: int) -> Tap:
        """A count that flies at once when the kept cards' ranks are clear, else leads to them."""
        species = entry["species"]
        flock = self.game.flock(species, count)
        note = _("→ %(n)s", n=flock["keeps"])
        kept = self.game.kept_choices(species, count)
        if len(kept) == 1:
            tap = self.flock_tap(species, count, kept[0])
        else:
            tap = Tap(params=self.sel.params(sp=species, n=count), value=f"{species}:{count}")
        tap.count, tap.note, tap.disabled, tap.value = count, note, not kept, f"{species}:{count}"
        tap.look = flock["size"] or ""
        return tap

    def flock_tap(self, species: str, count: int, kept: list[str]) -> Tap:
        """The engine's flock event (C3) that keeps the cards ``kept``."""
        return Tap(" ".join(self.cards(c).label for c in kept), event=self.game.flock_event(species, count, kept),
                   value=",".join(kept), cards=self.cards.many(kept))

    def collection(self, seat: int) -> dict:
        progress = self.game.progress()[seat]
        collection = self.state["collections"][seat]
        return {"name": self.name(seat), "goals": progress["goals"],
                "groups": [self.cards.many(c for c in collection if self.cards.species_of[c] == s["species"])
                           for s in self.cards.species if s["species"] in progress["species"]]}

    # --- deal -----------------------------------------------------------------------------------------
    def step_deal(self, legal: dict) -> dict:
        step = {"mode": "deal", "dealer": self.name(legal["dealer"]), "reshuffle": legal["reshuffle"],
                "round": self.state["round"], "hand_size": self.game.numbers()["hand_size"],
                "draw_pile": self.state["draw_pile"], "discard_pile": self.state["discard_pile"]}
        size = legal["robin_hand"]
        if not size:
            step["done"] = Tap(_("Ausgeteilt"), event={"type": "deal"}, value="deal")
            return step
        hand = self.sel.card_list("hand")
        held = Counter(hand)
        if len(hand) > size or any(held[card] > legal["cards"].get(card, 0) for card in held):
            self.sel.error = _("So viele dieser Karten gibt es nicht mehr")
            hand = []
        step.update(robin_hand=self.cards.many(hand), needed=size,
                    pad=self.hand_pad(hand, size, legal["cards"]))
        if len(hand) == size:
            step["done"] = Tap(_("Ausgeteilt"), event={"type": "deal", "robin_hand": hand},
                               params=self.sel.params(hand=",".join(hand)), value="deal")
        return step
