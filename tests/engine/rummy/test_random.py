"""Random simulated games: after every event the deck is whole (54 cards), an
illegal event changes nothing, undo + re-apply is exact, and a replay of the
record passes through the very same states."""
import json

import pytest

from engine import IllegalEvent, new_game
from engine.rummy.simulate import Table

from .helpers import card_count

GAMES = 2000
OPTION_CYCLE = [{"level": "normal"}, {"draw_pile": 33}, {"level": "schwer"}, {"draw_pile": 8},
                {"level": "leicht", "max_starts": 3}, {"draw_pile": 26, "ace_low_only": True}]


def illegal_probes(game):
    """Events that must be refused in the current position."""
    probes = [{"type": "setup", "first_discard": "2H", "first_player": 0}]
    awaiting = game.awaiting
    if awaiting is None:
        return probes + [{"type": "draw", "from": "pile"}]
    if awaiting.kind == "draw":
        probes.append({"type": "discard", "card": "JK"})
        if game.draw_pile == 0:
            probes.append({"type": "draw", "from": "pile"})
    if awaiting.kind == "act":
        probes.append({"type": "draw", "from": "pile"})
        if game.discard_pile and game.discard_pile[0] != "JK":
            probes.append({"type": "discard", "card": game.discard_pile[0]})   # lies in the discard pile
    return probes


class CheckedTable(Table):
    """A simulated game that checks the engine after every event."""

    def __init__(self, options, seed):
        self.states = []
        self.hopeless = set()
        self.completed = set()
        super().__init__(options, seed)

    def apply(self, event):
        game = self.game
        before = game.state()
        effect = game.apply(event)
        after = game.state()
        assert card_count(after) == 54, (event, after)
        assert game.undo() == event and game.state() == before
        assert game.apply(event) == effect and game.state() == after
        for probe in illegal_probes(game):
            with pytest.raises(IllegalEvent):
                game.apply(probe)
            assert game.state() == after
        if effect["type"] == "complete":
            self.completed.add(effect["start"])
        if game.awaiting is not None:
            self.hopeless |= {o["id"] for o in game.start_outlooks() if not o["completable"]}
            if len(self.states) % 7 == 0:
                json.dumps([game.legal_choices(), game.pace(), game.public_cards()])
        self.states.append(after)
        return effect


@pytest.mark.slow
def test_random_games_keep_every_card_and_replay_exactly():
    outcomes = {"won": 0, "lost": 0}
    for seed in range(GAMES):
        table = CheckedTable(OPTION_CYCLE[seed % len(OPTION_CYCLE)], seed)
        game = table.play()
        record = game.record()
        outcomes[game.state()["status"]] += 1
        assert not table.hopeless & table.completed, "a start called hopeless was completed"
        fresh = new_game(record["game"], record["options"], record["players"])
        for event, expected in zip(record["events"], table.states, strict=True):
            fresh.apply(event)
            assert fresh.state() == expected
    assert outcomes["won"] > 0 and outcomes["lost"] > 0
