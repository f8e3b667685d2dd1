"""A tournament in Chromium: made with its form, two people enter from its page, the
creator starts it, both get their table live, play it, and a third reader's page
sees the standings move without a reload; every page of it axe-clean."""

from __future__ import annotations

import contextlib
import re
import secrets
import time
from datetime import UTC, datetime

from a11y import assert_axe_clean
from browser_helpers import NEXT_ACTION, account
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from sqlalchemy import create_engine, select, text

from jackpot.web.base.tables.core import users


def confirm(database_url: str, name: str) -> None:
    """Mark the account's address confirmed, as its mailed link would."""
    engine = create_engine(database_url)
    with engine.begin() as conn:
        uid, email = conn.execute(
            select(users.c.id, users.c.email).where(users.c.name == name)
        ).one()
        conn.execute(
            text(
                "INSERT INTO confirmed_emails (user_id, email, confirmed_at) "
                "VALUES (:u, :e, :at)"
            ),
            {"u": uid, "e": email, "at": datetime.now(UTC)},
        )
    engine.dispose()


def play_out(pages: list[Page]) -> None:
    """Both players press their moves until their match is over."""
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up:
        for page in pages:
            action = page.evaluate(NEXT_ACTION)
            if action == "over":
                return
            if action in ("throw", "cover"):
                if action == "throw":
                    target = page.locator("#throw")
                elif page.locator(".option").count():
                    target = page.locator(".option").first
                else:
                    target = page.locator(".tile.offered:not(:disabled)").first
                with contextlib.suppress(PlaywrightTimeout):
                    target.click(timeout=2000)
        pages[0].wait_for_timeout(50)
    raise AssertionError("the table's match did not end")


def test_two_people_enter_play_and_see_the_standings_move(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    contexts = [browser.new_context(reduced_motion="reduce") for _ in range(2)]
    # Cy reads in Estonian, as his browser asks.
    contexts.append(browser.new_context(reduced_motion="reduce", locale="et-EE"))
    ana = account(contexts[0], url, f"Ana{tag}", autoplay=False)
    ben = account(contexts[1], url, f"Ben{tag}", autoplay=False)
    cy = contexts[2].new_page()  # a reader without an account, in Estonian
    confirm(live_server.database_url, f"Ana{tag}")

    ana.goto(url + "/tournaments/new")
    assert_axe_clean(ana, "the new tournament form")
    ana.fill("input[name=name]", f"Cup {tag}")
    ana.check("input[name=variant][value=classic]")
    ana.fill("input[name=rounds]", "1")
    ana.select_option("select[name=deadline_seconds]", "60")
    ana.click("#make-tournament")
    expect(ana).to_have_url(re.compile(r"/tournaments/t_[0-9a-f]{16}$"))
    page_url = ana.url
    expect(ana.locator("h1")).to_have_text(f"Cup {tag}")

    # Cy follows the tournament's page; Ben finds it in the list and enters.
    cy.goto(page_url)
    expect(cy.locator("html")).to_have_attribute("lang", "et")
    expect(cy.locator("#h-next")).to_have_text("Sinu järgmine samm")
    ben.goto(url + "/tournaments")
    assert_axe_clean(ben, "the tournaments list")
    ben.locator(f"a[href='{page_url[len(url):]}']").click()
    expect(ben.locator("[data-commitment-note]")).to_contain_text("SHA-256")
    ben.click("#enter-tournament")
    expect(ben.locator("#h-standings")).to_have_text("Entered")
    expect(cy.locator("#standings")).to_contain_text(f"Ben{tag}")  # live, no reload
    ana.reload()
    expect(ana.locator("[data-commitment-note]")).to_contain_text("SHA-256")
    ana.click("#enter-tournament")
    expect(ana.locator("#enter-tournament")).to_have_count(0)
    assert_axe_clean(ana, "a tournament's page before the start")
    ana.click("#start-now")

    # Both are told their table on the page, Ben without a reload.
    expect(ben.locator("#play-table")).to_be_visible()
    expect(ana.locator("#play-table")).to_be_visible()
    assert_axe_clean(ben, "a tournament's page in play")
    expect(cy.locator(".tournament-tables a")).to_have_text("vaata")
    assert_axe_clean(cy, "a tournament's page in play, in Estonian")
    ana.click("#play-table")
    ben.click("#play-table")
    expect(ana).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    play_out([ana, ben])

    # The standings moved on Cy's page by themselves: one point for the winner.
    expect(cy.locator("#standings .points").first).to_have_text("1")
    expect(cy.locator("#standings .points").last).to_have_text("0")
    expect(cy.locator(".tournament-status")).to_contain_text("Turniir on läbi.")
    expect(cy.locator("#h-standings")).to_have_text("Turniiritabel")
    winner = cy.locator("#standings tbody tr").first.locator("a").inner_text()
    ana.goto(page_url)
    place = "1" if winner == f"Ana{tag}" else "2"
    expect(ana.locator(".tournament-next")).to_contain_text(f"You finished in place {place}.")
    assert_axe_clean(ana, "a finished tournament's page")
    # The Verify page checks the tournament's export in the browser.
    ana.goto(f"{url}/verify?tournament={page_url.rsplit('/', 1)[1]}")
    verdict = ana.locator("#verify-summary")
    expect(verdict).to_contain_text("The tournament verifies", timeout=20_000)
    # Each profile lists the tournament with the place.
    ana.goto(f"{url}/players/Ana{tag}")
    expect(ana.locator("#tournaments")).to_contain_text(f"Cup {tag}: place {place} of 2")
    for ctx in contexts:
        ctx.close()
