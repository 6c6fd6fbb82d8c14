"""Gemeinsame Sache, the price of silence: three teams on the same runner
(engine/rummy/simulate.py: ``Table``, ``play_one``, ``run_games``).

- ``simple``: the rule text's simple strategy, unchanged (``Table``).
- ``smart``: a careful silent team that follows the text's tips: it reads the
  partner's play as signals ("Lies den Ablagestapel": a start of mine the partner
  left open, or a discard of mine he left lying, says which cards he lacks),
  opens the starts the partner most likely can complete, offers him discards
  he can use, keeps a joker for the end ("Heb dir einen Joker für den Schluss
  auf") and, late in the game, opens no start nobody can still complete
  ("Blockier dich nicht selbst").
- ``open``: the same team with both hands known (the *Offene Hände* variant):
  what the smart team guesses, it knows. Its win rate bounds what reading
  signals can bring this way of playing.
"""
from __future__ import annotations

from ..rummy.melds import JOKER, REAL_CARDS, make_start
from ..rummy.simulate import Table, run_games

LATE = 6            # draw-pile cards left from which the game counts as ending


class SmartTable(Table):
    """The careful silent team. What each player believes about the other's
    hand comes only from public events (``lacks``); ``partner_holds`` turns that
    into a chance per card."""

    def __init__(self, options: dict, seed: int):
        self.lacks: list[dict[str, int]] = [{}, {}]    # card -> partner's pile draws when it was ruled out
        self.pile_draws = [0, 0]
        self._open_at_start: list = []
        super().__init__(options, seed)

    # --- what the table tells about a hand ---------------------------------------------------
    def apply(self, event: dict) -> dict:
        game = self.game
        player = game.turn
        if event["type"] == "draw":
            top = game.discard_pile[-1] if game.discard_pile else None
            if event["from"] == "pile":
                self.pile_draws[player] += 1
                if top is not None and game.events and game.events[-1]["type"] == "discard":
                    self._rule_out(player, self._start_mates(player, top))   # left my discard lying
            self._open_at_start = [s for s in game.open_starts if s.owner != player]
        effect = super().apply(event)
        if event["type"] in ("discard", "end-turn"):
            still_open = {s.id for s in game.open_starts}
            for start in self._open_at_start:
                if start.id in still_open:
                    self._rule_out(player, start.completions)    # he lays every real card that fits
        return effect

    def _rule_out(self, player: int, cards) -> None:
        for card in cards:
            self.lacks[player][card] = self.pile_draws[player]

    def _start_mates(self, player: int, card: str) -> list[str]:
        """Cards with which ``player`` would have opened a start on ``card``."""
        game = self.game
        if card == JOKER or sum(1 for s in game.open_starts if s.owner == player) >= game.max_starts:
            return []
        return [other for other in REAL_CARDS if not game.is_seen(other)
                and (start := make_start(0, player, (card, other), game.ace_low_only)) is not None
                and any(not game.is_seen(c) for c in start.completions)]

    def unseen_by(self, player: int) -> list[str]:
        hand = set(self.hands[player])
        return [c for c in REAL_CARDS if not self.game.is_seen(c) and c not in hand]

    def partner_holds(self, player: int, card: str, unseen: int) -> float:
        """The chance, as ``player`` sees it, that the partner holds ``card``."""
        partner = 1 - player
        game = self.game
        if card in game.known_hand(partner):
            return 1.0
        if game.is_seen(card) or card in self.hands[player] or not unseen:
            return 0.0
        unknown = game.hands[partner] - len(game.known_hand(partner))
        share = unknown / unseen
        ruled_out = self.lacks[partner].get(card)
        if ruled_out is None:
            return share
        return min(share, (self.pile_draws[partner] - ruled_out) / unseen)

    def completion_chance(self, player: int, completions, unseen: int) -> float:
        """How likely a start of ``player`` with these completions gets completed:
        the partner holds one, or one is still to come from the pile."""
        miss = 1.0
        pile_share = self.game.draw_pile / unseen if unseen else 0.0
        for card in completions:
            if self.game.is_seen(card) or card in self.hands[player]:
                continue
            held = self.partner_holds(player, card, unseen)
            miss *= 1 - min(1.0, held + 0.5 * pile_share)
        return 1 - miss

    # --- the choices that differ from the simple strategy ---------------------------------------
    def placement(self, card: str, player: int, hand: list[str]) -> dict | None:
        if card == JOKER and not self._joker_now(player):
            return None
        return super().placement(card, player, hand)

    def _joker_now(self, player: int) -> bool:
        """Use a joker on a partner start only late, or for a start no real card
        can complete any more, or when the hand holds nothing else."""
        game, hand = self.game, self.hands[player]
        if game.draw_pile <= LATE or all(c == JOKER for c in hand) or hand.count(JOKER) > 1:
            return True
        return any(all(game.is_seen(c) or c in hand for c in s.completions)
                   for s in game.open_starts if s.owner != player)

    def best_start(self, player: int, candidates: list[tuple[str, str]], hand_size: int) -> tuple[str, str] | None:
        """The start the partner can most likely complete (pairs first among
        equals); late in the game none that is unlikely to be completed."""
        game = self.game
        if sum(1 for s in game.open_starts if s.owner == player) >= game.max_starts:
            return None
        unseen = len(self.unseen_by(player))
        best, best_key = None, None
        for cards in candidates:
            start = make_start(0, player, cards, game.ace_low_only)
            if start is None:
                continue
            chance = self.completion_chance(player, start.completions, unseen)
            if chance == 0 and hand_size > 2:
                continue
            if game.draw_pile <= LATE and chance < 0.3 and hand_size > 2:
                continue
            key = (start.kind == "run", start.high - start.low, -chance)
            if best_key is None or key < best_key:
                best, best_key = cards, key
        return best

    def choose_discard(self, player: int) -> str:
        """The simple strategy's offer (a card for an own start) or last joker;
        else, among the cards with the fewest start partners in the hand, the one
        the partner can most likely use."""
        game = self.game
        simple = super().choose_discard(player)
        if simple == JOKER or any(simple in s.completions for s in game.open_starts if s.owner == player):
            return simple
        real = [c for c in self.hands[player] if c != JOKER]
        unseen = len(self.unseen_by(player))

        def partners(card: str) -> int:
            return sum(1 for o in real if o != card and make_start(0, player, (card, o), game.ace_low_only))

        def use(card: str) -> float:
            return sum(self.partner_holds(player, mate, unseen) for mate in self._start_mates(1 - player, card))

        fewest = min(partners(c) for c in real)
        return max((c for c in real if partners(c) == fewest), key=use)


class OpenTable(SmartTable):
    """The smart team with both hands open: it knows what the other holds."""

    def partner_holds(self, player: int, card: str, unseen: int) -> float:
        return 1.0 if card in self.hands[1 - player] else 0.0

    def _rule_out(self, player: int, cards) -> None:
        """Nothing to infer: the hands are open."""


TEAMS: dict[str, type[Table]] = {"simple": Table, "smart": SmartTable, "open": OpenTable}


def sweep_team(team: str, sizes, games: int, seed: int, processes: int | None = None,
               options: dict | None = None) -> list[dict]:
    """``run_games`` for every draw-pile size, as C5 "gemeinsame_sache" entries."""
    table = TEAMS[team]
    options = dict(options or {})
    if team == "open":
        options["open_hands"] = True
    entries = []
    for size in sizes:
        r = run_games(size, games, seed, options, processes, table)
        extra = {k: v for k, v in options.items() if v}
        entries.append({"team": team, "options": extra, "draw_pile": size, "games": r["games"], "seed": seed,
                        "win_rate": round(r["win_rate"], 4), "ci95": [round(x, 4) for x in r["ci95"]],
                        "mean_turns": round(r["mean_turns"], 2),
                        "mean_discard_pickups": round(r["mean_discard_pickups"], 2),
                        "seconds": r["seconds"],
                        "command": f"python -m engine sweep --only rummy --rummy-games {games} --seed {seed}"})
    return entries
