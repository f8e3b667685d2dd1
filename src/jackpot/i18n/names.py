"""A guest's default name ("Guest 1a2b") as it is stored, and as a reader sees it.

The site names a guest in English once, when it is made, and that name is what its
seats and its matches' records keep: a record must read the same for whoever checks
it, whatever their language. Pages show the name in the reader's language instead,
at display time, so nothing stored changes and a language switch applies at once. A
stored name is a guest's default exactly when it is "Guest" and four hex digits: no
person may take a name that reads like "Guest" (web/base/names.py), and a guest who
signs up chooses a name of their own.
"""

from __future__ import annotations

import re
import secrets

from jackpot.i18n.catalogs import gettext

GUEST_DEFAULT = re.compile(r"Guest ([0-9a-f]{4})")


def new_guest_name() -> str:
    """A fresh guest's name, as stored: "Guest " and a random four-hex-digit tag."""
    return "Guest " + secrets.token_hex(2)


def shown_name(name: str | None) -> str | None:
    """``name`` in the current language when it is a guest's default, else as it is."""
    found = GUEST_DEFAULT.fullmatch(name) if name else None
    if found is None:
        return name
    return gettext("Guest %(tag)s", tag=found.group(1))
