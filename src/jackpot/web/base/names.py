"""Display names: the form they are kept in, the key that makes one name, and their look.

A name may be written in any script. It is kept NFKC-normalised (full-width and other
compatibility forms become the ordinary letters: "Ｂｏｔ" is "Bot") with each run of
white space made one space. Its *key* is that form case-folded: unique among
accounts, so a profile's address names one person whatever the case it is typed in.
Its *look* is Unicode's confusables skeleton (UTS #39, computed by ICU from Unicode's
own table) taken twice, around a case fold, so names a reader could mistake for one
another share it: "Ana" and "Аna" (a Cyrillic А), "Bot" and "B0T", "Iris" and "lris".
Two accounts may not share a look, and no name may start with the look of "Bot" or
"Guest", the names the site gives its bots and guests.
"""

from __future__ import annotations

import unicodedata

import icu

MIN_LENGTH = 2
MAX_LENGTH = 24
#: Besides letters (with their marks) and digits of any script, a name may hold these.
PUNCTUATION = frozenset(" ._-")
#: What the site calls its own seats: no account's name starts with a lookalike.
RESERVED = ("Bot", "Guest")

_SPOOF = icu.SpoofChecker()


def normal_name(raw: str) -> str:
    """The form a name is kept and shown in: NFKC, white space made single spaces."""
    return " ".join(unicodedata.normalize("NFKC", raw).split())


def well_formed(name: str) -> bool:
    """2 to 24 characters of letters, marks, digits, spaces, '.', '_' or '-', starting
    with a letter or a digit (``name`` in its normal form)."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        return False
    if unicodedata.category(name[0])[0] not in "LN":
        return False
    return all(
        c in PUNCTUATION or unicodedata.category(c) in ("Nd",) or unicodedata.category(c)[0] in "LM"
        for c in name
    )


def name_key(name: str) -> str:
    """The key that makes two spellings one name: the normal form, case-folded."""
    return unicodedata.normalize("NFKC", normal_name(name).casefold())


def skeleton(text: str) -> str:
    """Unicode's confusables skeleton of ``text`` (UTS #39 section 4)."""
    return str(_SPOOF.getSkeleton(0, text))


def name_look(name: str) -> str:
    """What a name looks like to a reader: the skeleton, case-folded, and the skeleton
    of that, so lookalikes in any case meet ("Вот", "B0T" and "bot" all look "bot")."""
    return skeleton(skeleton(normal_name(name)).casefold())


def reserved_lookalike(name: str) -> str | None:
    """The site's own name (Bot, Guest) that ``name`` starts with the look of, if any."""
    look = name_look(name)
    return next((word for word in RESERVED if look.startswith(name_look(word))), None)
