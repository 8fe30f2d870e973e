"""The engine's command line: `python -m tables.engine <command> ...`.

    python -m tables.engine count --family classic "A♥ K♥ 6♣" "Ah Kh Qh"
    printf 'Ah Kh 6c\\n7c 9s Js\\n' | python -m tables.engine count --family bulgarian

Each command is a subparser registered by a function `register(subparsers)` that adds its parser and sets
`run=<function(args) -> int exit status>`. `count` lives here; `simulate` lives in `tables/engine/simulate.py`
(its own `register`), imported only when the command line runs a command other than `count`, and only if that
module exists.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from .cards import FAMILIES, CardError, format_hand, parse_hand
from .points import hand_points

# Modules beside this one that add their own command (each defines `register(subparsers)`).
PLUGGED_COMMANDS = ("tables.engine.simulate",)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "count",
        help="points and name of hands (RULES.md §2), one JSON object a line",
        description=(
            "Print the points and name of each hand as one JSON object a line. Hands are given as arguments, "
            "or, with none, read one a line from standard input. Cards as A♥ or Ah (a ten: 10♥, 10h or Th)."
        ),
    )
    parser.add_argument(
        "--family", choices=FAMILIES, default="classic", help="rule family (default: classic)"
    )
    parser.add_argument("hands", nargs="*", metavar="HAND", help='three cards, e.g. "A♥ K♥ 6♣" or "Ah,Kh,6c"')
    parser.set_defaults(run=count)


def count(args: argparse.Namespace) -> int:
    if args.hands:
        lines = ((f"argument {n}", text) for n, text in enumerate(args.hands, 1))
    else:
        lines = ((f"line {n}", text) for n, text in enumerate(sys.stdin, 1) if text.strip())
    status = 0
    for where, text in lines:
        text = text.strip()
        try:
            cards = parse_hand(text)
            points = hand_points(args.family, cards)
        except CardError as error:
            print(f"error: {where} {text!r}: {error}", file=sys.stderr)
            status = 1
            continue
        record = {"hand": format_hand(cards), "points": points.points, "name": points.name}
        print(json.dumps(record, ensure_ascii=False))
    return status


def build_parser(*, plugged: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tables.engine", description="Svara game engine tools.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    register(subparsers)
    for name in PLUGGED_COMMANDS if plugged else ():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:  # the module is there but something it needs is not: say so
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # `count` needs none of the plugged commands: don't import them (nor what they import) for it.
    args = build_parser(plugged=argv[:1] != ["count"]).parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    # Cards are written with suit symbols: read and write UTF-8 whatever the terminal's locale says.
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8")
    sys.exit(main())
