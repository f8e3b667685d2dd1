"""The `jackpot verify` sub-command: a record checked from its seed, a daily entry against par.

It imports no web code, so checking a record works from a bare install without a
database or a server.
"""

from __future__ import annotations

import argparse
import sys

from jackpot.engine import DailyResult
from jackpot.fair import RecordFormatError, parse_record
from jackpot.fair.verify import DailyReport, verify
from jackpot.fair.verify_daily import result_words, versus_words

#: Exit statuses: valid, a difference, not a readable record, the seed (or its parts) not
#: published yet.
VALID, INVALID, UNREADABLE, AWAITING_SEED = 0, 1, 2, 3


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="check a match record or daily entry (jackpot-record/1 to /4) against its seed",
        description="Replay a jackpot-record/1, /2, /3 or /4 from its published seed: the "
        "parts it is made of, the order of play, every die, option, cover, bot choice, the "
        "spare deadlines and the result, each format by its own rules; a daily entry's turns "
        "and score, and par (the best bot on the same dice). "
        f"Exit {VALID} when valid, {INVALID} at the first difference, {UNREADABLE} when the "
        f"input is not a readable record, {AWAITING_SEED} when what can be checked holds but "
        "the server seed, or the parts it is made of, are not published yet.",
    )
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument("-v", "--verbose", action="store_true", help="list every check made")
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
        record = parse_record(text)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return UNREADABLE
    except RecordFormatError as exc:
        print(f"not a jackpot record (/1 to /4): {exc}", file=sys.stderr)
        return UNREADABLE
    report = verify(record)
    if args.verbose:
        for check in report.checks:
            print(f"ok  {check}")
    if report.ok:
        print(report.summary)
    elif report.waiting:
        print(f"NOT YET VERIFIABLE: {report.problem}")
    else:
        print(f"INVALID: {report.problem}")
    for note in report.notes:
        print(f"  {note}")
    if report.daily is not None and (report.ok or report.waiting):
        print_daily(report.daily)
    if report.ok:
        return VALID
    return AWAITING_SEED if report.waiting else INVALID


def _scores(result: DailyResult) -> str:
    return " ".join(f"{s:>2}" for s in result.turn_scores)


def print_daily(daily: DailyReport) -> None:
    """The entry's turn scores beside par's, and how the entry stands against par."""
    turns = len(daily.result.turn_scores) if daily.result else 10
    print(f"  turn   {' '.join(f'{t:>2}' for t in range(1, turns + 1))}")
    if daily.result is None:
        done = " ".join(f"{s:>2}" for s in daily.played_scores)
        print(f"  entry  {done}{' ' if done else ''}(turn {daily.turns_played + 1} being played)")
    else:
        print(f"  entry  {_scores(daily.result)}   {result_words(daily.result)}")
    if daily.par is not None and daily.versus is not None:
        print(f"  par    {_scores(daily.par)}   {result_words(daily.par)} (the best bot)")
        print(f"  against par: {versus_words(daily.versus)}")
    else:
        print("  par    waits for the seed")
