"""A tournament as ``jackpot-tournament/1``: enough to pair every round again and add every point.

Each table's record is its match's record (matches/views.py), which for a tournament
table is a ``jackpot-record/4`` with where it was played (``"tournament"``) and its
players' parts in joining order, each null until the tournament ends
(matches/tournament_records.py). docs/tournaments.md describes the format;
``jackpot verify-tournament`` and the Verify page check it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import match_points
from jackpot.web.base.clock import iso
from jackpot.web.matches.views import load_record
from jackpot.web.tournaments.store import Tournament


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
                    "record": base,
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
