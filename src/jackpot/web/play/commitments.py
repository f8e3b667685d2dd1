"""Server seeds made before their match: handed out by their commitment, used up by one match.

A match's server seed must exist, and its commitment be shown to whoever creates the
match, before they choose their client seed. Otherwise, in a match with one person
(against the bot, or alone), the server could try seeds against theirs until the
dice suited it (docs/fair-play.md, "The order of the seeds"). So a page that starts
a match first asks ``POST /api/commitments`` for one (``issue``); its seed waits
here, and the creation names the commitment it was shown, which ``take`` turns back
into the seed, once, in the creation's own transaction. A seed nobody used is
removed after ``KEEP`` by the background step ``commitment_steps``. Programs that
name no commitment get a seed made with their match, as before.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import conflict, invalid
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.play import pending_seeds

#: How long a pending seed waits for its match: a page left open over a day asks again.
KEEP = timedelta(hours=24)
#: Seconds between two passes that remove pending seeds nobody used.
CLEANUP_EVERY = 600

_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Pending:
    """A seed handed out: what the page shows (its commitment) and until when it waits."""

    commitment: str
    expires_at: datetime


async def issue(conn: AsyncConnection, now: datetime) -> Pending:
    """A fresh server seed, kept pending in the caller's transaction."""
    server_seed = secrets.token_hex(32)
    pending = Pending(fair.commitment(server_seed), now + KEEP)
    await conn.execute(
        insert(pending_seeds).values(
            commitment=pending.commitment,
            server_seed=server_seed,
            created_at=now,
            expires_at=pending.expires_at,
        )
    )
    return pending


def check_commitment(text: str) -> str:
    """A commitment as sent: 64 lowercase hex characters, else 422."""
    if not _HEX64.fullmatch(text):
        raise invalid(
            "the commitment is the 64 lowercase hex characters the site showed",
            "bad_commitment",
        )
    return text


async def take(conn: AsyncConnection, commitment: str, now: datetime) -> str:
    """The pending seed of ``commitment``, used up in the caller's transaction (so a
    creation refused later gives it back); 409 ``commitment_unknown`` when there is
    none: never handed out, used already, or expired."""
    commitment = check_commitment(commitment)
    waiting = (pending_seeds.c.commitment == commitment) & (pending_seeds.c.expires_at > now)
    seed = (
        await conn.execute(select(pending_seeds.c.server_seed).where(waiting))
    ).scalar_one_or_none()
    # The DELETE decides between two creations naming the same commitment at once.
    if seed is None or (await conn.execute(delete(pending_seeds).where(waiting))).rowcount != 1:
        raise conflict(
            "the server's seed shown for this match was used already or has expired: "
            "reload the page to be shown a new one",
            "commitment_unknown",
        )
    return str(seed)


async def forget_expired(db: Database, now: datetime | None = None) -> int:
    """Remove the pending seeds whose time is over; returns how many went. Safe in
    several processes at once: a row is deleted once, by whichever gets it."""
    async with db.write() as conn:
        gone = await conn.execute(
            delete(pending_seeds).where(pending_seeds.c.expires_at <= (now or utcnow()))
        )
    return int(gone.rowcount)


def commitment_steps(db: Database, settings: Settings) -> list[Step]:
    """The background step that removes pending seeds nobody used."""
    del settings  # every step is offered the settings; this one needs none
    return [Step("pending seeds", CLEANUP_EVERY, lambda: forget_expired(db))]
