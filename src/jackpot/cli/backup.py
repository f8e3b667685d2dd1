"""``jackpot backup FILE`` (a consistent copy of the SQLite database while the site
serves) and ``jackpot export-records DIR`` (every finished match's record, to check
a restored copy with ``jackpot verify``).

A file copy of a live SQLite database is not a backup: a write that lands while
the copy runs, or one still in the write-ahead log beside the file, leaves a copy
that is torn or behind. SQLite's online backup API copies the pages inside one
read transaction, the log's pages included, while the site goes on writing (in WAL
mode readers never block the writer). PostgreSQL has its own tool for this,
``pg_dump``; the command says so rather than copy anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from jackpot.web.base.private_files import create_private

#: How long the copy may wait for a writer that holds the database (milliseconds).
BUSY_MS = 30_000


def _settings() -> Any:
    from jackpot.web.base.env_values import SettingsError
    from jackpot.web.base.settings import load_settings

    try:
        return load_settings()
    except SettingsError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return None


def sqlite_backup(source: Path, target: Path) -> int:
    """Copy the database ``source`` to ``target`` with SQLite's online backup, all
    pages in one step (one read transaction: one moment's database), then check
    the copy. Written beside ``target`` and renamed over it at the end, so a failed
    backup never leaves a half file under its name. Returns the copy's size."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # Password hashes and the next days' daily seeds: for the site's user only.
    create_private(partial)
    src = sqlite3.connect(f"file:{source}?mode=rw", uri=True, timeout=BUSY_MS / 1000)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # a single file, nothing beside it
            problem = dst.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            dst.close()
    finally:
        src.close()
    if problem != "ok":
        partial.unlink(missing_ok=True)
        raise sqlite3.DatabaseError(f"the copy failed its integrity check: {problem}")
    os.replace(partial, target)
    return target.stat().st_size


def backup(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url

    settings = _settings()
    if settings is None:
        return 2
    url = make_url(settings.database_url)
    if not settings.is_sqlite:
        plain = url.set(drivername="postgresql").render_as_string(hide_password=True)
        print(
            "jackpot backup copies a SQLite database; this one is PostgreSQL, whose own "
            f"tool makes a consistent copy while the site serves: pg_dump --format=custom "
            f"--file={args.file} '{plain}' (restore with pg_restore; docs/deploy.md, "
            "\"Backups and restore\")",
            file=sys.stderr,
        )
        return 2
    source = Path(url.database or "")
    if not source.is_file():
        print(f"jackpot backup: there is no SQLite database at {str(source)!r}", file=sys.stderr)
        return 2
    target = Path(args.file)
    if target.resolve() == source.resolve():
        print("jackpot backup: the copy cannot replace the database itself", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        size = sqlite_backup(source, target)
    except (sqlite3.Error, OSError) as exc:
        print(f"jackpot backup: {exc}", file=sys.stderr)
        return 1
    took = time.perf_counter() - started
    print(f"backed up {source} to {target} ({size:,} bytes in {took:.1f} s)")
    return 0


async def _export(database_url: str, out: Path) -> int:
    from sqlalchemy import select

    from jackpot.web.base.storage.db import Database
    from jackpot.web.base.tables import core as t
    from jackpot.web.matches.views import load_record

    db = Database(database_url)
    try:
        async with db.read() as conn:
            ids = (
                await conn.execute(
                    select(t.matches.c.id)
                    .where(t.matches.c.status == "finished")
                    .order_by(t.matches.c.id)
                )
            ).scalars().all()
            for match_id in ids:
                record = await load_record(conn, match_id)
                (out / f"{match_id}.json").write_text(json.dumps(record) + "\n")
        return len(ids)
    finally:
        await db.dispose()


def export_records(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    out = Path(args.directory)
    out.mkdir(parents=True, exist_ok=True)
    n = asyncio.run(_export(settings.database_url, out))
    print(f"wrote {n} finished match record{'s' if n != 1 else ''} to {out}")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "backup",
        help="a consistent copy of the SQLite database while the site serves",
        description="Copy the SQLite database (DATABASE_URL, else JACKPOT_VAR_DIR's) to FILE "
        "with SQLite's online backup: one moment's database, while the site goes on "
        "serving. For PostgreSQL it says how to use pg_dump instead.",
    )
    p.add_argument("file", help="where the copy goes (replaced if it exists)")
    p.set_defaults(func=backup)
    p = subparsers.add_parser(
        "export-records",
        help="write every finished match's record to a directory (check with jackpot verify)",
    )
    p.add_argument("directory", help="one <match id>.json per finished match goes here")
    p.set_defaults(func=export_records)
