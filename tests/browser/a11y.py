"""axe-core in the browser tests: inject it into a page and fail on what matters.

The checker is the npm package installed under tests/browser (``npm ci`` there, which
``make test`` runs); a missing install fails the test rather than skipping the check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_JS = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that fail a page; "minor" and "moderate" ones are printed, not failed.
FAILING = {"serious", "critical"}


def axe_source() -> str:
    if not AXE_JS.is_file():
        raise AssertionError(
            f"axe-core is not installed ({AXE_JS}): run `npm ci --prefix tests/browser`"
        )
    return AXE_JS.read_text()


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every axe-core violation on the page as it is now (WCAG 2.x A and AA rules
    plus axe's best practices)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated by the browser's debugger, which the pages' Content-Security-Policy
        # (script-src 'self') does not cover; an injected <script> tag it would block.
        page.evaluate(axe_source())
    result: dict[str, Any] = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return list(result["violations"])


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:5]]
        lines.append(f"{v['impact']}: {v['id']} ({v['help']}) at {', '.join(targets)}")
    return "\n".join(lines)


def assert_axe_clean(page: Page, where: str) -> list[dict[str, Any]]:
    """Fail on any serious or critical violation; return the milder ones."""
    found = axe_violations(page)
    bad = [v for v in found if v["impact"] in FAILING]
    assert not bad, f"axe-core on {where} ({page.url}):\n{describe(bad)}"
    return [v for v in found if v["impact"] not in FAILING]
