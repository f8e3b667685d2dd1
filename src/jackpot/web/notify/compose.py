"""What a mail about waiting matches says: subject, lines, unsubscribe headers.

The headers let a mail client unsubscribe in one click (RFC 8058).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from jackpot.web.base.settings import Settings
from jackpot.web.notify.prefs import unsubscribe_token


@dataclass
class Item:
    """One line of a mail: a match waiting for the player."""

    notice_ids: list[int]
    kind: str  # "turn", "reminder" or "rematch"
    match_id: str
    variant: str
    opponents: list[str]
    due_at: datetime | None
    #: Who offers the rematch.
    by: str | None = None


def human_left(delta: timedelta) -> str:
    """'3 hours 5 minutes', 'less than a minute': a deadline a person can read."""
    secs = int(delta.total_seconds())
    if secs < 60:
        return "less than a minute"
    days, rest = divmod(secs, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    for n, word in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if n:
            parts.append(f"{n} {word}{'' if n == 1 else 's'}")
    return " ".join(parts[:2])


def _when(at: datetime) -> str:
    return at.strftime("%a %d %b %Y, %H:%M UTC")


def compose(
    settings: Settings, name: str, user_id: int, items: list[Item], now: datetime
) -> tuple[str, str, dict[str, str]]:
    """Subject, body and extra headers of one mail about ``items``."""
    base = settings.base_url or "http://localhost:8000"
    unsub = f"{base}/unsubscribe/{unsubscribe_token(settings, user_id)}"
    reminders = [i for i in items if i.kind == "reminder"]
    turns = [i for i in items if i.kind == "turn"]

    def against(i: Item) -> str:
        return " and ".join(i.opponents) or "your opponents"

    if len(items) == 1:
        i = items[0]
        variant = i.variant.capitalize()
        if reminders:
            left = human_left(i.due_at - now) if i.due_at else "little time"
            subject = f"Reminder: {left} left for your throw against {against(i)}"
        elif i.kind == "rematch":
            subject = f"{i.by} offers you a rematch of your {variant} match"
        else:
            subject = f"Your throw in {variant} against {against(i)}"
    elif reminders:
        subject = f"Time is running out in {len(reminders)} of your matches"
        if len(reminders) == 1:
            subject = f"Time is running out for a throw; {len(items)} matches wait for you"
    elif len(turns) == len(items):
        subject = f"Your throw in {len(turns)} matches"
    else:
        subject = f"{len(items)} matches wait for you"
    lines = [f"Hello {name},", ""]
    for i in sorted(items, key=lambda i: (i.kind != "reminder", i.due_at or now)):
        variant = i.variant.capitalize()
        if i.kind == "reminder":
            lines.append(f"Your throw in {variant} against {against(i)} is still waiting.")
        elif i.kind == "rematch":
            lines.append(
                f"{i.by} offers a rematch of your {variant} match against {against(i)}: "
                "the same seats, variant and deadline, with new dice. It starts when "
                "everyone has accepted; accept or decline on the match's page."
            )
        else:
            lines.append(f"It is your throw in {variant} against {against(i)}.")
        if i.due_at is not None:
            lines.append(
                f"  Deadline: {_when(i.due_at)} (in {human_left(i.due_at - now)})."
                + (" Miss it and you are out of the match." if i.kind == "reminder" else "")
            )
        lines.append(f"  {base}/matches/{i.match_id}")
        lines.append("")
    lines += [
        "-- ",
        "You get this mail because you play on peer2peergames' Jackpot.",
        f"Choose which mails you get: {base}/account",
        f"Stop these mails (no login needed): {unsub}",
    ]
    headers = {
        "List-Unsubscribe": f"<{unsub}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }
    return subject, "\n".join(lines) + "\n", headers
