"""What a tournament table's record adds: where it was played, and its players' parts.

A table's server seed is made of its players' parts with its round and table
(docs/tournaments.md, "Seeds"). A part serves every table its player sits at, so it
stays secret until the tournament ends, even once a table's own seed is shown: the
parts are kept by the tournament (its entries), never on the match row, and only
this module puts them in a record, each null until the tournament has finished.
Read here, below the tournaments feature that writes these tables, so that every
reader of a record (the match API, the replay, the export) gets the same record.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.fair.record_fields import FORMAT_V4
from jackpot.web.base.tables.tournaments import tournament_entries, tournament_tables, tournaments


async def with_table(conn: AsyncConnection, row: Any, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` of a match whose origin is a tournament, as a tournament table's
    ``jackpot-record/4``: ``"tournament"`` and ``"parts"`` (in joining order) added;
    any other record as it is."""
    if row["origin"] != "tournament":
        return record
    tt = tournament_tables
    table = (
        await conn.execute(
            select(tt.c.tournament_id, tt.c.round, tt.c.table, tt.c.players, tournaments.c.status)
            .join(tournaments, tournaments.c.id == tt.c.tournament_id)
            .where(tt.c.match_id == row["id"])
        )
    ).first()
    if table is None:
        return record
    e = tournament_entries
    by_number = {
        r.number: r
        for r in await conn.execute(
            select(e.c.number, e.c.commitment, e.c.part).where(
                e.c.tournament_id == table.tournament_id, e.c.number.in_(list(table.players))
            )
        )
    }
    shown = table.status == "finished"
    out = dict(record)
    out["format"] = FORMAT_V4
    out["tournament"] = {"id": table.tournament_id, "round": table.round, "table": table.table}
    out["parts"] = [
        {
            "commitment": by_number[p].commitment,
            "part": by_number[p].part if shown else None,
        }
        for p in table.players
    ]
    return out
