"""Whether the top of the discard pile could still go onto the table this turn.

rules/004 Zug 1: „Die vom Ablagestapel aber nur, wenn du sie noch im selben Zug
auf den Tisch legst.“ Other lays may come first (rules README, Gemeinsame Sache
3): complete the partner's start with a card of your own and lay the taken card
on the new figure; lay cards on a run's end up to the taken one. The engine does
not know the hand, so it refuses the pickup only when no lays this turn could
place the card with cards the hand may hold: known ones, and unseen ones for the
unknown part of the hand (one card each).
"""
from __future__ import annotations

from .melds import JOKER, SUIT_OF, card_at, declared, positions, real, run_span_ok


def layable_this_turn(game, player: int, card: str) -> bool:
    """Whether some lays of ``player`` this turn could put ``card`` onto the table."""
    known = game.known_hand(player)
    unknown = game.hands[player] - len(known)
    for fit in game.fits(card, player):
        if fit["action"] != "start" or any(other in known or unknown >= 1 for other in fit["with"]):
            return True
    if card == JOKER:                 # a joker goes wherever a card may go: only direct places
        return False
    jokers = _jokers(game, known)
    return any(_cost(game, known, cells, jokers) <= unknown for cells in _run_paths(game, player, card))


def _run_paths(game, player: int, card: str):
    """For each run the card could extend after other lays (a run figure of its suit,
    or the partner's run start once completed): the cards that would have to be laid
    first, between the run and the card."""
    suit, ace_low_only = SUIT_OF[card], game.ace_low_only
    bases = [(f.low, f.high, set(range(f.low, f.high + 1))) for f in game.figures
             if f.kind == "run" and f.suit == suit]
    bases += [(s.low, s.high, {s.low, s.high}) for s in game.open_starts
              if s.kind == "run" and s.suit == suit and s.owner != player]
    for low, high, taken in bases:
        for position in positions(card, ace_low_only):
            new_low, new_high = min(low, position), max(high, position)
            if position in taken or not run_span_ok(new_low, new_high, ace_low_only):
                continue
            yield [card_at(suit, p) for p in range(new_low, new_high + 1) if p not in taken and p != position]


def _jokers(game, known) -> tuple[int, int]:
    """Jokers the player could lay this turn: (without a card of the unknown part of
    the hand, with one) — known jokers and swaps with a known card; unseen jokers and
    swaps with an unseen card."""
    free, paid = known.count(JOKER), game.free_jokers()
    for figure in game.figures:
        for token in figure.cards:
            if real(token) is not None:
                continue
            cards = figure.missing() if figure.kind == "set" else [declared(token)]
            if any(c in known for c in cards):
                free += 1
            elif any(not game.is_seen(c) for c in cards):
                paid += 1
    return free, paid


def _cost(game, known, cells: list[str], jokers: tuple[int, int]) -> float:
    """The fewest cards of the unknown part of the hand that fill ``cells`` (each
    with its card or a joker); infinite when they cannot be filled."""
    free, paid = jokers
    blocked = sum(1 for c in cells if game.is_seen(c) and c not in known)      # lies elsewhere: a joker must do
    unseen = sum(1 for c in cells if not game.is_seen(c))
    if blocked > free + paid:
        return float("inf")
    free_left = max(0, free - blocked)
    return max(0, blocked - free) + max(0, unseen - free_left)
