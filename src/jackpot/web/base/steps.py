"""Background steps: work a feature offers to run every so often, and the loop that runs them.

Each feature says what it needs done in the background (play/: the throw deadlines
and the lobby's expiry; notify/: the mail and push workers) as ``Step`` values; the
app and ``jackpot sweep`` gather them (web/wiring.py) and run each in a task of its
own, so a slow mail server never delays a timeout. Every step is safe to run in
several processes at once (each claims its rows with a conditional UPDATE), so any
number of ``jackpot sweep`` may run beside the site.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

log = logging.getLogger("jackpot.steps")


@dataclass(frozen=True)
class Step:
    """``run`` once every ``every`` seconds; it returns how many things it did (for
    ``jackpot sweep --once`` to report), or None."""

    name: str
    every: float
    run: Callable[[], Awaitable[int | None]]


async def repeat(step: Step, stop: asyncio.Event) -> None:
    """Run ``step`` until ``stop``; a pass that fails is logged and the next one
    retries: one bad pass must not stop the deadlines or the mail."""
    while not stop.is_set():
        try:
            await step.run()
        except Exception:
            log.exception("background step %r failed", step.name)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=step.every)


async def run_steps(steps: Sequence[Step], stop: asyncio.Event) -> None:
    """Every step in a task of its own until ``stop``."""
    tasks = [asyncio.create_task(repeat(step, stop), name=step.name) for step in steps]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
