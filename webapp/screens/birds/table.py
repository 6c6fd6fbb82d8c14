"""The bird table as view data: cards, the rows, the piles, every player's
collection with the engine's progress toward the wins, RobinBird's open hand and
the cards known to be in hands. Built from the game alone (C8: a replay draws the
same board)."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ...i18n import current_language
from .words import card_label, reason_text, species_label


@dataclass(frozen=True)
class CardView:
    """One card as the templates draw it (``templates/birds/_macros.html``)."""

    id: str          # the engine's card id (data-card)
    label: str       # as the table writes it: B, 7, Eule
    species: str
    tone: int        # the species' place in the catalogue: its colour
    bird: bool       # a CuBirds card, drawn with its bird


@functools.lru_cache(maxsize=1024)
def _card_view(card: str, species: str, tone: int, bird: bool, language: str) -> CardView:
    return CardView(card, card_label(card), species, tone, bird)


class Cards:
    """The catalogue of one game: which species a card is, how it is drawn and named."""

    def __init__(self, game):
        self.catalogue = game.catalogue()
        self.species = self.catalogue["species"]
        self.index = {s["species"]: i for i, s in enumerate(self.species)}
        self.species_of = {card: s["species"] for s in self.species for card in s["cards"]}
        self.birds = game.name == "cubirds"
        self.language = current_language()  # the card labels' language, asked once per drawing

    def __call__(self, card: str) -> CardView:
        species = self.species_of.get(card, card)   # a pair species' id stands for a card of it (C3)
        return _card_view(card, species, self.index[species], self.birds, self.language)

    def many(self, cards) -> list[CardView]:
        return [self(card) for card in cards]

    def of(self, species: str) -> dict:
        return self.species[self.index[species]]

    def label(self, species: str) -> str:
        return species_label(species)


def table_view(game, cards: Cards, players: list[str]) -> dict:
    """Everything the board shows."""
    state = game.state()
    dealing = state["awaiting"] == "deal"
    return {
        "rows": [cards.many(row) for row in state["rows"]],
        "players": _players(game, state, cards, players),
        "draw_pile": state["draw_pile"], "discard_pile": state["discard_pile"],
        "round": state["round"], "dealing": dealing, "set_up": state["round"] > 0, "row_count": game.numbers()["rows"],
        "dealer": players[state["dealer"]] if state["dealer"] is not None else "",
        "birds": cards.birds, "robin_hand": cards.many(state.get("robin_hand", [])),
        "outcome": _outcome(state, players),
    }


def _players(game, state: dict, cards: Cards, names: list[str]) -> list[dict]:
    result = []
    for progress in game.progress():
        seat = progress["seat"]
        distinct, triples = progress["goals"]
        collection = state["collections"][seat]
        result.append({
            "seat": seat, "name": names[seat], "hand": state["hands"][seat],
            "turn": state["turn"] == seat and state["status"] == "playing",
            "robin": seat in game.bot_seats,
            "groups": [{"species": s["species"], "label": cards.label(s["species"]),
                        "cards": cards.many(c for c in collection if cards.species_of[c] == s["species"])}
                       for s in cards.species if s["species"] in progress["species"]],
            "distinct": distinct, "triples": triples, "total": progress["cards"],
            "known": cards.many(state["known_hands"][seat]),
        })
    return result


def _outcome(state: dict, names: list[str]) -> dict | None:
    if state["status"] != "over":
        return None
    return {"winners": [names[w] for w in state["winners"]], "reason": reason_text(state["reason"])}
