"""The `jackpot` command: one sub-command per module, each registering its own parsers.

Keeping the sub-commands in separate modules lets the pure-core commands (verify,
solve, simulate, selfplay) load without importing any web code.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence

#: Modules that define ``register(subparsers)``; each sub-parser sets ``func``.
COMMAND_MODULES = (
    "jackpot.cli.verify",
    "jackpot.cli.tournament",
    "jackpot.cli.core",
    "jackpot.cli.web",
    "jackpot.cli.ratings",
    "jackpot.cli.backup",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jackpot",
        description="peer2peergames' Jackpot: Shut the Box, provably fair.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if getattr(args, "passthrough", False):
        # A command with a parser of its own (bench) takes the rest as it is.
        args.passthrough_args = extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    func: Callable[[argparse.Namespace], int] = args.func
    return func(args)
