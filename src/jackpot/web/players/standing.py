"""Where a player stands: the variants rated, how soon a rating settles, whether it has.

The account page and the profile say it; the leaderboard lists who has settled.
"""

from __future__ import annotations

from functools import cache

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.errors import invalid
from jackpot.web.base.tables import players as r
from jackpot.web.players.ratings import (
    PROVISIONAL_SIGMA,
    START_MU,
    START_SIGMA,
    is_provisional,
    rate,
)

VARIANTS = ("jackpot", "classic")


def check_variant(value: str | None) -> str:
    """The variant asked for (Jackpot when none), or 422."""
    value = value or "jackpot"
    if value not in VARIANTS:
        raise invalid("variant must be 'jackpot' or 'classic', not %(given)s", given=repr(value))
    return value


@cache
def matches_to_settle() -> tuple[int, int]:
    """The fewest and the most rated two-person matches a new player's rating takes
    to settle (no longer provisional), worked out from the model itself, so what the
    account page promises is what the code does: alternating results against players
    just settled settle it fastest, results all one way against newcomers slowest."""

    def count(opponent_sigma: float, alternate: bool) -> int:
        mine, n = (START_MU, START_SIGMA), 0
        while is_provisional(mine[1]):
            n += 1
            places = [2, 1] if alternate and n % 2 == 0 else [1, 2]
            mine = rate([mine, (START_MU, opponent_sigma)], places)[0]
        return n

    return count(PROVISIONAL_SIGMA, True), count(START_SIGMA, False)


async def standing(conn: AsyncConnection, user_id: int) -> tuple[bool, int]:
    """Whether the player's rating has settled in a variant (so an opt-in lists them
    at once), and their rated matches in the variant where they have the most."""
    rows = (
        await conn.execute(
            select(r.player_ratings.c.provisional, r.player_ratings.c.matches).where(
                r.player_ratings.c.user_id == user_id
            )
        )
    ).all()
    return any(not x.provisional for x in rows), max((x.matches for x in rows), default=0)
