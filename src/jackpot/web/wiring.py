"""What the site plugs together once at start-up: who hears of play, and the background steps.

Above every feature, beside app.py: the app and ``jackpot sweep`` both call it, so a
match ended by a timeout in a sweeper process is rated and announced exactly as one
ended on the site. A new feature that cares about a match's end, or offers work for
the background, is added here (docs/architecture.md, "Adding a feature").
"""

from __future__ import annotations

from jackpot.web.accounts.hooks import ACCOUNT_HOOKS
from jackpot.web.accounts.hooks import add as add_account_listener
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database
from jackpot.web.daily.close import daily_steps
from jackpot.web.daily.entries import entry_ended
from jackpot.web.notify.listeners import end_news, plan_news, rematch_news
from jackpot.web.notify.mailer import mail_steps
from jackpot.web.notify.notice_writes import NOTICE_WRITES
from jackpot.web.notify.push.sender import push_steps
from jackpot.web.people.challenges import end_between
from jackpot.web.people.expiry import people_steps
from jackpot.web.people.push import CHALLENGE_PUSHES
from jackpot.web.play.commitments import commitment_steps
from jackpot.web.play.hooks import HOOKS, add, plan_news_with
from jackpot.web.play.seating import name_guest_seats
from jackpot.web.play.sweeper import sweeper_steps
from jackpot.web.players.ratings import rate_ended
from jackpot.web.players.reviews import review_steps


def listen() -> None:
    """Register every listener of play/: at a match's end the ratings first (the end
    notices do not depend on them), then the end notices and a daily entry's place on
    its board; the news a move leaves, rematch offers; and of accounts/: a block, which
    ends the challenges between the two, and a guest's new account, whose name its
    seats take."""
    add(HOOKS.match_end, rate_ended)
    add(HOOKS.match_end, end_news)
    add(HOOKS.match_end, entry_ended)
    add(HOOKS.rematch, rematch_news)
    plan_news_with(plan_news, NOTICE_WRITES)
    add_account_listener(ACCOUNT_HOOKS.block, end_between)
    add_account_listener(ACCOUNT_HOOKS.guest_named, name_guest_seats)


def background_steps(db: Database, settings: Settings) -> list[Step]:
    """Every feature's background steps: deadlines and the lobby first, the ended
    matches' reviews, then the pending seeds nobody used, mail and push (a
    challenge's push among them), then the daily deals ahead and each day's close,
    and the seeks and challenges past their time."""
    return [
        *sweeper_steps(db, settings),
        *review_steps(db, settings),
        *commitment_steps(db, settings),
        *mail_steps(db, settings),
        *push_steps(db, settings, [CHALLENGE_PUSHES]),
        *daily_steps(db, settings),
        *people_steps(db, settings),
    ]
