"""Rematch: offered after a match between people, started when all have accepted.

Any seat may offer to play again with the same seats, variant and deadline; the
new match starts once every person has accepted.

The new match's server seed is fixed when the offer is made (the pending seed whose
commitment the offering page showed, or one made then), and the offer shows its
commitment to everyone: so every person, the one offering included, sees it before
sending a client seed (docs/fair-play.md, "The order of the seeds"). An acceptance
may name the commitment it was shown; if the offer changed meanwhile, it is refused.
The new match is made by the ordinary actions (``create_match`` for seat 0 with that
seed, then ``join_match`` for the others in seat order), in one transaction with the
offer's last acceptance, and each person's client seed is the one they sent with
their acceptance (the page proposes a fresh random one). Bots come along; the order
of play and their strengths are drawn again from the new seeds. All work on one
offer is serialised by the finished match's row lock (a conditional UPDATE on the
offer's ``version`` as well), so two people accepting at once start exactly one
match. Each offer, acceptance and refusal is told to the rematch listeners the app
registered (hooks.py) in the same transaction: the other players' notices and live
streams.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import conflict, forbidden
from jackpot.web.base.identity import Actor
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.play import rematch_offers, rematch_seeds
from jackpot.web.matches import store
from jackpot.web.matches.news import RematchNews
from jackpot.web.matches.origin import Origin
from jackpot.web.play import commitments, seating
from jackpot.web.play.hooks import HOOKS
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.parts import own_seed


def _seats_text(seats: list[int]) -> str:
    return ",".join(str(s) for s in sorted(set(seats)))


def _parse_seats(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def _humans(seat_rows: list[Any]) -> list[Any]:
    return [s for s in seat_rows if not s["is_bot"]]


def _view(
    row: Any, seat_rows: list[Any], offer: Any, viewer_id: int | None, commitment: str | None
) -> dict[str, Any]:
    """What the page shows: who offered, who has accepted, who is still awaited, and
    the commitment of the server seed an open offer's match will have."""
    humans = _humans(seat_rows)
    mine = next((s["seat"] for s in humans if viewer_id and s["user_id"] == viewer_id), None)
    possible = (
        row["offers_rematch"]
        and row["status"] == "finished"
        and row["result"] is not None
        and all(s["user_id"] is not None for s in humans)
    )
    view: dict[str, Any] = {
        "possible": possible,
        "your_seat": mine,
        "seats": [{"seat": s["seat"], "name": s["name"]} for s in humans],
        "offer": None,
    }
    if offer is not None:
        accepted = _parse_seats(offer.accepted)
        view["offer"] = {
            "status": offer.status,
            "offered_by": offer.offered_by,
            "accepted": accepted,
            "waiting_for": [s["seat"] for s in humans if s["seat"] not in accepted],
            "declined_by": offer.declined_by,
            "new_match_id": offer.new_match_id,
            "commitment": commitment if offer.status == "open" else None,
        }
    return view


async def _offer_row(conn: AsyncConnection, match_id: str) -> Any:
    return (
        await conn.execute(select(rematch_offers).where(rematch_offers.c.match_id == match_id))
    ).first()


async def _offer_seed(conn: AsyncConnection, match_id: str) -> Any:
    """The server seed (and its commitment) of the rematch on offer, if one is fixed."""
    return (
        await conn.execute(select(rematch_seeds).where(rematch_seeds.c.match_id == match_id))
    ).first()


async def _commitment(conn: AsyncConnection, match_id: str) -> str | None:
    fixed = await _offer_seed(conn, match_id)
    return None if fixed is None else str(fixed.commitment)


async def _fix_seed(
    conn: AsyncConnection, match_id: str, commitment: str | None, now: datetime
) -> None:
    """A fresh offer's server seed: the pending one the offering page showed (used up
    here), or one made now; it replaces any earlier offer's."""
    seed = (
        await commitments.take(conn, commitment, now) if commitment else secrets.token_hex(32)
    )
    await conn.execute(delete(rematch_seeds).where(rematch_seeds.c.match_id == match_id))
    await conn.execute(
        insert(rematch_seeds).values(
            match_id=match_id, server_seed=seed, commitment=fair.commitment(seed)
        )
    )


async def rematch_state(
    conn: AsyncConnection, match_id: str, viewer_id: int | None
) -> dict[str, Any]:
    row = await store.match_row(conn, match_id)
    seat_rows = await store.seat_rows(conn, match_id)
    offer = await _offer_row(conn, match_id)
    return _view(row, seat_rows, offer, viewer_id, await _commitment(conn, match_id))


def _my_seat(seat_rows: list[Any], actor: Actor) -> int:
    for s in _humans(seat_rows):
        if s["user_id"] == actor.user_id:
            return int(s["seat"])
    raise forbidden("only the players of this match can ask for a rematch", "not_seated")


async def want_rematch(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    client_seed: str | None,
    commitment: str | None = None,
) -> tuple[dict[str, Any], list[Outcome]]:
    """Offer a rematch, or accept the one on offer; the last acceptance starts it.
    ``commitment``: offering, the pending seed's the page showed; accepting, the
    offer's as the page showed it.

    Returns the new view and the new match's outcomes (to publish after commit).
    """
    now = utcnow()
    row = await store.match_row(conn, match_id, lock=True)
    seat_rows = await store.seat_rows(conn, match_id)
    seat = _my_seat(seat_rows, actor)
    view = _view(row, seat_rows, None, actor.user_id, None)
    if not view["possible"]:
        if row["status"] != "finished":
            raise conflict("a rematch can be offered once the match is over", "not_finished")
        raise conflict("a rematch needs two people or more with their accounts", "no_rematch")
    seed, by_server = own_seed(client_seed)
    offer = await _offer_row(conn, match_id)
    if offer is not None and offer.status == "started":
        await _tell(conn, RematchNews(match_id, seat_rows, seat, offer.version, False, now))
        return _view(row, seat_rows, offer, actor.user_id, None), []
    fresh = offer is None or offer.status == "declined"
    if fresh:
        await _fix_seed(conn, match_id, commitment, now)
    elif commitment is not None and commitment != await _commitment(conn, match_id):
        raise conflict(
            "the rematch on offer now has another server seed than the one shown: "
            "look at the offer again",
            "commitment_unknown",
        )
    if offer is None:
        await conn.execute(
            insert(rematch_offers).values(
                match_id=match_id,
                offered_by=seat,
                accepted=str(seat),
                seeds=json.dumps({str(seat): seed}),
                server_made=str(seat) if by_server else None,
                status="open",
                created_at=utcnow(),
                version=1,
            )
        )
    else:
        if offer.status == "declined":  # asking again after a refusal: a fresh offer
            accepted, seeds, offered_by, made = [seat], {str(seat): seed}, seat, []
        else:
            accepted = [*_parse_seats(offer.accepted), seat]
            seeds = {**json.loads(offer.seeds), str(seat): seed}
            offered_by = offer.offered_by
            made = [s for s in _parse_seats(offer.server_made or "") if s != seat]
        if by_server:
            made.append(seat)
        res = await conn.execute(
            update(rematch_offers)
            .where(rematch_offers.c.match_id == match_id, rematch_offers.c.version == offer.version)
            .values(
                accepted=_seats_text(accepted),
                seeds=json.dumps(seeds),
                server_made=_seats_text(made) or None,
                offered_by=offered_by,
                status="open",
                declined_by=None,
                version=offer.version + 1,
            )
        )
        if res.rowcount != 1:
            raise conflict("the offer changed meanwhile; try again", "retry")
    offer = await _offer_row(conn, match_id)
    # The others may have left the page long ago: a fresh offer is news for them.
    await _tell(conn, RematchNews(match_id, seat_rows, seat, offer.version, fresh, now))
    outcomes: list[Outcome] = []
    if not [s for s in _humans(seat_rows) if s["seat"] not in _parse_seats(offer.accepted)]:
        fixed = await _offer_seed(conn, match_id)
        new_id, outcomes = await _start_rematch(
            conn,
            row,
            seat_rows,
            json.loads(offer.seeds),
            fixed.server_seed if fixed else None,
            set(_parse_seats(offer.server_made or "")),
        )
        await conn.execute(delete(rematch_seeds).where(rematch_seeds.c.match_id == match_id))
        await conn.execute(
            update(rematch_offers)
            .where(rematch_offers.c.match_id == match_id)
            .values(status="started", new_match_id=new_id, version=offer.version + 1)
        )
        offer = await _offer_row(conn, match_id)
    view = _view(row, seat_rows, offer, actor.user_id, await _commitment(conn, match_id))
    return view, outcomes


async def _tell(conn: AsyncConnection, news: RematchNews) -> None:
    """Every rematch listener, in this transaction."""
    for listener in HOOKS.rematch:
        await listener(conn, news)


async def _start_rematch(
    conn: AsyncConnection,
    row: Any,
    seat_rows: list[Any],
    seeds: dict[str, str],
    server_seed: str | None,
    server_made: set[int],
) -> tuple[str, list[Outcome]]:
    humans = _humans(seat_rows)
    users = {
        u.id: u
        for u in (
            await conn.execute(
                select(t.users.c.id, t.users.c.name, t.users.c.is_guest).where(
                    t.users.c.id.in_([s["user_id"] for s in humans])
                )
            )
        ).all()
    }

    def actor_of(s: Any) -> Actor:
        u = users[s["user_id"]]
        return Actor(u.id, u.name, bool(u.is_guest))

    # create_match seats the creator at 0 and bots last, joins fill the lowest free
    # seat: so the people join in the order they played, and the start draws a new
    # order of play from the new seeds.
    first = await seating.create_match(
        conn,
        actor_of(humans[0]),
        variant=row["variant"],
        seats=row["seat_count"],
        bots_count=len(seat_rows) - len(humans),
        deadline_seconds=row["deadline_seconds"],
        client_seed=seeds.get(str(humans[0]["seat"])),
        private=bool(row["private"]),
        min_deadline=1,
        max_active=None,
        # None only for an offer made before offers fixed their seed: one is made now.
        server_seed=server_seed,
        origin=Origin("rematch", row["id"]),
        seed_by_server=humans[0]["seat"] in server_made,
        spares=row["spares"],
    )
    outcomes = [first]
    for s in humans[1:]:
        outcomes.append(
            await seating.join_match(
                conn,
                actor_of(s),
                first.match_id,
                seeds.get(str(s["seat"])),
                max_active=None,
                seed_by_server=s["seat"] in server_made,
            )
        )
    return first.match_id, outcomes


async def decline_rematch(conn: AsyncConnection, actor: Actor, match_id: str) -> dict[str, Any]:
    """Say no (or withdraw one's own offer): the offer closes until someone asks again."""
    row = await store.match_row(conn, match_id, lock=True)
    seat_rows = await store.seat_rows(conn, match_id)
    seat = _my_seat(seat_rows, actor)
    offer = await _offer_row(conn, match_id)
    if offer is None or offer.status != "open":
        raise conflict("there is no rematch on offer", "no_offer")
    await conn.execute(
        update(rematch_offers)
        .where(rematch_offers.c.match_id == match_id, rematch_offers.c.version == offer.version)
        .values(status="declined", declined_by=seat, version=offer.version + 1)
    )
    await _tell(conn, RematchNews(match_id, seat_rows, seat, offer.version + 1, False, utcnow()))
    await conn.execute(delete(rematch_seeds).where(rematch_seeds.c.match_id == match_id))
    return _view(row, seat_rows, await _offer_row(conn, match_id), actor.user_id, None)
