"""The rule facts the screens read from the bird engine (#13 point 6), C3 flocks
without the discarded ranks, C4 RobinBird's handicap, and the setup draft's piles."""
import itertools

import pytest

from engine import IllegalEvent, InvalidRecord, new_game
from engine.birds.randomplay import random_record

GUG_ROWS = [["4", "K", "9"], ["A", "5", "J"], ["Q", "7", "10"], ["2", "6", "8"]]


def started(name="gleich-und-gleich", players=("Anna", "Ben"), rows=GUG_ROWS, collections=("Q", "J"), **extra):
    game = new_game(name, extra.pop("options", {}), list(players))
    game.apply({"type": "setup", "dealer": 0, "rows": rows, "setup_discards": [],
                "collections": list(collections), **extra})
    return game


def refused(game, event, code):
    before = game.state()
    with pytest.raises(IllegalEvent) as err:
        game.apply(event)
    assert err.value.code == code, err.value.message
    assert game.state() == before


def test_progress_counts_what_the_win_check_counts():
    """rules/000 Spielende: 7 distinct species or 2 species with at least 3 cards each."""
    for seed in range(20):
        record = random_record("gleich-und-gleich", {"fast": seed % 2 == 1}, None, seed)
        game = new_game(record["game"], record["options"], record["players"])
        for event in record["events"]:
            effect = game.apply(event)
            if "game_over" in effect and effect["game_over"]["reason"] != "most-birds":
                (winner,) = effect["game_over"]["winners"]
                progress = game.progress()[winner]
                assert progress["win"] == effect["game_over"]["reason"]
                goal = next(g for g in progress["goals"] if g["reason"] == progress["win"])
                assert goal["have"] >= goal["need"] and goal["missing"] == 0
        for seat, progress in enumerate(game.progress()):
            collection = game.collections[seat]
            assert progress["cards"] == len(collection)
            assert sum(progress["species"].values()) == len(collection)
            distinct, triples = progress["goals"]
            assert distinct["have"] == len(progress["species"])
            assert distinct["need"] == (6 if game.options["fast"] else 7)
            assert triples["species"] == [s for s, n in progress["species"].items() if n >= 3]


def test_what_a_flock_keeps():
    """rules/000 Schwarm: at least the small flock → 1 card to the collection, at least the big one → 2."""
    game = started()
    assert [game.flock("7-8", n) for n in (4, 5, 6, 7, 9)] == [
        {"size": None, "keeps": 0}, {"size": "small", "keeps": 1}, {"size": "small", "keeps": 1},
        {"size": "big", "keeps": 2}, {"size": "big", "keeps": 2}]
    assert game.flock("K", 2) == {"size": "small", "keeps": 1}
    rarer = started(options={"rarer_faces": True})
    assert rarer.flock("K", 2)["keeps"] == 0 and rarer.flock("K", 4)["keeps"] == 2   # Seltenere Seltene: 3 and 4
    cubirds = started("cubirds", rows=[["owl", "duck", "robin"], ["parrot", "magpie", "reed-warbler"],
                                       ["duck", "owl", "magpie"], ["robin", "parrot", "duck"]],
                      collections=("duck", "robin"))
    assert cubirds.flock("flamingo", 3) == {"size": "big", "keeps": 2} and cubirds.numbers()["cards"] == 110


def possible_by_applying(game, species, count, kind):
    """The rank mixes the engine accepts, found by applying each candidate."""
    ranks = game.ruleset.by_id[species].cards
    found = []
    for mix in itertools.combinations_with_replacement(ranks, count):
        event = ({"type": "play", "cards": list(mix), "row": 0, "side": "left"} if kind == "play"
                 else {"type": "flock", "cards": list(mix)})
        try:
            game.apply(event)
        except IllegalEvent:
            continue
        game.undo()
        found.append(sorted(mix, key=ranks.index))
    return sorted(found)


def test_mixes_are_exactly_the_plays_and_flocks_the_engine_accepts():
    """rules/000: "Wählst du die Art 3–4, spielst du jede 3 und jede 4 aus, die du hast" —
    captured (known) cards must be among them, and no card beyond its 8 copies."""
    game = started()
    game.apply({"type": "play", "cards": ["3"], "row": 0, "side": "left"})       # next to the 4: nothing between
    game.apply({"type": "pass"})
    game.apply({"type": "no-flock"})
    game.apply({"type": "play", "cards": ["K", "K"], "row": 1, "side": "left"})  # Ben: no K in the row
    game.apply({"type": "pass"})
    game.apply({"type": "no-flock"})
    effect = game.apply({"type": "play", "cards": ["8"], "row": 2, "side": "left"})   # Anna: 8 … 7 → captures Q
    assert effect["captured"] == ["Q"]
    for species in ("A-2", "3-4", "7-8", "9-10", "Q"):
        for count in range(1, 5):
            assert sorted(game.mixes(species, count, 1)) == possible_by_applying(_ben_to_play(game), species,
                                                                                 count, "play")


def _ben_to_play(game):
    """A copy of the game where Ben is to play (Anna finished her turn)."""
    copy = new_game(game.name, game.options, game.players)
    for event in game.events:
        copy.apply(event)
    if copy.awaiting.kind == "flock":
        copy.apply({"type": "no-flock"})
    return copy


def test_kept_choices_and_a_flock_without_the_discarded_ranks():
    """C3: the species and the count for a flock; the kept card keeps its rank."""
    game = started()
    game.apply({"type": "play", "cards": ["5"], "row": 0, "side": "right"})
    game.apply({"type": "draw"})
    assert game.kept_choices("9-10", 5) == [["9"], ["10"]]
    assert game.kept_choices("9-10", 7) == [["9", "9"], ["9", "10"], ["10", "10"]]
    assert game.kept_choices("9-10", 4) == []                          # no flock: too few
    refused(game, {"type": "flock", "cards": ["9-10"] * 5}, "kept-needs-rank")
    refused(game, {"type": "flock", "cards": ["9", "9-10", "9-10"]}, "flock-too-small")
    refused(game, {"type": "flock", "cards": ["9", "10"] + ["9-10"] * 9}, "not-in-hand")   # 11 cards, the hand holds 9
    effect = game.apply({"type": "flock", "cards": ["10", "9-10", "9-10", "9-10", "9-10"]})
    assert (effect["kept"], effect["discarded"], effect["size"]) == (["10"], ["9-10"] * 4, "small")
    state = game.state()
    assert state["collections"][0] == ["Q", "10"] and state["discard_pile"] == 4 and state["hands"][0] == 4
    refused(game, {"type": "play", "cards": ["9-10"], "row": 0, "side": "left"}, "no-such-card")


def test_unranked_flock_covers_the_known_cards_and_refuses_an_impossible_one():
    """C3: a known (captured) card may be among the unranked ones; the hidden cards
    still bound the count (rules/000: each rank exists 8 times, README Gaps 1)."""
    rows = [["9", "3", "K"], ["A", "5", "J"], ["Q", "7", "10"], ["2", "6", "8"]]
    game = started(rows=rows)
    assert game.apply({"type": "play", "cards": ["10"], "row": 0, "side": "right"})["captured"] == ["3", "K"]
    game.apply({"type": "refill", "card": "J", "side": "right"})      # 9 10 is one species: refilled
    game.apply({"type": "no-flock"})
    game.apply({"type": "play", "cards": ["Q"], "row": 3, "side": "left"})
    game.apply({"type": "pass"})
    game.apply({"type": "no-flock"})
    game.apply({"type": "play", "cards": ["K"], "row": 1, "side": "left"})      # Anna's known K
    game.apply({"type": "draw"})
    assert game.state()["known_hands"][0] == ["3"]
    refused(game, {"type": "flock", "cards": ["4", "4", "4", "4", "4"]}, "must-include-known")
    assert game.kept_choices("3-4", 5) == [["3"], ["4"]]
    effect = game.apply({"type": "flock", "cards": ["4", "3-4", "3-4", "3-4", "3-4"]})   # the known 3 among them
    assert effect["kept"] == ["4"] and game.state()["known_hands"][0] == []
    assert game.discard_known[game.ruleset.card_index["3"]] == 1           # the table saw the 3 go


def test_an_unranked_flock_beyond_the_hidden_cards_is_refused():
    """C3 still refuses the impossible: 12 cards of 3–4 went to the discard pile at the setup."""
    discards = ["3", "4"] * 6
    game = new_game("gleich-und-gleich", {}, ["Anna", "Ben"])
    game.apply({"type": "setup", "dealer": 0, "rows": [["3", "K", "9"], ["A", "5", "J"], ["Q", "7", "10"],
                                                       ["2", "6", "8"]],
                "setup_discards": discards, "collections": ["Q", "J"]})
    game.apply({"type": "play", "cards": ["7"], "row": 0, "side": "left"})
    assert game.apply({"type": "draw"})["drawn"] == 2
    assert game.mixes("3-4", 3) == [["3", "4", "4"]]                    # one 3 and two 4s are left hidden
    assert game.kept_choices("3-4", 5) == []
    refused(game, {"type": "flock", "cards": ["4", "3-4", "3-4", "3-4", "3-4"]}, "species-exhausted")


def test_robin_handicap_is_entered_with_the_setup():
    """rules/003 Solovariante: "kannst du der Sammlung von RobinBird zu Beginn des Spiels
    1 oder mehr zusätzliche Karten hinzufügen" — C4: the number is an option, the cards
    are turned up at the table and entered with the setup."""
    options = {"solo": True, "robin_handicap": 2}
    game = new_game("cubirds", options, ["Mensch", "RobinBird"])
    assert game.numbers()["robin_bonus"] == 2 and game.legal_choices()["robin_handicap"] == 2
    draft = game.setup_draft()
    cards = ["owl", "duck", "robin", "parrot", "magpie", "reed-warbler", "duck", "owl", "magpie", "robin", "parrot",
             "duck", "robin", "robin"]
    for card in cards:
        draft.add(card)
    assert draft.needs() == {"kind": "robin_bonus", "card": 1, "of": 2}
    draft.add("flamingo")
    draft.add("flamingo")
    assert draft.needs() == {"kind": "robin_hand", "card": 1, "of": 8}
    for card in ["owl"] * 8:
        draft.add(card)
    event = draft.event()
    assert event["robin_bonus"] == ["flamingo", "flamingo"]
    wrong = {**event, "robin_bonus": ["flamingo"]}
    with pytest.raises(IllegalEvent) as err:
        game.apply(wrong)
    assert err.value.code == "bad-count" and err.value.params["field"] == "robin_bonus"
    effect = game.apply(event)
    assert effect["robin_bonus"] == ["flamingo", "flamingo"]
    assert game.state()["collections"][1] == ["robin", "flamingo", "flamingo"]
    assert game.state()["draw_pile"] == 110 - 12 - 2 - 2 - 8 - 8
    for bad in ({"solo": True, "robin_handicap": 9}, {"robin_handicap": 1}, {"solo": True, "robin_handicap": True},
                {"solo": True, "robin_handicap": 1, "robin_bonus": ["owl"]}):
        with pytest.raises(InvalidRecord):
            new_game("cubirds", bad, ["Mensch", "RobinBird"])
    plain = new_game("cubirds", {"solo": True, "robin_handicap": 0}, ["Mensch", "RobinBird"])
    assert plain.numbers()["robin_bonus"] == 0


def test_setup_discards_need_their_species_in_a_row():
    """README CuBirds 0 (rules/000 Vorbereitung 2): "Kommt in eine Reihe eine zweite
    Karte einer Art, die schon darin liegt, leg sie auf den Ablagestapel"."""
    game = new_game("gleich-und-gleich", {}, ["Anna", "Ben"])
    event = {"type": "setup", "dealer": 0, "rows": GUG_ROWS, "collections": ["Q", "J"]}
    rows_without_kings = [["4", "Q", "9"], ["A", "5", "J"], ["Q", "7", "10"], ["2", "6", "8"]]
    refused(game, {**event, "rows": rows_without_kings, "setup_discards": ["K"]}, "setup-discard-species")
    game.apply({**event, "setup_discards": ["3", "K"]})                 # 3–4 and K lie in row 1
    assert game.state()["discard_pile"] == 2


def test_cubirds_setup_discards_need_their_species_in_a_row():
    """README CuBirds 0 (rules/003 Spielvorbereitung): „Kommt dabei ein Vogel in einer Reihe
    doppelt vor, lege die doppelte Karte auf den Ablagestapel“ — a flamingo lies in no row."""
    rows = [["owl", "duck", "parrot"], ["robin", "toucan", "parrot"], ["magpie", "robin", "duck"],
            ["reed-warbler", "owl", "toucan"]]
    game = new_game("cubirds", {}, ["Anna", "Ben"])
    event = {"type": "setup", "dealer": 0, "rows": rows, "collections": ["robin", "owl"]}
    refused(game, {**event, "setup_discards": ["owl", "flamingo"]}, "setup-discard-species")
    game.apply({**event, "setup_discards": ["owl", "duck"]})
    assert game.state()["discard_pile"] == 2


def test_the_setup_draft_counts_the_piles_as_they_lie_and_greys_out_gone_cards():
    """rules/003 Spielvorbereitung: rows first, then 8 cards each, then one collection card each."""
    game = new_game("gleich-und-gleich", {"solo": True}, ["Mensch", "RobinBird"])
    draft = game.setup_draft()
    piles = []
    for card in ["K", "K", "K", "9", "A", "5", "J", "Q", "7", "10", "2", "6", "8", "3"]:
        piles.append(draft.add(card)["draw_pile"])
    assert piles[:-1] == list(range(103, 90, -1))                       # the cards leave the deck one by one
    assert piles[-1] == 104 - 14 - 8 and draft.counts()["hands_dealt"]  # the human's hand is dealt with the rows
    assert draft.available()["K"] == 5 and draft.available()["4"] == 8
    for card in ["K", "K"]:
        draft.add(card)
    for card in ["K"] * 3:
        draft.add(card)
    assert draft.available()["K"] == 0
    with pytest.raises(IllegalEvent) as err:
        draft.add("K")                                                  # a ninth King
    assert err.value.code == "card-exhausted"
    assert draft.counts()["draw_pile"] == 104 - 19 - 8


def test_who_may_deal_the_first_round():
    """rules/000 Vorbereitung: „Bestimmt einen Geber.“ — anyone; rules/003 Solovariante:
    „Du machst den ersten Zug des Spiels wie gewohnt.“ — in solo the human deals."""
    assert new_game("gleich-und-gleich", {}, ["Anna", "Ben", "Carla"]).legal_choices()["dealers"] == [0, 1, 2]
    solo = new_game("cubirds", {"solo": True}, ["Mensch", "RobinBird"])
    assert solo.legal_choices()["dealers"] == [0]
    setup = {"type": "setup", "rows": [["owl", "duck", "parrot"], ["flamingo", "toucan", "parrot"],
                                       ["magpie", "robin", "duck"], ["reed-warbler", "owl", "toucan"]],
             "setup_discards": [], "collections": ["robin", "owl"], "robin_hand": ["duck"] * 8}
    refused(solo, {**setup, "dealer": 1}, "bad-dealer")
    solo.apply({**setup, "dealer": 0})


def test_the_flock_event_of_the_kept_cards():
    """C3: the kept ranks, then a pair species' id for each other card; a one-card
    species' cards are the card itself. Every kept choice gives an event the engine takes."""
    game = started()
    game.apply({"type": "play", "cards": ["5"], "row": 0, "side": "right"})
    game.apply({"type": "draw"})
    assert game.flock_event("9-10", 5, ["10"]) == {"type": "flock", "cards": ["10"] + ["9-10"] * 4}
    assert game.flock_event("K", 3, ["K", "K"]) == {"type": "flock", "cards": ["K", "K", "K"]}
    for kept in game.kept_choices("9-10", 7):
        event = game.flock_event("9-10", 7, kept)
        game.apply(event)
        assert game.state()["collections"][0][-2:] == kept
        game.undo()
    with pytest.raises(IllegalEvent):
        game.flock_event("owl", 3, [])
