"""Seeds that make the bot throw first in a match against one person, found by replaying
the rules: for tests that need the bot's opening turn (played out on the page, counted
into the person's first deadline), and the rarer one where the bot wins on it.

A test puts ``SERVER_SEED`` in the pending seeds (``pending_row``) and creates the match
with its commitment and the client seed found here, as the home page does.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

from jackpot import fair
from jackpot.engine import Match, Variant
from jackpot.strategy.autoplay import play_bots

SERVER_SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
COMMITMENT = fair.commitment(SERVER_SEED)


@functools.cache
def bot_first_seed(variant: str, *, bot_wins: bool, skip: int = 0) -> str:
    """A client seed that draws the bot to throw first, and with which the bot's
    opening turn ends the match (``bot_wins``: Classic, by shutting the box) or leaves
    the person to throw. ``skip``: the how-manieth such seed (for several matches)."""
    for k in range(200_000):
        seed = f"first{k}"
        if fair.order_of_play(SERVER_SEED, seed, 2, people=1)[0] != 1:
            continue
        strengths = [fair.bot_strength(SERVER_SEED, seed, 0), None]
        m, _ = play_bots(
            Match.new(Variant(variant), 2),
            strengths,
            lambda n, count, s=seed: fair.throw_dice(SERVER_SEED, s, n, count),
        )
        if m.finished == bot_wins and (bot_wins or m.throws >= 3):
            if skip == 0:
                return seed
            skip -= 1
    raise LookupError("no such seed")


def pending_row(now: datetime) -> dict[str, Any]:
    """``SERVER_SEED`` as a pending seed (insert it into ``pending_seeds``)."""
    return {
        "commitment": COMMITMENT,
        "server_seed": SERVER_SEED,
        "created_at": now,
        "expires_at": now + timedelta(hours=1),
    }


def pending_sql(database_url: str) -> str:
    """The statement that makes ``SERVER_SEED`` pending for an hour on a test server's
    database (tests/testdb.py's ``execute`` runs it), whichever database it is."""
    later, now = (
        ("datetime('now', '+1 hour')", "datetime('now')")
        if database_url.startswith("sqlite")
        else ("now() + interval '1 hour'", "now()")
    )
    return (
        "INSERT INTO pending_seeds (commitment, server_seed, created_at, expires_at) "
        f"VALUES ('{COMMITMENT}', '{SERVER_SEED}', {now}, {later}) ON CONFLICT DO NOTHING"
    )
