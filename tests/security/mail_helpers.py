"""Reading what the site mailed (the outbox files) in the security tests."""

from __future__ import annotations

import re
import time
from email import message_from_bytes
from pathlib import Path
from typing import Any


def mails(outbox: Path) -> list[str]:
    """The text bodies in the outbox, oldest first."""
    out = []
    for path in sorted(outbox.glob("*.eml")) if outbox.exists() else []:
        body: Any = message_from_bytes(path.read_bytes()).get_payload(decode=True)
        out.append(body.decode())
    return out


def wait_for_mails(outbox: Path, count: int, timeout: float = 30.0) -> list[str]:
    """Poll until the mail worker has written ``count`` mails (it runs every few seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = mails(outbox)
        if len(found) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"expected {count} mails in {outbox}, found {len(mails(outbox))}")


def reset_links(bodies: list[str]) -> list[str]:
    return [m.group(0) for b in bodies for m in re.finditer(r"\S+/reset/[A-Za-z0-9_\-]+", b)]
