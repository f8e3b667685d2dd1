"""The daily deal's fixtures: the site's clock moved past a day's end."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

#: Modules that ask base/clock.utcnow for the time when they show a daily deal: the
#: seed's disclosure (state, record, replay), the daily API and pages, the profile
#: and My matches, and the moves (a move made late meets the entry's close).
READERS = (
    "jackpot.web.matches.disclosure",
    "jackpot.web.daily.api",
    "jackpot.web.daily.pages",
    "jackpot.web.players.profile",
    "jackpot.web.play.edge.pages",
    "jackpot.web.play.transaction",
    "jackpot.web.play.actions",
)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime], None]:
    """``clock(when)``: from now on the site reads ``when`` as the time (the close's
    own steps are given it as ``now``, as the sweeper's are)."""

    def move_to(when: datetime) -> None:
        for module in READERS:
            monkeypatch.setattr(f"{module}.utcnow", lambda: when)

    return move_to
