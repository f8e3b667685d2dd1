"""Browser-test settings: pages ask for reduced motion unless a test says otherwise,
so other seats' turns show at once instead of being played out step by step (the
pacing has its own test with motion allowed)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "reduced_motion": "reduce"}
