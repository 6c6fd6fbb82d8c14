"""The benchmark figures as Markdown, and their place in docs/performance.md."""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from pathlib import Path

from webapp.hosting import THREADS, WORKERS

BEGIN = "<!-- bench:begin (written by `make bench`; edit the text outside these markers) -->"
END = "<!-- bench:end -->"
TARGETS = {"events_per_second": 50_000, "replay_ms": 10, "propagation_p95_loaded": 100,
           "propagation_p95": 1000, "first_load_bytes": 50_000, "first_load_requests": 6, "entry_bytes": 5_000}
# The tables at which issue 17 sets targets against the floor: propagation alone, then errors, delay and CPU.
FEW_TABLES, MANY_TABLES = 10, 100


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def load_line(run: dict) -> str:
    e, s = run["entry"], run["sync"]
    return (f"{_server(run)} {run['database']} {run['tables']} tables: entry p95 {e.get('p95', '–')} ms, "
            f"propagation p95 {s.get('p95', '–')} ms, tap to phones p95 {run.get('tap_to_phones', {}).get('p95', '–')} ms, CPU {run.get('server_cpu_ms_per_delivery', '–')} ms per change, "
            f"{run['requests_per_second']} req/s, errors {run['errors']}")


def _engine(engine: dict) -> list[str]:
    lines = ["### Engine (this run; see the Engine section above for the method)", "",
             f"Baseline loop (fixed pure-Python work, same run): {engine['baseline_ms']} ms. Medians of repeats.", "",
             "| game | events/s | events per baseline loop | long game | its replay | targets |",
             "|---|---:|---:|---:|---:|---|"]
    for game in engine["games"]:
        if not game["available"]:
            lines.append(f"| {game['game']} | not available ({game['why']}) | | | | |")
            continue
        ok = (_mark(game["events_per_second"] >= TARGETS["events_per_second"]) + " ≥ 50,000/s, "
              + _mark(game["long_game_replay_ms"] <= TARGETS["replay_ms"]) + " ≤ 10 ms")
        lines.append(f"| {game['game']} | {game['events_per_second']:,} | {game['events_per_baseline']:,} | "
                     f"{game['long_game_events']} events | {game['long_game_replay_ms']} ms | {ok} |")
    sim = engine["rummy_simulation"]
    if sim.get("available"):
        lines += ["", f"Gemeinsame Sache, simulated: **{sim['games_per_second']} games/s** on one process "
                      f"({sim['games']} games, draw pile 22)."]
    return lines + [""]


def _costs(costs: dict) -> list[str]:
    lines = ["### Cost per request, one process", "",
             "The Flask app in one process without concurrency (test client, SQLite in a temporary folder): "
             "median CPU ms per request over batches (`time.process_time`), and the ratio to the bare route "
             "in the same run. This is the CPU a host pays per request, free of queueing. The syncs draw a "
             "game in play (40 events in): *drawn* for the first phone of a perspective, *shared* for the "
             "others (webapp/sync.py draws once per table revision, language and perspective); an *entry* includes "
             "drawing its table's regions ahead for the phone that asked before (`Sync.publish`), at a new revision "
             "(some of whose pieces are kept from the revision before, `fragments.py`), and *no phone waiting* is "
             "the same entry with nothing to draw ahead; *page entry* is a phone's tap (`POST /t/<id>/event` as htmx "
             "sends it, its seat known), answered with its regions; *publish* is the drawing ahead alone, repeated at one "
             "revision (its drawings cleared each time, its log's sentences and kept pieces not); the last row is "
             "the wall time of one disk flush, which every "
             "durable entry waits for on top of its CPU and no read pays.", "",
             "| request | CPU ms | × bare |", "|---|---:|---:|"]
    lines += [f"| {kind} | {figures['ms']} | {figures['per_bare']} |" for kind, figures in costs.items()]
    return lines + [""]


def _p(figures: dict) -> str:
    return f"{figures.get('p50', '–')} / {figures.get('p95', '–')} / {figures.get('p99', '–')}"


def _error_kinds(run: dict) -> str:
    """Errors of every kind of request, added up per kind."""
    kinds = Counter()
    for name in ("entry", "sync", "sync_204", "bare"):
        kinds.update(run[name]["error_kinds"])
    return ", ".join(f"{kind} {count}" for kind, count in kinds.most_common())


def _ratio(value, floor, digits: int = 1) -> str:
    return f"{value / floor:.{digits}f}×" if value is not None and floor else "–"


def _server(run: dict) -> str:
    """The server of a load point, with its run where a size was run more than once ("after, run 2")."""
    code = run.get("code", "after")
    return f"{code}, run {run['run'] + 1}" if run.get("run") else code


def _point(run: dict) -> tuple:
    """Where a load run stands: its size, database and run; a floor run pairs with the app's of the same point."""
    return run["tables"], run["database"], run.get("run", 0)


def _median_line(values: list[float], unit: str = "", digits: int = 1) -> str:
    """The median of ``values``, with their range where there are several: "2.9× (2.7–3.1×)"
    ("–" for none, e.g. a floor that delivered nothing to divide by)."""
    if not values:
        return "–"
    median = f"{statistics.median(values):.{digits}f}{unit}"
    if len(values) < 2:
        return median
    return f"{median} (median of {len(values)}: {min(values):.{digits}f}–{max(values):.{digits}f}{unit})"


def _load(runs: list[dict], before: str | None = None) -> list[str]:
    lines = ["### Server under a game-night load, against the floor", "",
             f"gunicorn as `python -m webapp` starts it (SQLite: 1 worker with up to {WORKERS * THREADS} threads; "
             f"PostgreSQL: {WORKERS} workers with up to {THREADS} each) and the load generator share this machine's cores; 5 phones per table each hold a sync poll "
             "open until their table changes, one entry per table every 2–4 s. *floor* is `bench/floor.py` "
             "with the same gunicorn settings as the app on that database: it answers every held poll of a table with a fixed 3 KB body "
             "as soon as the table's revision moves, and does nothing else. *after* is this tree's app, "
             f"*before* the app of commit `{before or '–'}` (`--before`), each on a fresh database. "
             "*propagation* is what a player waits for: from the entry's answer (or the poll's sending, if "
             "later) until another phone has the new regions; *tap to phones* counts from the entry's "
             "sending instead (the table's whole wait, wherever the server does its work). Latencies in ms as p50 / p95 / p99 after a "
             "5 s warm-up; *CPU per change* is the server's CPU time (master and workers, from `/proc`) "
             "divided by the changes delivered to phones; ×floor divides by the floor's figure at the same "
             "number of tables and run, in this run. Where a size is run more than once (`RUNS_AT`, `--runs`), "
             "the floor and the app take turns, and the targets below take the median of the runs.", "",
             "| tables (phones) | server | db | req/s | entry | propagation | ×floor p95 | tap to phones "
             "| CPU ms per change | ×floor | server CPU | errors | holds ran out | load avg |",
             "|---:|---|---|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    floors = {_point(run): run for run in runs if run.get("code") == "floor"}
    for run in runs:
        base = floors.get(_point(run), {})
        lines.append(
            f"| {run['tables']} ({run['phones']}) | {_server(run)} | {run['database']} | "
            f"{run['requests_per_second']} | {_p(run['entry'])} | {_p(run['sync'])} | "
            f"{_ratio(run['sync'].get('p95'), base.get('sync', {}).get('p95'))} | "
            f"{_p(run.get('tap_to_phones', {}))} | {run.get('server_cpu_ms_per_delivery', '–')} | "
            f"{_ratio(run.get('server_cpu_ms_per_delivery'), base.get('server_cpu_ms_per_delivery'))} | "
            f"{run['server_cpu_percent']} % | {run['errors']} | {run['holds_ran_out']} | {run['load_average']:.1f} |")
    lines += ["", "Requests counted: " + ", ".join(
        f"{_server(r)} {r['database']}/{r['tables']}: {r['entry']['count']} entries, "
        f"{r['sync']['count']} changes delivered" + (f" (errors: {_error_kinds(r)})" if r["errors"] else "")
        for r in runs) + ".", ""]
    return lines + _verdicts(runs, floors) + [""]


def _verdicts(runs: list[dict], floors: dict) -> list[str]:
    """The targets of issue 17 per size and database, over the app's runs each set against the
    floor's run beside it: the median of the runs' figures, errors in every run."""
    paired = defaultdict(list)
    for run in runs:
        base = floors.get(_point(run))
        if run.get("code") == "after" and base is not None:
            paired[run["tables"], run["database"]].append((run, base))
    lines = []
    for (tables, database), pairs in paired.items():
        errors = [run["errors"] for run, _ in pairs]
        p95s = [run["sync"].get("p95", 1e9) for run, _ in pairs]
        p95_ratios = [run["sync"].get("p95", 1e9) / base["sync"]["p95"] for run, base in pairs if base["sync"].get("p95")]
        cpu_ratios = [run.get("server_cpu_ms_per_delivery", 1e9) / base["server_cpu_ms_per_delivery"]
                      for run, base in pairs if base.get("server_cpu_ms_per_delivery")]
        cpu = statistics.median(run.get("server_cpu_ms_per_delivery", 1e9) for run, _ in pairs)
        where = f"{tables} tables, {database}" + (f" ({len(pairs)} runs)" if len(pairs) > 1 else "")
        if tables not in (FEW_TABLES, MANY_TABLES):
            lines.append(f"- at {where}: no targets (they are set at {FEW_TABLES} and {MANY_TABLES}); errors "
                         f"{', '.join(map(str, errors))}, propagation p95 {_median_line(p95s, ' ms')}, "
                         f"CPU per change {_median_line(cpu_ratios, '×')} the floor's")
        elif tables == FEW_TABLES:
            lines.append(f"- targets at {where}: propagation p95 {_median_line(p95s, ' ms', 2)} = "
                         f"{_median_line(p95_ratios, '×', 3)} the floor's "
                         f"{_mark(bool(p95_ratios) and statistics.median(p95_ratios) <= 3)} ≤ 3×")
        else:
            lines.append(f"- targets at {where}: errors {', '.join(map(str, errors))} {_mark(not any(errors))} = 0; "
                         f"propagation p95 {_median_line(p95s, ' ms')} "
                         f"{_mark(statistics.median(p95s) <= TARGETS['propagation_p95_loaded'])} ≤ 100 ms; "
                         f"CPU per change {cpu:.3f} ms = {_median_line(cpu_ratios, '×', 3)} the floor's "
                         f"{_mark(bool(cpu_ratios) and statistics.median(cpu_ratios) <= 3)} ≤ 3×")
    return lines


def _browser(result: dict) -> list[str]:
    w, prop = result["page_weight"], result["propagation"]
    first, entry = w["first_load"], w["entry"]
    lines = ["### In the browser (Chromium, emulated Pixel 7, SQLite)", "",
             "Bytes as transferred (compressed bodies plus headers), from the DevTools protocol; "
             "cache hits are not counted.", "",
             "| what | requests | received | sent |", "|---|---:|---:|---:|",
             f"| first load of the table page (empty cache) | {first['requests']} | {first['down_bytes']:,} B | {first['up_bytes']:,} B |",
             f"| the page opened again (static files cached) | {w['warm_load']['requests']} | {w['warm_load']['down_bytes']:,} B | {w['warm_load']['up_bytes']:,} B |",
             f"| an entry (median of {entry['samples']}) | {entry['requests']:g} | {entry['down_bytes']:,.0f} B | {entry['up_bytes']:,.0f} B |",
             f"| the other phone's poll that brings it | {w['changed_poll']['requests']:g} | {w['changed_poll']['down_bytes']:,.0f} B | {w['changed_poll']['up_bytes']:,.0f} B |",
             f"| a held poll that ran out unchanged (204, once per 20 s) | {w['idle_poll']['requests']} | {w['idle_poll']['down_bytes']:,} B | {w['idle_poll']['up_bytes']:,} B |",
             "", f"First load files: {', '.join(first['paths'])}.", "",
             f"Targets: first load {first['down_bytes'] / 1000:.1f} KB {_mark(first['down_bytes'] <= TARGETS['first_load_bytes'])} ≤ 50 KB, "
             f"{first['requests']} requests {_mark(first['requests'] <= TARGETS['first_load_requests'])} ≤ 6; "
             f"an entry {(entry['down_bytes'] + entry['up_bytes']) / 1000:.1f} KB both ways "
             f"{_mark(entry['down_bytes'] + entry['up_bytes'] <= TARGETS['entry_bytes'])} ≤ 5 KB.", "",
             f"Propagation (entry on one phone until the other phone's page shows it, {prop['entries']} entries, "
             f"no other load on the server): p50 {prop['p50_ms']} ms, p95 **{prop['p95_ms']} ms** "
             f"{_mark(prop['p95_ms'] <= TARGETS['propagation_p95'])} ≤ 1 s, max {prop['max_ms']} ms.", ""]
    return lines


def markdown(results: dict) -> str:
    lines = [BEGIN, "", f"Run of {results['date']} on {results['machine']}: `{results['command']}`, "
             f"{results['total_seconds']} s; load average (1 min) {results['load_average_before']:.1f} before, "
             f"{results['load_average_after']:.1f} after (other work on the machine).", ""]
    for name, render in (("engine", _engine), ("costs", _costs), ("load", _load), ("browser", _browser)):
        if name not in results:
            continue
        if isinstance(results[name], dict) and "failed" in results[name]:
            lines += [f"### {name}: failed", "", f"`{results[name]['failed']}`", ""]
        elif name == "load":
            lines += _load(results[name], results.get("before"))
        else:
            lines += render(results[name])
    return "\n".join(lines + [END]) + "\n"


def write_into(doc: Path, text: str) -> None:
    """Replace the marked block of ``doc`` (or append it; create the file if need be)."""
    current = doc.read_text() if doc.exists() else "# Performance\n"
    if BEGIN in current and END in current:
        head, rest = current.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        doc.write_text(head + text.rstrip("\n") + tail)
    else:
        doc.write_text(current.rstrip("\n") + "\n\n" + text)
