"""Where a match comes from, and the rules that follow from it: rated, rematch, watch list.

Every match is made by something: a person (against the bot, practice alone, or a
match for people to join), a play-now seek, a challenge, a rematch, a daily deal,
a tournament. The maker says so when it makes the match (play/new_match.py's
``MatchSpec``), with the rules that follow, and the row keeps both. Whoever needs to
know reads them there: the ratings whether an end may move ratings, the rematch
offer whether there is one, the watch list whether to list it, and the disclosure
rule when its seed is shown. Nobody works it out from the match's shape (how many
bots, whether it has places), which a new kind of match would break.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The kinds of origin, as the API and the record name them.
KINDS = ("bot", "solo", "people", "play_now", "challenge", "rematch", "daily", "tournament")


@dataclass(frozen=True)
class Origin:
    """What made a match: its kind, and the id of the thing of that kind (None when a
    person made it themselves)."""

    kind: str
    id: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown origin {self.kind!r}")


#: A match for people that a person made (and others joined).
BY_PEOPLE = Origin("people")


@dataclass(frozen=True)
class MatchRules:
    """The rules a match is made with, by its origin."""

    #: Its end may change the ratings of the people in it (a no-show's match still
    #: does not: players/ratings.py).
    rated: bool
    #: A rematch is offered at its end.
    offers_rematch: bool
    #: It is listed on /watch while played.
    on_watch: bool


#: A match between people, public: rated, a rematch offered, listed to watch.
BETWEEN_PEOPLE = MatchRules(rated=True, offers_rematch=True, on_watch=True)
#: A match with nobody to rate or play again, and nothing to watch for others.
ON_ONES_OWN = MatchRules(rated=False, offers_rematch=False, on_watch=False)


def tournament_rules(private: bool) -> MatchRules:
    """A tournament's table: rated as any match between people (the standings use the
    rating fixed at the start, so a table's end moving it changes no pairing), no
    rematch (the next round seats the players), and listed to watch unless the
    tournament is by invitation."""
    return MatchRules(rated=True, offers_rematch=False, on_watch=not private)


def origin_of(row: Any) -> dict[str, Any]:
    """A match row's origin as the API and the record show it."""
    return {"kind": row["origin"], "id": row["origin_id"]}
