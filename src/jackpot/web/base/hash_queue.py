"""Who waits for a password-hashing thread: known devices by least use, strangers by address.

The hashing pool has a few threads and a bounded queue (``passwords.py``). One
bounded queue for everybody let a crowd lock an account's owner out: 200 wrong
log-ins from 200 addresses, each under every per-address limit, kept it full, and
the owner's right password was answered 503 like theirs. So there are two lanes:

* ``known``: a log-in that carries a valid device cookie for the account it names
  (accounts/devices.py, OWASP's "device cookies"): a browser that has logged in to
  that account before. Keyed by the account, with its ``weight``: how many checks
  the account had in this lane lately (signin.py counts them). The lightest goes
  first, and when the lane is full a newcomer pushes out the heaviest. Throw-away
  accounts that log in again and again with their own cookies grow heavy at once;
  an owner who logs in now and then weighs next to nothing, so is never queued
  behind them, nor pushed out by them.
* the rest, keyed by the client's address bucket (its /64 for IPv6). When it is
  full, a newcomer takes the place of the newest job of whoever waits with the
  most (that one is answered 503 ``busy``); only when everybody waits with as few
  as the newcomer would is the newcomer refused. Free threads take the keys in
  turn, so an address with fifty jobs waiting does not delay one with a single job.

Free threads go to the two lanes in turn while both have jobs waiting: a crowd of
known devices cannot starve new browsers and sign-ups of every thread (it used
to: known first, always), and an owner still waits for at most one stranger.

A crowd of single-request addresses can still fill the second lane (nothing tells
its members from a new visitor); what it cannot do is keep out a browser that has
logged in to the account before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass

from jackpot.web.base.errors import ApiError


@dataclass(frozen=True)
class Lane:
    """Where a job waits: ``key`` is the account (known devices) or the address bucket;
    ``weight``: the account's recent checks in the known lane (the lighter go first)."""

    key: str
    known: bool = False
    weight: int = 0


def busy() -> ApiError:
    return ApiError(503, "busy", "the server is busy checking passwords; try again soon")


class FairLane:
    """Waiting jobs by key, at most ``size`` in all, handed out a key at a time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.count = 0
        #: key -> its waiting jobs (oldest first); the dict's order is whose turn it is.
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}

    def add(self, key: str, job: asyncio.Future[None]) -> None:
        """Queue ``job``; when full, push out the newest of the fullest key, or
        refuse (503) when that key holds no more than ``key`` would."""
        if self.count >= self.size:
            mine = len(self.waiting.get(key, ()))
            fullest = max(self.waiting, key=lambda k: len(self.waiting[k]), default=None)
            if fullest is None or len(self.waiting[fullest]) <= mine + 1:
                raise busy()
            pushed = self.waiting[fullest].pop()
            if not self.waiting[fullest]:
                del self.waiting[fullest]
            self.count -= 1
            if not pushed.done():
                pushed.set_exception(busy())
        self.waiting.setdefault(key, deque()).append(job)
        self.count += 1

    def pop(self) -> asyncio.Future[None] | None:
        """The next key's oldest job (the key goes to the back of the turn)."""
        while self.waiting:
            key = next(iter(self.waiting))
            jobs = self.waiting.pop(key)
            job = jobs.popleft()
            self.count -= 1
            if jobs:
                self.waiting[key] = jobs
            if not job.done():
                return job
        return None

    def discard(self, key: str, job: asyncio.Future[None]) -> None:
        jobs = self.waiting.get(key)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            self.count -= 1
            if not jobs:
                del self.waiting[key]


class KnownLane:
    """The known devices' waiting jobs, at most ``size``: the lightest account's oldest
    first; when full, a newcomer pushes out the heaviest's newest, or is refused (503)
    when nobody waiting is heavier than it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._seq = 0
        #: (weight, arrival, key, job)
        self.waiting: list[tuple[int, int, str, asyncio.Future[None]]] = []

    @property
    def count(self) -> int:
        return len(self.waiting)

    def add(self, lane: Lane, job: asyncio.Future[None]) -> None:
        if len(self.waiting) >= self.size:
            heaviest = max(self.waiting, key=lambda w: (w[0], w[1]))
            if heaviest[0] <= lane.weight:
                raise busy()
            self.waiting.remove(heaviest)
            if not heaviest[3].done():
                heaviest[3].set_exception(busy())
        self._seq += 1
        self.waiting.append((lane.weight, self._seq, lane.key, job))

    def pop(self) -> asyncio.Future[None] | None:
        while self.waiting:
            lightest = min(self.waiting, key=lambda w: (w[0], w[1]))
            self.waiting.remove(lightest)
            if not lightest[3].done():
                return lightest[3]
        return None

    def discard(self, key: str, job: asyncio.Future[None]) -> None:
        self.waiting = [w for w in self.waiting if w[3] is not job]


class HashQueue:
    """``threads`` jobs run at once; the others wait in their lane."""

    def __init__(self, threads: int, queue: int, known_queue: int) -> None:
        self.threads = threads
        self.running = 0
        self.known = KnownLane(known_queue)
        self.unknown = FairLane(queue)
        #: Whose turn the next thread is when both lanes wait: they alternate.
        self._known_next = True

    @contextlib.asynccontextmanager
    async def turn(self, lane: Lane) -> AsyncIterator[None]:
        """Wait for a thread (503 ``busy`` when the lane is full); hold it inside."""
        await self._wait(lane)
        try:
            yield
        finally:
            self.running -= 1
            self._hand_on()

    async def _wait(self, lane: Lane) -> None:
        if self.running < self.threads and not (self.known.count or self.unknown.count):
            self.running += 1
            return
        job: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if lane.known:
            self.known.add(lane, job)
        else:
            self.unknown.add(lane.key, job)
        try:
            await job
        except asyncio.CancelledError:
            if job.done() and not job.cancelled() and job.exception() is None:
                self.running -= 1  # given a thread just as the caller went away
                self._hand_on()
            elif lane.known:
                self.known.discard(lane.key, job)
            else:
                self.unknown.discard(lane.key, job)
            raise

    def _hand_on(self) -> None:
        """Give free threads to waiting jobs, the lanes in turn while both wait
        (known devices first after a stranger's job)."""
        while self.running < self.threads:
            first, then = (
                (self.known, self.unknown) if self._known_next else (self.unknown, self.known)
            )
            job = first.pop()
            lane: KnownLane | FairLane = first
            if job is None:
                job, lane = then.pop(), then
            if job is None:
                return
            self._known_next = lane is self.unknown
            self.running += 1
            job.set_result(None)
