"""What each person puts into a match's dice: their client seed, and their part of the server seed.

Every path that seats a person takes the client seed their page made in their browser
(``own_seed``); without one (an old client, a program) the server makes it, and the
record says so for that seat (``"seed_by": "server"``), so nobody is told they added
something they did not.

A match made for several people at once (play now, a challenge, a rematch, a tournament
table) has no creator to show one server seed to first, so its server seed is made of
parts, one per person: each person is shown the commitment of a part of their own
(``POST /api/commitments``, single use) before choosing their client seed, and names it
when they seat themselves (the seek, the challenge, the accept, the rematch answer, the
tournament entry). ``contribution`` turns that into the person's ``Contribution`` in the
caller's transaction; the match is then made with ``MatchSpec(parts=...)`` (or, with
the seed in hand, ``seed_of_parts``), and its record lists the parts' commitments, and
the parts once the seed is shown. These names are the contract other features build
on (docs/contracts.md, "Seeds made of parts").
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.web.base.errors import invalid
from jackpot.web.play import commitments

#: ``seats.seed_by`` (and the seek's, challenge's) for a client seed the server made.
SERVER = "server"


def own_seed(seed: str | None) -> tuple[str, bool]:
    """The client seed a person sent (422 ``bad_client_seed`` if malformed), and False;
    or, when they sent none, one the server makes, and True (their seat's part is then
    marked as the server's in the record)."""
    if seed is None or seed == "":
        return secrets.token_hex(8), True
    try:
        return fair.check_client_seed(seed), False
    except ValueError:
        raise invalid(
            "the client seed must be 1 to 64 letters, digits, _ or -", "bad_client_seed"
        ) from None


def seed_by(by_server: bool) -> str | None:
    """What a ``seed_by`` column holds: "server", or null for a seed the person chose."""
    return SERVER if by_server else None


@dataclass(frozen=True)
class Contribution:
    """One person's share of a match made for several people: their client seed (and
    whether the server made it) and their part of the server seed (secret until the
    match's seed is shown)."""

    client_seed: str
    seed_by_server: bool
    part: str

    @property
    def commitment(self) -> str:
        return fair.part_commitment(self.part)


async def take_part(conn: AsyncConnection, commitment: str | None, now: datetime) -> str:
    """The part whose commitment the person was shown (used up here, in the caller's
    transaction: 409 ``commitment_unknown`` if it is not pending), or, for a program that
    named none, one made now (the person then saw no commitment before their seed)."""
    if commitment is None or commitment == "":
        return secrets.token_hex(32)
    return await commitments.take(conn, commitment, now)


async def contribution(
    conn: AsyncConnection, client_seed: str | None, commitment: str | None, now: datetime
) -> Contribution:
    """A person's client seed and part, checked, as they seat themselves."""
    seed, by_server = own_seed(client_seed)
    return Contribution(seed, by_server, await take_part(conn, commitment, now))


def seed_of_parts(
    parts: Sequence[str], table: fair.TournamentTable | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """The server seed made of ``parts`` (joining order; a tournament table's round and
    table after them), and what ``matches.parts`` keeps of them."""
    server_seed = fair.seed_from_parts(parts, table)
    return server_seed, [fair.SeedPart(fair.part_commitment(p), p).to_dict() for p in parts]
