"""Cards, starts and figures of Gemeinsame Sache (pure data, no turn logic).

Cards are written rank + suit (``"7H"``, ``"10C"``, ``"QS"``, ``"AD"``); jokers
``"JK"``. In a figure a joker that stands for a card is ``"JK:6C"``.

A run is kept as its suit and its positions ``low..high``: 1 is the low ace,
2..13 the ranks 2..K, 14 the high ace (rules README, Gemeinsame Sache 2). A run
never holds the same card twice, so it never spans both aces.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalEvent, Phrase, Word

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("H", "D", "S", "C")
JOKER = "JK"
REAL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
DECK = REAL_CARDS + (JOKER, JOKER)
VALUE = {rank + suit: i + 1 for suit in SUITS for i, rank in enumerate(RANKS)}
SUIT_OF = {card: card[-1] for card in REAL_CARDS}

_RANK_WORD = {"J": Word("B"), "Q": Word("D"), "K": Word("K"), "A": Word("A")}   # German letters, message ids
SUIT_SYMBOL = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def label_parts(card: str) -> tuple[str, ...]:
    """A card's display name in parts, the letters of the court cards and the
    ace as ``Word``: ``(Word("D"), "♥")``, ``("10", "♣")``, ``(Word("Joker"), " (", "6", "♣", ")")``."""
    if card == JOKER:
        return (Word("Joker"),)
    if card.startswith(JOKER + ":"):
        return (Word("Joker"), " (", *label_parts(card[3:]), ")")
    return _RANK_WORD.get(card[:-1], card[:-1]), SUIT_SYMBOL[card[-1]]


def label(card: str) -> Phrase:
    """The display name as a refusal's parameter: German ``"D♥"``, ``"10♣"``, ``"Joker (6♣)"``;
    the web layer translates its words (English ``"Q♥"``)."""
    return Phrase(label_parts(card))


def labels(cards) -> Phrase:
    """Several display names, space-separated (``"D♥ 10♣"``)."""
    return Phrase.joined(" ", map(label, cards))


def check_card(card, field: str = "card") -> str:
    """The card itself, or IllegalEvent naming the field when it is no card."""
    if isinstance(card, str) and (card == JOKER or card in VALUE):
        return card
    raise IllegalEvent("bad-card", "{field}: {card!r} ist keine Karte (z. B. \"7H\", \"10C\", \"QS\", \"JK\")",
                       {"field": field, "card": card})


def card_at(suit: str, position: int) -> str:
    """The card at a run position (1 and 14 are both the ace)."""
    return RANKS[(position - 1) % 13] + suit


def positions(card: str, ace_low_only: bool) -> tuple[int, ...]:
    """The run positions a real card can take."""
    value = VALUE[card]
    if value != 1:
        return (value,)
    return (1,) if ace_low_only else (1, 14)


def run_span_ok(low: int, high: int, ace_low_only: bool) -> bool:
    """Whether positions low..high make a run: no corner, each card once."""
    top = 13 if ace_low_only else 14
    return 1 <= low and high <= top and not (low == 1 and high == 14)


def real(token: str) -> str | None:
    """The real card of a figure token (None for a joker that stands for no card)."""
    if token == JOKER:
        return None
    if token.startswith(JOKER + ":"):
        return None
    return token


def declared(token: str) -> str | None:
    """The card a joker token stands for, if it says."""
    return token[3:] if token.startswith(JOKER + ":") else None


@dataclass(frozen=True)
class Start:
    """An open start: two cards of one owner, waiting for the partner's third."""

    id: int
    owner: int
    cards: tuple[str, str]
    kind: str            # "set" or "run"
    value: int           # set: the rank value
    suit: str            # run: the suit
    low: int             # run: lowest position
    high: int            # run: highest position
    completions: tuple[str, ...]   # the real cards that would complete it

    def public(self) -> dict:
        return {"id": self.id, "owner": self.owner, "cards": list(self.cards)}


def make_start(start_id: int, owner: int, cards: tuple[str, str], ace_low_only: bool) -> Start | None:
    """The start formed by two real cards, or None if they form none."""
    shape = _START_SHAPES[ace_low_only].get(cards)
    return None if shape is None else Start(start_id, owner, cards, *shape)


def _start_shape(a: str, b: str, ace_low_only: bool) -> tuple | None:
    """(kind, value, suit, low, high, completions) of a start of two real cards, or None."""
    if a == b:
        return None
    if VALUE[a] == VALUE[b]:
        taken = (SUIT_OF[a], SUIT_OF[b])
        return "set", VALUE[a], "", 0, 0, tuple(a[:-1] + s for s in SUITS if s not in taken)
    if SUIT_OF[a] != SUIT_OF[b]:
        return None
    suit = SUIT_OF[a]
    for pa in positions(a, ace_low_only):
        for pb in positions(b, ace_low_only):
            low, high = min(pa, pb), max(pa, pb)
            if high - low in (1, 2) and run_span_ok(low, high, ace_low_only):
                if high - low == 2:
                    completions = (card_at(suit, low + 1),)
                else:
                    completions = tuple(card_at(suit, p) for p in (low - 1, high + 1)
                                        if run_span_ok(min(p, low), max(p, high), ace_low_only))
                return "run", 0, suit, low, high, completions
    return None


# Every pair of real cards that forms a start, per ace rule (looked up, not recomputed, while playing).
_START_SHAPES = {
    low_only: {(a, b): shape for a in REAL_CARDS for b in REAL_CARDS
               if (shape := _start_shape(a, b, low_only)) is not None}
    for low_only in (False, True)
}


@dataclass(frozen=True)
class Figure:
    """A finished figure. Sets keep the cards in the order laid; runs low→high."""

    id: int
    kind: str
    cards: tuple[str, ...]
    value: int = 0       # set
    suit: str = ""       # run
    low: int = 0         # run
    high: int = 0        # run

    def public(self) -> dict:
        return {"id": self.id, "kind": self.kind, "cards": list(self.cards)}

    def set_suits(self) -> set[str]:
        """Suits a set's real cards hold. A joker in a set stands for any missing suit
        (rules/004: „in einem Satz steht er für eine beliebige fehlende Farbe“), so
        what it declares binds nothing (rules README, Gemeinsame Sache 5)."""
        return {SUIT_OF[card] for card in map(real, self.cards) if card}

    def missing(self) -> list[str]:
        """A set's real cards of its rank whose suit it does not hold yet."""
        suits = self.set_suits()
        return [card for card in REAL_CARDS if VALUE[card] == self.value and SUIT_OF[card] not in suits]

    def run_ends(self, ace_low_only: bool) -> dict[str, str]:
        """The cards that fit a run's ends: ``{"low": card, "high": card}``."""
        ends = {}
        if run_span_ok(self.low - 1, self.high, ace_low_only):
            ends["low"] = card_at(self.suit, self.low - 1)
        if run_span_ok(self.low, self.high + 1, ace_low_only):
            ends["high"] = card_at(self.suit, self.high + 1)
        return ends

    def jokers(self) -> list[int]:
        return [i for i, token in enumerate(self.cards) if token.startswith(JOKER)]


def set_figure(figure_id: int, cards: tuple[str, ...], value: int) -> Figure:
    return Figure(figure_id, "set", cards, value=value)


def run_figure(figure_id: int, suit: str, low: int, tokens: dict[int, str]) -> Figure:
    """A run from position → token (tokens cover low..high without gaps)."""
    high = low + len(tokens) - 1
    return Figure(figure_id, "run", tuple(tokens[p] for p in range(low, high + 1)),
                  suit=suit, low=low, high=high)


def complete_start(start: Start, card: str, as_card: str | None, ace_low_only: bool) -> Figure:
    """The figure made from a start and the partner's card (checked here).

    ``as_card`` is what a joker stands for: required in a run, optional in a set.
    """
    options = start.completions
    if card == JOKER:
        if as_card is None:
            if start.kind == "run":
                raise IllegalEvent("joker-needs-as", "Ein Joker in einer Folge muss sagen, für welche Karte er steht "
                                   "(\"as\": {cards})", {"cards": " / ".join(options)})
            return set_figure(start.id, start.cards + (JOKER,), start.value)
        if as_card not in options:
            raise IllegalEvent("joker-does-not-fit", "Der Joker kann hier nicht für {card} stehen; möglich: {cards}",
                               {"card": label(as_card), "cards": labels(options)})
        token = f"{JOKER}:{as_card}"
        placed = as_card
    else:
        if card not in options:
            raise IllegalEvent("does-not-complete", "{card} ergänzt den Ansatz {start} ({cards}) nicht; passend: "
                               "{fits} oder ein Joker", {"card": label(card), "start": start.id,
                                                         "cards": labels(start.cards), "fits": labels(options)})
        token = placed = card
    if start.kind == "set":
        return set_figure(start.id, start.cards + (token,), start.value)
    tokens = {}
    for c in start.cards:
        tokens[_start_position(start, c)] = c
    position = next(p for p in positions(placed, ace_low_only)
                    if p not in tokens and start.low - 1 <= p <= start.high + 1)
    tokens[position] = token
    return run_figure(start.id, start.suit, min(tokens), tokens)


def _start_position(start: Start, card: str) -> int:
    """Where a card of a run start lies (the ace low or high as the start says)."""
    value = VALUE[card]
    if value == 1:
        return 1 if start.low == 1 else 14
    return value


def lay_off(figure: Figure, card: str, as_card: str | None, ace_low_only: bool) -> Figure:
    """The figure with one more card (checked here)."""
    placed = card if card != JOKER else as_card
    if figure.kind == "set":
        if len(figure.cards) >= 4:
            raise IllegalEvent("set-full", "Der Satz {figure} hat schon vier Karten", {"figure": figure.id})
        if placed is not None and placed not in figure.missing():
            raise IllegalEvent("does-not-fit", "{card} passt nicht an den Satz {figure} ({cards})",
                               {"card": label(placed), "figure": figure.id, "cards": labels(figure.cards)})
        if card != JOKER:   # a joker that said it was this card now stands for another missing suit
            cards = tuple(JOKER if declared(token) == card else token for token in figure.cards)
            return set_figure(figure.id, cards + (card,), figure.value)
        token = JOKER if placed is None else f"{JOKER}:{placed}"
        return set_figure(figure.id, figure.cards + (token,), figure.value)
    if placed is None:
        raise IllegalEvent("joker-needs-as", "Ein Joker in einer Folge muss sagen, für welche Karte er steht "
                           "(\"as\": {cards})", {"cards": " / ".join(figure.run_ends(ace_low_only).values())})
    ends = figure.run_ends(ace_low_only)
    if placed not in ends.values():
        raise IllegalEvent("does-not-fit", "{card} passt an keines der Enden der Folge {figure} ({cards})",
                           {"card": label(placed), "figure": figure.id, "cards": labels(figure.cards)})
    token = placed if card != JOKER else f"{JOKER}:{placed}"
    if ends.get("low") == placed:     # an ace fitting both ends goes low (docs/rules-gemeinsame-sache.md)
        return Figure(figure.id, "run", (token,) + figure.cards, suit=figure.suit,
                      low=figure.low - 1, high=figure.high)
    return Figure(figure.id, "run", figure.cards + (token,), suit=figure.suit, low=figure.low, high=figure.high + 1)


def swap_joker(figure: Figure, card: str) -> Figure:
    """The figure with ``card`` in place of the joker that stands for it (checked here)."""
    index = swap_index(figure, card)
    if index is None:
        raise IllegalEvent("no-joker-for-card", "In der Figur {figure} ({cards}) steht kein Joker für {card}",
                           {"figure": figure.id, "cards": labels(figure.cards), "card": label(card)})
    cards = figure.cards[:index] + (card,) + figure.cards[index + 1:]
    return Figure(figure.id, figure.kind, cards, figure.value, figure.suit, figure.low, figure.high)


def swap_index(figure: Figure, card: str) -> int | None:
    """Index of the joker a real card may replace, or None.

    In a run: the joker that says it is this card. In a set, where a joker stands
    for any missing suit: any joker, if the card's suit is missing (the one that
    says it is this card first, then one that says nothing)."""
    if figure.kind == "run":
        token = f"{JOKER}:{card}"
        return figure.cards.index(token) if token in figure.cards else None
    if card not in figure.missing():
        return None
    jokers = figure.jokers()
    return min(jokers, key=lambda i: (figure.cards[i] != f"{JOKER}:{card}", figure.cards[i] != JOKER), default=None)
