"""One conformance test for every registered game (OpenSpiel's random_sim_test is
the model): random complete games, and after every event: undo restores the state
exactly, a fresh replay of the record gives the same state, an illegal event
changes nothing, state and choices are JSON, every offered event applies (each
one at every position, undone after it), and sampled events that are not offered
are refused — where the offered list is complete, events near the offered ones;
where it is a sample (a setup, RobinBird's dealt hand), junk no step takes. It
runs over ``engine.GAMES``, so a new game is covered without a new test.

The games come from each game's ``random_record`` (realistic play that reaches
every ending); at every position the test also asks the engine for its legal
events (``Game.legal_events``) and checks the event the record goes on with is
among them. CONFORMANCE_GAMES (default 3) sets the games per configuration
(``CONFORMANCE_GAMES=50`` for a long run; the suite keeps it short: applying every
offered event, some 250 000 at 3 games, takes about 20 s of CPU for the file).
"""
import json
import os
import random

import pytest

from engine import GAMES, IllegalEvent, new_game, replay

GAMES_PER_CONFIG = int(os.environ.get("CONFORMANCE_GAMES", "3"))
MUTATION_TRIES = 6       # events not offered, per position
JUNK = [None, True, -1, 0, 4, 99, 2 ** 70, "", "?", "left", [], {}, ["?"], {"x": 1}]
FIELD_JUNK = [True, 2 ** 70, "?", ["?"], {"x": 1}]   # a value no field of any event takes


def configs():
    """Every registered game with its default options, and the bird games' solo."""
    for name in sorted(GAMES):
        yield name, {}
        if "solo" in GAMES[name].validate_options({}):
            yield name, {"solo": True, "robin_handicap": 1}


CONFIGS = list(configs())


def exact(game):
    """Everything a game is: its whole internal state, what it shows, and its
    events (which only change at their end)."""
    return game._snapshot(), game.state(), game.legal_choices(), len(game.events), game.events[-1:]


def mutations(rng: random.Random, offered: list[dict], values: list, types: list[str]):
    """Events near the offered ones: a field changed, dropped or added, a list
    element changed, the type swapped, or junk."""
    for _ in range(MUTATION_TRIES):
        event = json.loads(json.dumps(rng.choice(offered)))
        fields = [name for name in event if name != "type"]
        how = rng.randrange(6)
        if how == 0 and fields:
            event[rng.choice(fields)] = rng.choice(values + JUNK)
        elif how == 1 and fields:
            del event[rng.choice(fields)]
        elif how == 2:
            lists = [name for name in fields if isinstance(event[name], list)]
            if lists:
                items = event[rng.choice(lists)]
                choice = rng.randrange(3)
                if choice == 0 or not items:
                    items.insert(rng.randrange(len(items) + 1), rng.choice(values))
                elif choice == 1:
                    items.pop(rng.randrange(len(items)))
                else:
                    items[rng.randrange(len(items))] = rng.choice(values + JUNK)
        elif how == 3:
            event["type"] = rng.choice(types)
        elif how == 4:
            event = {"type": rng.choice(types), **{name: rng.choice(values + JUNK) for name in fields}}
        else:
            event = rng.choice(JUNK + [{"type": rng.choice(types)}])
        yield event


def junk(rng: random.Random, offered: list[dict], types: list[str]):
    """Events no step takes, for a step whose offered list is a sample: no event at
    all, a type not offered here, or an offered event with every field junk."""
    others = sorted({*types, "?"} - {event["type"] for event in offered})
    for _ in range(MUTATION_TRIES):
        how = rng.randrange(3)
        if how == 0:
            yield rng.choice(JUNK)
        elif how == 1:
            yield {"type": rng.choice(others)}
        else:
            event = rng.choice(offered)
            yield {"type": event["type"], **{name: rng.choice(FIELD_JUNK) for name in event if name != "type"}}


def scalars(events: list[dict]) -> list:
    found = set()
    for event in events:
        for name, value in event.items():
            if name != "type":
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, (str, int)) and not isinstance(item, bool):
                        found.add(item)
    return sorted(found, key=repr)


def check_position(game, rng: random.Random, next_event: dict, types: list[str]) -> None:
    """The checks at one position, before the record's next event."""
    before = exact(game)
    legal = game.legal_events(rng)
    assert legal.events, f"nothing may be entered at {game.awaiting}"
    keys = {game.event_key(event) for event in legal.events}
    assert len(keys) == len(legal.events), "an offered choice is listed twice"
    if legal.exhaustive:
        assert game.event_key(next_event) in keys, f"the record's {next_event} is not offered"
    inner = game._snapshot(), len(game.events)     # what exact() derives from, cheap to compare
    for event in legal.events:
        json.dumps(game.apply(event))
        json.dumps([game.state(), game.legal_choices()])
        game.undo()
        assert (game._snapshot(), len(game.events)) == inner, f"undoing {event} left a trace"
    assert exact(game) == before
    if not legal.exhaustive:
        for event in junk(rng, legal.events, types):
            with pytest.raises(IllegalEvent):
                game.apply(event)
            assert exact(game) == before
        return
    for event in mutations(rng, legal.events, scalars(legal.events), types):
        if game.event_key(event) in keys:            # the same choice as an offered one: it applies
            game.apply(event)
            game.undo()
        else:
            with pytest.raises(IllegalEvent):
                game.apply(event)
        assert exact(game) == before


def play_checked(name: str, options: dict, seed: int) -> dict:
    record = GAMES[name].random_record(options, None, seed)
    rng = random.Random(seed)
    types = sorted({event["type"] for event in record["events"]})
    game = new_game(name, record["options"], record["players"])
    fresh = new_game(name, record["options"], record["players"])   # replays the record, nothing else
    for event in record["events"]:
        check_position(game, rng, event, types)
        game.apply(event)
        after = exact(game)
        json.dumps([game.state(), game.legal_choices(), game.numbers()])
        game.undo()                                   # undo restores, and the event applies again alike
        game.apply(event)
        assert exact(game) == after
        fresh.apply(event)                            # a fresh replay of the record reaches the same state
        assert exact(fresh) == after and fresh.events == game.events
    assert exact(replay(game.record())) == exact(game)
    assert game.outcome() is not None and game.legal_choices() == type(game).OVER_CHOICES
    assert game.legal_events(rng) == ([], True)
    return record


@pytest.mark.parametrize("name,options", CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_random_games_conform(name, options):
    for seed in range(GAMES_PER_CONFIG):
        play_checked(name, options, seed)
