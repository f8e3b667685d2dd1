"""Checks run before the server starts, each failing with one line saying what to do.

The data directory, the database, Redis, the outbox, the file limit and the catalogs.

Without them a wrong path or a stopped database surfaced as a traceback from deep
inside the server's start (or, for the outbox, as a 500 hours later). Each check
raises ``SettingsError``; ``jackpot serve`` prints ``configuration error: ...``
and exits 2.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from jackpot.i18n.catalogs import MissingCatalog, check_catalogs
from jackpot.web.base.env_values import SettingsError
from jackpot.web.base.live.stream_caps import open_file_limit
from jackpot.web.base.private_files import private_dir
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database

#: How long reaching the database may take before start-up gives up.
DB_TIMEOUT = 15.0
#: How long reaching Redis may take.
REDIS_TIMEOUT = 5.0


def check_var_dir(settings: Settings) -> None:
    var_dir = settings.var_dir
    if var_dir.exists() and not var_dir.is_dir():
        raise SettingsError(
            f"JACKPOT_VAR_DIR is {str(var_dir)!r}, which is a file, not a directory: "
            "point it at a directory (it is created if missing)"
        )


def check_outbox(settings: Settings) -> None:
    """Without SMTP every mail is a file in the outbox: it must be writable now."""
    if settings.smtp_host:
        return
    outbox = settings.outbox_dir
    try:
        private_dir(outbox)
        with tempfile.NamedTemporaryFile(dir=outbox, prefix=".check-", delete=True):
            pass
    except OSError as exc:
        raise SettingsError(
            f"cannot write mails to the outbox {str(outbox)!r} ({exc.strerror or exc}): "
            "make it a writable directory, set JACKPOT_OUTBOX_DIR to one, "
            "or send mail by SMTP (JACKPOT_SMTP_HOST)"
        ) from None


def check_file_limit(settings: Settings) -> None:
    limit = open_file_limit()
    if limit - settings.fd_reserve < 1:
        raise SettingsError(
            f"the open-file limit is {limit}, not above the {settings.fd_reserve} kept in "
            "reserve (JACKPOT_FD_RESERVE), so no live-event stream could open: raise it "
            "(ulimit -n, or LimitNOFILE= in systemd) or lower JACKPOT_FD_RESERVE"
        )


def _where(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _sqlstate(exc: BaseException) -> str | None:
    """PostgreSQL's error code, from whichever exception in the chain carries it
    (SQLAlchemy wraps the driver's error, which asyncpg's adapter wraps again)."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            break
        code = getattr(seen, "sqlstate", None) or getattr(seen, "pgcode", None)
        if isinstance(code, str):
            return code
        seen = getattr(seen, "orig", None) or seen.__cause__
    return None


def _database_problem(settings: Settings, exc: BaseException) -> str:
    url = settings.database_url
    where = _where(url)
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    if settings.is_sqlite:
        path = make_url(url).database or ""
        if "not a database" in text or (isinstance(orig, sqlite3.DatabaseError) and (
            "malformed" in text
        )):
            return (
                f"{path!r} is not a usable SQLite database ({text}): restore it from a "
                "backup, or move it away to start with an empty one"
            )
        return (
            f"cannot open or write the SQLite database {path!r} ({text}): make the file "
            "and its directory writable for this user, or set DATABASE_URL"
        )
    if isinstance(exc, TimeoutError):
        return f"PostgreSQL at {where} did not answer in {DB_TIMEOUT:.0f} s: check DATABASE_URL"
    code = _sqlstate(exc)
    if code == "3D000":  # invalid_catalog_name
        db = make_url(url).database
        return f"the database {db!r} does not exist at {where}: create it (createdb {db})"
    if code in ("28P01", "28000"):  # invalid_password, invalid_authorization_specification
        return f"PostgreSQL refused the login for {where} ({text}): fix DATABASE_URL"
    if isinstance(orig, OSError):
        return (
            f"cannot reach PostgreSQL at {where} ({text}): start it, or fix the host and "
            "port in DATABASE_URL"
        )
    return f"cannot use the database at {where} ({text}): check DATABASE_URL"


async def _upgrade(settings: Settings) -> None:
    db = Database(settings.database_url)
    try:
        await asyncio.wait_for(db.upgrade(), DB_TIMEOUT)
    finally:
        await db.dispose()


def check_database(settings: Settings) -> None:
    """Reach the database and bring its tables up to date, as the server will."""
    if settings.is_sqlite:
        path = make_url(settings.database_url).database
        if path and path != ":memory:":
            if Path(path).is_dir():
                raise SettingsError(
                    f"the SQLite database {path!r} is a directory: point DATABASE_URL at "
                    "a file (it is created if missing)"
                )
            parent = Path(path).parent
            if parent.exists() and not parent.is_dir():
                raise SettingsError(
                    f"the SQLite database's directory {str(parent)!r} is a file: "
                    "point DATABASE_URL or JACKPOT_VAR_DIR at a directory"
                )
    try:
        asyncio.run(_upgrade(settings))
    except (OSError, DBAPIError, sqlite3.Error, TimeoutError) as exc:
        raise SettingsError(_database_problem(settings, exc)) from None
    except Exception as exc:  # asyncpg's own errors when they are not wrapped
        if type(exc).__module__.startswith("asyncpg"):
            raise SettingsError(_database_problem(settings, exc)) from None
        raise


async def _ping(url: str) -> None:
    client = aioredis.from_url(
        url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
    )
    try:
        await asyncio.wait_for(client.ping(), REDIS_TIMEOUT * 2)
    finally:
        await client.aclose()


def check_redis(settings: Settings) -> None:
    """With ``JACKPOT_REDIS_URL`` the live events and the limits go through Redis:
    it must answer now (the bus subscribes before the first request)."""
    url = settings.redis_url
    if not url:
        return
    try:
        where = _where(url)
    except Exception:
        where = "JACKPOT_REDIS_URL"
    try:
        asyncio.run(_ping(url))
    except (RedisError, OSError, TimeoutError, ValueError) as exc:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SettingsError(
            f"cannot reach Redis at {where} ({text}): start it, or fix JACKPOT_REDIS_URL "
            "(unset it to run one process without Redis)"
        ) from None


def check_translations() -> None:
    """Every language's compiled catalog is there: without one the site answered
    every visitor of that language with 500s (an install made without compiling
    them, from a checkout where ``make catalogs`` never ran)."""
    try:
        check_catalogs()
    except MissingCatalog as exc:
        raise SettingsError(
            f"{exc.path} is missing, so the site cannot speak {exc.locale!r}: install "
            "from a wheel built from the repository (the build compiles the catalogs), "
            "reinstall the checkout (pip install -e .), or run `make catalogs` in it"
        ) from None


def check_all(settings: Settings) -> None:
    """Every check, cheapest first."""
    check_translations()
    check_var_dir(settings)
    check_file_limit(settings)
    check_outbox(settings)
    check_redis(settings)
    check_database(settings)

