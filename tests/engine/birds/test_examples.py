"""The worked examples of both rule texts as scenarios, and the knowledge rules."""
import pytest

from engine import Awaiting, IllegalEvent, InvalidRecord, new_game, replay

GUG_ROWS = [["4", "K", "9"], ["A", "5", "J"], ["Q", "7", "10"], ["2", "6", "8"]]
BIRD_ROWS = [["owl", "duck", "robin"], ["parrot", "magpie", "reed-warbler"],
             ["duck", "owl", "magpie"], ["robin", "parrot", "duck"]]


def started(name, players, rows, collections, dealer=0, options=None, **extra):
    game = new_game(name, options or {}, players)
    game.apply({"type": "setup", "dealer": dealer, "rows": rows, "setup_discards": [],
                "collections": collections, **extra})
    return game


def quiet_turn(game, cards, row, draw=False, flock=None):
    """A play that must capture nothing, then draw or pass, then the flock choice."""
    effect = game.apply({"type": "play", "cards": cards, "row": row, "side": "right"})
    assert effect["captured"] == [] and effect["draw_offered"]
    game.apply({"type": "draw" if draw else "pass"})
    if game.awaiting and game.awaiting.kind == "flock":
        return game.apply({"type": "flock", "cards": flock} if flock else {"type": "no-flock"})
    return effect


def refused(game, event, code):
    before = game.state()
    with pytest.raises(IllegalEvent) as err:
        game.apply(event)
    assert err.value.code == code
    assert game.state() == before
    return err.value


# --- Gleich und gleich ------------------------------------------------------------

def test_anna_captures_and_the_row_is_refilled():
    """rules/000 'Ein Zug', Anna's example: 4 K 9 7, she plays 3 and 4 right."""
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"], dealer=1)
    quiet_turn(game, ["7"], 0)                       # Ben: the row becomes 4 K 9 7
    assert game.rows[0] == ("4", "K", "9", "7")
    effect = game.apply({"type": "play", "cards": ["3", "4"], "row": 0, "side": "right"})
    assert effect["captured"] == ["K", "9", "7"] and effect["refill_needed"]
    assert game.awaiting.kind == "refill" and game.legal_choices()["row"] == 0
    assert not game.apply({"type": "refill", "card": "3", "side": "right"})["refill_done"]
    assert game.apply({"type": "refill", "card": "Q", "side": "right"})["refill_done"]
    state = game.state()
    assert state["rows"][0] == ["4", "3", "4", "3", "Q"]
    assert state["hands"] == [8 - 2 + 3, 7]
    assert state["known_hands"][0] == ["7", "9", "K"]
    assert state["draw_pile"] == 104 - 12 - 2 - 16 - 2
    assert game.awaiting.kind == "flock"             # a capture: no draw offered


def test_ben_flies_a_small_flock_of_six():
    """rules/000 'Schwarm', Ben: six 7–8 are a small flock (5), not a big one (7)."""
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"], dealer=1)
    game.apply({"type": "play", "cards": ["K", "K"], "row": 3, "side": "right"})
    game.apply({"type": "pass"})
    choice = {c["species"]: c for c in game.legal_choices()["species"]}["7-8"]
    assert (choice["min"], choice["max"], choice["small"], choice["big"]) == (5, 6, 5, 7)
    assert game.flock_size("7-8", 6) == "small" and game.flock_size("7-8", 7) == "big"
    effect = game.apply({"type": "flock", "cards": ["7", "7", "8", "8", "8", "7"]})
    assert (effect["size"], effect["kept"], len(effect["discarded"])) == ("small", ["7"], 5)
    state = game.state()
    assert state["collections"][1] == ["J", "7"] and state["discard_pile"] == 5 + 8   # + Anna's hand
    assert state["hands"][1] == 0 and state["awaiting"] == "deal" and state["dealer"] == 1


def test_carla_wins_with_two_triples():
    """rules/000 'Spielende', Carla: Q Q, 5 5 6, J plus a small flock of Queens."""
    rows = [["J", "9", "7"], ["K", "5", "3"], ["Q", "10", "A"], ["8", "6", "K"]]
    game = started("gleich-und-gleich", ["Carla", "Dora"], rows, ["Q", "9"])
    quiet_turn(game, ["A"], 2, draw=True, flock=["Q", "Q"])
    quiet_turn(game, ["4"], 1, draw=True)
    quiet_turn(game, ["2"], 2, draw=True, flock=["5", "5", "6", "6", "5", "6", "5"])
    quiet_turn(game, ["4"], 1, draw=True)
    effect = quiet_turn(game, ["A"], 2, draw=True, flock=["J", "J"])
    assert effect["round_over"] == {"emptied_by": 0, "dealer": 0, "discarded": [0, 10]}
    game.apply({"type": "deal"})
    assert game.state()["round"] == 2 and game.awaiting.kind == "play" and game.turn == 0
    quiet_turn(game, ["A"], 2, draw=True, flock=["6", "5", "5", "6", "6"])
    quiet_turn(game, ["4"], 1, draw=True)
    assert game.state()["collections"][0] == ["Q", "Q", "5", "5", "J", "6"]
    effect = quiet_turn(game, ["2"], 2, draw=True, flock=["Q", "Q"])
    assert effect["game_over"] == {"reason": "two-triples", "winners": [0]}
    assert game.outcome().reason == "two-triples" and game.awaiting is None
    refused(game, {"type": "play", "cards": ["A"], "row": 0, "side": "right"}, "game-over")


def test_catalogue_and_turnable_cards():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"], options={"rarer_faces": True})
    species = game.catalogue()["species"]
    assert [s["label"] for s in species] == ["A–2", "3–4", "5–6", "7–8", "9–10", "Bube", "Dame", "König"]
    assert (species[6]["small"], species[6]["big"], species[6]["count"]) == (3, 4, 8)
    assert species[0]["count"] == 16 and game.catalogue()["cards"]["K"] == "König"
    assert game.turnable_cards()["Q"] == 8 - 2 and game.turnable_cards()["4"] == 8 - 1


def test_fast_variant_wins_with_six_species_and_rarer_faces_need_three():
    game = new_game("gleich-und-gleich", {"fast": True}, ["A", "B"])
    assert game.ruleset.win_reason(["A", "3", "5", "7", "9", "J"]) == "distinct-species"
    assert new_game("gleich-und-gleich", {}, ["A", "B"]).ruleset.win_reason(["A", "3", "5", "7", "9", "J"]) is None
    rarer = new_game("gleich-und-gleich", {"rarer_faces": True}, ["A", "B"])
    assert rarer.flock_size("Q", 2) is None and rarer.flock_size("Q", 3) == "small"
    assert rarer.flock_size("Q", 4) == "big" and rarer.flock_size("5-6", 5) == "small"


def test_both_conditions_report_distinct_species():
    rules = new_game("gleich-und-gleich", {}, ["A", "B"]).ruleset
    assert rules.win_reason(["A", "2", "A", "3", "4", "3", "5", "7", "9", "J", "Q"]) == "distinct-species"


# --- CuBirds ---------------------------------------------------------------------

def test_matea_captures_flamingo_and_owl_and_refills_to_five():
    """rules/003 'Spielzug', Matea plays two parrots left of flamingo–owl–parrot."""
    rows = [["flamingo", "owl", "parrot"]] + BIRD_ROWS[1:]
    game = started("cubirds", ["Matea", "Jakob"], rows, ["duck", "robin"])
    preview = game.preview_play(["parrot", "parrot"], 0, "left")
    assert preview == {"row": ["parrot", "parrot", "parrot"], "captured": ["flamingo", "owl"],
                       "captured_positions": [0, 1], "refill_needed": True}
    assert game.state()["rows"][0] == ["flamingo", "owl", "parrot"]     # preview changed nothing
    right = game.preview_play(["flamingo"], 0, "right")                  # the flamingo catches owl and parrot
    assert right["captured"] == ["owl", "parrot"] and right["captured_positions"] == [1, 2]
    assert game.preview_play(["owl"], 1, "right")["captured"] == []       # an owl captures nothing
    effect = game.apply({"type": "play", "cards": ["parrot", "parrot"], "row": 0, "side": "left"})
    assert effect["captured"] == ["flamingo", "owl"] and effect["refill_needed"]
    game.apply({"type": "refill", "card": "parrot", "side": "right"})
    effect = game.apply({"type": "refill", "card": "toucan", "side": "right"})
    assert effect["refill_done"] and len(game.rows[0]) == 5
    assert game.state()["hands"][0] == 8 and game.awaiting.kind == "flock"


def test_matea_without_capture_may_draw_two():
    game = started("cubirds", ["Matea", "Jakob"], BIRD_ROWS, ["duck", "robin"])
    effect = game.apply({"type": "play", "cards": ["magpie"], "row": 3, "side": "right"})
    assert effect["draw_offered"] and game.awaiting.kind == "draw"
    assert game.legal_choices()["drawn"] == 2
    assert game.apply({"type": "draw"})["drawn"] == 2 and game.state()["hands"][0] == 9


def test_jakob_flies_six_magpies_as_small_flock():
    """rules/003 'Schwarm', Jakob: six magpies, one to the collection, five discarded."""
    game = started("cubirds", ["Matea", "Jakob"], BIRD_ROWS, ["duck", "robin"], dealer=1)
    game.apply({"type": "play", "cards": ["owl", "owl"], "row": 3, "side": "right"})
    game.apply({"type": "pass"})
    effect = game.apply({"type": "flock", "cards": ["magpie"] * 6})
    assert (effect["size"], effect["kept"], effect["discarded"]) == ("small", ["magpie"], ["magpie"] * 5)
    assert game.state()["collections"][1] == ["robin", "magpie"]


def test_josefine_wins_with_a_third_toucan():
    """rules/003 'Ende des Spiels': 2 toucans, 3 flamingos, a small toucan flock."""
    game = started("cubirds", ["Josefine", "Ida"], BIRD_ROWS, ["toucan", "owl"])
    quiet_turn(game, ["robin"], 0, draw=True, flock=["toucan"] * 3)
    quiet_turn(game, ["duck"], 3, draw=True)
    quiet_turn(game, ["robin"], 0, draw=True, flock=["flamingo"] * 3)
    quiet_turn(game, ["duck"], 3, draw=True)
    quiet_turn(game, ["robin"], 0, draw=True, flock=["flamingo"] * 2)
    quiet_turn(game, ["duck"], 3, draw=True)
    assert game.state()["collections"][0] == ["toucan", "toucan", "flamingo", "flamingo", "flamingo"]
    effect = quiet_turn(game, ["robin"], 0, draw=True, flock=["toucan"] * 3)
    assert effect["game_over"] == {"reason": "two-triples", "winners": [0]}


# --- RobinBird ---------------------------------------------------------------------

def solo(robin_hand, bonus=(), name="cubirds"):
    game = new_game(name, {"solo": True, "robin_bonus": list(bonus)}, ["Mensch", "RobinBird"])
    game.apply({"type": "setup", "dealer": 0, "rows": BIRD_ROWS, "setup_discards": [],
                "collections": ["robin", "robin"], "robin_hand": robin_hand})
    quiet_turn(game, ["reed-warbler"], 3)
    assert game.awaiting.kind == "robin-draw" and game.awaiting.player == 1
    return game


def test_robinbird_places_right_or_left_when_that_captures_more():
    game = solo(["flamingo", "flamingo", "duck", "duck", "duck", "owl", "toucan", "toucan"])
    effect = game.apply({"type": "robin-draw", "card": "owl"})       # right captures 2, left 0
    assert (effect["side"], effect["captured"], effect["refill_needed"]) == ("right", ["duck", "robin"], True)
    game.apply({"type": "refill", "card": "flamingo", "side": "right"})
    effect = game.apply({"type": "robin-draw", "card": "reed-warbler"})   # left captures 2
    assert (effect["row"], effect["side"], effect["captured"]) == (1, "left", ["parrot", "magpie"])
    game.apply({"type": "refill", "card": "toucan", "side": "left"})
    assert game.rows[1] == ("toucan", "reed-warbler", "reed-warbler")
    effect = game.apply({"type": "robin-draw", "card": "owl"})       # a tie (1:1) stays right
    assert (effect["side"], effect["captured"]) == ("right", ["magpie"])
    effect = game.apply({"type": "robin-draw", "card": "flamingo"})
    assert (effect["side"], effect["captured"]) == ("right", [])
    flocks = [(f["species"], f["size"], f["kept"], len(f["discarded"])) for f in effect["robin_flocks"]]
    assert flocks == [("flamingo", "small", ["flamingo"], 1), ("duck", "small", ["duck"], 3)]
    state = game.state()
    assert state["collections"][1] == ["robin", "flamingo", "duck"]
    assert state["robin_hand"] == ["owl", "toucan", "toucan", "parrot", "magpie", "magpie", "robin"]
    assert state["hands"][1] == 7 and state["awaiting"] == "play" and state["turn"] == 0


def test_robinbird_empties_her_hand_ends_the_round_and_deals():
    game = solo(["flamingo", "flamingo", "owl", "owl", "owl", "toucan", "toucan", "toucan"])
    for card in ("magpie", "duck", "robin"):
        game.apply({"type": "robin-draw", "card": card})
    effect = game.apply({"type": "robin-draw", "card": "magpie"})
    assert [f["species"] for f in effect["robin_flocks"]] == ["flamingo", "owl", "toucan"]
    assert effect["round_over"]["emptied_by"] == 1 and game.awaiting == Awaiting("deal", 1)
    refused(game, {"type": "deal"}, "missing-field")
    refused(game, {"type": "deal", "robin_hand": ["flamingo"] * 8}, "card-exhausted")
    game.apply({"type": "deal", "robin_hand": ["duck"] * 8})
    assert game.awaiting.kind == "robin-draw" and game.state()["round"] == 2


def test_robinbird_win_comes_before_the_round_end():
    bonus = ["owl", "toucan", "duck", "parrot", "magpie"]
    game = solo(["flamingo", "flamingo", "owl", "owl", "owl", "toucan", "toucan", "toucan"], bonus)
    assert game.state()["collections"][1] == ["robin"] + bonus
    for card in ("magpie", "duck", "robin", "magpie"):
        effect = game.apply({"type": "robin-draw", "card": card})
    assert effect["game_over"] == {"reason": "distinct-species", "winners": [1]}
    assert "round_over" not in effect and game.state()["status"] == "over"


def test_robinbird_in_gleich_und_gleich_keeps_the_lowest_ranks():
    game = new_game("gleich-und-gleich", {"solo": True}, ["Mensch", "RobinBird"])
    game.apply({"type": "setup", "dealer": 0, "rows": GUG_ROWS, "setup_discards": [],
                "collections": ["Q", "J"], "robin_hand": ["10", "9", "10", "9", "9", "9", "10", "K"]})
    quiet_turn(game, ["K"], 3)
    for card in ("3", "3", "3", "3"):
        effect = game.apply({"type": "robin-draw", "card": card})
        if game.awaiting.kind == "refill":
            effect = game.apply({"type": "refill", "card": "J", "side": "right"})
    flock = effect["robin_flocks"][0]
    assert (flock["species"], flock["size"], flock["kept"]) == ("9-10", "big", ["9", "9"])


# --- knowledge: what the table has seen ---------------------------------------------

def test_captured_card_must_be_played_with_its_species():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"], dealer=1)
    quiet_turn(game, ["7"], 0)
    game.apply({"type": "play", "cards": ["3", "4"], "row": 0, "side": "right"})   # captures K 9 7
    game.apply({"type": "refill", "card": "3"})
    game.apply({"type": "refill", "card": "Q"})
    err = refused(game, {"type": "flock", "cards": ["10"] * 5}, "must-include-known")
    assert err.message == "Du musst alle Karten der Art 9–10 vorzeigen: du hast eine 9 geschnappt"
    game.apply({"type": "no-flock"})
    quiet_turn(game, ["2"], 2)                                              # Ben
    err = refused(game, {"type": "play", "cards": ["10"], "row": 1, "side": "right"}, "must-include-known")
    assert err.message == "Du musst alle Karten der Art 9–10 ausspielen: du hast eine 9 geschnappt"
    game.apply({"type": "play", "cards": ["10", "9"], "row": 1, "side": "right"})
    assert game.state()["known_hands"][0] == ["7", "K"]          # playing a species empties its known cards


def test_no_ninth_queen_and_no_more_cards_than_the_hand_holds():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "Q"])
    refused(game, {"type": "play", "cards": ["Q"] * 6, "row": 0, "side": "left"}, "card-exhausted")
    err = refused(game, {"type": "play", "cards": ["5"] * 9, "row": 0, "side": "left"}, "not-in-hand")
    assert "8 unbekannte Handkarten" in err.message
    game.apply({"type": "play", "cards": ["Q"] * 5, "row": 3, "side": "right"})
    game.apply({"type": "pass"})
    game.apply({"type": "no-flock"})
    refused(game, {"type": "play", "cards": ["Q"], "row": 3, "side": "right"}, "card-exhausted")


def test_a_species_played_cannot_come_back_without_a_draw():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"])
    quiet_turn(game, ["K"], 3)
    quiet_turn(game, ["4"], 3)
    refused(game, {"type": "play", "cards": ["K"], "row": 3, "side": "right"}, "species-gone")
    quiet_turn(game, ["5"], 2, draw=True)
    assert game.turn == 1
    quiet_turn(game, ["A"], 0)
    game.apply({"type": "play", "cards": ["K"], "row": 3, "side": "right"})   # after the draw it can be


def test_legal_play_choices_start_from_the_known_cards():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"], dealer=1)
    quiet_turn(game, ["7"], 0)
    game.apply({"type": "play", "cards": ["3", "4"], "row": 0, "side": "right"})
    game.apply({"type": "refill", "card": "3"})
    game.apply({"type": "refill", "card": "Q"})
    game.apply({"type": "no-flock"})
    quiet_turn(game, ["2"], 2)
    species = {c["species"]: c for c in game.legal_choices()["species"]}
    assert species["9-10"]["min"] == 1 and species["9-10"]["known"] == ["9"]
    assert species["9-10"]["max"] == 1 + 6                     # known + the unknown part of the hand
    assert "3-4" not in species                                 # just played, nothing drawn since


def test_bad_input_names_what_was_wrong():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"])
    assert refused(game, {"type": "play", "cards": ["5"], "row": 5, "side": "left"},
                   "no-such-row").message.startswith("Reihe 5 gibt es nicht")
    refused(game, {"type": "play", "cards": ["5"], "row": 0, "side": "up"}, "no-such-side")
    refused(game, {"type": "play", "cards": ["5", "7"], "row": 0, "side": "left"}, "mixed-species")
    refused(game, {"type": "play", "cards": ["11"], "row": 0, "side": "left"}, "no-such-card")
    refused(game, {"type": "play", "cards": [], "row": 0, "side": "left"}, "no-cards")
    refused(game, {"type": "play", "cards": ["5"], "row": 0}, "missing-field")
    refused(game, {"type": "draw"}, "not-now")
    refused(game, {"type": "flock", "cards": ["Q"]}, "not-now")
    game.apply({"type": "play", "cards": ["K"], "row": 3, "side": "right"})
    game.apply({"type": "pass"})
    refused(game, {"type": "flock", "cards": ["5"] * 4}, "flock-too-small")


def test_setup_is_checked():
    game = new_game("gleich-und-gleich", {}, ["A", "B"])
    base = {"type": "setup", "dealer": 0, "rows": GUG_ROWS, "setup_discards": [], "collections": ["Q", "J"]}
    refused(game, {**base, "rows": [["4", "3", "9"]] + GUG_ROWS[1:]}, "row-species")
    refused(game, {**base, "dealer": 2}, "bad-dealer")
    refused(game, {**base, "collections": ["Q"]}, "bad-count")
    refused(game, {**base, "setup_discards": ["Q"] * 7}, "card-exhausted")
    refused(game, {**base, "robin_hand": ["Q"] * 8}, "not-solo")


@pytest.mark.parametrize("name,options", [
    ("cubirds", {"fast": True}), ("gleich-und-gleich", {"robin_bonus": ["Q"]}),
    ("gleich-und-gleich", {"colour": True}), ("cubirds", {"solo": "yes"}),
    ("cubirds", {"solo": True, "robin_bonus": ["flamingo"] * 8}),
])
def test_unfitting_options_make_the_record_invalid(name, options):
    with pytest.raises(InvalidRecord):
        new_game(name, options, ["A", "B"])


def test_solo_needs_exactly_two_seats():
    with pytest.raises(InvalidRecord):
        new_game("cubirds", {"solo": True}, ["A", "B", "C"])


def test_undo_equals_replay_of_the_shorter_record():
    game = started("gleich-und-gleich", ["Anna", "Ben"], GUG_ROWS, ["Q", "J"], dealer=1)
    quiet_turn(game, ["7"], 0)
    states = [game.state()]
    for event in ({"type": "play", "cards": ["3", "4"], "row": 0, "side": "right"},
                  {"type": "refill", "card": "3"}, {"type": "refill", "card": "Q", "side": "left"}):
        game.apply(event)
        states.append(game.state())
    record = game.record()
    for n in range(len(record["events"]), 0, -1):
        assert replay({**record, "events": record["events"][:n]}).state() == game.state()
        game.undo()
    assert game.state() == new_game("gleich-und-gleich", {}, ["Anna", "Ben"]).state()
