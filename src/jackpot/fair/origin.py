"""Where a match came from, as its record says (``"origin"``): shown, never part of the checks.

Every format may carry it. The dice, the order of play and the result follow from the
seeds and the moves alone, whatever a match was made for, so a verifier reads the
origin only to say what the match was: against the bot, a challenge, a tournament table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from jackpot.fair.fields import read_object, read_text, refusal

OriginKind: TypeAlias = Literal[
    "bot", "solo", "people", "play_now", "challenge", "rematch", "daily", "tournament"
]
ORIGIN_KINDS: tuple[OriginKind, ...] = (
    "bot",
    "solo",
    "people",
    "play_now",
    "challenge",
    "rematch",
    "daily",
    "tournament",
)


@dataclass(frozen=True, slots=True)
class Origin:
    """What made the match, and the id of that thing on the site (None where there is none:
    a match against the bot has no id of its own beyond the match's)."""

    kind: OriginKind
    id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id}


def read_origin(value: object) -> Origin:
    d = read_object(value, "origin", ("kind", "id"))
    kind = d["kind"]
    if not isinstance(kind, str) or kind not in ORIGIN_KINDS:
        named = ", ".join(f'"{k}"' for k in ORIGIN_KINDS[:-1]) + f' or "{ORIGIN_KINDS[-1]}"'
        raise refusal("origin.kind", named, kind)
    ident = d["id"]
    return Origin(
        kind=kind,
        id=None if ident is None else read_text(ident, "origin.id"),
    )
