"""Fresh databases for tests: a SQLite file, or a new PostgreSQL database per test.

``JACKPOT_TEST_DATABASE_URL`` (e.g. ``postgresql://postgres@127.0.0.1:5432/test``)
names a PostgreSQL server and a database to connect to for administration; each
test then gets its own ``jackpot_test_<random>`` database there, dropped after.
Creating one costs ~0.1 s here, and a whole database (rather than a schema) keeps
the app's URL handling exactly as in production. When the server is unreachable the
test fails: a PostgreSQL run that tests nothing is not a pass.

Migrating an empty database costs far more than copying a migrated one, so each test
process migrates once, into a template (a SQLite file, or a PostgreSQL database), and
each test starts from a copy (``CREATE DATABASE ... TEMPLATE`` on PostgreSQL). The
app's start-up still runs the migrations, and finds nothing left to do.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from jackpot.bench.server import pg_admin_sql
from jackpot.web.base.storage.db import Database

#: Where tests/multi finds PostgreSQL when JACKPOT_TEST_DATABASE_URL is not set.
DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def pg_admin_url() -> str:
    url = os.environ.get("JACKPOT_TEST_DATABASE_URL") or DEFAULT_PG_URL
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValueError(f"JACKPOT_TEST_DATABASE_URL must be postgresql://..., not {url!r}")
    return url


def _with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _run(coro: object) -> None:
    # In a thread of its own: a sync fixture may be called while a loop runs in this
    # thread (Playwright's sync API keeps one), where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro).result()  # type: ignore[arg-type]


def create_pg_database(admin_url: str | None = None, template: str | None = None) -> str:
    """A new database, empty or a copy of ``template`` (a URL); returns its
    ``postgresql://`` URL."""
    admin = admin_url or pg_admin_url()
    name = "jackpot_test_" + secrets.token_hex(6)
    copy = f' TEMPLATE "{urlsplit(template).path.lstrip("/")}"' if template else ""
    _run(pg_admin_sql(admin, f'CREATE DATABASE "{name}"{copy}'))
    return _with_db(admin, name)


def drop_pg_database(url: str, admin_url: str | None = None) -> None:
    name = urlsplit(url).path.lstrip("/")
    assert name.startswith("jackpot_test_"), name
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    _run(pg_admin_sql(admin_url or pg_admin_url(), drop))


def execute(url: str, sql: str) -> None:
    """One statement on a test database, from outside the server that uses it (a
    test that lets time pass for a row without waiting)."""
    if url.startswith("sqlite"):
        with sqlite3.connect(url.split(":///", 1)[1]) as conn:
            conn.execute(sql)
        return
    _run(pg_admin_sql(url, sql))


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}"


async def _upgrade(url: str) -> None:
    db = Database(url)
    try:
        await db.upgrade()
    finally:
        await db.dispose()


def migrated_template(tmp_path: Path) -> str:
    """A database migrated to the heads, to copy from: a SQLite file in ``tmp_path``
    (its path), or a new PostgreSQL database (its ``postgresql://`` URL)."""
    if not os.environ.get("JACKPOT_TEST_DATABASE_URL"):
        _run(_upgrade(sqlite_url(tmp_path)))
        path = tmp_path / "test.sqlite3"
        # Everything into the one file, which is all that is copied.
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return str(path)
    url = create_pg_database()
    try:
        _run(_upgrade(app_url(url)))
    except BaseException:
        drop_pg_database(url)
        raise
    return url


def database_from(template: str, tmp_path: Path) -> str:
    """A new database for one test, a copy of ``migrated_template``'s; the app's URL.
    On PostgreSQL, drop it after with ``drop_pg_database``."""
    if template.startswith("postgresql://"):
        return app_url(create_pg_database(template=template))
    shutil.copyfile(template, tmp_path / "test.sqlite3")
    return sqlite_url(tmp_path)


def app_url(url: str) -> str:
    """The async-driver spelling the app uses (settings.load_settings does the same)."""
    for plain, async_ in (("postgresql://", "postgresql+asyncpg://"),
                          ("postgres://", "postgresql+asyncpg://")):
        if url.startswith(plain):
            return async_ + url[len(plain):]
    return url
