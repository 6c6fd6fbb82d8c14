"""The lab's commands: ``python -m engine tournament``, ``balance`` and ``sweep``."""
from __future__ import annotations

import json
import sys

from ..errors import InvalidRecord
from .bots import BOTS

BIRD_GAMES = ("cubirds", "gleich-und-gleich")
QUICK_GAMES = 12


def add_commands(sub) -> None:
    """Add the lab's subcommands to ``python -m engine``'s parser."""
    p = sub.add_parser("tournament", help="bird-game bots against each other (seats rotated)")
    p.add_argument("--game", required=True, choices=BIRD_GAMES)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--bots", default="random,greedy,strong", help="comma-separated: " + ", ".join(BOTS))
    _common(p)
    p.set_defaults(func=tournament_main)

    p = sub.add_parser("balance", help="how a bird game behaves with one bot in every seat (--players 1: solo)")
    p.add_argument("--game", required=True, choices=BIRD_GAMES)
    p.add_argument("--players", type=int, default=2, help="2–5, or 1 for solo against RobinBird")
    p.add_argument("--options", default="", help='options as JSON, e.g. {"fast": true}; solo: {"robin_handicap": 2} '
                                                 "(default: 0–3)")
    p.add_argument("--bot", default="strong", choices=sorted(BOTS))
    _common(p)
    p.set_defaults(func=balance_main)

    p = sub.add_parser("sweep", help="every balance figure: engine/lab/data/simulated.json, docs/balance/*.svg")
    p.add_argument("--games", type=int, default=10000, help="games per bird configuration (greedy bots)")
    p.add_argument("--strong-games", type=int, default=100, help="games per bird configuration with strong bots")
    p.add_argument("--tournament-games", type=int, default=240, help="games per tournament (greedy against strong)")
    p.add_argument("--rummy-games", type=int, default=2000, help="games per Gemeinsame Sache team and pile size")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--processes", type=int, default=None)
    p.add_argument("--quick", action="store_true", help="tiny sizes, one process, nothing written (for tests)")
    p.add_argument("--only", default="", help="comma-separated parts: birds, tournament, solo, rummy, variants, "
                                              "recommend, strong-solo, strong (default: all, in this order)")
    p.add_argument("--resume", action="store_true",
                   help="keep the figures of the data file made with the same size and seed (they would come out the same)")
    p.set_defaults(func=sweep_main)


def _common(p) -> None:
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--processes", type=int, default=None, help="worker processes (default: one per core)")
    p.add_argument("--quick", action="store_true", help=f"at most {QUICK_GAMES} games in one process (for tests)")
    p.add_argument("--json", action="store_true")


def _sizes(args) -> tuple[int, int | None]:
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.quick:
        return min(args.games, QUICK_GAMES), 1
    return args.games, args.processes


def _fail(err) -> int:
    print(f"invalid arguments: {getattr(err, 'message', err)}", file=sys.stderr)
    return 2


def tournament_main(args) -> int:
    from .runs import tournament

    try:
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        unknown = [b for b in bots if b not in BOTS]
        if unknown or not bots:
            raise ValueError(f"unknown bot(s) {', '.join(unknown) or '(none)'}; known: {', '.join(BOTS)}")
        games, processes = _sizes(args)
        result = tournament(args.game, args.players, bots, games, args.seed, processes)
    except (ValueError, InvalidRecord) as err:
        return _fail(err)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.game}, {args.players} players, {games} games, seed {args.seed} (seats rotated)")
    print("bot       games  win rate  95 % interval    ms/turn")
    for row in result["bots"]:
        low, high = row["ci95"]
        print(f"{row['bot']:<8} {row['games']:>6}  {row['win_rate']:>7.1%}  {low:.1%}–{high:.1%}"
              f"  {row['ms_per_turn']:>9.2f}")
    return 0


def balance_main(args) -> int:
    from .runs import balance, solo

    try:
        options = json.loads(args.options) if args.options else {}
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object")
        games, processes = _sizes(args)
        if args.players == 1 or options.get("solo"):
            options.pop("solo", None)
            handicap = options.pop("robin_handicap", None)
            if handicap is not None and (type(handicap) is not int or not 0 <= handicap <= 8):
                raise ValueError("robin_handicap must be an integer 0–8")
            handicaps = range(4) if handicap is None else [handicap]
            results = [solo(args.game, options, args.bot, h, games, args.seed, processes) for h in handicaps]
        else:
            results = [balance(args.game, args.players, options, args.bot, games, args.seed, processes)]
    except (ValueError, InvalidRecord) as err:
        return _fail(err)
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0]))
        return 0
    for r in results:
        print(format_entry(r))
    return 0


def format_entry(r: dict) -> str:
    """A balance or solo result in a few readable lines."""
    head = f"{r['game']} {json.dumps(r['options'])}, bot {r['bot']}, {r['games']} games, seed {r['seed']}"
    if "win_rate" in r:
        low, high = r["ci95"]
        return f"{head}\n  win rate against RobinBird {r['win_rate']:.1%} ({low:.1%}–{high:.1%})"
    lines = [f"{head}, {r['players']} players",
             f"  turns {_mean(r['turns'])}, rounds {_mean(r['rounds'])}, reshuffles {_mean(r['reshuffles'])}",
             "  endings " + ", ".join(f"{k} {v:.1%}" for k, v in r["endings"].items()),
             "  win rate by seat " + ", ".join(f"{s['seat'] + 1}: {s['rate']:.1%} ({s['ci95'][0]:.1%}–{s['ci95'][1]:.1%})"
                                               for s in r["seat_win_rate"])]
    return "\n".join(lines)


def _mean(m: dict) -> str:
    return f"{m['mean']:.2f} ({m['ci95'][0]:.2f}–{m['ci95'][1]:.2f})"


def sweep_main(args) -> int:
    from .sweep import run_sweep

    return run_sweep(args)
