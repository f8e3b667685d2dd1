"""The database tables (SQLAlchemy Core), shared by the app and the migrations.

Core rather than the ORM: every action touches a handful of rows with known
statements, and the hot path (a throw or a cover) must stay cheap.

A match row holds the engine's snapshot (``state``), so an action loads one row,
applies one move and writes it back: the work does not grow with the match.
``version`` is the per-match event sequence number; every write is a conditional
UPDATE on it, which makes two racing writers (or two sweepers) apply a move once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    true,
)
from sqlalchemy.engine import Dialect


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every database (SQLite stores them naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        when: datetime = value
        return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

#: People with an account, and guests (no email, no password) remembered by a cookie.
users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("email", String(254), unique=True, nullable=True),
    Column("name", String(40), nullable=False),
    #: The name case-folded, unique for accounts so a profile URL names one person;
    #: its look (confusables skeleton) tells lookalikes apart (base/names.py).
    Column("name_key", String(64), unique=True, nullable=True),
    Column("name_look", String(200), nullable=True),
    Column("password_hash", String(200), nullable=True),
    Column("is_guest", Boolean, nullable=False, default=False),
    Column("leaderboard", Boolean, nullable=False, default=False),
    #: The language the account chose ("pt"), for its pages after logging in and its
    #: mails; NULL until it chooses, when the browser's language decides.
    Column("locale", String(8), nullable=True),
    #: Autoplay of forced moves in matches between people with a deadline of an hour
    #: or more (docs/autoplay.md): throws with no choice, covers with one option.
    #: NULL is the default, on.
    Column("autoplay_throws", Boolean, nullable=True),
    Column("autoplay_covers", Boolean, nullable=True),
    #: The colour theme the account chose ("light", "dark"); NULL: the device's (edge/theme.py).
    Column("theme", String(6), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("last_seen", UTCDateTime(), nullable=False),
    Index("ix_users_name_look", "name_look"),
)

#: Browser sessions and API tokens; only a SHA-256 of the secret is stored.
credentials = Table(
    "credentials",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(10), nullable=False),  # "session" | "token"
    Column("label", String(80), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=True),
    #: When a token was last used, to the nearest few minutes (tokens.py).
    Column("last_used_at", UTCDateTime(), nullable=True),
    Index("ix_credentials_user", "user_id"),
)

matches = Table(
    "matches",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("variant", String(10), nullable=False),
    Column("status", String(10), nullable=False),  # waiting | playing | finished
    Column("seat_count", Integer, nullable=False),
    #: Seconds a person has for each throw; null for a match with no clock per throw
    #: (a daily entry, whose one time limit is its day's close, held in ``due_at``).
    Column("deadline_seconds", Integer, nullable=True),
    Column("private", Boolean, nullable=False, default=False),
    Column("creator_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("started_at", UTCDateTime(), nullable=True),
    Column("finished_at", UTCDateTime(), nullable=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("client_seed", String(330), nullable=True),
    #: The engine's snapshot (Match.to_dict()); null while waiting for players.
    Column("state", JSON, nullable=True),
    #: Last event sequence number; the SSE id, and the optimistic lock.
    Column("version", Integer, nullable=False, default=0),
    #: Record event counter (throws and outs, in order).
    Column("record_len", Integer, nullable=False, default=0),
    Column("turn_seat", Integer, nullable=True),
    #: When the current throw's deadline runs out; null unless a human must act.
    Column("due_at", UTCDateTime(), nullable=True),
    #: Per seat (in the order of play), when its page has played out every move so
    #: far at its slowest speed, as ISO times: a throw due after another person's
    #: quick moves (an action each) waits for all of them (play/move_plan.py).
    Column("shown_until", JSON, nullable=True),
    Column("result", JSON, nullable=True),
    #: When a match still waiting for players is called off (the sweeper does it);
    #: null for one that never waited.
    Column("expires_at", UTCDateTime(), nullable=True),
    #: Until when the server seed stays hidden even once the match is over (a daily
    #: entry's, until its day ends: matches/disclosure.py); null: shown at the end.
    Column("seed_hidden_until", UTCDateTime(), nullable=True),
    #: Where the match comes from (matches/origin.py: bot, solo, people, play_now,
    #: challenge, rematch, daily, tournament) and the id of what made it (a challenge,
    #: a seek, the match a rematch follows, a deal, a tournament; null: a person).
    Column("origin", String(12), nullable=False, server_default="people"),
    Column("origin_id", String(40), nullable=True),
    #: The rules that follow from the origin, fixed when the match is made: whether
    #: its end may change ratings, offers a rematch, and is listed to watch (/watch).
    #: When its seed is shown is ``seed_hidden_until``'s (matches/disclosure.py).
    Column("rated", Boolean, nullable=False, server_default=true()),
    Column("offers_rematch", Boolean, nullable=False, server_default=true()),
    Column("on_watch", Boolean, nullable=False, server_default=true()),
    #: A server seed made of parts (play/parts.py): [{"commitment", "part"}] in joining
    #: order, the parts secret until the seed is shown; null for a seed drawn whole.
    Column("parts", JSON, nullable=True),
    #: A daily entry whose throws follow the turn and the open tiles: "by-position";
    #: null for dice by the throw's number (every other match, and earlier entries).
    Column("dice", String(12), nullable=True),
    #: The spare deadlines each seat was given (0 to 5; docs/fair-play.md): a passed
    #: deadline uses one before it puts the seat out. Each seat's left is the engine's
    #: (``state``'s ``spares_left``).
    Column("spares", Integer, nullable=False, server_default="0"),
    Index("ix_matches_due", "due_at"),
    Index("ix_matches_lobby", "status", "private"),
)

seats = Table(
    "seats",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("is_bot", Boolean, nullable=False, default=False),
    Column("name", String(40), nullable=True),
    Column("client_seed", String(64), nullable=True),
    #: "server" when the person sent no client seed and the server made theirs.
    Column("seed_by", String(6), nullable=True),
    #: A bot's strength, drawn from the seed at the start; hidden until the end.
    Column("strength", String(10), nullable=True),
    #: Set at the start, when ``seat`` becomes the place in the order of play drawn
    #: from the seed: the seat's number before the draw (its joining index). NULL
    #: for a match started before the draw (its record stays jackpot-record/1).
    Column("joined", Integer, nullable=True),
    #: A person's autoplay in this match, fixed at the start from the account's
    #: default (on only between people, an hour or more a throw), switched on the
    #: match page; NULL for a bot or a match started before autoplay (off).
    Column("autoplay_throws", Boolean, nullable=True),
    Column("autoplay_covers", Boolean, nullable=True),
    #: The person made a move themselves (a throw or cover autoplay made does not
    #: count): False until then; NULL for a bot or a match started before this.
    Column("acted", Boolean, nullable=True),
    Index("ix_seats_user", "user_id"),
)

#: The record's event log (its throws, outs and spares used, docs/fair-play.md), one row each.
record_events = Table(
    "record_events",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("kind", String(5), nullable=False),  # throw | out | spare
    Column("n", Integer, nullable=True),
    Column("seat", Integer, nullable=False),
    Column("dice", String(8), nullable=True),  # "3,4" or "5"
    #: "" is a dead throw, "2,5" the tiles covered, null while pending or never covered.
    Column("cover", String(30), nullable=True),
    Column("reason", String(10), nullable=True),
    Index("ix_record_events_throw", "match_id", "n"),
)

#: Live events (SSE), kept so a client that lost its connection resumes exactly.
match_events = Table(
    "match_events",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("data", Text, nullable=False),
)
