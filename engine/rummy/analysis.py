"""What the table can read from public facts: the pace against the clock and
whether each open start can still be completed."""
from __future__ import annotations

from .melds import JOKER, declared, real


def pace(game) -> dict:
    """The rule text's "Die Rechnung": every card in the hands must go onto the
    table, and every turn without a discard pickup costs a card of the draw pile.
    ``cards_to_place`` also covers open starts that wait for a card still to be
    drawn; ``behind`` says more than one card per remaining draw must go down."""
    in_hands = sum(game.hands)
    open_starts = len(game.open_starts)
    to_place = max(in_hands, open_starts)
    draws_left = game.draw_pile
    return {"draw_pile": draws_left, "cards_in_hands": in_hands, "open_starts": open_starts,
            "cards_left": game.cards_left(),
            "cards_to_place": to_place, "draws_left": draws_left,
            "per_draw": round(to_place / draws_left, 2) if draws_left else None,
            "behind": to_place > draws_left}


def start_outlooks(game) -> list[dict]:
    """Per open start: ``completable``, a ``reason`` code (``open`` or
    ``no-card-left``), the ``cards`` that could still complete it, whether a
    ``joker`` is in reach, and ``where`` each completing card is known to lie
    (``{"card", **game.where_is(card)}``, unseen ones left out).

    A completing card is out of reach when it lies in a figure or a start (they
    never give a real card back) or under the top of the discard pile (only the
    top may be taken, and only to be laid at once). A joker is in reach while one
    is unseen, known in a hand, on top of the discard pile, or in a figure whose
    real card is still unseen (it can be swapped out)."""
    top = game.discard_pile[-1] if game.discard_pile else None
    joker_in_reach = _joker_in_reach(game, top)
    known = _known_cards(game)
    outlooks = []
    for start in game.open_starts:
        options = start.completions
        live = [c for c in options if game.where_is(c) is None or c == top or c in known]
        completable = bool(live) or joker_in_reach
        outlooks.append({"id": start.id, "owner": start.owner, "completable": completable,
                         "reason": "open" if completable else "no-card-left", "cards": live,
                         "joker": joker_in_reach,
                         "where": [{"card": c, **game.where_is(c)} for c in options if game.where_is(c)]})
    return outlooks


def _known_cards(game) -> set[str]:
    return set(game.known_hand(0)) | set(game.known_hand(1))


def _joker_in_reach(game, top: str | None) -> bool:
    public = game.public_cards()
    if public["jokers"] < 2 or top == JOKER or JOKER in _known_cards(game):
        return True
    for figure in game.figures:
        for token in figure.cards:
            if real(token) is not None:
                continue
            # a set's joker goes out for any missing suit, a run's for the card it stands for
            cards = figure.missing() if figure.kind == "set" else [declared(token)]
            if any(game.where_is(card) is None for card in cards):
                return True
    return False
