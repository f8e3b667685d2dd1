"""A tournament as ``jackpot-tournament/1``: enough to pair every round again and add every point.

Each table's record is its match's record (matches/views.py) as a tournament table's
``jackpot-record/4``: where it was played (``"tournament"``), its players' parts in
joining order (each null until the tournament ends, then shown) and the tournament's
spares. docs/tournaments.md describes the format; ``jackpot verify-tournament`` and
the Verify page check it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import match_points
from jackpot.fair.record_fields import FORMAT_V4
from jackpot.web.base.clock import iso
from jackpot.web.matches.views import load_record
from jackpot.web.tournaments.store import Table, Tournament


def table_record(base: dict[str, Any], t: Tournament, table: Table, shown: bool) -> dict[str, Any]:
    """A table's match record with what a tournament table's record adds."""
    parts = [
        {
            "commitment": t.entries[p].commitment,
            "part": t.entries[p].part if shown else None,
        }
        for p in table.players
    ]
    record = dict(base)
    record["format"] = FORMAT_V4
    record["tournament"] = {"id": t.id, "round": table.round, "table": table.table}
    record["parts"] = parts
    if t.row["spares"]:
        record["spares"] = int(t.row["spares"])
    return record


async def export_of(conn: AsyncConnection, t: Tournament) -> dict[str, Any]:
    """The export of a started tournament, as its rows stand now."""
    ended = t.row["status"] == "finished"
    rounds = []
    for r in range(1, t.round + 1):
        if r not in t.byes:
            continue
        tables = []
        for table in t.tables.get(r, []):
            base = await load_record(conn, table.match_id)
            points = (
                [str(p) for p in match_points(table.places)] if table.places is not None else None
            )
            tables.append(
                {
                    "table": table.table,
                    "players": list(table.players),
                    "points": points,
                    "record": table_record(base, t, table, ended),
                }
            )
        rounds.append(
            {
                "round": r,
                "tables": tables,
                "byes": list(t.byes[r]),
                "withdrawn": [e.number for e in t.entries if e.withdrawn_round == r],
            }
        )
    return {
        "format": "jackpot-tournament/1",
        "id": t.id,
        "name": t.row["name"],
        "settings": {
            "variant": t.row["variant"],
            "table_size": t.row["table_size"],
            "deadline_seconds": t.row["deadline_seconds"],
            "spares": t.row["spares"],
            "rounds": t.row["rounds"],
            "round_seconds": t.row["round_seconds"],
            "starts": iso(t.row["starts_at"]),
            "public": not t.row["private"],
            "max_players": t.row["max_players"],
        },
        "status": "ended" if ended else "playing",
        "entries": [
            {
                "name": e.name,
                "rating": e.rating,
                "client_seed": e.client_seed,
                "commitment": e.commitment,
                "part": e.part if ended else None,
            }
            for e in t.entries
        ],
        "apart": [{"players": [a, b], "from_round": since} for a, b, since in t.apart],
        "rounds": rounds,
        "standings": [
            {"player": s.player, "points": str(s.points), "buchholz": str(s.buchholz)}
            for s in t.standings()
        ],
    }
