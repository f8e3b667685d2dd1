"""The order of play drawn from the seed (jackpot-record/2): who throws first is nobody's pick.

In Classic a shut box wins before later seats throw, so throwing first is worth
something; if the creator's seat always went first, making the match would buy that
advantage. The draw happens when the last seat is taken, from the committed server
seed and the complete client seed, so neither the server nor any player can steer it.
"""

from __future__ import annotations

from jackpot.fair.dice import byte_stream


def seats_label(client_seed: str) -> str:
    return f"{client_seed}:seats"


def draw_order(server_seed: str, client_seed: str, seats: int) -> tuple[int, ...]:
    """Fisher-Yates over the joining order ``[0, 1, ..., seats - 1]`` with the label's bytes.

    Position ``p`` of the result holds the joining index of the seat that plays p-th.
    For i = seats-1 down to 1 the next byte b is skipped while b >= 256 - 256 % (i + 1)
    (so b % (i + 1) is exactly uniform), then positions i and b % (i + 1) swap.
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 4:
        raise ValueError(f"a match has 1 to 4 seats, not {seats!r}")
    order = list(range(seats))
    stream = byte_stream(server_seed, seats_label(client_seed))
    for i in range(seats - 1, 0, -1):
        span = i + 1
        limit = 256 - 256 % span
        b = next(stream)
        while b >= limit:
            b = next(stream)
        j = b % span
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def order_of_play(
    server_seed: str, client_seed: str, seats: int, *, people: int
) -> tuple[int, ...]:
    """The order a match plays in: drawn, unless no person sits at it.

    A bots-only match (selfplay) has nobody to favour and a client seed chosen by
    whoever ran it, so it keeps the joining order; one seat has nothing to draw.
    """
    if people == 0:
        return tuple(range(seats))
    return draw_order(server_seed, client_seed, seats)
