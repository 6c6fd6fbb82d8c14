"""Gemeinsame Sache: turns, the one-deck bookkeeping, the clock, win and loss.

The engine knows only public facts: hand counts, the table, the discard pile and
the cards known to be in a hand (taken from the discard pile, or a joker swapped
out of a figure). Everything else a player enters is checked against those.

Effects (``apply`` returns one; every effect has ``type`` and ``player``):

- ``setup``: ``first_player``, ``first_discard``, ``draw_pile``, ``set_aside``
- ``draw``: ``from`` ("pile"/"discard"), ``card`` (discard only), ``draw_pile`` left
- ``start``: ``start`` (id), ``cards``
- ``complete``: ``start`` (id, now the figure's id), ``card``, ``as``, ``figure`` (state form)
- ``lay-off``: ``figure`` (id), ``card``, ``as``, ``end`` ("low"/"high"; null for a set), ``cards`` (the figure now)
- ``swap``: ``figure`` (id), ``card`` (put in), ``joker`` (the token taken out), ``cards``
- ``discard``: ``card``
- ``end-turn``: —
- ``give-up``: ``reason`` ("clock" or "gave-up")

An effect that ends the game also has ``status`` ("won"/"lost") and ``reason``.
"""
from __future__ import annotations

from .. import register
from ..errors import IllegalEvent, Word
from ..game import Awaiting, Game, Outcome
from . import analysis, events, rules
from .melds import (DECK, JOKER, REAL_CARDS, Figure, Start, check_card, complete_start, label, labels,
                    lay_off, make_start, swap_index, swap_joker)
from .reach import layable_this_turn

SETUP, DRAW, ACT, OVER = "setup", "draw", "act", "over"


@register
class GemeinsameSache(Game):
    """Cooperative rummy for two against the draw-pile clock."""

    name = "gemeinsame-sache"
    min_players = 2
    max_players = 2
    cooperative = True
    outcome_reasons = ("all-laid", "clock", "gave-up")
    levels = rules.LEVELS

    def __init__(self, options: dict | None = None, players: list[str] | None = None):
        super().__init__(options, players)
        self.ace_low_only = self.options["ace_low_only"]
        self.max_starts = self.options["max_starts"]
        self._phase = SETUP
        self._turn: int | None = None
        self._turns = 0
        self._draw_pile = self.options["draw_pile"]
        self._hands = [0, 0]
        self._known: tuple[list[str], list[str]] = ([], [])
        self._pickup: str | None = None
        self._discard: list[str] = []
        self._starts: dict[int, Start] = {}
        self._figures: dict[int, Figure] = {}
        self._next_id = 1
        self._pickups = 0
        self._status = "playing"
        self._reason: str | None = None
        self._seen: set[str] = set()
        self._jokers = 0

    @classmethod
    def validate_options(cls, options: dict) -> dict:
        return rules.validate_options(options)

    @classmethod
    def random_record(cls, options: dict, players: int | None, seed: int) -> dict:
        from .simulate import random_record

        return random_record(options, seed, players)

    # --- snapshots ------------------------------------------------------------------
    def _snapshot(self):
        return (self._phase, self._turn, self._turns, self._draw_pile, self._hands[:], self._known[0][:],
                self._known[1][:], self._pickup, self._discard[:], dict(self._starts), dict(self._figures),
                self._next_id, self._pickups, self._status, self._reason, set(self._seen), self._jokers)

    def _restore(self, snapshot) -> None:
        (self._phase, self._turn, self._turns, self._draw_pile, self._hands, known0, known1, self._pickup,
         self._discard, self._starts, self._figures, self._next_id, self._pickups, self._status, self._reason,
         self._seen, self._jokers) = snapshot
        self._known = (known0, known1)

    # --- reading --------------------------------------------------------------------
    @property
    def awaiting(self) -> Awaiting | None:
        if self._phase == OVER:
            return None
        return Awaiting(self._phase, self._turn)

    @property
    def turn(self) -> int | None:
        return self._turn

    @property
    def draw_pile(self) -> int:
        return self._draw_pile

    @property
    def hands(self) -> tuple[int, int]:
        return tuple(self._hands)

    @property
    def discard_pile(self) -> tuple[str, ...]:
        return tuple(self._discard)

    @property
    def open_starts(self) -> tuple[Start, ...]:
        return tuple(self._starts.values())

    @property
    def figures(self) -> tuple[Figure, ...]:
        return tuple(self._figures.values())

    @property
    def pickup(self) -> str | None:
        """The card taken from the discard pile this turn, while still in the hand."""
        return self._pickup

    def known_hand(self, player: int) -> tuple[str, ...]:
        """Cards known to be in a player's hand (a taken discard, a swapped joker)."""
        return tuple(self._known[player])

    def state(self) -> dict:
        awaiting = self.awaiting
        return {
            "game": self.name, "status": self._status, "reason": self._reason,
            "awaiting": awaiting.kind if awaiting else None, "turn": self._turn, "turns": self._turns,
            "draw_pile": self._draw_pile, "set_aside": rules.FULL_DRAW_PILE - self.options["draw_pile"],
            "discard": list(self._discard), "hands": list(self._hands),
            "starts": [s.public() for s in self._starts.values()],
            "figures": [f.public() for f in self.figures],
            "discard_pickups": self._pickups,
        }

    def outcome(self) -> Outcome | None:
        if self._status == "playing":
            return None
        won = self._status == "won"
        return Outcome(self._reason, (0, 1) if won else (), won)

    def public_cards(self) -> dict:
        """Cards whose place is known (table, discard pile, known hand cards), so
        a card picker can grey them out: ``{"cards": [...], "jokers": n}``."""
        return {"cards": [c for c in REAL_CARDS if c in self._seen], "jokers": self._jokers}

    def is_seen(self, card: str) -> bool:
        """Whether a real card's place is known (table, discard pile, a known hand card)."""
        return card in self._seen

    def where_is(self, card: str) -> dict | None:
        """Where a real card is known to be, or None if unseen: ``{"place":
        "discard"}``, ``{"place": "hand", "player"}``, ``{"place": "start", "id"}``
        or ``{"place": "figure", "id"}``."""
        if card not in self._seen:
            return None
        if card in self._discard:
            return {"place": "discard"}
        for player, known in enumerate(self._known):
            if card in known:
                return {"place": "hand", "player": player}
        for start in self._starts.values():
            if card in start.cards:
                return {"place": "start", "id": start.id}
        return next({"place": "figure", "id": f.id} for f in self._figures.values() if card in f.cards)

    def free_jokers(self) -> int:
        """Jokers not seen yet (in the draw pile, set aside or in an unknown part of a hand)."""
        return rules.JOKERS - self._jokers

    def hand_candidates(self, player: int) -> dict:
        """What ``player``'s hand may hold: ``cards`` (real cards, unseen or known in
        this hand) and ``jokers`` (unseen ones plus those known in this hand), so a
        card picker can grey out the rest."""
        known = self._known[player]
        return {"cards": [c for c in REAL_CARDS if c not in self._seen or c in known],
                "jokers": self.free_jokers() + known.count(JOKER)}

    def turns_played(self) -> int:
        """Turns played: the finished ones (ended by a discard or with an empty hand),
        and the turn in which a lay won the game before any discard."""
        won_by_lay = self._status == "won" and self.events[-1]["type"] in ("complete", "lay-off")
        return self._turns + won_by_lay

    def current_turn(self) -> int:
        """The turn a table shows ("Zug n"): the one being played, counted from 1;
        once the game is over, the turns played."""
        return self._turns + 1 if self._status == "playing" else self.turns_played()

    def ends_turn(self, effect: dict) -> bool:
        """A discard or an end-turn ends a turn, and so does a lay that wins the game."""
        return effect.get("type") in ("discard", "end-turn") or effect.get("status") == "won"

    def _first_turn(self) -> int:
        return self.events[0]["first_player"]

    def cards_left(self) -> int:
        """Cards not yet in a finished figure: both hands and the open starts."""
        return sum(self._hands) + sum(len(s.cards) for s in self._starts.values())

    def _legal_events(self, rng):
        return events.legal_events(self)

    def _event_key(self, event) -> str:
        return events.event_key(event)

    def numbers(self) -> dict:
        """The numbers of the rules with these options."""
        size = self.options["draw_pile"]
        return {"hand_size": rules.HAND_SIZE, "full_draw_pile": rules.FULL_DRAW_PILE, "draw_pile": size,
                "set_aside": rules.FULL_DRAW_PILE - size, "max_starts": self.max_starts,
                "start_size": rules.START_SIZE, "min_figure": rules.MIN_FIGURE, "max_set": rules.MAX_SET,
                "jokers": rules.JOKERS, "cards": len(DECK), "levels": dict(rules.LEVELS)}

    def pace(self) -> dict:
        """The team's pace against the clock (analysis.pace)."""
        return analysis.pace(self)

    def start_outlooks(self) -> list[dict]:
        """Per open start: can it still be completed, and why (analysis.start_outlooks)."""
        return analysis.start_outlooks(self)

    # --- what fits ----------------------------------------------------------------------
    def fits(self, card: str, player: int | None = None) -> list[dict]:
        """Where ``card`` could go for ``player`` (default: whose turn it is):
        ``{"action": "complete", "start", "as"}``, ``{"action": "lay-off", "figure",
        "end", "as"}``, ``{"action": "swap", "figure"}``, ``{"action": "start",
        "with": [cards unseen or known in the hand]}``. For a joker, ``as`` lists what it
        may stand for and ``binds`` whether that is part of the entry: in a run the joker
        is that card; in a set it stands for any missing suit (rules README 5), so the
        entry need not say one. For a real card ``as`` is None."""
        card = check_card(card)
        player = self._turn if player is None else player
        found = []
        for start in self._starts.values():
            if start.owner == player:
                continue
            options = start.completions
            if card == JOKER:
                found.append({"action": "complete", "start": start.id, "as": list(options),
                              "binds": start.kind == "run"})
            elif card in options:
                found.append({"action": "complete", "start": start.id, "as": None})
        for figure in self.figures:
            found.extend(self._lay_off_fits(figure, card))
            if card != JOKER and swap_index(figure, card) is not None:
                found.append({"action": "swap", "figure": figure.id})
        if card != JOKER and self._open_starts_of(player) < self.max_starts:
            known = self._known[player]
            partners = [other for other in REAL_CARDS if other != card and (other not in self._seen or other in known)
                        and make_start(0, player, (card, other), self.ace_low_only)]
            if partners:
                found.append({"action": "start", "with": partners})
        return found

    def _lay_off_fits(self, figure: Figure, card: str) -> list[dict]:
        if figure.kind == "set":
            if len(figure.cards) >= 4:
                return []
            missing = figure.missing()
            if card == JOKER:
                return [{"action": "lay-off", "figure": figure.id, "end": None, "as": missing, "binds": False}]
            return [{"action": "lay-off", "figure": figure.id, "end": None, "as": None}] if card in missing else []
        ends = figure.run_ends(self.ace_low_only)
        if card == JOKER:
            return [{"action": "lay-off", "figure": figure.id, "end": end, "as": [c], "binds": True}
                    for end, c in ends.items()]
        return [{"action": "lay-off", "figure": figure.id, "end": end, "as": None}
                for end, c in ends.items() if c == card][:1]

    def _open_starts_of(self, player: int) -> int:
        return sum(1 for s in self._starts.values() if s.owner == player)

    def _choices(self, kind: str) -> dict:
        """What may be entered now (see docs/rules-gemeinsame-sache.md); reasons are
        refusals as data (``EngineError.reason()``)."""
        if kind == SETUP:
            return {"first_player": [0, 1], "first_discard": sorted(set(DECK))}
        player = self._turn
        if kind == DRAW:
            why_not = self._discard_draw_refusal(player)
            return {"pile": self._draw_pile > 0, "discard": why_not is None,
                    "discard_top": self._discard[-1] if self._discard else None,
                    "discard_reason": why_not.reason() if why_not else None,
                    "loss_due": self._draw_pile == 0 and why_not is not None, "give_up": True}
        discard_refusal = self._discard_refusal(player)
        end_refusal = self._end_turn_refusal(player)
        return {
            "hand": self._hands[player],
            "can_start": self._open_starts_of(player) < self.max_starts and self._hands[player] >= 2,
            "complete": [s.id for s in self._starts.values() if s.owner != player],
            "figures": sorted(self._figures), "pickup": self._pickup,
            "discard": discard_refusal is None, "discard_reason": discard_refusal.reason() if discard_refusal else None,
            "end_turn": end_refusal is None, "end_turn_reason": end_refusal.reason() if end_refusal else None,
            "starts": self.start_outlooks(), "give_up": True,
        }

    # --- applying ---------------------------------------------------------------------------
    def _apply(self, event: dict) -> dict:
        kind = event["type"]
        handler = self._HANDLERS.get(kind)
        if handler is None:
            raise IllegalEvent("unknown-event", "Unbekanntes Ereignis {type!r}; möglich: {known}",
                               {"type": kind, "known": ", ".join(self._HANDLERS)})
        if self._phase == OVER:
            raise IllegalEvent("game-over", "Das Spiel ist schon vorbei")
        if kind != "give-up":
            expected = self._PHASE_OF[kind]
            if self._phase != expected:
                raise IllegalEvent("wrong-step", "Jetzt ist {step} dran, nicht {type!r}",
                                   {"step": self._STEP_NAMES[self._phase], "type": kind})
        return handler(self, event)

    def _id_field(self, event: dict, name: str) -> int:
        value = self._field(event, name)
        if type(value) is not int:
            raise IllegalEvent("bad-id", "{field!r} muss die Nummer eines Ansatzes oder einer Figur sein, nicht {value!r}",
                               {"field": name, "value": value})
        return value

    def _player_name(self, player: int) -> str:
        return self.players[player]

    def _setup(self, event: dict) -> dict:
        first = self._field(event, "first_player")
        if type(first) is not int or first not in (0, 1):
            raise IllegalEvent("bad-player", "\"first_player\" muss 0 oder 1 sein, nicht {value!r}", {"value": first})
        card = check_card(self._field(event, "first_discard"), "first_discard")
        self._hands = [rules.HAND_SIZE, rules.HAND_SIZE]
        self._discard = [card]
        self._account(card)
        self._turn = first
        self._phase = DRAW
        return {"type": "setup", "player": first, "first_player": first, "first_discard": card,
                "draw_pile": self._draw_pile, "set_aside": rules.FULL_DRAW_PILE - self._draw_pile}

    def _draw(self, event: dict) -> dict:
        player = self._turn
        source = self._field(event, "from")
        effect = {"type": "draw", "player": player, "from": source}
        if source == "pile":
            if self._draw_pile == 0:
                raise IllegalEvent("pile-empty", "Der Ziehstapel ist leer: Zieh die oberste Karte vom Ablagestapel, "
                                   "wenn du sie auslegen kannst, sonst ist das Spiel verloren (give-up)")
            self._draw_pile -= 1
        elif source == "discard":
            refusal = self._discard_draw_refusal(player)
            if refusal:
                raise refusal
            card = self._discard.pop()
            self._known[player].append(card)
            self._pickup = card
            self._pickups += 1
            effect["card"] = card
        else:
            raise IllegalEvent("bad-source", "\"from\" muss \"pile\" oder \"discard\" sein, nicht {value!r}",
                               {"value": source})
        self._hands[player] += 1
        self._phase = ACT
        effect["draw_pile"] = self._draw_pile
        return effect

    def _discard_draw_refusal(self, player: int) -> IllegalEvent | None:
        """Why the discard top may not be taken now (None: it may)."""
        if not self._discard:
            return IllegalEvent("discard-empty", "Der Ablagestapel ist leer")
        top = self._discard[-1]
        if layable_this_turn(self, player, top):
            return None
        return IllegalEvent("discard-not-layable", "{card} vom Ablagestapel darf nur nehmen, wer sie im selben Zug "
                            "auslegt – sie passt an keinen Ansatz des Partners, an keine Figur und in keinen neuen "
                            "Ansatz, auch nicht nach anderen Karten dieses Zugs", {"card": label(top)})

    def _start(self, event: dict) -> dict:
        player = self._turn
        cards = self._field(event, "cards")
        if not isinstance(cards, list) or len(cards) != 2:
            raise IllegalEvent("start-needs-two", "Ein Ansatz sind genau zwei Karten, nicht {cards!r}", {"cards": cards})
        cards = tuple(check_card(c, "cards") for c in cards)
        if JOKER in cards:
            raise IllegalEvent("joker-in-start", "Ein Ansatz darf keinen Joker enthalten")
        start = make_start(self._next_id, player, cards, self.ace_low_only)
        if start is None:
            raise IllegalEvent("not-a-start", "{cards} ist kein Ansatz: nötig sind ein Paar oder zwei Karten einer "
                               "Farbe direkt nebeneinander oder mit einer Lücke", {"cards": labels(cards)})
        if self._open_starts_of(player) >= self.max_starts:
            raise IllegalEvent("too-many-starts", "{player} hat schon {n} offene Ansätze (höchstens {n})",
                               {"player": self._player_name(player), "n": self.max_starts})
        for card in cards:
            self._take_from_hand(player, card)
        self._starts[start.id] = start
        self._next_id += 1
        return {"type": "start", "player": player, "start": start.id, "cards": list(cards)}

    def _complete(self, event: dict) -> dict:
        player = self._turn
        start = self._starts.get(self._id_field(event, "start"))
        if start is None:
            raise IllegalEvent("no-such-start", "Einen offenen Ansatz {start} gibt es nicht",
                               {"start": event["start"]})
        if start.owner == player:
            raise IllegalEvent("own-start", "Den eigenen Ansatz darf nur der Partner ergänzen ({player} ist nicht dran)",
                               {"player": self._player_name(1 - player)})
        card = check_card(self._field(event, "card"))
        as_card = self._as_card(event, card)
        figure = complete_start(start, card, as_card, self.ace_low_only)
        self._take_from_hand(player, card)
        del self._starts[start.id]
        self._figures = dict(sorted({**self._figures, figure.id: figure}.items()))   # kept in id order
        effect = {"type": "complete", "player": player, "start": start.id, "card": card, "as": as_card,
                  "figure": figure.public()}
        return self._check_win(effect)

    def _as_card(self, event: dict, card: str) -> str | None:
        as_card = event.get("as")
        if as_card is None:
            return None
        if card != JOKER:
            raise IllegalEvent("as-without-joker", "\"as\" gilt nur für einen Joker, nicht für {card}",
                               {"card": label(card)})
        as_card = check_card(as_card, "as")
        if as_card == JOKER:
            raise IllegalEvent("bad-as", "Ein Joker steht für eine echte Karte, nicht für einen Joker")
        return as_card

    def _figure(self, event: dict) -> Figure:
        figure_id = self._id_field(event, "figure")
        figure = self._figures.get(figure_id)
        if figure is None:
            if figure_id in self._starts:
                raise IllegalEvent("still-a-start", "{id} ist noch ein offener Ansatz: anlegen und tauschen geht nur an "
                                   "fertigen Figuren; ergänzen darf ihn nur der Partner", {"id": figure_id})
            raise IllegalEvent("no-such-figure", "Eine Figur {id} gibt es nicht", {"id": figure_id})
        return figure

    def _lay_off(self, event: dict) -> dict:
        player = self._turn
        figure = self._figure(event)
        card = check_card(self._field(event, "card"))
        as_card = self._as_card(event, card)
        new = lay_off(figure, card, as_card, self.ace_low_only)
        self._take_from_hand(player, card)
        self._figures[figure.id] = new
        end = None if new.kind == "set" else ("low" if new.low < figure.low else "high")
        effect = {"type": "lay-off", "player": player, "figure": figure.id, "card": card, "as": as_card,
                  "end": end, "cards": list(new.cards)}
        return self._check_win(effect)

    def _swap(self, event: dict) -> dict:
        player = self._turn
        figure = self._figure(event)
        card = check_card(self._field(event, "card"))
        if card == JOKER:
            raise IllegalEvent("swap-needs-real-card", "Tauschen geht nur mit der echten Karte, für die der Joker steht")
        new = swap_joker(figure, card)
        joker = figure.cards[swap_index(figure, card)]
        self._take_from_hand(player, card)
        self._figures[figure.id] = new
        self._known[player].append(JOKER)
        self._hands[player] += 1
        return {"type": "swap", "player": player, "figure": figure.id, "card": card, "joker": joker,
                "cards": list(new.cards)}

    def _discard_card(self, event: dict) -> dict:
        player = self._turn
        card = check_card(self._field(event, "card"))
        refusal = self._discard_refusal(player)
        if refusal:
            raise refusal
        self._take_from_hand(player, card)
        self._discard.append(card)
        effect = {"type": "discard", "player": player, "card": card}
        self._end_turn()
        return self._check_win(effect)

    def _discard_refusal(self, player: int) -> IllegalEvent | None:
        if self._hands[player] == 0:
            return IllegalEvent("hand-empty", "{player} hat keine Karte mehr zum Ablegen: mit leerer Hand endet der "
                                "Zug ohne Ablegen (end-turn)", {"player": self._player_name(player)})
        return self._pickup_refusal()

    def _pickup_refusal(self) -> IllegalEvent | None:
        if self._pickup is None:
            return None
        return IllegalEvent("pickup-not-laid", "{card} wurde vom Ablagestapel genommen und muss noch in diesem Zug "
                            "auf den Tisch", {"card": label(self._pickup)})

    def _end_turn_refusal(self, player: int) -> IllegalEvent | None:
        if self._hands[player] > 0:
            return IllegalEvent("discard-required", "{player} hat noch {n} Karte(n): der Zug endet mit dem Ablegen "
                                "einer Karte", {"player": self._player_name(player), "n": self._hands[player]})
        return self._pickup_refusal()

    def _end_turn_event(self, event: dict) -> dict:
        player = self._turn
        refusal = self._end_turn_refusal(player)
        if refusal:
            raise refusal
        self._end_turn()
        return {"type": "end-turn", "player": player}

    def _end_turn(self) -> None:
        self._turns += 1
        self._turn = 1 - self._turn
        self._phase = DRAW

    def _give_up(self, event: dict) -> dict:
        if self._phase == SETUP:
            raise IllegalEvent("not-started", "Aufgeben geht erst, wenn gegeben ist (setup)")
        reason = "clock" if self._phase == DRAW and self._draw_pile == 0 else "gave-up"
        self._finish("lost", reason)
        return {"type": "give-up", "player": self._turn, "status": "lost", "reason": reason}

    # --- bookkeeping -------------------------------------------------------------------------
    def _account(self, card: str) -> None:
        """Count a card as seen; refuse a second copy (one deck, two jokers)."""
        if card == JOKER:
            if self._jokers >= 2:
                raise IllegalEvent("third-joker", "Es gibt nur zwei Joker, und beide sind schon im Spiel")
            self._jokers += 1
        else:
            if card in self._seen:
                raise self._seen_refusal(card)
            self._seen.add(card)

    def _seen_refusal(self, card: str) -> IllegalEvent:
        """The refusal of a second copy of ``card``, saying where the first lies."""
        where, name = self.where_is(card), label(card)
        if where["place"] == "discard":
            return IllegalEvent("card-seen", "{card} ist schon im Spiel (im Ablagestapel); es gibt nur ein Blatt",
                                {"card": name})
        if where["place"] == "hand":
            return IllegalEvent("card-seen", "{card} ist schon im Spiel (auf der Hand von {player}); es gibt nur "
                                "ein Blatt", {"card": name, "player": self._player_name(where["player"])})
        if where["place"] == "start":
            return IllegalEvent("card-seen", "{card} ist schon im Spiel (im Ansatz {id}); es gibt nur ein Blatt",
                                {"card": name, "id": where["id"]})
        return IllegalEvent("card-seen", "{card} ist schon im Spiel (in der Figur {id}); es gibt nur ein Blatt",
                            {"card": name, "id": where["id"]})

    def _take_from_hand(self, player: int, card: str) -> None:
        """Remove a card from a hand: a known one, else an unknown one (checked)."""
        known = self._known[player]
        if card in known:
            known.remove(card)
            if card == self._pickup:
                self._pickup = None
        else:
            if self._hands[player] - len(known) < 1:
                params = {"player": self._player_name(player), "card": label(card), "n": self._hands[player]}
                if known:
                    raise IllegalEvent("not-in-hand", "{player} hat {card} nicht auf der Hand: {n} Karte(n), "
                                       "bekannt: {known}", {**params, "known": labels(known)})
                raise IllegalEvent("not-in-hand", "{player} hat {card} nicht auf der Hand: {n} Karte(n)", params)
            self._account(card)
        self._hands[player] -= 1

    def _check_win(self, effect: dict) -> dict:
        if self._hands[0] == 0 and self._hands[1] == 0 and not self._starts:
            self._finish("won", "all-laid")
            effect.update(status="won", reason="all-laid")
        return effect

    def _finish(self, status: str, reason: str) -> None:
        self._status, self._reason, self._phase = status, reason, OVER

    _HANDLERS = {"setup": _setup, "draw": _draw, "start": _start, "complete": _complete, "lay-off": _lay_off,
                 "swap": _swap, "discard": _discard_card, "end-turn": _end_turn_event, "give-up": _give_up}
    _PHASE_OF = {"setup": SETUP, "draw": DRAW, "start": ACT, "complete": ACT, "lay-off": ACT, "swap": ACT,
                 "discard": ACT, "end-turn": ACT}
    _STEP_NAMES = {SETUP: Word("das Geben (setup)"), DRAW: Word("das Ziehen (draw)"),
                   ACT: Word("Auslegen oder Ablegen (start, complete, lay-off, swap, discard, end-turn)")}


