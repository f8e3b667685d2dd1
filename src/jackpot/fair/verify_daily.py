"""The verifier's checks of a daily entry: its client seed, how it ended, its score, and par.

The entry's throws and covers are replayed like a match's (``replay.py``); what is
particular to the deal is checked here: the client seed is the one the date and the
variant fix, an entry is over only after its last turn, or when its player gave up
(``resigned``) or the day closed on it (``timeout``), and once the seed is published
the entry is set against par, the ``best`` bot's play of the same dice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date as Date
from datetime import timedelta
from typing import Literal

from jackpot.engine import DailyResult, Match, Variant, VersusPar, versus_par
from jackpot.fair.daily import daily_client_seed
from jackpot.fair.par import daily_par
from jackpot.fair.record import Record
from jackpot.fair.replay import Difference

#: How an entry stands: played to its last turn, given up, closed by the day's end
#: before its last turn, or (its seed not yet published) still being played.
Ending = Literal["finished", "gave_up", "day_closed", "playing"]
ENDINGS: dict[str | None, Ending] = {
    None: "finished",
    "resigned": "gave_up",
    "timeout": "day_closed",
}


@dataclass(frozen=True, slots=True)
class DailyReport:
    """A daily entry as the verifier found it, for a report to show beside its checks."""

    date: str
    variant: Variant
    ending: Ending
    #: The scores of the turns the player finished, in order (the others score 45).
    played_scores: tuple[int, ...]
    #: The entry's result as the replay gives it (None while it is being played).
    result: DailyResult | None
    #: Par, once the seed is published.
    par: DailyResult | None = None
    versus: VersusPar | None = None

    @property
    def turns_played(self) -> int:
        return len(self.played_scores)


def _deal(record: Record) -> str:
    assert record.daily is not None
    return f"the {record.variant} deal of {record.daily.date}"


def check_daily_client_seed(record: Record, checks: list[str]) -> None:
    assert record.daily is not None
    expected = daily_client_seed(record.daily.date, record.variant)
    if record.client_seed != expected:
        raise Difference(
            f"client seed: the record says {record.client_seed!r}, but {_deal(record)} has "
            f"the client seed {expected!r}, fixed by its date and variant"
        )
    checks.append(
        f"client seed: {expected!r}, fixed by the deal's date and variant before its seed "
        "was committed to, the same for every entry"
    )


def daily_waiting(record: Record) -> str:
    assert record.daily is not None
    next_day = Date.fromisoformat(record.daily.date) + timedelta(days=1)
    return (
        "the server seed is not published yet (it is published when the day ends, at "
        f"00:00 UTC on {next_day.isoformat()}): the dice and par wait for it"
    )


def jackpots_words(n: int) -> str:
    return f"{n} jackpot{'' if n == 1 else 's'}"


def result_words(result: DailyResult) -> str:
    return f"{jackpots_words(result.jackpots)}, total {result.total}"


def versus_words(versus: VersusPar) -> str:
    """"better than par (1 jackpot more; total 12 over par)"."""
    said = {"better": "better than par", "level": "level with par", "worse": "worse than par"}
    parts = []
    if versus.jackpots:
        more = "more" if versus.jackpots > 0 else "fewer"
        parts.append(f"{jackpots_words(abs(versus.jackpots))} {more}")
    if versus.total:
        parts.append(f"total {abs(versus.total)} {'over' if versus.total > 0 else 'under'} par")
    else:
        parts.append("the same total")
    return f"{said[versus.standing]} ({'; '.join(parts)})"


def check_entry(record: Record, match: Match, checks: list[str]) -> tuple[DailyReport, str]:
    """How the entry ended, its result against the record's, and par (with the seed)."""
    assert record.daily is not None
    turns = record.daily.turns
    played = len(match.turn_scores)
    scores = match.turn_scores
    report = DailyReport(record.daily.date, record.variant, "playing", scores, None)
    if not match.finished:
        if record.server_seed is not None:
            raise Difference(
                f"events: the day is over (its seed is published), but the entry stops in "
                f"turn {match.round} of {turns} without going out: the day's end closes an "
                "unfinished entry with an out (timeout)"
            )
        if record.result is not None:
            raise Difference(
                f"result: the record gives one, but by its throws the entry is not over "
                f"(turn {match.round} of {turns} is being played)"
            )
        checks.append(
            f"turns: {played} of {turns} finished, scoring {list(match.turn_scores)}; "
            f"turn {match.round} is being played"
        )
        return report, ""
    replayed = match.result
    assert isinstance(replayed, DailyResult)
    ending = ENDINGS[match.out[0]]
    if ending == "finished":
        checks.append(f"turns: all {turns} played, each from a full board")
    else:
        why = "the player gave up" if ending == "gave_up" else "the day closed"
        checks.append(
            f"turns: {played} finished; {why} in turn {played + 1}, so it and every "
            "later turn score 45"
        )
    theirs = record.result
    if not isinstance(theirs, DailyResult):
        raise Difference(f"result: record says null, replay gives {json.dumps(replayed.to_dict())}")
    mine = replayed.to_dict()
    for key, value in theirs.to_dict().items():
        if value != mine[key]:
            raise Difference(
                f"result.{key}: record says {json.dumps(value)}, "
                f"replay gives {json.dumps(mine[key])}"
            )
    checks.append("result: turn scores, jackpots and total equal the replay's")
    report = DailyReport(record.daily.date, record.variant, ending, scores, replayed)
    if record.server_seed is None:
        return report, ""
    by_position = record.daily.by_position
    par = daily_par(
        record.server_seed, record.daily.date, record.variant, by_position=by_position
    ).result
    versus = versus_par(replayed, par)
    checks.append(
        f"par: the best bot on the same dice{' (by position)' if by_position else ''} makes "
        f"{result_words(par)} "
        f"(turn scores {list(par.turn_scores)})"
    )
    how = {"finished": "", "gave_up": " (gave up)", "day_closed": " (closed unfinished)"}
    summary = (
        f"valid: daily {record.variant} {record.daily.date}{how[ending]}, "
        f"{result_words(replayed)}; par {result_words(par)}: {versus_words(versus)}"
    )
    return replace(report, par=par, versus=versus), summary
