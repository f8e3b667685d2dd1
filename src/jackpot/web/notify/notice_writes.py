"""How play/ writes the notices a move leaves: notify/'s table and statements, handed over once.

The notices a move needs are planned with the move (listeners.plan_news) and must
be written in the move's own transaction, so that a committed move never loses its
mail; play/ runs these statements there without knowing the table (web/wiring.py
hands them over), and notify/ stays the only one that knows how its rows look.
"""

from __future__ import annotations

from jackpot.web.base.tables.notify import notices
from jackpot.web.matches.news import NoticeWrites

#: The columns a pending reminder rewritten for the next throw takes from it.
REMINDER_MOVED = ("key", "user_id", "seat", "round", "due_at", "send_after", "created_at")

NOTICE_WRITES = NoticeWrites(
    table=notices,
    columns=tuple(c.name for c in notices.columns if c.name not in ("id", "sent_at", "error")),
    insert_tail=" ON CONFLICT (key) DO NOTHING",
    # Deleted, as a pending reminder is: "dropped" is the mailer's word for a notice
    # it will not mail, which the push worker must not read as "moved".
    drop_turn=(
        "DELETE FROM notices"
        " WHERE match_id = ? AND seat = ? AND kind = 'turn' AND status = 'pending'"
    ),
    drop_reminder=(
        "DELETE FROM notices WHERE match_id = ? AND kind = 'reminder' AND status = 'pending'"
    ),
    # One statement instead of a DELETE and an INSERT, and fewer index entries
    # touched. Its key changes, so a mail or push worker holding the old one no longer
    # finds it, as if deleted (the mailer's updates check the keys they read).
    move_reminder=(
        "UPDATE OR IGNORE notices SET "
        + "".join(f"{c} = ?, " for c in REMINDER_MOVED)
        + "attempts = 0 WHERE match_id = ? AND kind = 'reminder' AND status = 'pending'"
    ),
    moved_columns=REMINDER_MOVED,
)
