"""The ruleset data of Gemeinsame Sache: levels and options."""
from __future__ import annotations

from ..errors import InvalidRecord

HAND_SIZE = 10
FULL_DRAW_PILE = 33          # 54 − 2 × 10 − 1 first discard
DEFAULT_MAX_STARTS = 2
THREE_STARTS = 3             # the option "Drei Ansätze" (max_starts)
START_SIZE = 2               # "genau zwei Karten (kein Joker)"
MIN_FIGURE = 3
MAX_SET = 4                  # "Ein Satz hat höchstens vier Karten"
JOKERS = 2
RECENT_GAMES = 5             # the games a level suggestion looks at

# Draw-pile size per level. Normal = 22 is given by the rule text; Leicht and
# Schwer are the sizes whose simulated win rate comes closest to 82 % and 31 %
# (rules README, Gemeinsame Sache 1) — the sweep is in docs/difficulty.md.
LEVELS = {"leicht": 28, "normal": 22, "schwer": 17}

_BOOLEAN_OPTIONS = ("ace_low_only", "open_hands")
_KNOWN = {"level", "draw_pile", "max_starts", *_BOOLEAN_OPTIONS}


def validate_options(options: dict) -> dict:
    """The options with defaults filled in; InvalidRecord names what is wrong.

    ``level`` (leicht/normal/schwer, or ``custom`` with ``draw_pile``) and
    ``draw_pile`` (1–33) may both be given when they agree."""
    unknown = sorted(set(options) - _KNOWN)
    if unknown:
        raise InvalidRecord("unknown-option", "Unbekannte Option(en) für Gemeinsame Sache: {names}; möglich: {known}",
                            {"names": ", ".join(unknown), "known": ", ".join(sorted(_KNOWN))})
    level = options.get("level")
    size = options.get("draw_pile")
    if level is not None and not isinstance(level, str):
        raise _unknown_level(level)
    if size is not None and (type(size) is not int or not 1 <= size <= FULL_DRAW_PILE):
        raise InvalidRecord("bad-draw-pile", "\"draw_pile\" muss eine ganze Zahl von 1 bis 33 sein, nicht {value!r}",
                            {"value": size})
    if level is None:
        level = "normal" if size is None else "custom"
    if level == "custom":
        if size is None:
            raise InvalidRecord("bad-level", "Stufe \"custom\" braucht \"draw_pile\" (1–33)")
    elif level in LEVELS:
        if size is not None and size != LEVELS[level]:
            raise InvalidRecord("bad-draw-pile", "Stufe {level!r} hat {expected} Karten im Ziehstapel, nicht {value}",
                                {"level": level, "expected": LEVELS[level], "value": size})
        size = LEVELS[level]
    else:
        raise _unknown_level(level)
    for name in _BOOLEAN_OPTIONS:
        if not isinstance(options.get(name, False), bool):
            raise InvalidRecord("bad-option", "Option {name!r} muss true oder false sein", {"name": name})
    max_starts = options.get("max_starts", DEFAULT_MAX_STARTS)
    if type(max_starts) is not int or max_starts not in (DEFAULT_MAX_STARTS, THREE_STARTS):
        raise InvalidRecord("bad-max-starts", "\"max_starts\" muss 2 oder 3 (Drei Ansätze) sein, nicht {value!r}",
                            {"value": max_starts})
    return {"level": level, "draw_pile": size, "max_starts": max_starts,
            "ace_low_only": options.get("ace_low_only", False), "open_hands": options.get("open_hands", False)}


def _unknown_level(level) -> InvalidRecord:
    return InvalidRecord("bad-level", "Option \"level\": unbekannte Stufe {level!r}; möglich: {known}",
                         {"level": level, "known": ", ".join([*LEVELS, "custom"])})


def suggest_level(results: list[bool], options: dict) -> dict:
    """The next game's level from the last games' results (won?, newest first;
    the last RECENT_GAMES count). Three of four won or better: one level harder;
    one of four or worse: one level easier (with at least three games); else the
    same. Returns ``wins``, ``games``, ``change`` ("harder", "easier", "same") and
    the next game's ``options`` (a named level, else a custom size 3 cards away)."""
    recent = [bool(won) for won in results[:RECENT_GAMES]]
    wins, games = sum(recent), len(recent)
    size = options["draw_pile"]
    change = "same"
    if games >= 3 and wins >= 0.75 * games:
        named = [n for n in LEVELS.values() if n < size]
        size, change = (max(named) if named else max(1, size - 3)), "harder"
    elif games >= 3 and wins <= 0.25 * games:
        named = [n for n in LEVELS.values() if n > size]
        size, change = (min(named) if named else min(FULL_DRAW_PILE, size + 3)), "easier"
    if size == options["draw_pile"]:
        return {"wins": wins, "games": games, "change": "same", "options": dict(options)}
    level = next((name for name, n in LEVELS.items() if n == size), "custom")
    return {"wins": wins, "games": games, "change": change, "options": {**options, "level": level, "draw_pile": size}}
