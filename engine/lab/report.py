"""The sweep's figures as SVG charts (pygal) and Markdown tables for docs/balance.md.

pygal writes plain SVG from a few lines of Python, with no native libraries
and no browser, and draws confidence intervals on bars; the game-nights pages
use it too, so the project has one plotting library.
"""
from __future__ import annotations

from pathlib import Path

import pygal
from pygal.style import Style

STYLE = Style(background="white", plot_background="white", font_family="sans-serif",
              colors=("#1f6f8b", "#e07a1f", "#5a9e3a", "#8e44ad", "#c0392b", "#7f8c8d"))
LABELS = {"cubirds": "CuBirds", "gleich-und-gleich": "Gleich und gleich"}
ENDING_LABELS = {"distinct-species": "7 (6) Arten", "two-triples": "zwei Drillinge", "most-birds": "meiste Vögel"}
CHART_BOT = "greedy"     # the bot of the full-size bird runs
TEAM_LABELS = {"simple": "einfache Strategie", "smart": "sorgfältiges stilles Team", "open": "Offene Hände"}


def config_label(entry: dict) -> str:
    name = entry.get("recommendation") or entry["game"]
    label = LABELS.get(name, name.replace("gleich-und-gleich/", "GuG: "))
    options = entry.get("options") or {}
    if options.get("rarer_faces"):
        label += " · Seltenere Seltene"
    if options.get("fast"):
        label += " · Schnelles Spiel"
    return label


def _chart(kind, title: str, **config):
    chart = kind(style=STYLE, title=title, js=[], width=760, height=420, legend_at_bottom=True,
                 print_values=False, **config)
    return chart


def _ci(value: float, ci: list[float]) -> dict:
    return {"value": value, "ci": {"low": ci[0], "high": ci[1]}}


def _by_config(entries: list[dict]) -> dict[str, dict[int, dict]]:
    grouped: dict[str, dict[int, dict]] = {}
    for e in entries:
        grouped.setdefault(config_label(e), {})[e["players"]] = e
    return grouped


def write_charts(figures: dict, folder: Path) -> list[Path]:
    """Draw every chart of docs/balance.md into ``folder``; returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    birds = [e for e in figures.get("birds", []) + figures.get("recommended", []) if e["bot"] == CHART_BOT]
    grouped = _by_config(birds)
    players = sorted({e["players"] for e in birds})

    def save(chart, name: str) -> None:
        path = folder / f"{name}.svg"
        path.write_bytes(chart.render())
        written.append(path)

    if birds:
        chart = _chart(pygal.Bar, "Spiellänge: Züge pro Spiel (95 %-Intervall)", x_title="Spieler")
        chart.x_labels = [str(p) for p in players]
        for label, by_players in grouped.items():
            chart.add(label, [_ci(by_players[p]["turns"]["mean"], by_players[p]["turns"]["ci95"])
                              if p in by_players else None for p in players])
        save(chart, "turns")

        chart = _chart(pygal.Bar, "Vorteil des Startspielers: Siegquote minus 1/Spieler (Prozentpunkte)",
                       x_title="Spieler")
        chart.x_labels = [str(p) for p in players]
        for label, by_players in grouped.items():
            values = []
            for p in players:
                e = by_players.get(p)
                if e is None:
                    values.append(None)
                    continue
                seat = e["seat_win_rate"][0]
                values.append(_ci(100 * (seat["rate"] - 1 / p), [100 * (x - 1 / p) for x in seat["ci95"]]))
            chart.add(label, values)
        save(chart, "first-player")

        chart = _chart(pygal.StackedBar, "Wie Spiele enden (Anteil)", x_label_rotation=30)
        entries = sorted(birds, key=lambda e: (e["players"], config_label(e)))
        chart.x_labels = [f"{e['players']} · {config_label(e)}" for e in entries]
        for reason, label in ENDING_LABELS.items():
            chart.add(label, [e["endings"][reason] for e in entries])
        save(chart, "endings")

    if figures.get("solo"):
        chart = _chart(pygal.Line, "Solo gegen RobinBird: Siegquote nach Vorgabe (Karten in ihrer Sammlung)",
                       x_title="Vorgabe", range=(0, 1))
        chart.x_labels = ["0", "1", "2", "3"]
        lines: dict[str, list] = {}
        for e in figures["solo"]:
            lines.setdefault(f"{LABELS[e['game']]}, {e['bot']}", []).append(e["win_rate"])
        for label, values in lines.items():
            chart.add(label, values)
        save(chart, "solo")

    if figures.get("gemeinsame_sache"):
        chart = _chart(pygal.Line, "Gemeinsame Sache: Siegquote nach Größe des Ziehstapels",
                       x_title="Karten im Ziehstapel", range=(0, 1), show_dots=False)
        chart.x_labels = [str(n) for n in range(1, 34)]
        chart.x_labels_major = ["1", "17", "22", "28", "33"]
        chart.show_minor_x_labels = False
        teams: dict[str, list] = {}
        for e in figures["gemeinsame_sache"]:
            teams.setdefault(e["team"], []).append(e["win_rate"])
        for team, values in teams.items():
            chart.add(TEAM_LABELS.get(team, team), values)
        save(chart, "gemeinsame-sache")
    return written


# --- tables ----------------------------------------------------------------------------------------
def _pct(rate: float, ci: list[float]) -> str:
    return f"{100 * rate:.1f} % ({100 * ci[0]:.1f}–{100 * ci[1]:.1f})"


def _num(m: dict) -> str:
    return f"{m['mean']:.1f} ({m['ci95'][0]:.1f}–{m['ci95'][1]:.1f})"


def tables(figures: dict) -> str:
    """The generated part of docs/balance.md."""
    out = [f"Generated by `python -m engine sweep` on {figures.get('generated')}; "
           f"data: [engine/lab/data/simulated.json](../engine/lab/data/simulated.json).", ""]
    birds = figures.get("birds", [])
    if birds:
        out += ["### Bird games, the same bot in every seat", "",
                "| game | bot | players | games | turns | rounds | endings: species / triples / most birds "
                "| first player wins | last player wins | shared wins | reshuffles |",
                "|---|---|---:|---:|---|---|---|---|---|---:|---|"]
        for e in sorted(birds, key=lambda e: (config_label(e), e["bot"], e["players"])):
            out.append(_bird_row(e))
        out += ["", "Each row: `" + birds[0]["command"].replace(f"--game {birds[0]['game']}", "--game G")
                .replace(f"--players {birds[0]['players']}", "--players P") + "` (bot and options as in the row)."]
    matches = figures.get("tournaments", [])
    if matches:
        out += ["", "### Tournaments: which bot wins (seats rotated)", "",
                "| game | players | games | bot | seats played | win rate (95 % interval) | CPU ms per turn |",
                "|---|---:|---:|---|---:|---|---:|"]
        for e in sorted(matches, key=lambda e: (LABELS[e["game"]], e["players"], len(e["compared"]))):
            for k, row in enumerate(e["bots"]):
                head = f"| {LABELS[e['game']]} | {e['players']} | {e['games']} " if not k else "| | | "
                out.append(f"{head}| {row['bot']} | {row['games']} | {_pct(row['win_rate'], row['ci95'])} "
                           f"| {row['ms_per_turn']:.2f} |")
        out += ["", "Each: `" + matches[0]["command"].replace(f"--game {matches[0]['game']}", "--game G")
                .replace(f"--players {matches[0]['players']}", "--players P") + "` (bots as in the table)."]
    rec = figures.get("recommended", [])
    if rec:
        out += ["", "### Recommendation: other flock sizes (lab only)", "",
                "| variant | bot | players | games | turns | rounds | endings: species / triples / most birds "
                "| first player wins | last player wins | shared wins | reshuffles |",
                "|---|---|---:|---:|---|---|---|---|---|---:|---|"]
        for e in sorted(rec, key=lambda e: (config_label(e), e["players"])):
            out.append(_bird_row(e))
    if figures.get("solo"):
        out += ["", "### Solo against RobinBird", "", "| game | bot | handicap | games | win rate | turns |",
                "|---|---|---:|---:|---|---|"]
        for e in figures["solo"]:
            out.append(f"| {LABELS[e['game']]} | {e['bot']} | {e['options']['robin_handicap']} | {e['games']} "
                       f"| {_pct(e['win_rate'], e['ci95'])} | {_num(e['turns'])} |")
    gs = figures.get("gemeinsame_sache", [])
    if gs:
        by_size: dict[int, dict[str, dict]] = {}
        for e in gs:
            by_size.setdefault(e["draw_pile"], {})[e["team"]] = e
        teams = [t for t in TEAM_LABELS if any(t in row for row in by_size.values())]
        out += ["", "### Gemeinsame Sache: win rate by draw pile", "",
                "| draw pile | " + " | ".join(TEAM_LABELS[t] for t in teams) + " | turns (simple) |",
                "|---:|" + "---|" * len(teams) + "---:|"]
        for size in sorted(by_size):
            row = by_size[size]
            cells = [_pct(row[t]["win_rate"], row[t]["ci95"]) if t in row else "" for t in teams]
            turns = row.get("simple", {}).get("mean_turns", "")
            out.append(f"| {size} | " + " | ".join(cells) + f" | {turns} |")
        out += ["", f"{gs[0]['games']} games per team and size, seed {gs[0]['seed']}: `{gs[0]['command']}`."]
    timing = figures.get("timing", {})
    if timing:
        out += ["", "### How long the sweep took", "", "| part | wall clock | CPU | load before → after | processes |",
                "|---|---:|---:|---|---|"]
        for part, t in timing.items():
            out.append(f"| {part} | {t['seconds']:.0f} s | {t['cpu_seconds']:.0f} s | "
                       f"{t['load_before']} → {t['load_after']} | {t['processes'] or 'one per core'} |")
        out += ["", "CPU time of every figure in the data file, as each run measured it (a figure kept by "
                "`--resume` counts with the time it took when it was made):", "",
                "| part | figures | CPU |", "|---|---:|---:|"]
        for part, key in (("bird games, greedy", "birds"), ("tournaments", "tournaments"), ("solo", "solo"),
                          ("recommendation", "recommended")):
            entries = figures.get(key, [])
            if key == "birds":
                for bot in ("greedy", "strong"):
                    chosen = [e for e in entries if e["bot"] == bot]
                    out.append(f"| bird games, {bot} | {len(chosen)} | "
                               f"{sum(e.get('cpu_seconds', 0) for e in chosen):.0f} s |")
            elif entries:
                out.append(f"| {part} | {len(entries)} | {sum(e.get('cpu_seconds', 0) for e in entries):.0f} s |")
    return "\n".join(out) + "\n"


def _bird_row(e: dict) -> str:
    endings = " / ".join(f"{100 * e['endings'][k]:.1f} %" for k in ENDING_LABELS)
    first, last = e["seat_win_rate"][0], e["seat_win_rate"][-1]
    return (f"| {config_label(e)} | {e['bot']} | {e['players']} | {e['games']} | {_num(e['turns'])} | {_num(e['rounds'])} "
            f"| {endings} | {_pct(first['rate'], first['ci95'])} | {_pct(last['rate'], last['ci95'])} "
            f"| {100 * e['shared_wins']:.1f} % | {_num(e['reshuffles'])} |")


def write_tables(figures: dict, doc: Path, begin: str, end: str) -> None:
    """Put the generated tables between the markers of ``doc`` (kept if absent)."""
    text = doc.read_text(encoding="utf-8") if doc.exists() else f"# Balance\n\n{begin}\n{end}\n"
    if begin not in text or end not in text:
        text = text.rstrip("\n") + f"\n\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    doc.write_text(f"{head}{begin}\n{tables(figures)}{end}{tail}", encoding="utf-8")

