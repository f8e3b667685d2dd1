"""A mail that names a deadline says first how long is left, in words and in the
recipient's language (it holds in every time zone), then the clock time, labelled
as UTC. Checked over a real SMTP exchange (aiosmtpd)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from test_match_end import due_of, text_of, to
from test_notify import player, start_match

from jackpot.i18n import gettext, use_locale
from jackpot.i18n.formats import moment
from jackpot.web.base.clock import utcnow
from jackpot.web.notify.compose import human_left
from jackpot.web.notify.mailer import mail_step
from jackpot.web.notify.notices import GRACE

#: The deadline line of a turn mail sent a minute and five seconds after the start,
#: a day to throw, as each language words it.
WORDED = {
    "en": r"Deadline: in 23 hours 5\d minutes \(.+ UTC\)\.",
    "sk": r"Lehota: zostáva 23 hodín 5\d minút \(.+ UTC\)\.",
}


def deadline_line(text: str) -> str:
    [line] = [s.strip() for s in text.splitlines() if "UTC" in s]
    return line


@pytest.mark.parametrize("lang", ["en", "pt", "ms", "et", "sk"])
async def test_a_turn_mail_says_the_time_left_and_labels_utc(  # type: ignore[no-untyped-def]
    app, make_client, smtp, lang
) -> None:
    settings, received = smtp
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    r = await ana.client.patch("/api/account", json={"locale": lang})
    assert r.status_code == 200, r.text
    t0 = utcnow()
    state = await start_match(ana, ben)
    sent_at = t0 + GRACE + timedelta(seconds=5)
    assert await mail_step(app.state.db, settings, sent_at) == 1
    [mail] = to(received, ana)
    line = deadline_line(text_of(mail))
    due: datetime = due_of(state)
    with use_locale(lang):
        left, when = human_left(due - sent_at), moment(due)
        expected = gettext("Deadline: in %(left)s (%(when)s UTC).", left=left, when=when)
    assert line == expected
    # The words of the time left come before the clock time, which says UTC.
    assert line.index(left) < line.index(when) < line.index("UTC")
    if lang in WORDED:
        assert re.fullmatch(WORDED[lang], line), line
    else:
        assert not line.startswith("Deadline"), line  # the recipient's language


async def test_a_reminder_says_the_time_left_first(app, make_client, smtp) -> None:  # type: ignore[no-untyped-def]
    settings, received = smtp
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    due = due_of(state)
    remind_at = due - timedelta(hours=4, minutes=30)
    await mail_step(app.state.db, settings, remind_at)
    reminder: Any = to(received, ana)[-1]
    assert reminder["Subject"].startswith("Reminder: 4 hours 30 minutes left")
    line = deadline_line(text_of(reminder))
    assert line.startswith("Deadline: in 4 hours 30 minutes (") and " UTC). Miss it" in line
