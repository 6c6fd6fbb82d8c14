"""Hypothesis: arbitrary events in arbitrary positions are refused without a trace
or, when legal, keep the deck whole and can be undone."""
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import IllegalEvent, new_game
from engine.rummy.melds import DECK
from engine.rummy.simulate import random_record

from .helpers import card_count

RECORDS = [random_record({"level": "normal"}, seed) for seed in range(6)]
TYPES = ["setup", "draw", "start", "complete", "lay-off", "swap", "discard", "end-turn", "give-up", "take-back", "x"]
VALUES = st.one_of(st.sampled_from(DECK), st.integers(-2, 12), st.sampled_from(["pile", "discard", "JK:6C", ""]),
                   st.none(), st.booleans(), st.lists(st.sampled_from(DECK), max_size=3))
EVENTS = st.fixed_dictionaries({"type": st.sampled_from(TYPES)}, optional={
    name: VALUES for name in ("from", "cards", "card", "as", "start", "figure", "first_discard", "first_player")})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=st.sampled_from(RECORDS), cut=st.floats(0, 1), event=EVENTS)
def test_any_event_is_refused_cleanly_or_undoable(record, cut, event):
    game = new_game(record["game"], record["options"], record["players"])
    for prior in record["events"][:int(cut * len(record["events"]))]:
        game.apply(prior)
    before = (game.state(), game.record(), game.public_cards())
    try:
        game.apply(event)
    except IllegalEvent as err:
        assert err.code and err.message
        assert (game.state(), game.record(), game.public_cards()) == before
        return
    assert card_count(game.state()) == 54
    game.undo()
    assert (game.state(), game.record(), game.public_cards()) == before
