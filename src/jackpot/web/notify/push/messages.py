"""What a push says, in one place: a title, a body and the address it opens.

In the current language: the sender sets the recipient's (the account's choice, as
for mails; else the page's language when the browser was registered).

Each variant has its own sentences rather than its name dropped into one: several
of the site's languages inflect a game's name by its place in the sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from babel import lists

from jackpot.i18n import current_locale, ngettext
from jackpot.i18n import gettext as _
from jackpot.i18n.formats import duration, time_left


@dataclass(frozen=True)
class About:
    """One piece of news, as the push worker found it when it sent."""

    #: "turn", "reminder", "spare", "rematch", the end news "out" or "ended", or "challenge"
    kind: str
    #: The match's id; for a challenge, the challenge's.
    ref: str
    variant: str
    #: The other seats' names (None: a free seat).
    opponents: list[str | None]
    due_at: datetime | None
    #: Who offers the rematch; for "ended", who left last.
    by: str | None = None
    #: For "ended": why ``by`` left ("timeout", "resigned"; None: it ended by play).
    reason: str | None = None
    #: For end news: the reader's place, once the match is over.
    place: int | None = None
    #: For a challenge: the seconds for each throw it offers.
    per_throw: int | None = None
    #: For "spare": the spare deadlines the reader has left.
    spares_left: int = 0

    @property
    def url(self) -> str:
        """Where the notification leads: the match, or for a challenge the page that
        answers it."""
        return "/play-now" if self.kind == "challenge" else f"/matches/{self.ref}"

    @property
    def tag(self) -> str:
        """News about one match (or one challenge) replaces the older news about it."""
        return f"jackpot-{self.ref}"


def _names(about: About) -> str:
    names = [name or _("a free seat") for name in about.opponents]
    if not names:
        return _("your opponents")
    return lists.format_list(names, locale=current_locale())


def _texts(about: About, now: datetime) -> tuple[str, str]:
    classic = about.variant == "classic"
    if about.kind == "challenge":
        return _challenge_texts(about, classic)
    names = _names(about)
    if about.kind == "rematch":
        by = about.by or _("Another player")
        if classic:
            return _("Rematch offered"), _(
                "%(name)s offers you a rematch of your Classic match.", name=by
            )
        return _("Rematch offered"), _(
            "%(name)s offers you a rematch of your Jackpot match.", name=by
        )
    if about.kind in ("out", "ended"):
        return _end_texts(about, classic, names)
    remaining = time_left(about.due_at - now) if about.due_at else _("less than a minute")
    if about.kind == "spare":
        return _spare_texts(about, classic, names, remaining)
    if about.kind == "reminder":
        if classic:
            body = _(
                "Time left for your throw in Classic against %(names)s: %(left)s.",
                names=names,
                left=remaining,
            )
        else:
            body = _(
                "Time left for your throw in Jackpot against %(names)s: %(left)s.",
                names=names,
                left=remaining,
            )
        return _("Time is running out"), body + " " + _("Miss it and you are out of the match.")
    if classic:
        body = _("It is your throw in Classic against %(names)s.", names=names)
    else:
        body = _("It is your throw in Jackpot against %(names)s.", names=names)
    if about.due_at is not None:
        body += " " + _("Deadline in %(left)s.", left=remaining)
    return _("Your throw"), body


def _spare_texts(about: About, classic: bool, names: str, remaining: str) -> tuple[str, str]:
    """A passed deadline used one of the reader's spares: how many are left, and the
    deadline that started again."""
    if classic:
        body = _("You missed a deadline in Classic against %(names)s.", names=names)
    else:
        body = _("You missed a deadline in Jackpot against %(names)s.", names=names)
    body += " " + ngettext(
        "A spare deadline was used: %(num)d left.",
        "A spare deadline was used: %(num)d left.",
        about.spares_left,
    )
    body += " " + _("Deadline in %(left)s.", left=remaining)
    return _("Spare deadline used"), body


def _challenge_texts(about: About, classic: bool) -> tuple[str, str]:
    """A player challenged the reader: who, which game, how long for each throw."""
    by = about.by or _("Another player")
    per_throw = duration(about.per_throw or 0)
    if classic:
        body = _(
            "%(name)s challenges you to a match of Classic, %(time)s per throw.",
            name=by,
            time=per_throw,
        )
    else:
        body = _(
            "%(name)s challenges you to a match of Jackpot, %(time)s per throw.",
            name=by,
            time=per_throw,
        )
    return _("You are challenged"), body + " " + _("Accept or decline it on Play now.")


def _end_texts(about: About, classic: bool, names: str) -> tuple[str, str]:
    """News of a match's end: out on time, or the match over (why, and the place)."""
    if about.kind == "out":
        if classic:
            body = _("Your time ran out in Classic against %(names)s: you are out.", names=names)
        else:
            body = _("Your time ran out in Jackpot against %(names)s: you are out.", names=names)
        return _("Out of time"), body
    if classic:
        body = _("Your Classic match against %(names)s is over.", names=names)
    else:
        body = _("Your Jackpot match against %(names)s is over.", names=names)
    if about.by is not None and about.reason == "timeout":
        body = _("%(name)s ran out of time.", name=about.by) + " " + body
    elif about.by is not None and about.reason == "resigned":
        body = _("%(name)s resigned.", name=about.by) + " " + body
    if about.place is not None:
        body += " " + _("You finished in place %(place)s.", place=about.place)
    return _("Match over"), body


def payload(about: About, now: datetime) -> dict[str, Any]:
    """The JSON the service worker shows (static/sw.js), in the current language."""
    title, body = _texts(about, now)
    return {
        "title": title,
        "body": body,
        "url": about.url,
        "tag": about.tag,
        "kind": about.kind,
    }
