"""Passwords: which ones we refuse, and argon2 on a small pool of threads.

Refused: what zxcvbn rates guessable. Hashing and checking run off the event loop.

Why a pool: argon2id is meant to be slow (tens of milliseconds of CPU and 64 MiB per
hash). On the event loop fifty sign-ups at once kept every other request waiting
seconds; inside a write transaction they also held SQLite's one writer. argon2-cffi
releases the GIL while it hashes, so a few threads hash in parallel while the loop
keeps serving. The pool is small (the machine's cores) and its queue bounded: past
``queue`` waiting jobs the request is refused with 503 rather than queued for ever.
Who waits where is ``hash_queue.py``'s business: a lane of its own for log-ins from a
known device, a fair share per address for the rest. Callers hash *before* opening a
write transaction and check *after* reading the hash, never while holding the writer.

The cost (argon2's passes and memory) is a setting: production keeps RFC 9106's
low-memory profile, the default; the test suite turns it down, since it signs up
thousands of accounts and what it checks there is not argon2. Each hash carries its
own parameters, so hashes made at one cost verify at any other.
"""

from __future__ import annotations

import asyncio
import os
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn  # type: ignore[import-untyped]

from jackpot.i18n import N_
from jackpot.web.base.errors import ApiError
from jackpot.web.base.hash_queue import HashQueue, Lane

MIN_LENGTH = 8
MAX_LENGTH = 200
#: zxcvbn scores 0-4; 3 means "safely unguessable", about 10^8 guesses or more. That
#: holds against the online guessing our limits allow many times over, and against
#: an offline attack on a leaked argon2id hash for a good while; 2 (10^6-10^8) is
#: within reach of a list of common passwords with variations.
MIN_SCORE = 3
#: zxcvbn refuses longer input, and its time grows with the length.
ZXCVBN_MAX = 72
#: Words a password must not lean on: the site's own name.
SITE_WORDS = ("jackpot", "peer2peergames", "shutthebox", "shut the box")

#: argon2id's cost unless the settings say otherwise: RFC 9106's low-memory profile
#: (3 passes over 64 MiB, 4 lanes), tens of milliseconds of CPU a hash.
TIME_COST = profiles.RFC_9106_LOW_MEMORY.time_cost
MEMORY_KIB = profiles.RFC_9106_LOW_MEMORY.memory_cost
LANES = profiles.RFC_9106_LOW_MEMORY.parallelism
#: argon2 needs at least 8 KiB per lane.
MIN_MEMORY_KIB = 8 * LANES


#: zxcvbn's warnings (English, from its own source) grouped into our catalog's words.
#: A warning not listed here, or none, gets the general message.
_WARNINGS = {
    "Straight rows of keys are easy to guess.": "keys",
    "Short keyboard patterns are easy to guess.": "keys",
    'Repeats like "aaa" are easy to guess.': "repeats",
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".': "repeats",
    'Sequences like "abc" or "6543" are easy to guess.': "sequence",
    "Recent years are easy to guess.": "dates",
    "Dates are often easy to guess.": "dates",
    "This is a top-10 common password.": "common",
    "This is a top-100 common password.": "common",
    "This is a very common password.": "common",
    "This is similar to a commonly used password.": "common",
    "A word by itself is easy to guess.": "word",
    "Names and surnames by themselves are easy to guess.": "word",
    "Common names and surnames are easy to guess.": "word",
}
_WEAKNESS_MESSAGES = {
    "short": N_("the password must be at least %(num)d characters long"),
    "long": N_("the password must be at most %(num)d characters long"),
    "spaces": N_("the password cannot be only spaces"),
    "keys": N_(
        "that password follows a pattern on the keyboard, which is easy to guess; "
        "add another word or two, uncommon ones help most"
    ),
    "repeats": N_(
        "that password repeats itself, which is easy to guess; "
        "add another word or two, uncommon ones help most"
    ),
    "sequence": N_(
        "that password is a sequence like abc or 6543, which is easy to guess; "
        "add another word or two, uncommon ones help most"
    ),
    "dates": N_(
        "that password leans on a year or a date, which is easy to guess; "
        "add another word or two, uncommon ones help most"
    ),
    "common": N_(
        "that password is one of the most used ones (or close to one); "
        "add another word or two, uncommon ones help most"
    ),
    "word": N_(
        "a single word or name on its own is easy to guess; "
        "add another word or two, uncommon ones help most"
    ),
    "own": N_(
        "that password leans on your own name or address, which is easy to guess; "
        "add another word or two, uncommon ones help most"
    ),
    "guessable": N_(
        "that password is too easy to guess; add another word or two, uncommon ones help most"
    ),
}


class WeakPassword(ApiError):
    """422 ``weak_password``: one of the reasons above, in the reader's language."""

    def __init__(self, reason: str) -> None:
        limit = MAX_LENGTH if reason == "long" else MIN_LENGTH
        super().__init__(422, "weak_password", _WEAKNESS_MESSAGES[reason], num=limit)
        self.reason = reason


def _weakness(password: str, user_words: tuple[str, ...]) -> str | None:
    """Why ``password`` is too easy to guess (a key of the messages above), or None."""
    if len(password) < MIN_LENGTH:
        return "short"
    if len(password) > MAX_LENGTH:
        return "long"
    if not password.strip():
        return "spaces"
    words = [w for w in (*own_words(user_words), *SITE_WORDS) if w]
    result: dict[str, Any] = zxcvbn(password[:ZXCVBN_MAX], user_inputs=words)
    if result["score"] >= MIN_SCORE:
        return None
    if any(m.get("dictionary_name") == "user_inputs" for m in result.get("sequence") or []):
        return "own"
    feedback = result.get("feedback") or {}
    return _WARNINGS.get(str(feedback.get("warning") or ""), "guessable")


def own_words(user_words: tuple[str, ...]) -> list[str]:
    """The account's words as a password may hide them: "Mara Lind" (or the address
    mara.lind@...) also as "maralind", "lindmara", "mara" and "lind", since zxcvbn
    finds only the words it is given, and "maralind2026" was accepted."""
    found: list[str] = []
    for word in user_words:
        # An address stays whole: its local part is one of the words already.
        parts = [] if "@" in word else [p for p in re.split(r"[\W_]+", word.lower()) if p]
        found += [word.lower(), "".join(parts), "".join(reversed(parts))]
        found += [p for p in parts if len(p) >= 3]
    return list(dict.fromkeys(w for w in found if w))


class Passwords:
    """The policy check, hashing and verifying, on ``threads`` worker threads; each
    job waits in its ``Lane`` (hash_queue.py), ``queue`` places for strangers and
    ``known_queue`` for known devices."""

    def __init__(
        self,
        threads: int | None = None,
        queue: int = 64,
        known_queue: int = 16,
        *,
        time_cost: int = TIME_COST,
        memory_kib: int = MEMORY_KIB,
    ) -> None:
        threads = threads or min(os.cpu_count() or 2, 4)
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="argon2")
        self.queue = HashQueue(threads, queue, known_queue)
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=LANES
        )
        #: Verified against when the account does not exist, so a wrong email costs
        #: the same time as a wrong password and does not reveal who has an account.
        self._dummy_hash = self._hasher.hash("not a real password")

    async def _run(self, lane: Lane, fn: Any, *args: Any) -> Any:
        async with self.queue.turn(lane):
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def check_strength(self, password: str, *user_words: str, lane: Lane) -> None:
        """422 ``weak_password`` with the reason, for a password we would not accept."""
        words = tuple(w.lower() for w in user_words)
        why = await self._run(lane, _weakness, password, words)
        if why is not None:
            raise WeakPassword(why)

    async def hash(self, password: str, lane: Lane) -> str:
        return str(await self._run(lane, self._hasher.hash, password))

    async def verify(self, password_hash: str | None, password: str, lane: Lane) -> bool:
        """Does ``password`` match? With no hash (no such account) the same work is
        done against a dummy, and the answer is no."""
        ok = bool(
            await self._run(
                lane, self._verify, password_hash or self._dummy_hash, password[:MAX_LENGTH]
            )
        )
        return ok and password_hash is not None

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
