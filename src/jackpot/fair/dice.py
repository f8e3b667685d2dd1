"""The jackpot-fair/1 byte stream, dice and bot strengths.

Everything here is a pure function of (server seed, client seed, label), so a
verifier in any language can reproduce every die from the published record.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator

from jackpot.fair.seeds import check_server_seed
from jackpot.strategy.strength import STRENGTH_ORDER, Strength

#: A kept byte is < 252 = 42 * 6, so b % 6 is exactly uniform (rejection sampling).
DIE_LIMIT = 252
#: A kept byte is < 255 = 85 * 3, so b % 3 is exactly uniform.
STRENGTH_LIMIT = 255


def byte_stream(server_seed: str, label: str) -> Iterator[int]:
    """Endless bytes for a label: HMAC(seed, label), then HMAC(seed, label:1), label:2 ...

    The key is the seed's 64 ASCII hex characters (not the 32 bytes they spell), which
    is what the published test vectors use.
    """
    key = check_server_seed(server_seed).encode("ascii")
    yield from hmac.digest(key, label.encode(), hashlib.sha256)
    k = 1
    while True:
        yield from hmac.digest(key, f"{label}:{k}".encode(), hashlib.sha256)
        k += 1


def throw_label(client_seed: str, n: int) -> str:
    return f"{client_seed}:{n}"


def bot_label(client_seed: str, seat: int) -> str:
    return f"{client_seed}:bot:{seat}"


def position_label(client_seed: str, turn: int, open_tiles: Iterable[int]) -> str:
    """A daily deal's throw by position: ``client_seed:t:O``, O the open tiles as
    ascending digits (``123456789`` on a full board)."""
    tiles = sorted(set(open_tiles))
    if not tiles or any(isinstance(t, bool) or t not in range(1, 10) for t in tiles):
        raise ValueError(f"the open tiles are some of 1-9, not {tiles!r}")
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise ValueError(f"a turn number is a whole number >= 0, got {turn!r}")
    return f"{client_seed}:{turn}:{''.join(map(str, tiles))}"


def label_dice(server_seed: str, label: str, count: int = 2) -> tuple[int, ...]:
    """The dice a label's stream gives: each byte < 252 kept is ``b % 6 + 1``."""
    if count not in (1, 2) or isinstance(count, bool):
        raise ValueError(f"a throw is 1 or 2 dice, not {count!r}")
    dice: list[int] = []
    for b in byte_stream(server_seed, label):
        if b >= DIE_LIMIT:
            continue
        dice.append(b % 6 + 1)
        if len(dice) == count:
            break
    return tuple(dice)


def throw_dice(server_seed: str, client_seed: str, n: int, count: int = 2) -> tuple[int, ...]:
    """The dice of throw ``n`` (0-based over the whole match, dead throws included).

    A one-die throw is die 1 of the same stream, so choosing one die cannot change
    what the first die would have been.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"throw number must be a whole number >= 0, got {n!r}")
    return label_dice(server_seed, throw_label(client_seed, n), count)


def position_dice(
    server_seed: str, client_seed: str, turn: int, open_tiles: Iterable[int], count: int = 2
) -> tuple[int, ...]:
    """The dice of a daily deal by position: whoever faces the open tiles ``open_tiles``
    in turn ``turn`` (0-based) gets this throw, however they got there."""
    return label_dice(server_seed, position_label(client_seed, turn, open_tiles), count)


def bot_strength(server_seed: str, client_seed: str, seat: int) -> Strength:
    """The strength a bot in ``seat`` plays at, hidden until the seed is published."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise ValueError(f"seat must be a whole number >= 0, got {seat!r}")
    for b in byte_stream(server_seed, bot_label(client_seed, seat)):
        if b < STRENGTH_LIMIT:
            return STRENGTH_ORDER[b % 3]
    raise AssertionError("unreachable: the byte stream is endless")  # pragma: no cover
