"""The background steps of finding people: seeks and challenges past their time expire.

Each pass claims the rows with a conditional UPDATE (still waiting or open, and
past their time), so any number of processes may run it at once; a seek's page
hears that its seek expired, and both sides of a challenge that it did. Until a
pass runs, the API already shows such a seek as expired and pairs nobody with it
(seeks.py reads the time too).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update

from jackpot.web.base.clock import utcnow
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database, publish_on_commit
from jackpot.web.base.tables.people import challenges, seeks
from jackpot.web.people.mail import send_challenge_mails
from jackpot.web.people.rules import tell
from jackpot.web.people.seeks import ping_seeks, seek_channel

#: Seconds between passes: a seek's own time is also checked where it is read.
EVERY = 30.0
#: Seconds between passes of the challenge mails.
MAIL_EVERY = 5.0
#: Rows one pass expires at most (the next pass takes the rest).
BATCH = 500


async def expire_once(db: Database, now: datetime | None = None) -> int:
    """Expire the seeks and challenges whose time is over; returns how many."""
    now = now or utcnow()
    async with db.write() as conn:
        due = [
            r.id
            for r in await conn.execute(
                select(seeks.c.id)
                .where(seeks.c.status == "waiting", seeks.c.expires_at <= now)
                .limit(BATCH)
            )
        ]
        if due:
            await conn.execute(
                update(seeks)
                .where(seeks.c.id.in_(due), seeks.c.status == "waiting")
                .values(status="expired")
            )
            for seek_id in due:
                publish_on_commit(
                    conn, seek_channel(seek_id), [{"type": "expired", "seek": seek_id}]
                )
            ping_seeks(conn)
        ended = (
            await conn.execute(
                update(challenges)
                .where(challenges.c.status == "open", challenges.c.expires_at <= now)
                .values(status="expired")
                .returning(challenges.c.id, challenges.c.from_id, challenges.c.to_id)
            )
        ).all()
        for row in ended:
            event = {"type": "expired", "challenge": row.id}
            tell(conn, row.from_id, event)
            tell(conn, row.to_id, event)
    return len(due) + len(ended)


def people_steps(db: Database, settings: Settings) -> list[Step]:
    """Finding people's background steps: seeks and challenges expire, and the
    challenged are mailed (people/mail.py) at the mail workers' pace."""
    return [
        Step("seeks and challenges expiry", EVERY, lambda: expire_once(db)),
        Step("challenge mails", MAIL_EVERY, lambda: send_challenge_mails(db, settings)),
    ]
