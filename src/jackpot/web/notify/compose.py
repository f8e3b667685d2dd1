"""What a mail about waiting matches says: subject, lines, unsubscribe headers.

The headers let a mail client unsubscribe in one click (RFC 8058).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from jackpot.i18n import N_, ngettext
from jackpot.i18n import gettext as _
from jackpot.i18n.formats import moment, variant_name
from jackpot.web.base.settings import Settings
from jackpot.web.notify.prefs import unsubscribe_token

#: The name a free seat goes by among a match's opponents (said in the mail's language).
FREE_SEAT = N_("a free seat")


@dataclass
class Item:
    """One line of a mail: a match waiting for the player."""

    notice_ids: list[int]
    #: "turn", "reminder", "spare" (a passed deadline used a spare), "rematch", or the
    #: end news "out" or "ended"
    kind: str
    match_id: str
    variant: str
    opponents: list[str]
    due_at: datetime | None
    #: Who offers the rematch; for end news, who left (the player, for "out").
    by: str | None = None
    #: For end news: why ``by`` left ("timeout", "resigned"; None: it ended by play).
    reason: str | None = None
    #: For end news: the player's place, once the match is over.
    place: int | None = None
    #: For "spare": the spare deadlines the player has left.
    spares_left: int = 0


def human_left(delta: timedelta) -> str:
    """'3 hours 5 minutes', 'less than a minute': a deadline a person can read, in the
    current language."""
    secs = int(delta.total_seconds())
    if secs < 60:
        return _("less than a minute")
    days, rest = divmod(secs, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [
        ngettext("%(num)d day", "%(num)d days", days) if days else "",
        ngettext("%(num)d hour", "%(num)d hours", hours) if hours else "",
        ngettext("%(num)d minute", "%(num)d minutes", minutes) if minutes else "",
    ]
    return " ".join([p for p in parts if p][:2])




def _spare_line(i: Item, variant: str, who: str) -> str:
    """A passed deadline used one of the player's spares: how many are left."""
    return ngettext(
        "The deadline for your move in %(variant)s against %(who)s passed, so a spare "
        "deadline was used and the deadline started again. You have %(num)d spare left.",
        "The deadline for your move in %(variant)s against %(who)s passed, so a spare "
        "deadline was used and the deadline started again. You have %(num)d spares left.",
        i.spares_left,
        variant=variant,
        who=who,
    )


def _end_lines(i: Item, variant: str, who: str) -> list[str]:
    """How the match ended for the player, and their place once it is over."""
    if i.kind == "out":
        lines = [
            _(
                "Your time for a throw in %(variant)s against %(who)s ran out: you are out "
                "of the match.",
                variant=variant,
                who=who,
            )
        ]
    elif i.reason == "timeout":
        lines = [
            _(
                "%(name)s ran out of time, and your %(variant)s match against %(who)s is over.",
                name=i.by,
                variant=variant,
                who=who,
            )
        ]
    elif i.reason == "resigned":
        lines = [
            _(
                "%(name)s resigned, and your %(variant)s match against %(who)s is over.",
                name=i.by,
                variant=variant,
                who=who,
            )
        ]
    else:
        lines = [_("Your %(variant)s match against %(who)s is over.", variant=variant, who=who)]
    if i.place is not None:
        lines.append("  " + _("You finished in place %(place)s.", place=i.place))
    return lines


def compose(
    settings: Settings, name: str, user_id: int, items: list[Item], now: datetime
) -> tuple[str, str, dict[str, str]]:
    """Subject, body and extra headers of one mail about ``items``."""
    base = settings.link_base
    unsub = f"{base}/unsubscribe/{unsubscribe_token(settings, user_id)}"
    reminders = [i for i in items if i.kind == "reminder"]
    turns = [i for i in items if i.kind == "turn"]

    def against(i: Item) -> str:
        names = [_(n) if n == FREE_SEAT else n for n in i.opponents]
        if not names:
            return _("your opponents")
        if len(names) == 1:
            return names[0]
        return _("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])

    # A match's end has a line of its own, which a rematch offer may join: count matches.
    matches = len({i.match_id for i in items})
    if matches == 1:
        i = next((x for x in items if x.kind in ("reminder", "spare", "out", "ended")), items[0])
        variant = variant_name(i.variant)
        if i.kind == "reminder":
            left = human_left(i.due_at - now) if i.due_at else _("little time")
            subject = _(
                "Reminder: %(left)s left for your throw against %(who)s", left=left, who=against(i)
            )
        elif i.kind == "spare":
            subject = _(
                "You missed a deadline against %(who)s: a spare deadline was used",
                who=against(i),
            )
        elif i.kind == "rematch":
            subject = _(
                "%(name)s offers you a rematch of your %(variant)s match",
                name=i.by,
                variant=variant,
            )
        elif i.kind == "out":
            subject = _(
                "You ran out of time in %(variant)s against %(who)s",
                variant=variant,
                who=against(i),
            )
        elif i.kind == "ended":
            subject = _(
                "Your %(variant)s match against %(who)s is over", variant=variant, who=against(i)
            )
        else:
            subject = _(
                "Your throw in %(variant)s against %(who)s", variant=variant, who=against(i)
            )
    elif reminders:
        subject = ngettext(
            "Time is running out in %(num)d of your matches",
            "Time is running out in %(num)d of your matches",
            len(reminders),
        )
        if len(reminders) == 1:
            subject = ngettext(
                "Time is running out for a throw; %(num)d match waits for you",
                "Time is running out for a throw; %(num)d matches wait for you",
                matches,
            )
    elif any(i.kind in ("out", "ended") for i in items):
        subject = ngettext(
            "News from %(num)d of your matches", "News from %(num)d of your matches", matches
        )
    elif len(turns) == len(items):
        subject = ngettext(
            "Your throw in %(num)d match", "Your throw in %(num)d matches", len(turns)
        )
    else:
        subject = ngettext(
            "%(num)d match waits for you", "%(num)d matches wait for you", matches
        )
    lines = [_("Hello %(name)s,", name=name), ""]
    for i in sorted(items, key=lambda i: (i.kind not in ("reminder", "spare"), i.due_at or now)):
        variant = variant_name(i.variant)
        if i.kind == "spare":
            lines.append(_spare_line(i, variant, against(i)))
        elif i.kind == "reminder":
            lines.append(
                _(
                    "Your throw in %(variant)s against %(who)s is still waiting.",
                    variant=variant,
                    who=against(i),
                )
            )
        elif i.kind == "rematch":
            lines.append(
                _(
                    "%(name)s offers a rematch of your %(variant)s match against %(who)s: "
                    "the same seats, variant and deadline, with new dice. It starts when "
                    "everyone has accepted; accept or decline on the match's page.",
                    name=i.by,
                    variant=variant,
                    who=against(i),
                )
            )
        elif i.kind in ("out", "ended"):
            lines += _end_lines(i, variant, against(i))
        else:
            lines.append(
                _(
                    "It is your throw in %(variant)s against %(who)s.",
                    variant=variant,
                    who=against(i),
                )
            )
        if i.due_at is not None:
            # The time left first, in words: it holds in every time zone; the clock
            # time after it, labelled as UTC in the sentence each language words.
            when, left = moment(i.due_at), human_left(i.due_at - now)
            lines.append(
                "  "
                + (
                    _(
                        "Deadline: in %(left)s (%(when)s UTC). Miss it and you are out of "
                        "the match.",
                        when=when,
                        left=left,
                    )
                    if i.kind == "reminder" or (i.kind == "spare" and not i.spares_left)
                    else _("Deadline: in %(left)s (%(when)s UTC).", when=when, left=left)
                )
            )
        lines.append(f"  {base}/matches/{i.match_id}")
        lines.append("")
    lines += [
        "-- ",
        _("You get this mail because you play on peer2peergames' Jackpot."),
        _("Choose which mails you get: %(url)s", url=f"{base}/account"),
        _("Stop these mails (no login needed): %(url)s", url=unsub),
    ]
    headers = {
        "List-Unsubscribe": f"<{unsub}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }
    return subject, "\n".join(lines) + "\n", headers
