"""Hypothesis fuzzing: arbitrary events at arbitrary points of random games.
Only IllegalEvent may escape, a refusal changes nothing, and whatever is accepted
can be undone."""
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalEvent, replay
from engine.birds.randomplay import random_record

CONFIGS = [("gleich-und-gleich", {}), ("cubirds", {}), ("cubirds", {"solo": True}),
           ("gleich-und-gleich", {"solo": True, "fast": True})]
CARDS = ["A", "2", "9", "10", "J", "Q", "K", "flamingo", "owl", "robin", "duck", "?", "", 7, None]
TYPES = ["setup", "play", "refill", "draw", "pass", "flock", "no-flock", "deal", "robin-draw", "undo", 3]


@lru_cache(maxsize=None)
def record(config: int, seed: int) -> dict:
    name, options = CONFIGS[config]
    return random_record(name, options, None, seed)


values = st.one_of(st.sampled_from(CARDS), st.integers(-2, 6), st.booleans(), st.none(),
                   st.sampled_from(["left", "right", "up"]), st.lists(st.sampled_from(CARDS), max_size=9))
events = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={"cards": st.lists(st.sampled_from(CARDS), max_size=9), "card": st.sampled_from(CARDS),
              "row": values, "side": values, "dealer": values, "rows": st.lists(values, max_size=5),
              "collections": st.lists(st.sampled_from(CARDS), max_size=5),
              "robin_hand": st.lists(st.sampled_from(CARDS), max_size=9), "extra": values},
)


@settings(max_examples=400, deadline=None)
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 4), cut=st.floats(0, 1),
       tries=st.lists(events, min_size=1, max_size=6))
def test_only_illegal_event_escapes_and_refusals_change_nothing(config, seed, cut, tries):
    rec = record(config, seed)
    prefix = {**rec, "events": rec["events"][:int(cut * len(rec["events"]))]}
    game = replay(prefix)
    for event in tries:
        before, state = game._snapshot(), game.state()
        try:
            game.apply(event)
        except IllegalEvent as err:
            assert err.code and err.message
            assert game._snapshot() == before and game.state() == state
            continue
        game.state()
        game.legal_choices()
        game.undo()
        assert game._snapshot() == before and game.state() == state
