"""Sub-commands over the pure core: solve, simulate, selfplay.

They import no web code, so checking a record or solving a position works from a
bare install without a database or a server.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any, TextIO

from jackpot.engine import FULL, Match, Variant
from jackpot.strategy.strength import Strength

STRENGTHS = ("lowest", "highest", "best")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "solve",
        help="exact odds for a position: P(shut the box), expected score, per bot",
        description="Exact values (computed in fractions) for a turn starting from the given "
        "open tiles: the highest probability of shutting the box, the lowest expected "
        "turn score, and what each bot strength achieves.",
    )
    _variant_arg(p)
    p.add_argument("--open", default="1,2,3,4,5,6,7,8,9", help="open tiles, e.g. 1,2,5")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser(
        "simulate",
        help="play many solo turns with a bot and compare with the exact odds",
        description="Monte Carlo of N solo turns from a full board by one bot (NumPy, "
        "reproducible from --seed): jackpot rate with a 95% interval beside the exact "
        "value, mean score, and a score histogram. With --actions: the moves a turn asks "
        "of a person, with and without autoplay, played on the engine.",
    )
    _variant_arg(p)
    p.add_argument("--strength", choices=STRENGTHS, default="best")
    p.add_argument(
        "--turns",
        type=_positive_int,
        help="turns to play (default 1,000,000; 100,000 with --actions)",
    )
    p.add_argument(
        "--actions",
        action="store_true",
        help="count throws and covers per turn, and what autoplay leaves to the person",
    )
    p.add_argument("--seed", type=int, default=None, help="RNG seed (default: random)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "selfplay",
        help="a whole match between bots, written as a finished record",
        description="Play a match between bots, strengths drawn from the seed as on the "
        "site, and write it as a finished jackpot-record/3 (for demos and verifiers; "
        "with nobody to favour, bots keep their joining order).",
    )
    _variant_arg(p)
    p.add_argument("--seats", type=int, choices=(1, 2, 3, 4), default=2)
    p.add_argument("--server-seed", help="64 lowercase hex characters (default: random)")
    p.add_argument("--client-seed", default="selfplay", help="1-64 of A-Za-z0-9_-")
    p.add_argument("--out", help="write here instead of standard output")
    p.set_defaults(func=cmd_selfplay)


def _variant_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=[v.value for v in Variant], default="jackpot")


def _positive_int(text: str) -> int:
    value = int(text.replace("_", ""))
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return value


# -- solve ----------------------------------------------------------------------


def _parse_open(text: str) -> frozenset[int]:
    text = text.strip()
    if not text:
        return frozenset()
    try:
        tiles = [int(t) for t in text.split(",")]
    except ValueError:
        raise SystemExit(f"--open: expected tiles like 1,2,5, not {text!r}") from None
    if any(not 1 <= t <= 9 for t in tiles) or len(set(tiles)) != len(tiles):
        raise SystemExit(f"--open: tiles are distinct numbers from 1 to 9, not {text!r}")
    return frozenset(tiles)


def cmd_solve(args: argparse.Namespace) -> int:
    from jackpot.strategy.policy import policy_values
    from jackpot.strategy.solver import expected_score_min, p_shut_max

    variant = Variant(args.variant)
    open_tiles = _parse_open(args.open)
    p_max = p_shut_max(variant, open_tiles)
    e_min = expected_score_min(variant, open_tiles)
    policies = {s.value: policy_values(variant, s, open_tiles) for s in Strength}
    if args.json:
        out: dict[str, Any] = {
            "variant": variant.value,
            "open": sorted(open_tiles),
            "p_shut_max": float(p_max),
            "expected_score_min": float(e_min),
            "policies": {
                name: {"p_shut": float(p), "expected_score": float(e)}
                for name, (p, e) in policies.items()
            },
            "exact": {
                "p_shut_max": str(p_max),
                "expected_score_min": str(e_min),
                "policies": {
                    name: {"p_shut": str(p), "expected_score": str(e)}
                    for name, (p, e) in policies.items()
                },
            },
        }
        print(json.dumps(out, indent=2))
        return 0
    label = ",".join(map(str, sorted(open_tiles))) or "none"
    print(f"{variant.value}, open tiles {label}")
    print(f"  best chance of shutting the box  {_pct(p_max)}  ({p_max})")
    print(f"  lowest expected turn score       {float(e_min):.4f}  ({e_min})")
    print("  bots:")
    for name, (p, e) in policies.items():
        print(f"    {name:<8} P(shut) {_pct(p)}   expected score {float(e):.4f}")
    return 0


def _pct(p: Fraction | float) -> str:
    return f"{float(p) * 100:8.5f}%"


# -- simulate -------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    import numpy as np

    from jackpot.strategy.policy import policy_values
    from jackpot.strategy.simulate import simulate

    variant = Variant(args.variant)
    strength = Strength(args.strength)
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    if args.actions:
        return _simulate_actions(args, variant, strength, seed)
    turns = args.turns or 1_000_000
    rng = np.random.default_rng(seed)
    bar = _progress_bar(turns, sys.stderr) if not args.json else None
    try:
        result = simulate(variant, strength, turns, rng, bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()
    exact_p, exact_e = policy_values(variant, strength, FULL)
    low, high = result.interval
    if args.json:
        print(
            json.dumps(
                {
                    "variant": variant.value,
                    "strength": strength.value,
                    "turns": result.turns,
                    "seed": seed,
                    "shut": result.shut,
                    "shut_rate": result.shut_rate,
                    "interval95": [low, high],
                    "exact_p_shut": float(exact_p),
                    "mean_score": result.mean_score,
                    "exact_expected_score": float(exact_e),
                    "histogram": list(result.histogram),
                },
                indent=2,
            )
        )
        return 0
    word = "jackpot" if variant is Variant.JACKPOT else "shut-box"
    print(f"{result.turns:,} {variant.value} turns by the {strength.value} bot (seed {seed})")
    print(
        f"  {word} rate  {result.shut_rate * 100:.4f}%  "
        f"95% interval [{low * 100:.4f}%, {high * 100:.4f}%]  exact {float(exact_p) * 100:.4f}%"
    )
    print(f"  mean score    {result.mean_score:.4f}  exact {float(exact_e):.4f}")
    print("  score histogram:")
    peak = max(result.histogram) or 1
    for score, count in enumerate(result.histogram):
        if count:
            bar_len = round(40 * count / peak)
            print(f"    {score:>2} {count:>10,} {'#' * bar_len}")
    return 0


#: Rows of the --actions table: (key, words), per turn.
_ACTION_ROWS = (
    ("forced_throws", "throws with no choice (two dice)"),
    ("chosen_throws", "throws choosing one die or two"),
    ("single_covers", "covers with a single option"),
    ("chosen_covers", "covers with two options or more"),
    ("without_autoplay", "actions without autoplay"),
    ("autoplay_throws", "actions, autoplay of throws only"),
    ("autoplay_covers", "actions, autoplay of single covers only"),
    ("autoplay_both", "actions with autoplay (real choices)"),
)


def _simulate_actions(
    args: argparse.Namespace, variant: Variant, strength: Strength, seed: int
) -> int:
    """Play turns on the engine and count what a person would have had to press."""
    import random

    from jackpot.strategy.pace import count_turns, expected_moves

    turns = args.turns or 100_000
    rng = random.Random(seed)

    def roll(n: int, count: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(count))

    counted = count_turns(variant, strength, turns, roll)
    exact = expected_moves(variant, strength)
    rows = []
    for key, words in _ACTION_ROWS:
        values = [getattr(t, key) for t in counted]
        mean = sum(values) / turns
        var = sum((v - mean) ** 2 for v in values) / max(1, turns - 1)
        half = 1.959963984540054 * (var / turns) ** 0.5
        rows.append((key, words, mean, half, float(getattr(exact, key))))
    if args.json:
        out = {
            "variant": variant.value,
            "strength": strength.value,
            "turns": turns,
            "seed": seed,
            "per_turn": {
                key: {"mean": mean, "interval95": [mean - half, mean + half], "exact": ex}
                for key, _, mean, half, ex in rows
            },
        }
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"{turns:,} {variant.value} turns by the {strength.value} bot, on the engine (seed {seed})"
    )
    print(f"  {'per turn':<40} {'simulated':>9}  {'95% interval':<17} {'exact':>7}")
    for _, words, mean, half, ex in rows:
        interval = f"[{mean - half:.3f}, {mean + half:.3f}]"
        print(f"  {words:<40} {mean:>9.3f}  {interval:<17} {ex:>7.3f}")
    return 0


class _Bar:
    """tqdm on a terminal, nothing when output is piped (no noise in logs)."""

    def __init__(self, total: int, stream: TextIO) -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=total, unit=" turns", unit_scale=True, file=stream, leave=False)

    def update(self, n: int) -> None:
        self._bar.update(n)

    def close(self) -> None:
        self._bar.close()


def _progress_bar(total: int, stream: TextIO) -> _Bar | None:
    return _Bar(total, stream) if stream.isatty() else None


# -- selfplay -------------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> int:
    from jackpot.fair import (
        Record,
        RecordEvent,
        SeatEntry,
        bot_strength,
        check_client_seed,
        check_server_seed,
        commitment,
        order_of_play,
        throw_dice,
    )
    from jackpot.fair.recorder import append_events
    from jackpot.strategy.autoplay import play_bots

    try:
        server_seed = check_server_seed(args.server_seed or secrets.token_hex(32))
        client_seed = check_client_seed(args.client_seed)
    except ValueError as exc:
        print(f"selfplay: {exc}", file=sys.stderr)
        return 2
    variant = Variant(args.variant)
    strengths = [bot_strength(server_seed, client_seed, s) for s in range(args.seats)]

    def roll(n: int, count: int) -> tuple[int, ...]:
        return throw_dice(server_seed, client_seed, n, count)

    match, events = play_bots(Match.new(variant, args.seats), strengths, roll)
    log: list[RecordEvent] = []
    append_events(log, events)
    assert match.result is not None
    record = Record(
        id=f"m_selfplay_{commitment(server_seed)[:12]}",
        variant=variant,
        deadline_seconds=86400,
        created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        seats=tuple(SeatEntry(name=f"Bot {s + 1}", bot=strengths[s]) for s in range(args.seats)),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=match.result,
        joined=order_of_play(server_seed, client_seed, args.seats, people=0),
        rules=match.rules,
    )
    text = record.to_json()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
