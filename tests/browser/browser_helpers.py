"""Shared bits of the browser tests."""

import re
import time
from collections.abc import Callable
from email import message_from_bytes
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

#: Which move the page offers right now: "over", "throw", "cover" or false. Throw
#: stays focusable while it may not be pressed, so it says so with aria-disabled.
NEXT_ACTION = """() => {
  // Polled from a click on: the match page may not be loaded yet.
  const result = document.querySelector('#result');
  const t = document.querySelector('#throw');
  if (!result || !t) return false;
  if (!result.hidden) return 'over';
  if (document.querySelector('#match').dataset.settled !== '1') return false;
  if (!t.closest('[hidden]') && t.getAttribute('aria-disabled') !== 'true') return 'throw';
  const tile = document.querySelector('.tile.offered:not(:disabled)');
  return tile ? 'cover' : false;
}"""


def open_menu(page: Page) -> None:
    """On a phone the header's links, the account and the pickers are behind the menu
    button: open it (nothing to do where the header shows them all)."""
    button = page.locator("#menu-button")
    if not button.is_visible() or button.get_attribute("aria-expanded") == "true":
        return
    # Just after a page loads its script may not hold the button yet: a press then does
    # nothing, so press again until the menu says it is open.
    for _ in range(30):
        button.click()
        try:
            expect(button).to_have_attribute("aria-expanded", "true", timeout=500)
            return
        except AssertionError:
            continue
    raise AssertionError("the menu button did not open the menu")


def account(ctx: BrowserContext, url: str, name: str, autoplay: bool = True) -> Page:
    """A new signed-in page; ``autoplay=False`` switches autoplay of forced moves off,
    so every move is pressed."""
    page = ctx.new_page()
    r = page.request.post(
        url + "/api/account",
        data={"email": f"{name.lower()}@example.org", "password": "correct horse", "name": name},
    )
    assert r.status == 201, r.text()
    if not autoplay:
        off = {"throws": False, "single_covers": False}
        r = page.request.put(url + "/api/account/autoplay", data=off)
        assert r.ok, r.text()
    return page


def confirm_address(page: Page, url: str, outbox: Path, name: str) -> None:
    """Confirms the address of ``account``'s ``name`` as its owner does: the link in
    the mail sign-up sent, then the button on the page it opens (only a confirmed
    address may enter the daily deal)."""
    email = f"{name.lower()}@example.org"
    link = None
    for _ in range(100):
        for path in sorted(outbox.glob("*.eml")):
            msg = message_from_bytes(path.read_bytes())
            body: Any = msg.get_payload(decode=True)
            found = re.search(r"/confirm-email/[A-Za-z0-9_\-]+", body.decode())
            if msg["To"] == email and found is not None:
                link = found.group(0)
        if link is not None:
            break
        time.sleep(0.1)
    assert link is not None, f"no confirmation mail to {email}"
    page.goto(url + link)
    page.locator("#confirm").click()
    expect(page.locator("#confirm")).to_have_count(0)


def play_the_bot(page: Page, url: str, button: str = "#play-bot") -> str:
    """Opens a match against the bot from the home page (``button`` is the selector of
    the button that starts it) and waits until the page is ready for my first throw;
    returns the match id.

    The seeds may draw the bot to throw first, and a bot that shuts the box on that
    turn ends the match before I move (a few matches in a hundred): then it starts
    another, so that every test meets a match it can play."""
    for _ in range(5):
        page.goto(url + "/")
        page.locator(button).click()
        page.wait_for_url(re.compile(r"/matches/m_[0-9a-f]+$"))
        if page.wait_for_function(NEXT_ACTION, timeout=30000).json_value() != "over":
            return page.url.rsplit("/", 1)[1]
    raise AssertionError("five matches in a row ended before my first throw")


def start_match(
    page: Page, url: str, settings: dict[str, object], joiners: tuple[Page, ...] = ()
) -> str:
    """Creates a match with bot seats as ``page``, seats ``joiners`` in it, and returns
    its id once it is under way with no move of mine made yet; as with
    :func:`play_the_bot`, a match a bot ended by shutting the box before any person
    moved is set aside for another."""
    for _ in range(5):
        r = page.request.post(url + "/api/matches", data=settings)
        assert r.status == 201, r.text()
        mid: str = r.json()["id"]
        for joiner in joiners:
            joined = joiner.request.post(f"{url}/api/matches/{mid}/join", data={})
            assert joined.ok, joined.text()
        if page.request.get(f"{url}/api/matches/{mid}").json()["status"] == "playing":
            return mid
    raise AssertionError("five matches in a row ended before a person moved")


def classic_sets(
    page: Page, url: str, wanted: Callable[[list[list[int]]], bool], throw: Callable[[], None]
) -> tuple[list[list[int]], int]:
    """Practises Classic alone (a new match whenever one ends) until a throw offers
    sets of tiles that ``wanted`` accepts, covering every other throw with its first
    set; ``throw`` presses Throw. Returns the sets on offer and the dice's total."""
    page.goto(url + "/")
    page.click("text=Practise Classic alone")
    for _ in range(200):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            page.goto(url + "/")
            page.click("text=Practise Classic alone")
            continue
        if action == "throw":
            throw()
            continue
        sets: list[list[int]] = page.evaluate(
            "[...document.querySelectorAll('.option')]"
            ".map(b => b.textContent.split(' + ').map(Number))"
        )
        if wanted(sets):
            return sets, sum(int(d) for d in page.locator("#dice .die").all_inner_texts())
        page.locator(".option").first.click()
    raise AssertionError("no throw offered the sets wanted")
