"""`jackpot verify-tournament` checks a Swiss tournament's export; `selfplay-tournament` makes one.

Like `jackpot verify`, they import no web code: an export downloaded from the site is
checked from a bare install, without a database or a server.
"""

from __future__ import annotations

import argparse
import hashlib
import secrets
import sys

from jackpot.cli.verify import AWAITING_SEED, INVALID, UNREADABLE, VALID
from jackpot.engine import MAX_TABLE, MIN_TABLE, Variant
from jackpot.fair.fields import RecordFormatError
from jackpot.fair.tournament import MAX_ROUNDS, Settings, parse_tournament
from jackpot.fair.tournament_play import Player, play_tournament
from jackpot.fair.verify_tournament import verify_tournament
from jackpot.strategy.strength import Strength

#: Bots' tournaments are for demos and tests: enough players for a few rounds.
MAX_SELFPLAY_PLAYERS = 200


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify-tournament",
        help="check a Swiss tournament's export (jackpot-tournament/1) round by round",
        description="Recompute every round's pairing from the standings, every table's seeds "
        "from its players' client seeds and parts, check every match record as `jackpot "
        "verify` does, and recompute every point, Buchholz and the standings. "
        f"Exit {VALID} when valid, {INVALID} at the first difference, {UNREADABLE} when the "
        f"input is not a readable export, {AWAITING_SEED} when what can be checked holds but "
        "the tournament is being played (its parts are published when it ends).",
    )
    p.add_argument("file", help="export file, or - for standard input")
    p.add_argument("-v", "--verbose", action="store_true", help="list every check made")
    p.set_defaults(func=cmd_verify_tournament)

    p = sub.add_parser(
        "selfplay-tournament",
        help="a whole Swiss tournament between bots, written as its export",
        description="Play a Swiss tournament whose players' moves are chosen by the bots "
        "(strengths in turn: lowest, highest, best), every table seeded from the players' "
        "parts, and write its export (jackpot-tournament/1), for demos and verifiers.",
    )
    p.add_argument("--variant", choices=[v.value for v in Variant], default="jackpot")
    p.add_argument("--players", type=_players, default=10, help="2 to 200 (default 10)")
    p.add_argument("--table-size", type=int, choices=range(MIN_TABLE, MAX_TABLE + 1), default=4)
    p.add_argument("--rounds", type=int, choices=range(1, MAX_ROUNDS + 1), default=4)
    p.add_argument("--seed", help="any text: the parts come from it (default: random)")
    p.add_argument("--out", help="write here instead of standard output")
    p.set_defaults(func=cmd_selfplay_tournament)


def _players(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
    if not 2 <= count <= MAX_SELFPLAY_PLAYERS:
        raise argparse.ArgumentTypeError(f"2 to {MAX_SELFPLAY_PLAYERS} players, not {count}")
    return count


def cmd_selfplay_tournament(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.token_hex(16)
    strengths = list(Strength)
    players = [
        Player(
            name=f"Bot {i + 1}",
            rating=float(args.players - i),
            client_seed=f"bot{i + 1}",
            part=hashlib.sha256(f"{seed}:{i}".encode()).hexdigest(),
            strength=strengths[i % len(strengths)],
        )
        for i in range(args.players)
    ]
    settings = Settings(
        variant=Variant(args.variant),
        table_size=args.table_size,
        deadline_seconds=86400,
        spares=2,
        rounds=args.rounds,
        round_seconds=7 * 86400,
        starts="2026-12-10T18:00:00Z",
        public=True,
        max_players=args.players,
    )
    text = play_tournament(settings, players, tournament_id="t_selfplay").to_json()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_verify_tournament(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
        export = parse_tournament(text)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return UNREADABLE
    except RecordFormatError as exc:
        print(f"not a tournament export (jackpot-tournament/1): {exc}", file=sys.stderr)
        return UNREADABLE
    report = verify_tournament(export)
    if args.verbose:
        for check in report.checks:
            print(f"ok  {check}")
    if report.ok:
        print(report.summary)
        return VALID
    if report.awaiting_parts:
        print(f"NOT YET VERIFIABLE: {report.problem}")
        return AWAITING_SEED
    print(f"INVALID: {report.problem}")
    return INVALID
