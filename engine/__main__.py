"""Command line: ``python -m engine replay FILE``, ``random``, ``simulate``, ``bench``; the lab's
``tournament``, ``balance`` and ``sweep`` (engine/lab/cli.py)."""
from __future__ import annotations

import argparse
import json
import sys

from . import GAMES, InvalidRecord, load_record, replay_until_illegal
from .records import parse_options


def cmd_replay(args) -> int:
    try:
        game, error = replay_until_illegal(load_record(args.file))
    except InvalidRecord as err:
        print(f"invalid record: {err.message}", file=sys.stderr)
        return 2
    print(json.dumps(game.state(), ensure_ascii=False, indent=2))
    if error is not None:
        print(f"event {error.index}: {error.message}", file=sys.stderr)
        return 1
    return 0


def cmd_random(args) -> int:
    from .randomplay import random_record

    try:
        record = random_record(args.game, parse_options(args.options), args.players, args.seed)
    except InvalidRecord as err:
        print(f"invalid arguments: {err.message}", file=sys.stderr)
        return 2
    json.dump(record, sys.stdout, ensure_ascii=False, indent=args.indent)
    sys.stdout.write("\n")
    return 0


def cmd_simulate(args) -> int:
    from .rummy.simulate import main as simulate_main

    return simulate_main(args)


def cmd_bench(args) -> int:
    from .bench import main as bench_main

    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="print the state after a record's last event")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("random", help="write a random, legal, complete record")
    p.add_argument("--game", required=True, choices=sorted(GAMES))
    p.add_argument("--options", default="", help="options as JSON")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--indent", type=int, default=None)
    p.set_defaults(func=cmd_random)

    p = sub.add_parser("simulate", help="simulate Gemeinsame Sache with the simple strategy")
    p.add_argument("game", choices=["gemeinsame-sache"])
    p.add_argument("--draw-pile", type=int, default=None, help="one size, or all with --sweep")
    p.add_argument("--sweep", action="store_true", help="every draw-pile size 1..33")
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--processes", type=int, default=None)
    p.add_argument("--options", default="", help="further options as JSON")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("bench", help="engine benchmarks (events/s, replay time, games/s)")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    from .lab.cli import add_commands as add_lab_commands

    add_lab_commands(sub)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
