"""The Gemeinsame Sache phone screen: setup options, the draw-pile clock, the
table, and a turn in few taps (card picker → the places the engine says fit).

Every "may I?" is answered by the engine (``legal_choices()``, ``fits()``,
``public_cards()``, ``pace()``, ``start_outlooks()``); this module only turns
its answers into labelled buttons that carry complete events.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass


from engine import IllegalEvent
from engine.rummy import suggest_level as engine_suggest_level
from engine.rummy.game import GemeinsameSache
from engine.rummy.melds import JOKER, RANKS, SUIT_SYMBOL, SUITS, check_card, declared, label_parts
from engine.rummy.rules import FULL_DRAW_PILE, LEVELS, RECENT_GAMES, THREE_STARTS

from ..errors import Refusal, translated
from ..i18n import current_language, gettext as _, lazy_gettext as _l
from .generic import Around, Choice, OptionField, Screen

SUIT_NAMES = {"H": _l("Herz"), "D": _l("Karo"), "S": _l("Pik"), "C": _l("Kreuz")}
LEVEL_LABELS = {"leicht": _l("Leicht"), "normal": _l("Normal"), "schwer": _l("Schwer"), "custom": _l("Eigene Größe")}
OUTCOME_LABELS = {"all-laid": _l("alles ausgelegt"), "clock": _l("die Uhr ist abgelaufen"),
                  "gave-up": _l("aufgegeben")}
STEP_LABELS = {"setup": _l("Geben"), "draw": _l("Ziehen"), "act": _l("Auslegen, dann abwerfen")}


@dataclass(frozen=True)
class Card:
    """A card as the screen draws it; ``stands_for`` is set for a joker in a figure."""

    code: str
    rank: str
    suit: str
    symbol: str
    name: str
    stands_for: "Card | None" = None

    @property
    def short(self) -> str:
        return self.rank + self.symbol


def card(code: str) -> Card:
    """A card code (``"7H"``, ``"JK"``, a figure token ``"JK:6C"``) made drawable."""
    return _card(code, current_language())


@functools.lru_cache(maxsize=1024)  # a screen draws up to 54 cards, the same on every phone
def _card(code: str, language: str) -> Card:
    if code.startswith(JOKER):
        stands = declared(code)
        return Card(code, _("Joker"), "", "", _("Joker"), card(stands) if stands else None)
    shown, symbol = map(translated, label_parts(code))   # the engine's label, its letters translated
    return Card(code, shown, code[-1], symbol, f"{SUIT_NAMES[code[-1]]} {shown}")


def level_text(options: dict) -> str:
    """"Schwer (17)", "Eigene Größe (12)"."""
    return f"{LEVEL_LABELS[options['level']]} ({options['draw_pile']})"


def suggest_level(results: list[bool], options: dict) -> tuple[str, dict]:
    """The engine's suggestion for the next game (``engine.rummy.suggest_level``) in words,
    and the options of that game."""
    suggestion = engine_suggest_level(results, options)
    suggested = suggestion["options"]
    if suggestion["change"] == "same":
        return _("%(wins)s von %(games)s gewonnen – bleibt bei %(level)s", wins=suggestion["wins"],
                 games=suggestion["games"], level=level_text(options)), suggested
    return _("%(wins)s von %(games)s gewonnen – versucht %(level)s", wins=suggestion["wins"],
             games=suggestion["games"], level=level_text(suggested)), suggested


def reason_text(reason: dict | None) -> str | None:
    """A reason of ``legal_choices()`` (a refusal as data) in words."""
    return Refusal.from_reason(reason).message if reason else None


def place_text(where: dict, players: list[str]) -> str:
    """Where the engine says a card lies (``where_is``) in words."""
    if where["place"] == "hand":
        return _("auf der Hand von %(name)s", name=players[where["player"]])
    if where["place"] == "discard":
        return _("im Ablagestapel")
    if where["place"] == "start":
        return _("im Ansatz %(id)s", id=where["id"])
    return _("in der Figur %(id)s", id=where["id"])


def dead_start_text(outlook: dict, start_cards, players: list[str]) -> str:
    """Why a start can no longer be completed (an outlook with ``completable`` false)."""
    places = "; ".join(f"{cards_text([w['card']])} {place_text(w, players)}" for w in outlook["where"])
    return _("Ansatz %(id)s (%(cards)s) lässt sich nicht mehr ergänzen: %(places)s, und kein Joker ist mehr "
             "zu bekommen", id=outlook["id"], cards=cards_text(start_cards), places=places)


def cards_text(codes) -> str:
    return " ".join(c.short if c.suit else c.name for c in map(card, codes))


class RummyScreen(Screen):
    """The screen of Gemeinsame Sache (templates in ``templates/rummy/``)."""

    def __init__(self):
        super().__init__(folder="rummy", stylesheet="rummy.css", tools=True, option_fields=[
            OptionField("level", _l("Schwierigkeit"),
                        (("", _l("Normal (Standard)")),
                         *((name, _l("%(level)s – %(n)s Karten im Ziehstapel", level=LEVEL_LABELS[name], n=size))
                           for name, size in LEVELS.items()),
                         ("custom", _l("Eigene Größe (unten wählen)")))),
            OptionField("draw_pile", _l("Eigene Größe des Ziehstapels"),
                        (("", "–"), *((str(n), str(n)) for n in range(1, FULL_DRAW_PILE + 1)))),
            OptionField("open_hands", _l("Offene Hände")),
            OptionField("ace_low_only", _l("Ass unten")),
            OptionField("max_starts", _l("Drei Ansätze"), value=THREE_STARTS),
        ], earlier_games=RECENT_GAMES - 1)

    def parse_options(self, form) -> dict:
        """As the base, plus: the custom size is a number (anything else goes to the engine
        as it is, which refuses it by name), and a size alone means level "custom"."""
        options = super().parse_options(form)
        if "draw_pile" in options:
            size = options["draw_pile"].strip()
            options["draw_pile"] = int(size) if size.isascii() and size.isdigit() else size
            options.setdefault("level", "custom")
        return options

    def step_label(self, kind: str) -> str:
        return str(STEP_LABELS.get(kind, kind))

    def outcome_label(self, reason: str) -> str:
        """Why the game ended, in words (the engine's ``outcome.reason``)."""
        return str(OUTCOME_LABELS.get(reason, reason))

    def event_label(self, event: dict) -> str:
        """An event in German words (log lines, buttons)."""
        kind = event.get("type")
        if kind == "setup":
            return _("gegeben, erste Ablage %(card)s", card=cards_text([event["first_discard"]]))
        if kind == "draw":
            return _("vom Ziehstapel gezogen") if event.get("from") == "pile" else _("die Ablage genommen")
        if kind == "start":
            return _("Ansatz %(cards)s gelegt", cards=cards_text(event["cards"]))
        if kind == "complete":
            return _("Ansatz %(start)s mit %(card)s ergänzt", start=event["start"], card=self._played(event))
        if kind == "lay-off":
            return _("%(card)s an Figur %(figure)s angelegt", card=self._played(event), figure=event["figure"])
        if kind == "swap":
            return _("Joker in Figur %(figure)s gegen %(card)s getauscht",
                     figure=event["figure"], card=cards_text([event["card"]]))
        if kind == "discard":
            return _("%(card)s abgeworfen", card=cards_text([event["card"]]))
        if kind == "end-turn":
            return _("Zug beendet (Hand leer)")
        if kind == "give-up":
            return _("aufgegeben")
        return super().event_label(event)

    @staticmethod
    def _played(event: dict) -> str:
        stands = event.get("as")
        return cards_text([f"{JOKER}:{stands}" if stands else event["card"]]) if event["card"] == JOKER and stands \
            else cards_text([event["card"]])

    def actor(self, entry) -> int | None:
        """The setup is the whole table's step (its effect names who begins)."""
        return None if (entry.event or {}).get("type") == "setup" else super().actor(entry)

    def log_action(self, entry, players: list[str]) -> str:
        return self.event_label(entry.event or {"type": "?"})

    def log_sentence(self, entry, players: list[str]) -> str:
        who = entry.seat.name if entry.seat is not None else _("Import")
        what = self.log_action(entry, players)
        if entry.kind == "undo":
            return _("%(who)s nimmt zurück: %(event)s", who=who, event=what)
        return f"{who}: {what}"

    # --- the view -----------------------------------------------------------------------
    def view(self, game: GemeinsameSache, table, seat, values, around=None) -> dict:
        """What the board and the step show; ``values`` may hold the ``card`` tapped in the
        picker; ``around`` (a finished game) the games before it and the rematch."""
        player = seat.position if seat is not None else None
        state = game.state()
        view = {"board": self._board(game, state)}
        if game.awaiting is None:
            view["next"] = self._next(game, around or Around())
        elif player is not None:
            view["step"] = self._step(game, state, player, values.get("card", ""))
        return {"rummy": view}

    def _board(self, game: GemeinsameSache, state: dict) -> dict:
        """The table as every phone sees it (the own side is marked and put first by the
        page, ``<main data-me>``: one drawing of the board for both seats and the watchers)."""
        pace = game.pace()
        options = game.options
        size = options["draw_pile"]
        outlooks = {o["id"]: o for o in game.start_outlooks()} if state["status"] == "playing" else {}
        start_cards = {s.id: s.cards for s in game.open_starts}
        for outlook in outlooks.values():
            if not outlook["completable"]:
                outlook["message"] = dead_start_text(outlook, start_cards[outlook["id"]], game.players)
        sides = [{
            "player": p, "name": game.players[p], "hand": state["hands"][p],
            "known": [card(c) for c in game.known_hand(p)], "on_turn": p == state["turn"] and game.awaiting is not None,
            "starts": [{"id": s.id, "cards": [card(c) for c in s.cards], "outlook": outlooks.get(s.id)}
                       for s in game.open_starts if s.owner == p],
        } for p in range(len(game.players))]
        return {
            "level": LEVEL_LABELS[options["level"]], "size": size, "pace": pace,
            "sides": sides, "turn": game.current_turn(), "turns_played": game.turns_played(),
            "pickups": state["discard_pickups"],
            "figures": [{"id": f.id, "kind": f.kind, "cards": [card(c) for c in f.cards]} for f in game.figures],
            "discard_top": card(state["discard"][-1]) if state["discard"] else None,
            "discard_size": len(state["discard"]), "open_hands": options["open_hands"],
            "discard": [card(c) for c in reversed(state["discard"])],
            "dead_starts": [o for o in outlooks.values() if not o["completable"]],
            "status": state["status"], "reason": state["reason"],
            "cards_left": game.cards_left(),
        }

    @staticmethod
    def _next(game: GemeinsameSache, around: Around) -> dict:
        """After the game: the level suggested from the last games at this table, and the rematch if made."""
        results = [game.outcome().won] + [outcome.won for outcome in around.earlier if outcome is not None]
        message, options = suggest_level(results, game.options)
        return {"message": message, "options": options, "level": level_text(options),
                "same": level_text(game.options), "changes": options != game.options,
                "next_game": level_text(around.next_options) if around.next_options is not None else None}

    def _step(self, game: GemeinsameSache, state: dict, player: int, picked: str) -> dict:
        """The step on a seated phone: only the phone that enters it (the engine's
        ``entered_by``: the player on turn; anyone at the setup) gets taps."""
        legal = game.legal_choices()
        step = {"kind": legal["kind"], "mine": game.entered_by() in (None, player),
                "pile": state["draw_pile"]}
        if not step["mine"]:
            return step
        if legal["kind"] == "setup":
            step.update(self._picker({"cards": legal["first_discard"]}, picked, game.numbers()["jokers"]),
                        set_aside=state["set_aside"], hand_size=game.numbers()["hand_size"])
            if step["picked"] is not None:
                step["first_players"] = [Choice(_("%(name)s beginnt", name=game.players[p]),
                                                {"type": "setup", "first_discard": step["picked"].code, "first_player": p})
                                         for p in legal["first_player"]]
        elif legal["kind"] == "draw":
            top = card(legal["discard_top"]) if legal["discard_top"] else None
            step.update(discard_top=top, loss_due=legal["loss_due"], spots=self._spots(game, player, None),
                        discard_reason=None if legal["discard"] else reason_text(legal["discard_reason"]))
            if legal["pile"]:
                step["from_pile"] = Choice(_("Vom Ziehstapel ziehen"), {"type": "draw", "from": "pile"})
            if top is not None and legal["discard"]:
                step["from_discard"] = Choice(_("%(card)s von der Ablage nehmen", card=cards_text([top.code])),
                                              {"type": "draw", "from": "discard"})
        else:
            step.update(self._picker(game.hand_candidates(player), picked, game.numbers()["jokers"]),
                        hand=legal["hand"], pickup=card(legal["pickup"]) if legal["pickup"] else None)
            code = step["picked"].code if step["picked"] else None
            step["spots"] = self._spots(game, player, code)
            if code:
                step.update(self._lays(game, player, code, legal))
            if legal["end_turn"]:
                step["end_turn"] = Choice(_("Zug beenden (Hand leer)"), {"type": "end-turn"})
        return step

    def _picker(self, possible: dict, picked: str, jokers: int) -> dict:
        """The 4 × 13 + joker picker, the cards the engine says cannot be there greyed out
        (``possible``: ``cards`` that may be there, and how many ``jokers``), and the card
        picked in it; ``jokers``: how many the game has."""
        cards = set(possible["cards"])
        rows = [(SUIT_SYMBOL[suit], SUIT_NAMES[suit], [(card(rank + suit), rank + suit not in cards) for rank in RANKS])
                for suit in SUITS]
        found = {"rows": rows, "joker": (card(JOKER), JOKER not in cards and not possible.get("jokers")), "jokers": jokers,
                 "picked": None}
        if picked:
            try:
                found["picked"] = card(check_card(picked))
            except IllegalEvent as err:
                found["pick_error"] = Refusal.from_engine(err).message
        return found

    def _spots(self, game: GemeinsameSache, player: int, code: str | None) -> list[dict]:
        """The open starts (the partner's first) and the figures, each with the places
        the picked card may take there (the engine's ``fits``): one button per place."""
        places: dict[tuple, list] = {}
        for fit in game.fits(code, player) if code else ():
            action = fit["action"]
            if action == "start":
                continue
            target = ("start", fit["start"]) if action == "complete" else ("figure", fit["figure"])
            places.setdefault(target, []).extend(self._place_choices(game, fit, code))
        partner = [s for s in game.open_starts if s.owner != player]
        own = [s for s in game.open_starts if s.owner == player]
        spots = [{"kind": "start", "id": s.id, "owner": game.players[s.owner], "mine": s.owner == player,
                  "cards": [card(c) for c in s.cards], "places": places.get(("start", s.id), [])}
                 for s in partner + own]
        spots += [{"kind": "figure", "id": f.id, "cards": [card(c) for c in f.cards],
                   "places": places.get(("figure", f.id), [])} for f in game.figures]
        return spots

    def _place_choices(self, game: GemeinsameSache, fit: dict, code: str) -> list["Place"]:
        """The buttons of one fit: for a joker one per card it may stand for where that
        binds (the engine's ``binds``), else one."""
        action = fit["action"]
        if action == "swap":
            return [Place(_("Joker aus Figur %(id)s gegen %(card)s tauschen", id=fit["figure"], card=cards_text([code])),
                          {"type": "swap", "figure": fit["figure"], "card": code}, card(code), "swap")]
        if action == "complete":
            target = next(s for s in game.open_starts if s.id == fit["start"])
            event, verb = {"type": "complete", "start": target.id, "card": code}, "complete"

            def label(played: str) -> str:
                return _("Ansatz %(id)s (%(cards)s) mit %(card)s ergänzen", id=target.id,
                         cards=cards_text(target.cards), card=cards_text([played]))
        else:
            target = next(f for f in game.figures if f.id == fit["figure"])
            event, verb = {"type": "lay-off", "figure": target.id, "card": code}, "low" if fit["end"] == "low" else "high"

            def label(played: str) -> str:
                return _("%(card)s an Figur %(id)s (%(cards)s) anlegen", id=target.id,
                         cards=cards_text(target.cards), card=cards_text([played]))
        if fit["as"] is None or not fit["binds"]:
            return [Place(label(code), event, card(code), verb)]
        return [Place(label(f"{JOKER}:{c}"), {**event, "as": c}, card(f"{JOKER}:{c}"), verb) for c in fit["as"]]

    def _lays(self, game: GemeinsameSache, player: int, code: str, legal: dict) -> dict:
        """For a picked card: the new starts it can open (with a card not yet seen, or
        known in this hand, as the engine says) and its discard."""
        found = {"start_with": [], "discard": None, "discard_reason": reason_text(legal["discard_reason"])}
        if legal["can_start"]:
            fit = next((f for f in game.fits(code, player) if f["action"] == "start"), None)
            found["start_with"] = [Place(_("Ansatz %(cards)s legen", cards=cards_text([code, other])),
                                         {"type": "start", "cards": [code, other]}, card(other), "start")
                                   for other in (fit["with"] if fit else [])]
        if legal["discard"]:
            found["discard"] = Choice(_("%(card)s abwerfen", card=cards_text([code])), {"type": "discard", "card": code})
        return found


@dataclass(frozen=True)
class Place:
    """A button at a start or figure: the event, the card it adds (a joker with what it
    stands for; for a new start the other card) and how (``verb``: complete, low / high:
    laid off at that end, swap, start)."""

    label: str
    event: dict
    card: Card
    verb: str


screen = RummyScreen()
