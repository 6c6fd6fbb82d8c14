"""Gleich und gleich and CuBirds: one implementation, two rulesets (rules.py).

A turn: ``play`` (step 1; the engine works out the capture), then ``refill`` events
while the row holds one species, or ``draw``/``pass`` when nothing was captured;
then ``flock``/``no-flock`` (step 2) unless the hand is empty. The turn ends with
the win check (README Gaps 5), then the round end when the hand is empty
(``deal`` follows, or the game ends with ``most-birds``). In solo the last seat is
RobinBird: the table enters ``robin-draw`` (one per row) and ``refill`` cards, the
engine plays everything else for her (robin.py).

Effects (``apply`` returns them; every one has ``type`` and ``player``):

- ``setup``: ``dealer``, ``draw_pile``, ``discard_pile``, ``robin_bonus`` (cards: the
  option's, or the event's with ``robin_handicap``).
- ``play``: ``species``, ``cards``, ``row``, ``side``, ``captured`` (cards),
  ``refill_needed`` (bool), ``draw_offered`` (bool).
- ``robin-draw``: ``card``, ``row``, ``side`` (where she laid it), ``captured``,
  ``refill_needed``, ``reshuffled``.
- ``refill``: ``card``, ``row``, ``side``, ``reshuffled``, ``refill_done`` (bool).
- ``draw``: ``drawn`` (number of cards taken, 0–2), ``reshuffled``. ``pass``: nothing more.
- ``flock``: ``species``, ``cards``, ``kept``, ``discarded`` (a species id for a card whose
  rank was not entered), ``size`` (small/big).
  ``no-flock``: nothing more.
- ``deal``: ``dealer``, ``round``, ``reshuffled``, ``robin_hand`` (solo).

Any effect that ends a turn also carries: ``robin_flocks`` (list of flocks as
above, when RobinBird's turn ended), ``game_over`` (``{"reason", "winners"}``),
``round_over`` (``{"emptied_by", "dealer", "discarded": [cards per seat]}``) and
``next_turn`` (seat) when play goes on. ``refill_skipped`` /
``robin_rows_skipped`` tell that no card was left to turn up.
"""
from __future__ import annotations

from operator import attrgetter
from typing import ClassVar

from .. import register
from ..errors import IllegalEvent, InvalidRecord, Phrase, Word
from ..game import Awaiting, Game, Outcome
from . import events
from .knowledge import add_counts, check_hidden, hand_allows, hand_extra
from .robin import robin_flocks, robin_placement
from .rules import (DRAW_AFTER_NO_CAPTURE, FLOCK_KEEPS, HAND_SIZE, MAX_ROBIN_HANDICAP, RIGHT, ROBIN_NAME, ROW_SETUP_SIZE,
                    ROWS, SIDES, Ruleset, ruleset_for)
from .setup import SetupDraft
from .table import add_refill, needs_refill, place

KIND_LABELS = {
    "setup": Word("der Aufbau"), "play": Word("Karten ausspielen"), "refill": Word("eine Karte zum Auffüllen"),
    "draw": Word("ziehen oder verzichten"), "flock": Word("Schwarm oder kein Schwarm"),
    "deal": Word("das Austeilen"), "robin-draw": Word("RobinBirds Karte"),
}
EVENT_KIND = {"setup": "setup", "play": "play", "refill": "refill", "draw": "draw", "pass": "draw",
              "flock": "flock", "no-flock": "flock", "deal": "deal", "robin-draw": "robin-draw"}
# The whole mutable state: immutable values only, so a snapshot is one tuple.
_FIELDS = ("phase", "turn", "dealer", "round", "rows", "collections", "hands", "known", "void",
           "hidden", "draw", "discard", "discard_known", "refill_row", "robin_row",
           "winners", "reason", "reshuffles")
_get_fields = attrgetter(*_FIELDS)
FLOCK_KEEPS_BY_SIZE = {size: keep for size, keep in FLOCK_KEEPS.items() if size}
_OPTION_KINDS = {bool: Word("true oder false"), list: Word("eine Liste von Karten"), int: Word("eine ganze Zahl")}


class BirdGame(Game):
    """The shared bird-game engine; subclasses only name the game."""

    min_players = 2
    max_players = 5
    option_types = {"solo": bool, "robin_bonus": list, "robin_handicap": int}

    def __init__(self, options: dict | None = None, players: list[str] | None = None):
        super().__init__(options, players)
        self.ruleset: Ruleset = ruleset_for(self.name, self.options)
        self.solo = self.options["solo"]
        self.robin = len(self.players) - 1 if self.solo else None
        n = len(self.players)
        zeros = (0,) * len(self.ruleset.cards)
        self.phase, self.turn, self.dealer, self.round = "setup", None, None, 0
        self.rows = ((),) * ROWS
        self.collections = ((),) * n
        self.hands = (0,) * n
        self.known = ((),) * n
        self.void = (frozenset(),) * n
        self.hidden = tuple(self.ruleset.card_counts[c] for c in self.ruleset.cards)
        self.draw, self.discard, self.discard_known = self.ruleset.total, 0, zeros
        self.refill_row, self.robin_row = None, 0
        self.winners, self.reason, self.reshuffles = (), None, 0

    # --- header ------------------------------------------------------------
    @classmethod
    def validate_options(cls, options: dict) -> dict:
        for key, value in options.items():
            expected = cls.option_types.get(key)
            if expected is None:
                raise InvalidRecord("unknown-option", "Unbekannte Option {option!r} für {game}; möglich: {known}",
                                    {"option": key, "game": cls.name, "known": ", ".join(cls.option_types)})
            if type(value) is not expected:
                raise InvalidRecord("bad-option", "Option {option!r} muss {kind} sein, nicht {value!r}",
                                    {"option": key, "kind": _OPTION_KINDS[expected], "value": value})
        result = {key: kind() for key, kind in cls.option_types.items()}
        result.update(options)
        bonus, handicap = result["robin_bonus"], result["robin_handicap"]
        if (bonus or handicap) and not result["solo"]:
            raise InvalidRecord("bad-option", "Option {option!r} gibt es nur im Solospiel",
                                {"option": "robin_bonus" if bonus else "robin_handicap"})
        if len(bonus) > MAX_ROBIN_HANDICAP:
            raise InvalidRecord("bad-option", "Option \"robin_bonus\" hat höchstens {most} Karten, nicht {value}",
                                {"most": MAX_ROBIN_HANDICAP, "value": len(bonus)})
        if not 0 <= handicap <= MAX_ROBIN_HANDICAP:
            raise InvalidRecord("bad-option", "Option \"robin_handicap\" muss 0 bis {most} sein, nicht {value}",
                                {"most": MAX_ROBIN_HANDICAP, "value": handicap})
        if bonus and handicap:
            raise InvalidRecord("bad-option", "\"robin_bonus\" (Karten) und \"robin_handicap\" (Anzahl) "
                                "schließen sich aus", {})
        ruleset = ruleset_for(cls.name, result)
        for card in bonus:
            if not isinstance(card, str) or card not in ruleset.card_index:
                raise InvalidRecord("bad-option", "robin_bonus: {card!r} ist keine Karte von {game}",
                                    {"card": card, "game": cls.name})
            if bonus.count(card) > ruleset.card_counts[card]:
                raise InvalidRecord("bad-option", "robin_bonus: {card} gibt es nur {n}-mal",
                                    {"card": card, "n": ruleset.card_counts[card]})
        return result

    @classmethod
    def player_range(cls, options: dict) -> tuple[int, int]:
        return (2, 2) if options.get("solo") else (cls.min_players, cls.max_players)

    @classmethod
    def bot_names(cls, options: dict) -> list[str]:
        """RobinBird in solo (the last seat)."""
        return [ROBIN_NAME] if options.get("solo") else []

    @classmethod
    def random_record(cls, options: dict, players: int | None, seed: int) -> dict:
        from .randomplay import random_record

        return random_record(cls.name, options, players, seed)

    # --- snapshot ------------------------------------------------------------
    def _snapshot(self):
        return _get_fields(self)

    def _restore(self, snapshot) -> None:
        for field, value in zip(_FIELDS, snapshot):
            setattr(self, field, value)

    # --- what comes next -----------------------------------------------------
    @property
    def awaiting(self) -> Awaiting | None:
        if self.phase is None:
            return None
        if self.phase == "setup":
            return Awaiting("setup", None)
        return Awaiting(self.phase, self.dealer if self.phase == "deal" else self.turn)

    def outcome(self) -> Outcome | None:
        if self.reason is None:
            return None
        people_won = any(seat not in self.bot_seats for seat in self.winners)
        return Outcome(self.reason, self.winners, people_won)

    def _choices(self, phase: str) -> dict:
        if phase == "setup":
            return {"players": len(self.players), "dealers": self._dealers(), "solo": self.solo, "robin_bonus": list(self.options["robin_bonus"]),
                    "robin_handicap": self.options["robin_handicap"], "rows": ROWS, "row_size": ROW_SETUP_SIZE,
                    "hand_size": HAND_SIZE}
        if phase == "play":
            return {"species": self._species_choices(self.turn, minimum=1), "rows": list(range(ROWS)),
                    "sides": list(SIDES)}
        if phase == "flock":
            return {"species": self._species_choices(self.turn, minimum=None), "no_flock": True}
        if phase == "draw":
            reshuffle = self.draw < DRAW_AFTER_NO_CAPTURE and self.ruleset.reshuffle_on_draw and self.discard > 0
            available = self.draw + self.discard if self.ruleset.reshuffle_on_draw else self.draw
            return {"drawn": min(DRAW_AFTER_NO_CAPTURE, available), "reshuffle": reshuffle}
        if phase == "deal":
            reshuffle = self.draw < HAND_SIZE * len(self.players)
            return {"dealer": self.dealer, "reshuffle": reshuffle, "robin_hand": HAND_SIZE if self.solo else 0,
                    "cards": self.turnable_cards(reshuffle)}
        # refill, robin-draw: a card turned up
        reshuffle = self.draw == 0
        choices = {"row": self.refill_row if phase == "refill" else self.robin_row, "reshuffle": reshuffle,
                   "cards": self.turnable_cards(reshuffle)}
        if phase == "refill":
            choices["sides"] = list(SIDES)
        return choices

    def _legal_events(self, rng):
        return events.legal_events(self, rng)

    def _event_key(self, event) -> str:
        return events.event_key(self, event)

    TURN_ENDS: ClassVar[tuple[str, ...]] = ("next_turn", "round_over", "game_over")
    outcome_reasons = ("distinct-species", "two-triples", "most-birds")

    def ends_turn(self, effect: dict) -> bool:
        """A turn ends with the effect that carries ``next_turn``, ``round_over`` or ``game_over``."""
        return any(key in effect for key in self.TURN_ENDS)

    def _first_turn(self) -> int:
        return self.events[0]["dealer"]   # rules/000: „Der Geber fängt an“

    def numbers(self) -> dict:
        """The numbers of the rules with these options (the species table: ``catalogue()``)."""
        rs = self.ruleset
        return {"rows": ROWS, "row_setup_size": ROW_SETUP_SIZE, "hand_size": HAND_SIZE,
                "draw_after_no_capture": DRAW_AFTER_NO_CAPTURE, "cards": rs.total,
                "robin_hand": HAND_SIZE if self.solo else 0,
                "robin_bonus": len(self.options["robin_bonus"]) or self.options["robin_handicap"],
                "distinct_to_win": rs.distinct_to_win, "triples_to_win": rs.triples_to_win,
                "triple_size": rs.triple_size}

    def turnable_cards(self, reshuffle: bool = False) -> dict:
        """Cards that can still be turned up (from the draw pile, or after shuffling
        the discard pile in), with how many copies could be."""
        pool = tuple(h + d for h, d in zip(self.hidden, self.discard_known)) if reshuffle else self.hidden
        return {card: n for card, n in zip(self.ruleset.cards, pool) if n > 0}

    def _species_choices(self, player: int, minimum: int | None) -> list[dict]:
        """Per species: the fewest and most cards the hand can show of it (the known
        cards are the minimum). ``minimum`` None: flocks (small flock at least)."""
        rs = self.ruleset
        known, void = self.known[player], self.void[player]
        unknown = self.hands[player] - len(known)
        result = []
        for species in rs.species:
            known_cards = sorted((c for c in known if rs.species_of[c] == species.id), key=rs.card_index.get)
            hidden = sum(self.hidden[rs.card_index[c]] for c in species.cards)
            most = len(known_cards) + (0 if species.id in void else min(unknown, hidden))
            least = max(len(known_cards), minimum if minimum is not None else species.small)
            if most < least:
                continue
            entry = {"species": species.id, "label": species.label, "cards": list(species.cards),
                     "min": least, "max": most, "known": known_cards}
            if minimum is None:
                entry.update(small=species.small, big=species.big)
            result.append(entry)
        return result

    # --- helpers for screens -------------------------------------------------
    def preview_play(self, cards: list, row: int, side: str) -> dict:
        """What playing ``cards`` at ``side`` of ``row`` would capture (the cards, and
        their positions in the row now), and whether a refill would follow; the state
        is not changed."""
        cards = tuple(self._cards(cards, "cards"))
        self._one_species(cards)
        old_row, side = self.rows[self._row(row)], self._side(side)
        new_row, captured = place(old_row, cards, side, self.ruleset.species_of)
        first = len(old_row) - len(captured) if side == RIGHT else 0   # a capture is taken from the played end
        return {"row": list(new_row), "captured": list(captured),
                "captured_positions": list(range(first, first + len(captured))),
                "refill_needed": bool(captured) and needs_refill(new_row, self.ruleset.species_of)}

    def setup_draft(self, dealer: int = 0) -> SetupDraft:
        """A wizard that builds the ``setup`` event card by card (setup.py)."""
        return SetupDraft(self.ruleset, len(self.players), self.options, dealer)

    def catalogue(self) -> dict:
        """Labels and sizes for the screens: species in table order, card labels."""
        rs = self.ruleset
        return {"species": [{"species": s.id, "label": s.label, "cards": list(s.cards), "small": s.small,
                             "big": s.big, "count": sum(rs.card_counts[c] for c in s.cards)} for s in rs.species],
                "cards": dict(rs.card_labels), "distinct_to_win": rs.distinct_to_win}

    def flock_size(self, species_id: str, count: int) -> str | None:
        """"small", "big" or None for a flock of ``count`` cards of a species."""
        return self.ruleset.flock_size(species_id, count)

    def flock(self, species_id: str, count: int) -> dict:
        """What a flock of ``count`` cards of a species does: ``size`` (small/big/None)
        and how many cards it ``keeps`` in the collection (1, 2; 0 when too few)."""
        return {"size": self.ruleset.flock_size(species_id, count), "keeps": self.ruleset.flock_keeps(species_id, count)}

    def progress(self) -> list[dict]:
        """Per seat, its collection's progress toward each win condition (``Ruleset.progress``)."""
        return [{"seat": seat, **self.ruleset.progress(collection)} for seat, collection in enumerate(self.collections)]

    def mixes(self, species_id: str, count: int, player: int | None = None) -> list[list[str]]:
        """The ways (ranks, lowest first) in which ``player``'s hand (default: whose
        turn it is) may hold exactly ``count`` cards of a species, all of them shown:
        its known cards and hidden ones that are left. Empty when none is possible."""
        player = self.turn if player is None else player
        species = self._species(species_id)
        low, high = species.cards[0], species.cards[-1]
        candidates = [[low] * n + [high] * (count - n) for n in range(count, -1, -1)] if low != high else [[low] * count]
        return [cards for cards in candidates if count > 0 and self._possible(player, species_id, cards)]

    def kept_choices(self, species_id: str, count: int, player: int | None = None) -> list[list[str]]:
        """For a flock of ``count`` cards whose discarded cards' ranks are not entered
        (C3: ``cards`` = the kept ranks, then the species id for each other card):
        the ranks the kept card(s) may have. Empty when no such flock is possible."""
        player = self.turn if player is None else player
        keep = self.ruleset.flock_keeps(species_id, count)
        species = self._species(species_id)
        if not keep:
            return []
        rest = self.flock_event(species_id, count, [])["cards"][keep:]
        low, high = species.cards[0], species.cards[-1]
        candidates = [[low] * n + [high] * (keep - n) for n in range(keep, -1, -1)] if low != high else [[low] * keep]
        return [kept for kept in candidates if self._possible(player, species_id, kept + rest)]

    def flock_event(self, species_id: str, count: int, kept: list[str]) -> dict:
        """The ``flock`` event of ``count`` cards of a species that keeps the cards
        ``kept`` (one of ``kept_choices``): the kept ranks first, then each other card as
        the species id of a pair species (C3: its rank is not entered) or as the card of
        a one-card species. Checked when applied, not here."""
        species = self._species(species_id)
        rest = self.ruleset.unranked.get(species_id, species.cards[0])
        return {"type": "flock", "cards": list(kept) + [rest] * (count - len(kept))}

    def _dealers(self) -> list[int]:
        """The seats that may deal the first round (solo: the human, seat 0)."""
        return [0] if self.solo else list(range(len(self.players)))

    def _species(self, species_id):
        species = self.ruleset.by_id.get(species_id) if isinstance(species_id, str) else None
        if species is None:
            raise IllegalEvent("no-such-species", "{value!r} ist keine Art von {game}",
                               {"value": species_id, "game": self.name})
        return species

    def _possible(self, player: int, species_id: str, cards: list) -> bool:
        """Whether the hand may show ``cards`` as all its cards of the species."""
        return hand_allows(cards, species_id, self.known[player], self.hands[player], self.void[player], self.hidden,
                           self.ruleset)

    # --- state -------------------------------------------------------------
    def state(self) -> dict:
        rs = self.ruleset
        order = rs.card_index.get
        state = {
            "game": self.name, "status": "over" if self.phase is None else "playing",
            "awaiting": self.phase, "turn": self.turn, "round": self.round, "dealer": self.dealer,
            "rows": [list(r) for r in self.rows], "collections": [list(c) for c in self.collections],
            "hands": list(self.hands), "draw_pile": self.draw, "discard_pile": self.discard,
            "winners": list(self.winners), "reason": self.reason,
            "known_hands": [sorted(k, key=order) for k in self.known],
            "reshuffles": self.reshuffles,
        }
        if self.solo:
            state["robin_hand"] = sorted(self.known[self.robin], key=order)
        if self.phase == "refill":
            state["refill_row"] = self.refill_row
        elif self.phase == "robin-draw":
            state["robin_row"] = self.robin_row
        return state

    # --- applying events -------------------------------------------------------
    def _apply(self, event: dict) -> dict:
        kind = event["type"]
        if kind not in EVENT_KIND:
            raise IllegalEvent("unknown-event", "Unbekanntes Ereignis {type!r}", {"type": kind})
        if self.phase is None:
            raise IllegalEvent("game-over", "Das Spiel ist schon vorbei")
        if EVENT_KIND[kind] != self.phase:
            raise IllegalEvent("not-now", "Jetzt ist {expected} dran, nicht {type!r}",
                               {"expected": KIND_LABELS[self.phase], "type": kind})
        return getattr(self, "_on_" + kind.replace("-", "_"))(event)

    # field readers: each names the bad input
    def _card(self, value, field: str) -> str:
        if not isinstance(value, str) or value not in self.ruleset.card_index:
            raise IllegalEvent("no-such-card", "{value!r} ist keine Karte von {game} (Feld {field!r})",
                               {"value": value, "game": self.name, "field": field})
        return value

    def _cards(self, value, field: str, length: int | None = None) -> list:
        if not isinstance(value, list):
            raise IllegalEvent("bad-cards", "Feld {field!r} muss eine Liste von Karten sein", {"field": field})
        if length is not None and len(value) != length:
            raise IllegalEvent("bad-count", "Feld {field!r} braucht {n} Karten, nicht {got}",
                               {"field": field, "n": length, "got": len(value)})
        return [self._card(card, field) for card in value]

    @staticmethod
    def _row(value) -> int:
        if type(value) is not int or not 0 <= value < ROWS:
            raise IllegalEvent("no-such-row", "Reihe {row} gibt es nicht (0 bis 3)", {"row": repr(value)})
        return value

    @staticmethod
    def _side(value) -> str:
        if value not in SIDES:
            raise IllegalEvent("no-such-side", "Seite {side!r} gibt es nicht: \"left\" oder \"right\"",
                               {"side": value})
        return value

    def _flock_cards(self, value) -> list:
        """A flock's cards: cards, or the species id of a pair species for a card whose rank
        was not entered (C3); the kept card(s) first, and they need their rank."""
        if isinstance(value, list):
            unranked = self.ruleset.unranked
            cards = [card if isinstance(card, str) and card in unranked else self._card(card, "cards")
                     for card in value]
            species = self._one_species(cards)
            keep = self.ruleset.flock_keeps(species, len(cards))
            if any(card in unranked for card in cards[:keep]):
                raise IllegalEvent("kept-needs-rank", "Die Karte für die Sammlung braucht ihren Wert, nicht nur die Art "
                                   "{species} (Feld 'cards')", {"species": self.ruleset.species_label(species)})
            return cards
        return self._cards(value, "cards")

    def _one_species(self, cards) -> str:
        if not cards:
            raise IllegalEvent("no-cards", "Es muss mindestens eine Karte sein")
        species_of = self.ruleset.species_of
        species = {species_of.get(c, c) for c in cards}
        if len(species) > 1:
            labels = sorted(self.ruleset.species_label(s) for s in species)
            raise IllegalEvent("mixed-species", "Alle Karten müssen eine Art sein, nicht {species}",
                               {"species": Phrase.joined(", ", labels)})
        return species.pop()

    # --- card movements --------------------------------------------------------
    def _set(self, field: str, seat: int, value) -> None:
        values = list(getattr(self, field))
        values[seat] = value
        setattr(self, field, tuple(values))

    def _reshuffle(self) -> None:
        self.draw += self.discard
        self.discard = 0
        self.hidden = tuple(h + d for h, d in zip(self.hidden, self.discard_known))
        self.discard_known = (0,) * len(self.hidden)
        self.reshuffles += 1

    def _card_available(self) -> bool:
        """A card can be turned up (shuffling the discard pile in when needed)."""
        return self.draw > 0 or self.discard > 0

    def _turn_up(self, card: str) -> bool:
        """Take ``card`` from the draw pile (reshuffling first when it is empty);
        returns whether a reshuffle happened."""
        reshuffled = self.draw == 0
        if reshuffled:
            self._reshuffle()
        check_hidden(self.hidden, (card,), self.ruleset)
        self.hidden = add_counts(self.hidden, (card,), self.ruleset.card_index, -1)
        self.draw -= 1
        return reshuffled

    def _take_from_hand(self, player: int, cards: list, verb: str) -> tuple[str, list]:
        """Check that ``cards`` are all the hand's cards of one species, and remove them.
        Returns the species and the known cards that were shown without their rank."""
        rs = self.ruleset
        species = self._one_species(cards)
        known = self.known[player]
        extra, _, known_unranked = hand_extra(cards, species, known, self.hands[player], self.void[player],
                                              self.hidden, rs, verb)
        self.hidden = add_counts(self.hidden, extra, rs.card_index, -1)
        self._set("known", player, tuple(c for c in known if rs.species_of[c] != species))
        self._set("hands", player, self.hands[player] - len(cards))
        self._set("void", player, self.void[player] | {species})
        return species, known_unranked

    def _capture_into_hand(self, player: int, captured: tuple) -> None:
        if captured:
            self._set("known", player, self.known[player] + captured)
            self._set("hands", player, self.hands[player] + len(captured))

    # --- events ------------------------------------------------------------
    def _on_setup(self, event: dict) -> dict:
        rs, n = self.ruleset, len(self.players)
        dealer = self._field(event, "dealer")
        if type(dealer) is not int or dealer not in self._dealers():
            if self.solo:
                raise IllegalEvent("bad-dealer", "Geber {dealer} gibt es nicht (Solo: der Mensch, 0, gibt zuerst)",
                                   {"dealer": repr(dealer)})
            raise IllegalEvent("bad-dealer", "Geber {dealer} gibt es nicht", {"dealer": repr(dealer)})
        rows = self._field(event, "rows")
        if not isinstance(rows, list) or len(rows) != ROWS:
            raise IllegalEvent("bad-rows", "Der Aufbau braucht {n} Reihen", {"n": ROWS})
        rows = [self._cards(row, f"rows[{i}]", ROW_SETUP_SIZE) for i, row in enumerate(rows)]
        for i, row in enumerate(rows):
            if len({rs.species_of[c] for c in row}) != ROW_SETUP_SIZE:
                raise IllegalEvent("row-species", "Reihe {row} braucht drei verschiedene Arten: {cards}",
                                   {"row": i, "cards": " ".join(row)})
        discards = self._cards(event.get("setup_discards", []), "setup_discards")
        in_rows = {rs.species_of[c] for row in rows for c in row}
        for card in discards:
            if rs.species_of[card] not in in_rows:
                raise IllegalEvent("setup-discard-species", "{card} kann beim Aufbau nicht auf den Ablagestapel: "
                                   "dorthin kommt nur eine zweite Karte einer Art, die schon in der Reihe liegt "
                                   "(Feld 'setup_discards')", {"card": rs.card_labels[card]})
        collections = self._cards(self._field(event, "collections"), "collections", n)
        robin_hand = self._cards(self._field(event, "robin_hand"), "robin_hand", HAND_SIZE) if self.solo else []
        if not self.solo and "robin_hand" in event:
            raise IllegalEvent("not-solo", "\"robin_hand\" gibt es nur im Solospiel")
        bonus = list(self.options["robin_bonus"]) or self._cards(event.get("robin_bonus", []), "robin_bonus",
                                                                 self.options["robin_handicap"])
        seen = [c for row in rows for c in row] + discards + collections + robin_hand + bonus
        check_hidden(self.hidden, seen, rs)
        self.hidden = add_counts(self.hidden, seen, rs.card_index, -1)
        self.discard_known = add_counts(self.discard_known, discards, rs.card_index)
        self.discard = len(discards)
        self.rows = tuple(tuple(row) for row in rows)
        self.collections = tuple((c,) + (tuple(bonus) if p == self.robin else ()) for p, c in enumerate(collections))
        self.hands = (HAND_SIZE,) * n
        if self.solo:
            self._set("known", self.robin, tuple(robin_hand))
        self.draw = sum(self.hidden) - HAND_SIZE * (n - (1 if self.solo else 0))
        if self.draw < 0:
            raise IllegalEvent("deck-too-small", "Für {n} Hände sind nicht genug Karten übrig", {"n": n})
        self.dealer = self.turn = dealer
        self.round = 1
        self.phase = "play"
        return {"type": "setup", "player": None, "dealer": dealer, "draw_pile": self.draw,
                "discard_pile": self.discard, "robin_bonus": bonus}

    def _on_play(self, event: dict) -> dict:
        player = self.turn
        cards = tuple(self._cards(self._field(event, "cards"), "cards"))
        row = self._row(self._field(event, "row"))
        side = self._side(self._field(event, "side"))
        species, _ = self._take_from_hand(player, list(cards), Word("ausspielen"))
        new_row, captured = place(self.rows[row], cards, side, self.ruleset.species_of)
        self._set("rows", row, new_row)
        self._capture_into_hand(player, captured)
        effect = {"type": "play", "player": player, "species": species, "cards": list(cards), "row": row,
                  "side": side, "captured": list(captured), "refill_needed": False, "draw_offered": False}
        if not captured:
            effect["draw_offered"] = True
            self.phase = "draw"
            return effect
        if needs_refill(new_row, self.ruleset.species_of):
            effect["refill_needed"] = True
            if self._start_refill(row, effect):
                return effect
        self._after_step_one(effect)
        return effect

    def _start_refill(self, row: int, effect: dict) -> bool:
        """Await refill cards for ``row``; False (and noted) when no card is left."""
        if not self._card_available():
            effect["refill_skipped"] = True
            return False
        self.phase, self.refill_row = "refill", row
        return True

    def _on_refill(self, event: dict) -> dict:
        card = self._card(self._field(event, "card"), "card")
        side = self._side(event.get("side", RIGHT))
        reshuffled = self._turn_up(card)
        row = self.refill_row
        new_row = add_refill(self.rows[row], card, side)
        self._set("rows", row, new_row)
        effect = {"type": "refill", "player": self.turn, "card": card, "row": row, "side": side,
                  "reshuffled": reshuffled, "refill_done": False}
        if needs_refill(new_row, self.ruleset.species_of):
            if self._card_available():
                return effect
            effect["refill_skipped"] = True
        effect["refill_done"] = True
        self.refill_row = None
        if self.turn == self.robin:
            self.robin_row += 1
            self._robin_continue(effect)
        else:
            self._after_step_one(effect)
        return effect

    def _on_draw(self, event: dict) -> dict:
        player, drawn, reshuffled = self.turn, 0, False
        for _ in range(2):
            if self.draw == 0:
                if not (self.ruleset.reshuffle_on_draw and self.discard > 0):
                    break
                self._reshuffle()
                reshuffled = True
            self.draw -= 1
            drawn += 1
        if drawn:
            self._set("hands", player, self.hands[player] + drawn)
            self._set("void", player, frozenset())
        effect = {"type": "draw", "player": player, "drawn": drawn, "reshuffled": reshuffled}
        self._after_step_one(effect)
        return effect

    def _on_pass(self, event: dict) -> dict:
        effect = {"type": "pass", "player": self.turn}
        self._after_step_one(effect)
        return effect

    def _after_step_one(self, effect: dict) -> None:
        """Step 2 follows, unless the hand is empty (README Gaps 2)."""
        if self.hands[self.turn] == 0:
            self._end_turn(effect)
        else:
            self.phase = "flock"

    def _on_flock(self, event: dict) -> dict:
        player, rs = self.turn, self.ruleset
        cards = self._flock_cards(self._field(event, "cards"))
        species = self._one_species(cards)
        size = rs.flock_size(species, len(cards))
        if size is None:
            raise IllegalEvent("flock-too-small", "Ein Schwarm der Art {species} braucht mindestens {small} Karten, "
                               "nicht {n}", {"species": rs.species_label(species), "small": rs.by_id[species].small,
                                             "n": len(cards)})
        _, known_unranked = self._take_from_hand(player, cards, Word("vorzeigen"))
        effect = {"type": "flock", "player": player, **self._fly(player, cards, size, known_unranked)}
        self._end_turn(effect)
        return effect

    def _fly(self, player: int, cards: list, size: str, known_unranked: list = ()) -> dict:
        """Move a shown flock: the first card(s) to the collection, the rest to the discard
        pile (those shown unranked count as seen only when they were known cards)."""
        rs = self.ruleset
        keep = FLOCK_KEEPS_BY_SIZE[size]
        kept, discarded = cards[:keep], cards[keep:]
        self._set("collections", player, self.collections[player] + tuple(kept))
        self.discard += len(discarded)
        seen = [card for card in discarded if card not in rs.unranked] + list(known_unranked)
        self.discard_known = add_counts(self.discard_known, seen, rs.card_index)
        return {"species": rs.species_of[cards[0]], "cards": list(cards), "kept": list(kept),
                "discarded": list(discarded), "size": size}

    def _on_no_flock(self, event: dict) -> dict:
        effect = {"type": "no-flock", "player": self.turn}
        self._end_turn(effect)
        return effect

    def _on_deal(self, event: dict) -> dict:
        n, rs = len(self.players), self.ruleset
        robin_hand = self._cards(self._field(event, "robin_hand"), "robin_hand", HAND_SIZE) if self.solo else []
        if not self.solo and "robin_hand" in event:
            raise IllegalEvent("not-solo", "\"robin_hand\" gibt es nur im Solospiel")
        reshuffled = self.draw < HAND_SIZE * n
        if reshuffled:
            self._reshuffle()
        check_hidden(self.hidden, robin_hand, rs)
        self.hidden = add_counts(self.hidden, robin_hand, rs.card_index, -1)
        self.draw -= HAND_SIZE * n
        self.hands = (HAND_SIZE,) * n
        self.known = ((),) * n
        self.void = (frozenset(),) * n
        if self.solo:
            self._set("known", self.robin, tuple(robin_hand))
        self.round += 1
        self.turn = self.dealer
        effect = {"type": "deal", "player": self.dealer, "dealer": self.dealer, "round": self.round,
                  "reshuffled": reshuffled}
        if self.solo:
            effect["robin_hand"] = robin_hand
        self._start_turn(effect)
        return effect

    def _on_robin_draw(self, event: dict) -> dict:
        card = self._card(self._field(event, "card"), "card")
        reshuffled = self._turn_up(card)
        row = self.robin_row
        side, new_row, captured = robin_placement(self.rows[row], card, self.ruleset.species_of)
        self._set("rows", row, new_row)
        self._capture_into_hand(self.robin, captured)
        effect = {"type": "robin-draw", "player": self.robin, "card": card, "row": row, "side": side,
                  "captured": list(captured), "refill_needed": False, "reshuffled": reshuffled}
        if captured and needs_refill(new_row, self.ruleset.species_of):
            effect["refill_needed"] = True
            if self._start_refill(row, effect):
                return effect
        self.robin_row += 1
        self._robin_continue(effect)
        return effect

    def _robin_continue(self, effect: dict) -> None:
        """Her next row, or (after row 3, or when no card is left) her flocks and turn end."""
        if self.robin_row < ROWS and self._card_available():
            self.phase = "robin-draw"
            return
        if self.robin_row < ROWS:
            effect["robin_rows_skipped"] = ROWS - self.robin_row
        flocks = robin_flocks(self.known[self.robin], self.ruleset)
        species_of = self.ruleset.species_of
        for flock in flocks:
            self._set("known", self.robin,
                      tuple(c for c in self.known[self.robin] if species_of[c] != flock["species"]))
            self._set("hands", self.robin, self.hands[self.robin] - len(flock["cards"]))
            self._fly(self.robin, flock["cards"], flock["size"])
        effect["robin_flocks"] = flocks
        self._end_turn(effect)

    # --- turn, round and game end -----------------------------------------------
    def _end_turn(self, effect: dict) -> None:
        """Win check first (README Gaps 5), then the round end, else the next seat."""
        player = self.turn
        reason = self.ruleset.win_reason(self.collections[player])
        if reason:
            self._game_over(reason, (player,), effect)
        elif self.hands[player] == 0:
            self._round_end(player, effect)
        else:
            self.turn = (player + 1) % len(self.players)
            effect["next_turn"] = self.turn
            self._start_turn(effect)

    def _start_turn(self, effect: dict) -> None:
        if self.turn == self.robin:
            self.robin_row = 0
            self._robin_continue(effect)
        else:
            self.phase = "play"

    def _round_end(self, player: int, effect: dict) -> None:
        """Records.md detail 3: the other hands are discarded; the emptier deals next."""
        n = len(self.players)
        discarded = list(self.hands)
        self.discard += sum(discarded)
        for seat in range(n):
            self.discard_known = add_counts(self.discard_known, self.known[seat], self.ruleset.card_index)
        self.hands, self.known, self.void = (0,) * n, ((),) * n, (frozenset(),) * n
        self.dealer = self.turn = player
        effect["round_over"] = {"emptied_by": player, "dealer": player, "discarded": discarded}
        if self.draw + self.discard < HAND_SIZE * n:
            sizes = [len(c) for c in self.collections]
            most = max(sizes)
            self._game_over("most-birds", tuple(s for s, size in enumerate(sizes) if size == most), effect)
        else:
            self.phase = "deal"

    def _game_over(self, reason: str, winners: tuple, effect: dict) -> None:
        self.phase, self.reason, self.winners = None, reason, winners
        effect["game_over"] = {"reason": reason, "winners": list(winners)}


@register
class GleichUndGleich(BirdGame):
    """Gleich und gleich: CuBirds with two 52-card decks (rules/000)."""

    name = "gleich-und-gleich"
    option_types = {"fast": bool, "rarer_faces": bool, **BirdGame.option_types}


@register
class CuBirds(BirdGame):
    """CuBirds, the original with 110 bird cards (rules/003), solo against RobinBird."""

    name = "cubirds"
