"""Files that hold secrets are the site's user's alone: the SQLite database (and the
journal beside it), `jackpot backup` copies (password hashes, the next days' daily
seeds) and outbox mails (reset links) are created 0600, the folders made for them
0700, whatever the umask. Made with the usual umask 022 they were readable by every
user of the machine."""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jackpot.cli.backup import sqlite_backup
from jackpot.web.base.mail import send_mail
from jackpot.web.base.storage.db import Database


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


async def test_the_database_and_its_backup_are_private(tmp_path: Path) -> None:
    folder = tmp_path / "var"
    path = folder / "jackpot.sqlite3"
    db = Database(f"sqlite+aiosqlite:///{path}")
    try:
        await db.upgrade()
        assert mode(folder) == 0o700
        assert mode(path) == 0o600
        for beside in folder.iterdir():
            if beside.name.startswith("jackpot.sqlite3"):
                assert mode(beside) == 0o600, beside
        copy = tmp_path / "backup.sqlite3"
        sqlite_backup(path, copy)
        assert mode(copy) == 0o600
    finally:
        await db.dispose()


async def test_outbox_mails_are_private(settings: Any, tmp_path: Path) -> None:
    outbox = tmp_path / "mails"
    await send_mail(dataclasses.replace(settings, outbox_dir=outbox), "ana@example.org",
                    "Reset", "https://example.org/reset/secret")
    assert mode(outbox) == 0o700
    [mail] = list(outbox.iterdir())
    assert mode(mail) == 0o600
