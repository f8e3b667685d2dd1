"""What a screen-reader user hears on the match page beyond each live move: the bot's
moves made before the page was opened, once, and a Classic pick's running total as
tiles are picked by key."""

from __future__ import annotations

import secrets
from typing import Any

from a11y import assert_axe_clean
from browser_helpers import account, classic_sets, start_match
from playwright.sync_api import Browser, Page, expect


def play_my_turn(page: Page, url: str, mid: str) -> dict[str, Any]:
    """My seat throws and covers (the last set on offer) until my turn ends: the bot
    then plays its turn at once, and the answer is the next turn, mine again (a board
    of nine open tiles), unless the match is over."""
    state = page.request.get(f"{url}/api/matches/{mid}").json()
    me = next(i for i, s in enumerate(state["seats"]) if s["you"])
    moved = False
    while state["status"] == "playing" and state["turn"]["seat"] == me:
        turn = state["turn"]
        if moved and turn["dice"] is None and len(turn["open"]) == 9:
            break
        moved = True
        if turn["dice"] is None:
            r = page.request.post(f"{url}/api/matches/{mid}/throw", data={})
        else:
            tiles = state["turn"]["options"][-1]
            r = page.request.post(f"{url}/api/matches/{mid}/cover", data={"tiles": tiles})
        assert r.ok, r.text()
        state = r.json()
    return dict(state)


def test_the_bots_moves_since_mine_are_said_once_on_opening(
    browser: Browser, live_server: Any
) -> None:
    url = live_server.url
    ctx = browser.new_context(reduced_motion="reduce")
    try:
        page = account(ctx, url, f"Ana{secrets.token_hex(2)}", autoplay=False)
        for _ in range(5):
            mid = start_match(page, url, {"seats": 2, "bots": 1})
            if play_my_turn(page, url, mid)["status"] == "playing":
                break
        else:
            raise AssertionError("five matches in a row ended in my first turn")
        # The bot has played its turn since my last move; the page opens on my throw.
        page.goto(f"{url}/matches/{mid}")
        said = page.locator("#announce p", has_text="Since your last move")
        expect(said).to_have_count(1)
        expect(said).to_contain_text("Bot threw")
        expect(said).to_contain_text("Your throw.")
        assert "You threw" not in (said.text_content() or "")
        page.wait_for_timeout(1500)  # nothing more arrives: it was said once
        expect(said).to_have_count(1)
        assert_axe_clean(page, "a match opened after the bot's turn")
    finally:
        ctx.close()


def test_a_classic_pick_says_its_running_total(page: Page, live_server: Any) -> None:
    def first_of_a_set(sets: list[list[int]]) -> int | None:
        """A tile that begins a set of two or more and is no set of its own."""
        singles = {s[0] for s in sets if len(s) == 1}
        return next((s[0] for s in sets if len(s) > 1 and s[0] not in singles), None)

    sets, total = classic_sets(
        page,
        live_server.url,
        lambda sets: first_of_a_set(sets) is not None,
        lambda: page.keyboard.press("Space"),
    )
    first = first_of_a_set(sets)
    page.keyboard.press(str(first))
    picked = page.locator("#announce p", has_text=f"Picked {first}: {first} of {total}.")
    expect(picked).to_have_count(1)
    expect(picked).to_contain_text(f"{total - first} to go: add ")
    page.keyboard.press("Escape")
    expect(page.locator("#announce p").last).to_have_text(
        f"Nothing picked: pick tiles adding up to {total}."
    )
    assert_axe_clean(page, "a Classic pick")
