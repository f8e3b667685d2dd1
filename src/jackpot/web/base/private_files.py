"""Files only their owner can read: the SQLite database, backups, mails in the outbox.

Each holds secrets: the database and its backups password hashes, device and token
hashes and the next days' daily seeds; an outbox mail a live reset link. Made
with the process's umask (commonly 022) they were readable by every user of the
machine. So they are created 0600 and the folders made for them 0700 (a folder
that exists already is left as its owner set it).
"""

from __future__ import annotations

import os
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: Path) -> None:
    """``path`` as a folder, made 0700 if it is missing (its parent must exist)."""
    if path.is_dir():
        return
    path.mkdir(mode=DIR_MODE)
    os.chmod(path, DIR_MODE)


def create_private(path: Path) -> None:
    """An empty ``path`` made 0600 if there is none (SQLite then opens it, and its
    journal files beside it take the same mode)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def write_private(path: Path, data: bytes) -> None:
    """A new file ``path`` holding ``data``, 0600 from the start."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
