"""The bots' picture of a bird game: species instead of cards, and a fast table
to imagine a few turns ahead on.

In both bird games only the species of a card matters for play (Gleich und
gleich's ranks never do), so the bots think in species numbers. ``World`` is a
*determinised* table (every hidden card given a place, sampled from an
``Observation`` by ``sample_world``) on which the strong bot plays candidate
moves out. It is the bots' imagination, not the rules: real games always go
through the engine, and the rows use the engine's own ``place``/``needs_refill``
(engine/birds/table.py) and RobinBird's ``robin_placement``.

Values are measured in *cards still to collect* (``Rules.need``): the fewest
hand cards a collection still needs for either win, via the cheapest flocks. A
card in hand counts toward the flock it could join (``Rules.hand_value``).
"""
from __future__ import annotations

import random

from ..birds.robin import robin_placement
from ..birds.rules import HAND_SIZE, LEFT, RIGHT, ROWS, Ruleset
from ..birds.table import needs_refill, place

HAND_WEIGHT = 0.6      # a card in hand is worth this share of its flock's value (hands get lost)
MAX_HAND = 64

_RULES: dict[int, tuple[Ruleset, "Rules"]] = {}


def rules_for(ruleset: Ruleset) -> "Rules":
    """The species-level rules of a ruleset (made once per ruleset object)."""
    entry = _RULES.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        entry = _RULES[id(ruleset)] = (ruleset, Rules(ruleset))
    return entry[1]


class Rules:
    """A ruleset by species number: flock sizes, win thresholds, and the value
    tables the bots share."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.ids = tuple(s.id for s in ruleset.species)
        self.count = len(self.ids)
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self.of_card = {card: self.index[sid] for card, sid in ruleset.species_of.items()}
        self.small = tuple(s.small for s in ruleset.species)
        self.big = tuple(s.big for s in ruleset.species)
        self.distinct = ruleset.distinct_to_win
        self.triples = ruleset.triples_to_win
        self.triple = ruleset.triple_size
        self.reshuffle_on_draw = ruleset.reshuffle_on_draw
        self.ident = tuple(range(self.count))    # "species_of" for rows of species numbers
        self.full_deck = tuple(sum(ruleset.card_counts[c] for c in s.cards) for s in ruleset.species)
        # share of a small (e1) and of a big flock (e2) that h cards in hand make up
        self.e1 = tuple(tuple(min(h, sm) / sm for h in range(MAX_HAND)) for sm in self.small)
        self.e2 = tuple(tuple(min(h, bg) / bg for h in range(MAX_HAND)) for bg in self.big)
        self._outlooks: dict[tuple, Outlook] = {}

    def won(self, coll) -> bool:
        if sum(1 for n in coll if n) >= self.distinct:
            return True
        return sum(1 for n in coll if n >= self.triple) >= self.triples

    def need(self, coll) -> float:
        """Cards still to collect for the nearer win, the other counting a little."""
        small, big, triple = self.small, self.big, self.triple
        missing = sorted(small[s] for s, n in enumerate(coll) if not n)
        lacking = self.distinct - (self.count - len(missing))
        by_distinct = sum(missing[:lacking]) if lacking > 0 else 0
        costs = []
        for s, n in enumerate(coll):
            short = triple - n
            costs.append(0 if short <= 0 else small[s] if short == 1 else big[s] if short == 2
                         else big[s] + small[s])
        costs.sort()
        by_triples = sum(costs[:self.triples])
        if by_distinct < by_triples:
            return by_distinct + 0.1 * by_triples
        return by_triples + 0.1 * by_distinct

    def outlook(self, coll) -> "Outlook":
        """The values for a collection (cached: collections change only by flocks)."""
        key = tuple(coll)
        found = self._outlooks.get(key)
        if found is None:
            if len(self._outlooks) > 200_000:
                self._outlooks.clear()
            found = self._outlooks[key] = Outlook(self, key)
        return found

    def value(self, coll, hand) -> float:
        """A seat's position: minus the cards still to collect, hand cards counting."""
        return self.outlook(coll).value(hand)


class Outlook:
    """One collection's values: ``need``, the ``one``/``two`` more cards of a
    species would save (a small/big flock), and ``worth[s][h]``: what h hand
    cards of species s are worth toward its flocks."""

    __slots__ = ("won", "need", "one", "two", "worth")

    def __init__(self, rules: Rules, coll: tuple):
        self.won = rules.won(coll)
        self.need = rules.need(coll)
        one, two = [], []
        for s in range(rules.count):
            c = list(coll)
            c[s] += 1
            one.append(self.need - rules.need(c))
            c[s] += 1
            two.append(self.need - rules.need(c))
        self.one, self.two = one, two
        self.worth = [[one[s] * a + (two[s] - one[s]) * b for a, b in zip(rules.e1[s], rules.e2[s])]
                      for s in range(rules.count)]

    def value(self, hand) -> float:
        if self.won:
            return 100.0
        worth = self.worth
        return HAND_WEIGHT * sum(worth[s][h] for s, h in enumerate(hand) if h) - self.need


# --- the greedy policy (the greedy bot, and everyone in the strong bot's playouts) ---------------
def plays(rows, hand) -> list[tuple[int, int, str, tuple]]:
    """Every play of a hand: (species, row, side, captured)."""
    result = []
    held = [s for s, h in enumerate(hand) if h]
    for r, row in enumerate(rows):
        first, last = {}, {}
        for i, t in enumerate(row):
            if t not in first:
                first[t] = i
            last[t] = i
        end = len(row) - 1
        for s in held:
            i = first.get(s, 0)
            j = last.get(s, end)
            result.append((s, r, LEFT, row[:i] if i else ()))
            result.append((s, r, RIGHT, row[j + 1:] if j < end else ()))
    return result


def play_gain(outlook: Outlook, hand, s: int, captured: tuple, draw_bonus: float) -> float:
    """The immediate value of a play: the captured cards' worth, minus the
    played species' worth (all its cards leave the hand); a play that captures
    nothing may draw two."""
    worth = outlook.worth
    value = -worth[s][hand[s]]
    if not captured:
        return value + draw_bonus
    if len(captured) == 1:
        t = captured[0]
        h = hand[t]
        return value + worth[t][h + 1] - worth[t][h]
    added: dict[int, int] = {}
    for t in captured:
        added[t] = added.get(t, 0) + 1
    top = MAX_HAND - 1
    for t, k in added.items():
        h = hand[t]
        value += worth[t][min(h + k, top)] - worth[t][h]
    return value


def draw_bonus(outlook: Outlook, hand, unseen) -> float:
    """The expected worth of two unknown cards (from the species' unseen shares)."""
    total = sum(unseen)
    if not total:
        return 0.0
    worth, top = outlook.worth, MAX_HAND - 1
    gain = sum(n * (worth[s][min(hand[s] + 1, top)] - worth[s][hand[s]]) for s, n in enumerate(unseen) if n)
    return 2 * gain / total


def greedy_play(rules: Rules, rows, hand, coll, unseen, rng: random.Random) -> tuple[int, int, str, tuple]:
    """The play with the best immediate value (ties broken at random)."""
    outlook = rules.outlook(coll)
    bonus = draw_bonus(outlook, hand, unseen)
    best, best_value = [], None
    for option in plays(rows, hand):
        value = play_gain(outlook, hand, option[0], option[3], bonus)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = [option], value
        elif value > best_value - 1e-9:
            best.append(option)
    return best[0] if len(best) == 1 else rng.choice(best)


def flock_options(rules: Rules, hand) -> list[int]:
    return [s for s, h in enumerate(hand) if h >= rules.small[s]]


def greedy_flock(rules: Rules, coll, hand) -> int | None:
    """The flock that brings the collection nearest a win (a winning one first),
    unless what its cards are worth in hand is more; None when none is."""
    outlook = rules.outlook(coll)
    best, best_value = None, 0.0
    for s in flock_options(rules, hand):
        big = hand[s] >= rules.big[s]
        c = list(coll)
        c[s] += 2 if big else 1
        if rules.won(c):
            return s
        value = (outlook.two if big else outlook.one)[s] - HAND_WEIGHT * outlook.worth[s][hand[s]]
        if value > best_value + 1e-9:
            best, best_value = s, value
    return best


def greedy_draw(hand_size: int, other_hands) -> bool:
    """Draw two, except with an empty hand when another hand is big: then pass
    and end the round (every other hand is discarded)."""
    return hand_size > 0 or max(other_hands, default=0) <= 4


# --- a determinised table ------------------------------------------------------------------------
class World:
    """A full-information bird table by species: rows, hands, collections, the
    draw pile in order and the discard pile's counts. Plays the rules the way
    the engine does (turn, round end, deal, RobinBird)."""

    __slots__ = ("rules", "rows", "hands", "sizes", "colls", "deck", "discard", "discarded", "turn",
                 "robin", "over", "winners", "rng", "turns")

    def copy(self) -> "World":
        w = World.__new__(World)
        w.rules, w.rows, w.robin, w.rng = self.rules, list(self.rows), self.robin, self.rng
        w.hands = [list(h) for h in self.hands]
        w.sizes = list(self.sizes)
        w.colls = [list(c) for c in self.colls]
        w.deck, w.discard, w.discarded = list(self.deck), list(self.discard), self.discarded
        w.turn, w.over, w.winners, w.turns = self.turn, self.over, self.winners, self.turns
        return w

    # --- cards ----------------------------------------------------------------------
    def take(self, reshuffle: bool = True) -> int | None:
        if not self.deck:
            if not (reshuffle and self.discarded):
                return None
            self._reshuffle()
        return self.deck.pop()

    def _reshuffle(self) -> None:
        self.deck.extend(s for s, n in enumerate(self.discard) for _ in range(n))
        self.rng.shuffle(self.deck)
        self.discard = [0] * self.rules.count
        self.discarded = 0

    def _refill(self, r: int) -> None:
        row = self.rows[r]
        while needs_refill(row, self.rules.ident):
            card = self.take()
            if card is None:
                break
            row = row + (card,)
        self.rows[r] = row

    # --- a turn's steps -----------------------------------------------------------------
    def play(self, p: int, s: int, r: int, side: str) -> tuple:
        hand = self.hands[p]
        k = hand[s]
        new_row, captured = place(self.rows[r], (s,) * k, side, self.rules.ident)
        self.rows[r] = new_row
        hand[s] = 0
        for t in captured:
            hand[t] += 1
        self.sizes[p] += len(captured) - k
        if captured and needs_refill(new_row, self.rules.ident):
            self._refill(r)
        return captured

    def draw(self, p: int) -> None:
        for _ in range(2):
            card = self.take(self.rules.reshuffle_on_draw)
            if card is None:
                break
            self.hands[p][card] += 1
            self.sizes[p] += 1

    def fly(self, p: int, s: int) -> None:
        hand = self.hands[p]
        h = hand[s]
        keep = 2 if h >= self.rules.big[s] else 1
        self.colls[p][s] += keep
        self.discard[s] += h - keep
        self.discarded += h - keep
        hand[s] = 0
        self.sizes[p] -= h

    def end_turn(self, p: int) -> None:
        self.turns += 1
        if self.rules.won(self.colls[p]):
            self.over, self.winners = True, (p,)
        elif self.sizes[p] == 0:
            self._round_end(p)
        else:
            self.turn = (p + 1) % len(self.hands)

    def _round_end(self, p: int) -> None:
        n, count = len(self.hands), self.rules.count
        for q in range(n):
            if q != p:
                for s, h in enumerate(self.hands[q]):
                    self.discard[s] += h
                self.discarded += self.sizes[q]
        self.hands = [[0] * count for _ in range(n)]
        self.sizes = [0] * n
        if len(self.deck) + self.discarded < HAND_SIZE * n:
            sizes = [sum(c) for c in self.colls]
            most = max(sizes)
            self.over, self.winners = True, tuple(q for q in range(n) if sizes[q] == most)
            return
        if len(self.deck) < HAND_SIZE * n:
            self._reshuffle()
        for q in range(n):
            hand = self.hands[q]
            for _ in range(HAND_SIZE):
                hand[self.deck.pop()] += 1
            self.sizes[q] = HAND_SIZE
        self.turn = p

    # --- whole turns ---------------------------------------------------------------------
    def robin_turn(self) -> None:
        """RobinBird (rules/003 "Solovariante"): a card per row, then every flock."""
        p, rules = self.robin, self.rules
        hand = self.hands[p]
        for r in range(ROWS):
            card = self.take()
            if card is None:
                break
            _, new_row, captured = robin_placement(self.rows[r], card, rules.ident)
            self.rows[r] = new_row
            for t in captured:
                hand[t] += 1
            self.sizes[p] += len(captured)
            if captured and needs_refill(new_row, rules.ident):
                self._refill(r)
        for s in flock_options(rules, hand):
            self.fly(p, s)
        self.end_turn(p)

    def greedy_turn(self, p: int) -> None:
        rules = self.rules
        if not self.sizes[p]:       # cannot happen at a turn's start, but keeps a playout safe
            self.end_turn(p)
            return
        s, r, side, _ = greedy_play(rules, self.rows, self.hands[p], self.colls[p], rules.full_deck, self.rng)
        self.after_play(p, self.play(p, s, r, side))

    def after_play(self, p: int, captured: tuple) -> None:
        """The rest of a greedy turn after its play: the draw, the flock, the turn's end."""
        if not captured and greedy_draw(self.sizes[p], [n for q, n in enumerate(self.sizes) if q != p]):
            self.draw(p)
        self.finish_turn(p)

    def finish_turn(self, p: int) -> None:
        """A greedy flock (when the hand holds one worth flying), then the turn's end."""
        if self.sizes[p]:
            s = greedy_flock(self.rules, self.colls[p], self.hands[p])
            if s is not None:
                self.fly(p, s)
        self.end_turn(p)

    def step(self) -> None:
        """Play the next whole turn (greedy, or RobinBird's)."""
        if self.turn == self.robin:
            self.robin_turn()
        else:
            self.greedy_turn(self.turn)

    def value(self, p: int) -> float:
        """Seat ``p``'s position against the best other seat (or the outcome)."""
        if self.over:
            if p in self.winners:
                return 100.0 / len(self.winners)
            return -100.0
        rules = self.rules
        mine = rules.value(self.colls[p], self.hands[p])
        others = max(rules.value(self.colls[q], self.hands[q]) for q in range(len(self.hands)) if q != p)
        return mine - others


def sample_world(obs, rules: Rules, rng: random.Random) -> World:
    """A full table consistent with what ``obs`` knows: the unseen cards are dealt
    at random to the unknown parts of the other hands (never a species such a
    hand is known not to hold), the discard pile's unseen part and the draw pile."""
    of_card, count = rules.of_card, rules.count
    cards = obs.ruleset.cards
    pool = [of_card[card] for card, n in zip(cards, obs.unseen) for _ in range(n)]
    rng.shuffle(pool)
    hands = []
    for q, size in enumerate(obs.hand_sizes):
        hand = [0] * count
        for card in (obs.hand if q == obs.seat else obs.known[q]):
            hand[of_card[card]] += 1
        if q != obs.seat:
            missing = size - len(obs.known[q])
            if missing:
                void = {rules.index[sid] for sid in obs.void[q]}
                keep = []
                for s in pool:
                    if missing and s not in void:
                        hand[s] += 1
                        missing -= 1
                    else:
                        keep.append(s)
                pool = keep
                for s in pool[:missing]:        # the void cannot be kept: a sampling miss
                    hand[s] += 1
                pool = pool[missing:]
        hands.append(hand)
    discard = [0] * count
    for card, n in zip(cards, obs.discard_known):
        if n:
            discard[of_card[card]] += n
    unseen_discard = obs.discard_pile - sum(obs.discard_known)
    for s in pool[:unseen_discard]:
        discard[s] += 1
    w = World.__new__(World)
    w.rules, w.rng, w.robin = rules, rng, obs.robin
    w.rows = [tuple(of_card[c] for c in row) for row in obs.rows]
    w.hands, w.sizes = hands, list(obs.hand_sizes)
    w.colls = [[0] * count for _ in obs.hand_sizes]
    for q, coll in enumerate(obs.collections):
        for card in coll:
            w.colls[q][of_card[card]] += 1
    w.deck = pool[unseen_discard:]
    w.discard, w.discarded = discard, obs.discard_pile
    w.turn, w.over, w.winners, w.turns = obs.seat, False, (), 0
    return w
