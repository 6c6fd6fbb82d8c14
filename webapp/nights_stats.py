"""``/statistik``: every finished game on this server, per game and variant —
length, how games end, the win rate by seat, Gemeinsame Sache's win rate per
level, solo against RobinBird — beside the playtest lab's simulated figures
(contract C5, ``engine.lab.simulated_figures()``). Only counts: no names.

Read from the stored summaries with a few GROUP BY queries; the charts are
server-rendered SVG from pygal (drawn inline, styled by ``static/nights.css``
for the page's colours and dark mode, no script; see ``chart``), each drawn
once per set of figures and language.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field

import pygal
import sqlalchemy as sa
from flask import Blueprint, current_app, render_template
from flask_babel import format_percent
from markupsafe import Markup

from engine import EngineError, game_class

from .extensions import db
from .i18n import current_language, gettext as _, lazy_gettext as _l
from .nights import has_levels, reason_label, variant_label
from .nights_store import GameSummary
from .nights_summary import variant_key
from .screens import TITLES, title

bp = Blueprint("stats", __name__)

SHORT_REASONS = {"distinct-species": _l("verschiedene Arten"), "two-triples": _l("zwei Drillinge"),
                 "most-birds": _l("meiste Vögel"), "all-laid": _l("alles ausgelegt"), "clock": _l("Uhr abgelaufen"),
                 "gave-up": _l("aufgegeben")}   # a chart's labels: short enough for a phone


def simulated() -> dict:
    """The lab's figures (C5), or an empty structure while the lab has none."""
    try:
        from engine.lab import simulated_figures
    except ImportError:
        return {}
    return simulated_figures() or {}


# --- the figures ------------------------------------------------------------------------
@dataclass
class Group:
    """The finished games of one game, variant and number of players."""

    game: str
    variant: str
    players: int
    solo: bool
    games: int = 0
    won: int = 0
    turns: float = 0.0
    rounds: float | None = None
    seat_wins: list[int] = field(default_factory=list)
    endings: dict[str, int] = field(default_factory=dict)
    sim: dict | None = None                  # the matching entry of the lab's figures
    sims: list[dict] = field(default_factory=list)  # Gemeinsame Sache: one per team

    @property
    def options(self) -> dict:
        return json.loads(self.variant)

    @property
    def label(self) -> str:
        return variant_label(self.game, self.options)

    @property
    def levels(self) -> bool:
        """Whether the game is played at a level (its draw pile)."""
        return has_levels(game_class(self.game))

    @property
    def draw_pile(self) -> int:
        return draw_pile_of(self.game, self.options)

    @property
    def win_rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    def seat_rate(self, seat: int) -> float:
        return self.seat_wins[seat] / self.games if self.games else 0.0

    def ending_rate(self, reason: str) -> float:
        return self.endings.get(reason, 0) / self.games if self.games else 0.0


def groups() -> list[Group]:
    """Every group with its figures: one GROUP BY over the summaries (answered from the
    covering index alone), by group, ending and winning seats; the few rows it gives
    are added up here (seat k won where bit k of ``winner_mask`` is set)."""
    s = GameSummary
    keys = (s.game, s.variant, s.players, s.solo)
    found: dict[tuple, Group] = {}
    sums: dict[tuple, list[float]] = {}
    for row in db.session.execute(sa.select(*keys, s.reason, s.winner_mask, sa.func.count(),
                                            sa.func.sum(sa.case((s.won, 1), else_=0)), sa.func.sum(s.turns),
                                            sa.func.sum(s.rounds), sa.func.count(s.rounds))
                                  .group_by(*keys, s.reason, s.winner_mask)):
        game, variant, players, solo, reason, mask, count, won, turns, rounds, with_rounds = row
        key = (game, variant, players, bool(solo))
        group = found.get(key)
        if group is None:
            group = found[key] = Group(game, variant, players, bool(solo), seat_wins=[0] * players)
            sums[key] = [0, 0, 0]
        group.games += count
        group.won += int(won or 0)
        group.endings[reason] = group.endings.get(reason, 0) + count
        for seat in range(players):
            if mask >> seat & 1:
                group.seat_wins[seat] += count
        total = sums[key]
        total[0] += turns or 0
        total[1] += rounds or 0
        total[2] += with_rounds
    for key, group in found.items():
        turns, rounds, with_rounds = sums[key]
        group.turns = turns / group.games
        group.rounds = rounds / with_rounds if with_rounds else None
    order = list(TITLES)
    return sorted(found.values(), key=lambda g: (order.index(g.game) if g.game in order else len(order),
                                                 g.solo, g.draw_pile, g.players, g.variant))


FINGERPRINT = sa.select(sa.func.count(), sa.func.max(GameSummary.ended_at), sa.func.sum(GameSummary.turns))


def attach_simulated(found: list[Group], figures: dict) -> None:
    """Give each group the lab's entry for the same game, variant and players."""
    birds, solo = {}, {}
    for entry in figures.get("birds", []):
        key = (entry.get("game"), variant_key(entry.get("game"), entry.get("options") or {}), entry.get("players"))
        if _better(entry, birds.get(key)):
            birds[key] = entry
    for entry in figures.get("solo", []):
        key = (entry.get("game"), variant_key(entry.get("game"), {**(entry.get("options") or {}), "solo": True}))
        if _better(entry, solo.get(key)):
            solo[key] = entry
    teams: dict[tuple, list[dict]] = {}   # C5's "gemeinsame_sache": the figures of the game played at levels
    for game in {group.game for group in found if group.levels}:
        for entry in figures.get("gemeinsame_sache", []):
            teams.setdefault((game, *_level_key(game, entry.get("options") or {}, entry.get("draw_pile"))),
                             []).append(entry)
    for group in found:
        if group.levels:
            group.sims = teams.get((group.game, *_level_key(group.game, group.options)), [])
        elif group.solo:
            group.sim = solo.get((group.game, group.variant))
        else:
            group.sim = birds.get((group.game, group.variant, group.players))


def _better(entry: dict, kept: dict | None) -> bool:
    """Whether the lab's ``entry`` is the figure to show instead of ``kept``: the one of
    more games (its interval is the narrower: 10,000 greedy games say more than 100 of
    the strong bot's), and of equal size the strong bot's (it plays more like people)."""
    if kept is None:
        return True
    size, kept_size = entry.get("games") or 0, kept.get("games") or 0
    return size > kept_size or (size == kept_size and entry.get("bot") == "strong")


def _level_key(game: str, options: dict, draw_pile=None) -> tuple:
    """A variant of a game played at levels, for matching: the draw pile (``draw_pile``,
    else the options') and the other options (the level is only a name for a
    draw-pile size)."""
    rest = {k: v for k, v in json.loads(variant_key(game, options)).items() if k not in ("level", "draw_pile")}
    return draw_pile or draw_pile_of(game, options), json.dumps(rest, sort_keys=True)


def draw_pile_of(game: str, options: dict) -> int:
    """The draw pile of a game played at levels with these options (the engine's
    defaults filled in); 0 for any other game or options the engine refuses."""
    try:
        cls = game_class(game)
        return cls.validate_options(dict(options)).get("draw_pile", 0) if has_levels(cls) else 0
    except EngineError:
        return 0


# --- charts ------------------------------------------------------------------------------
def percent(value) -> str:
    """A share as the page's language writes it ("66 %", English "66%")."""
    return "–" if value is None else format_percent(value)


def _accessible(title_text: str):
    """A pygal XML filter: no script, no style (the page's stylesheet colours the
    chart, CSP allows neither inline), no tooltips (they need the script), no comments."""
    def strip(root):
        for parent in list(root.iter()):
            for child in list(parent):
                tag = child.tag.rsplit("}", 1)[-1] if isinstance(child.tag, str) else "comment"
                if tag in ("script", "style", "comment") or "tooltip-overlay" in child.get("class", ""):
                    parent.remove(child)
        root.attrib.pop("id", None)
        root.set("role", "img")
        root.set("aria-label", title_text)
        return root
    return strip


@functools.lru_cache(maxsize=256)
def chart(title_text: str, labels: tuple[str, ...], series: tuple[tuple[str, tuple], ...], language: str) -> Markup:
    """A bar chart of rates (0–100 %) as inline SVG; drawn once per figures and language."""
    bars = pygal.Bar(js=[], css=[], disable_xml_declaration=True, no_prefix=True, width=420, height=250, margin_right=28,
                     legend_at_bottom=True, legend_at_bottom_columns=2, range=(0, 1), include_x_axis=True,
                     show_legend=len(series) > 1, value_formatter=percent, margin=8, spacing=6,
                     truncate_label=-1, truncate_legend=-1, y_labels=[0, 0.25, 0.5, 0.75, 1])
    bars.x_labels = list(labels)
    for name, values in series:
        bars.add(name, list(values))
    bars.add_xml_filter(_accessible(title_text))
    return Markup(bars.render(is_unicode=True))


@functools.lru_cache(maxsize=4)
def words(language: str) -> dict[str, str]:
    """The charts' words in ``language`` (the current one), looked up once: a
    recompute draws many charts, and each gettext call costs."""
    return {"here": _("Hier gespielt"), "sim": _("Simuliert"), "endings": _("Wie die Spiele enden"),
            "seats": _("Gewinnrate nach Platz (Platz 1 beginnt)"), "seat": _("Platz %(n)s"),
            "levels": _("Gewinnrate je Stufe"), "team": _("Simuliert (%(team)s)"),
            **{f"reason:{r}": str(label) for r, label in SHORT_REASONS.items()}}


def _series(said: dict, real, sim) -> tuple:
    here = (said["here"], tuple(real))
    sim = tuple(sim)
    return (here, (said["sim"], sim)) if any(v is not None for v in sim) else (here,)


def bird_charts(group: Group) -> dict:
    language = current_language()
    said = words(language)
    reasons = game_class(group.game).outcome_reasons
    sim = group.sim or {}
    endings = chart(said["endings"], tuple(said.get(f"reason:{r}", r) for r in reasons),
                    _series(said, (group.ending_rate(r) for r in reasons),
                            (sim.get("endings", {}).get(r) for r in reasons)), language)
    sim_seats = {s.get("seat"): s.get("rate") for s in sim.get("seat_win_rate", [])}
    seats = chart(said["seats"], tuple(said["seat"] % {"n": k + 1} for k in range(group.players)),
                  _series(said, (group.seat_rate(k) for k in range(group.players)),
                          (sim_seats.get(k) for k in range(group.players))), language)
    return {"endings": endings, "seats": seats, "reasons": reasons, "sim_seats": sim_seats}


def level_chart(levels: list[Group]) -> Markup:
    language = current_language()
    said = words(language)
    teams = sorted({entry.get("team", "?") for g in levels for entry in g.sims})
    series = [(said["here"], tuple(g.win_rate for g in levels))]
    for team in teams:
        series.append((said["team"] % {"team": team},
                       tuple(next((e.get("win_rate") for e in g.sims if e.get("team") == team), None) for g in levels)))
    return chart(said["levels"], tuple(g.label for g in levels), tuple(series), language)


# --- the page --------------------------------------------------------------------------------
@bp.get("/statistik")
def statistics():
    fingerprint = (current_app.config["SQLALCHEMY_DATABASE_URI"], *db.session.execute(FINGERPRINT).one())
    total, sections, figures = _sections(fingerprint, current_language())
    return render_template("nights/stats.html", sections=sections, total=total, simulated=figures,
                           percent=percent, reason_label=reason_label)


@functools.lru_cache(maxsize=8)
def _sections(fingerprint: tuple, language: str) -> tuple[int, list[dict], dict]:
    """The page's figures and charts, worked out again only when a game was added
    or removed (``fingerprint``: the database; count, last end and turns of its summaries)."""
    found = groups()
    figures = simulated()
    attach_simulated(found, figures)
    sections = []
    for game in dict.fromkeys(g.game for g in found):
        mine = [g for g in found if g.game == game]
        section = {"game": game, "title": title(game), "games": sum(g.games for g in mine),
                   "groups": [(g, bird_charts(g)) for g in mine if not g.solo and not g.levels],
                   "solo": [g for g in mine if g.solo], "levels": [g for g in mine if g.levels]}
        if section["levels"]:
            section["level_chart"] = level_chart(section["levels"])
        sections.append(section)
    return sum(g.games for g in found), sections, figures
