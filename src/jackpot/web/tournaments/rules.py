"""What a tournament's creation and an entry take: the bodies, and the settings refused by name.

The API and the form both check a new tournament here (``check_new``): every setting
out of range is a 422 naming it, before anything is written.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field

from jackpot.engine import Variant
from jackpot.web.base.edge.field_rules import CLIENT_SEED, MINIMUM_SETTING, one_of
from jackpot.web.base.errors import invalid
from jackpot.web.base.settings import MAX_DEADLINE_SECONDS, Settings
from jackpot.web.tournaments.entries import NewTournament

STRICT = ConfigDict(extra="forbid")

#: The longest a round may last: 60 days.
MAX_ROUND_SECONDS = 60 * 86400
MAX_ROUNDS = 15
MAX_SPARES = 5


class NewTournamentBody(BaseModel):
    model_config = STRICT
    name: str = Field("", description="the tournament's name (empty: one is made)", max_length=80)
    variant: str = Field("jackpot", json_schema_extra=one_of("jackpot", "classic"))
    table_size: int = Field(
        2,
        strict=True,
        description="seats at a table: 2 to 4",
        json_schema_extra={"minimum": 2, "maximum": 4},
    )
    rounds: int = Field(
        3,
        strict=True,
        description="rounds: 1 to 15",
        json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS},
    )
    deadline_seconds: int = Field(
        86400,
        strict=True,
        description="seconds for each throw",
        json_schema_extra={
            MINIMUM_SETTING: "min_deadline_seconds",
            "maximum": MAX_DEADLINE_SECONDS,
        },
    )
    spares: int = Field(
        2,
        strict=True,
        description="spare deadlines per seat and match: 0 to 5",
        json_schema_extra={"minimum": 0, "maximum": MAX_SPARES},
    )
    round_seconds: int = Field(
        7 * 86400,
        strict=True,
        description="the longest a round may last, in seconds",
        json_schema_extra={"minimum": 60, "maximum": MAX_ROUND_SECONDS},
    )
    starts_at: str = Field(description="when round 1 is paired: ISO 8601, UTC", max_length=40)
    max_players: int = Field(
        16,
        strict=True,
        description="the most players it takes",
        json_schema_extra={"minimum": 2},
    )
    private: bool = Field(False, strict=True, description="by invitation: not listed")


class EntryBody(BaseModel):
    model_config = STRICT
    client_seed: str = Field(
        "", description="your part of every table's client seed", json_schema_extra=CLIENT_SEED
    )
    commitment: str = Field(
        description="the commitment of your part of the server seed (POST /api/commitments)",
        max_length=64,
    )


def check_new(body: NewTournamentBody, settings: Settings, creator: str) -> NewTournament:
    """The body's choices, each refused by name when out of range (422)."""
    try:
        variant = Variant(body.variant)
    except ValueError:
        raise invalid(
            "variant must be 'jackpot' or 'classic', not %(given)s", given=repr(body.variant)
        ) from None
    ranges = (
        ("table_size", body.table_size, 2, 4),
        ("rounds", body.rounds, 1, MAX_ROUNDS),
        (
            "deadline_seconds",
            body.deadline_seconds,
            settings.min_deadline_seconds,
            MAX_DEADLINE_SECONDS,
        ),
        ("spares", body.spares, 0, MAX_SPARES),
        ("round_seconds", body.round_seconds, 60, MAX_ROUND_SECONDS),
        ("max_players", body.max_players, 2, settings.tournament_max_players),
    )
    for name, value, least, most in ranges:
        if not least <= value <= most:
            raise invalid(
                "%(field)s must be from %(least)s to %(most)s, not %(given)s",
                field=name,
                least=least,
                most=most,
                given=value,
            )
    if body.round_seconds < body.deadline_seconds:
        raise invalid(
            "round_seconds must be at least deadline_seconds: a round gives every throw its time",
            "round_too_short",
        )
    return NewTournament(
        name=body.name.strip() or f"{creator} Swiss",
        variant=variant,
        table_size=body.table_size,
        rounds=body.rounds,
        deadline_seconds=body.deadline_seconds,
        spares=body.spares,
        round_seconds=body.round_seconds,
        starts_at=parse_start(body.starts_at),
        max_players=body.max_players,
        private=body.private,
    )


def parse_start(text: str) -> datetime:
    """An ISO 8601 time in UTC (``Z`` or ``+00:00``), else 422 naming the field."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        when = None
    if when is None or when.utcoffset() is None or when.utcoffset().total_seconds() != 0:  # type: ignore[union-attr]
        raise invalid(
            "starts_at must be a time in ISO 8601 UTC, like 2026-12-24T18:00:00Z", "bad_start"
        )
    return when.astimezone(UTC)


