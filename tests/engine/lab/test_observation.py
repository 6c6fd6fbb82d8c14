"""Bots decide from what their seat may know (engine/lab/observation.py): two
tables that differ only in other hands and the order of the draw pile give the
same observation, and every bot makes the same choice on both."""
import copy
import random
from collections import Counter

import pytest

from engine.lab.arena import BotTable
from engine.lab.bots import BOTS
from engine.lab.observation import observe
from engine.records import new_game


def table_at_decision(game_name, players, seed, turns):
    """A greedy game stopped at the ``turns``-th play decision (or a later flock)."""
    game = new_game(game_name, {}, [f"S{i}" for i in range(players)])
    table = BotTable(game, random.Random(seed), [BOTS["greedy"]() for _ in range(players)], random.Random(seed))
    plays = 0
    while game.awaiting is not None:
        if game.awaiting.kind == "play":
            plays += 1
            if plays >= turns:
                return table
        event = table.next_event()
        table.follow(event, game.apply(event))
    pytest.skip("the game ended before the decision")


def scramble_hidden(table, seat, rng):
    """Another table with the same public state: the unknown parts of the other
    hands and the draw pile dealt anew (never a species a hand is known not to hold)."""
    other = copy.copy(table)
    other.hands = [list(h) for h in table.hands]
    other.deck = list(table.deck)
    game = table.game
    for q in range(len(other.hands)):
        if q == seat:
            continue
        unknown = Counter(other.hands[q]) - Counter(game.known[q])
        for card in list(unknown.elements()):
            allowed = [i for i, c in enumerate(other.deck)
                       if c != card and game.ruleset.species_of[c] not in game.void[q]]
            if allowed:
                i = rng.choice(allowed)
                other.hands[q].remove(card)
                other.hands[q].append(other.deck[i])
                other.deck[i] = card
    rng.shuffle(other.deck)
    return other


@pytest.mark.parametrize("game_name,players,seed,turns", [
    ("cubirds", 2, 1, 5), ("cubirds", 4, 2, 9), ("gleich-und-gleich", 3, 3, 7), ("gleich-und-gleich", 5, 4, 12),
])
def test_hidden_cards_change_no_choice(game_name, players, seed, turns):
    table = table_at_decision(game_name, players, seed, turns)
    seat = table.game.awaiting.player
    other = scramble_hidden(table, seat, random.Random(seed))
    assert other.hands != table.hands and other.deck != table.deck      # the hidden cards did change
    assert other.hands[seat] == table.hands[seat]
    seen, also_seen = observe(table.game, seat, table.hands[seat]), observe(table.game, seat, other.hands[seat])
    assert seen == also_seen
    for name, bot in BOTS.items():
        for question in ("play", "flock", "draw"):
            # asked the way a game asks (BotTable._ask builds the observation from the table)
            table.bots, other.bots = [bot()] * players, [bot()] * players
            table.bot_rng, other.bot_rng = random.Random(11), random.Random(11)
            assert table._ask(seat, question) == other._ask(seat, question), (name, question)


def test_the_own_hand_is_seen():
    """The control: a different own hand is a different observation (and the
    unseen counts move with it)."""
    table = table_at_decision("cubirds", 3, 5, 4)
    seat = table.game.awaiting.player
    game = table.game
    unknown_own = Counter(table.hands[seat]) - Counter(game.known[seat])
    card = next(iter(unknown_own))
    swap = next(c for c in table.deck if c != card)
    hand = list(table.hands[seat])
    hand[hand.index(card)] = swap
    one, two = observe(game, seat, table.hands[seat]), observe(game, seat, hand)
    assert one != two
    index = game.ruleset.card_index
    assert two.unseen[index[card]] == one.unseen[index[card]] + 1
    assert two.unseen[index[swap]] == one.unseen[index[swap]] - 1
    assert sum(one.unseen) == sum(game.hidden) - sum((Counter(table.hands[seat]) - Counter(game.known[seat])).values())
