"""The first match as a new visitor meets it (issue 35), in Chromium: the server's seed
is fixed and shown before the client seed is sent, the bot's opening turn is played
out on arrival (and before a result it brought), the person's own clock shows while
it plays and Throw stays usable, the speed of that playback is the page's choice, a
seat that never threw is said so, and practice alone names no place."""

from __future__ import annotations

import json
from typing import Any

from browser_helpers import account
from playwright.sync_api import Browser, Page, Route, expect

from bot_first import COMMITMENT, bot_first_seed, pending_sql
from testdb import execute

WAIT = 30_000

#: Records, in order, each throw the board shows ("dice:<faces>"), the result box
#: appearing ("result"), and every deadline line and whether Skip was offered with it.
WATCH = """
window.__seen = [];
window.__deadlines = [];
document.addEventListener("DOMContentLoaded", () => {
  const dice = document.getElementById("dice");
  const result = document.getElementById("result");
  const deadline = document.getElementById("deadline");
  if (!dice) return;
  const push = (entry) => {
    if (entry !== window.__seen[window.__seen.length - 1]) window.__seen.push(entry);
  };
  new MutationObserver(() => {
    const shown = [...dice.querySelectorAll(".die")].map((d) => d.textContent).join(",");
    if (shown) push(`dice:${dice.dataset.throw}:${shown}`);
  }).observe(dice, { childList: true, subtree: true });
  new MutationObserver(() => { if (!result.hidden) push("result"); })
    .observe(result, { attributes: true });
  new MutationObserver(() => {
    const skip = !document.getElementById("skip").hidden;
    window.__deadlines.push([deadline.textContent, skip]);
  }).observe(deadline, { childList: true, characterData: true, subtree: true });
});
"""


def hold_commitments(page: Page) -> list[Route]:
    """Keep the page's request for a commitment waiting until the test lets it go."""
    held: list[Route] = []
    page.route("**/api/commitments", lambda route: held.append(route))
    return held


def give_commitment(page: Page, commitment: str) -> None:
    """Answer the page's request for a commitment with ``commitment`` (one the test made
    pending on the server, whose seed it knows)."""
    body = json.dumps({"commitment": commitment, "expires_at": "2099-01-01T00:00:00Z"})
    page.route(
        "**/api/commitments",
        lambda route: route.fulfill(status=201, content_type="application/json", body=body),
    )


def bot_first_from_home(page: Page, url: str, variant: str, *, bot_wins: bool) -> dict[str, Any]:
    """A match against the bot made from the home page with seeds that draw the bot to
    throw first (tests/bot_first.py); returns the state the match page was given."""
    execute(URL_DB[url], pending_sql(URL_DB[url]))
    give_commitment(page, COMMITMENT)
    page.goto(url + "/")
    page.locator(".seed-choice summary").first.click()
    page.fill("#client-seed-input", bot_first_seed(variant, bot_wins=bot_wins))
    button = "#play-bot" if variant == "jackpot" else "text=Classic against the bot"
    page.locator(button).click()
    page.wait_for_url("**/matches/m_*")
    return dict(json.loads(page.locator("#initial-state").text_content() or "{}"))


#: Each live server's database (a test may insert a pending seed there).
URL_DB: dict[str, str] = {}


def bot_throws(page: Page, url: str, mid: str) -> list[str]:
    events = page.request.get(f"{url}/api/matches/{mid}/record").json()["events"]
    return [
        f"dice:{e['n']}:{','.join(map(str, e['dice']))}"
        for e in events
        if e["type"] == "throw" and e["seat"] == 0
    ]


def in_order(wanted: list[str], seen: list[str]) -> bool:
    it = iter(seen)
    return all(any(w == s for s in it) for w in wanted)


def test_the_commitment_is_shown_before_the_seed_is_sent(page: Page, live_server: Any) -> None:
    url = live_server.url
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    held = hold_commitments(page)
    page.goto(url + "/")
    # In view under the button, with the seed's own box still closed.
    note = page.locator(".play-now [data-commitment-note]")
    expect(note).to_be_visible()
    expect(note).to_have_text("Fixing the server's seed for this match…")
    # Pressed before the seed is fixed: nothing is posted until it is.
    page.click("#play-bot")
    page.wait_for_timeout(1000)
    assert page.url == url + "/" and not [u for u in posted if u.endswith("/play")]
    held[0].continue_()
    page.unroute("**/api/commitments")
    page.wait_for_url("**/matches/m_*")
    assert [u.rsplit("/", 1)[1] for u in posted] == ["commitments", "play"]
    shown = page.locator("#commitment").inner_text()
    expect(page.locator("#commitment-check")).to_have_text(
        "✓ The same one you were shown before you chose your client seed."
    )

    # Shown beside the seed field before the person chooses, then the match has it.
    page.goto(url + "/")
    expect(note).to_contain_text("The server's seed for this match is already fixed: its SHA-256")
    fixed = note.locator("code").inner_text()
    assert len(fixed) == 64 and fixed != shown
    page.locator(".seed-choice summary").first.click()
    page.fill("#client-seed-input", "mine-after-seeing-it")
    page.click("#play-bot")
    page.wait_for_url("**/matches/m_*")
    expect(page.locator("#commitment")).to_have_text(fixed)
    expect(page.locator("#commitment-check")).to_contain_text("✓")
    expect(page.locator("#client-seed")).to_have_text("mine-after-seeing-it")

    # The other buttons send the same field's seed, with the commitment.
    page.goto(url + "/")
    page.locator(".seed-choice summary").first.click()
    expect(note.locator("code")).to_have_count(1)
    fixed = note.locator("code").inner_text()
    page.fill("#client-seed-input", "classic-too")
    page.click("text=Practise Classic alone")
    page.wait_for_url("**/matches/m_*")
    expect(page.locator("#commitment")).to_have_text(fixed)
    expect(page.locator("#client-seed")).to_have_text("classic-too")


def test_the_bots_opening_turn_is_played_out(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    URL_DB[url] = live_server.database_url
    for variant in ("jackpot", "classic"):
        ctx = browser.new_context(reduced_motion="no-preference")
        ctx.add_init_script(WATCH)
        page = ctx.new_page()
        state = bot_first_from_home(page, url, variant, bot_wins=False)
        assert state["seats"][1]["you"] and state["status"] == "playing"
        # On arrival the bot's turn is being shown, and meanwhile the person's own
        # clock is shown and Throw is usable.
        expect(page.locator("#skip")).to_be_visible()
        expect(page.locator("#throw")).to_have_attribute("aria-disabled", "false")
        expect(page.locator("#deadline")).to_contain_text("You have")
        expect(page.locator("#status")).to_contain_text("Your throw", timeout=WAIT)
        expect(page.locator("#match")).to_have_attribute("data-settled", "1")
        thrown = bot_throws(page, url, state["id"])
        seen = page.evaluate("window.__seen")
        assert len(thrown) >= 3 and in_order(thrown, seen), (thrown, seen)
        deadlines = page.evaluate("window.__deadlines")
        assert deadlines and not any("Bot" in text for text, _ in deadlines), deadlines
        assert any(skip and text.startswith("You have") for text, skip in deadlines)
        # The board as the bot's turn ended, captioned, until the person throws.
        expect(page.locator("#board-caption")).to_have_text(
            "The board as Bot's turn ended. The next turn starts with all nine tiles open."
        )
        expect(page.locator(".tile.covered")).not_to_have_count(0)
        page.click("#throw")
        expect(page.locator("#board-caption")).to_be_hidden()
        ctx.close()


def test_a_bot_that_wins_at_once_shows_its_turn_first(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    URL_DB[url] = live_server.database_url
    ctx = browser.new_context(reduced_motion="no-preference")
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    state = bot_first_from_home(page, url, "classic", bot_wins=True)
    assert state["status"] == "finished"
    expect(page.locator("#result")).to_be_hidden()  # not yet: the turn comes first
    expect(page.locator("#status")).to_contain_text("Bot threw")
    expect(page.locator("#result")).to_be_visible(timeout=WAIT)
    expect(page.locator("#result h2")).to_have_text("Bot wins")
    seen = page.evaluate("window.__seen")
    thrown = bot_throws(page, url, state["id"])
    assert in_order([*thrown, "result"], seen), (thrown, seen)
    places = page.locator("#result .places li")
    expect(places.nth(1)).to_have_text("Place 2: You, did not get a turn")
    expect(page.locator("#result")).to_contain_text("Rounds played: 1.")
    # Beside the name, no total of 0 (which reads as the best score) but a dash.
    mine = page.locator("#seats li.you .total")
    expect(mine).to_have_text("–")
    expect(mine).to_have_attribute("title", "did not get a turn")
    # Played out once: coming back, the person sees where the match stands at once.
    page.reload()
    expect(page.locator("#result h2")).to_have_text("Bot wins")
    page.wait_for_function("() => document.querySelector('#match').dataset.settled === '1'")
    again = page.evaluate("window.__seen")
    # The board as it ended (the last dice) and the result, no throw played out again.
    assert again[-1] == "result" and len(again) <= 2, again
    assert len(thrown) > 1
    ctx.close()


def test_throw_skips_the_playback_and_throws(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    URL_DB[url] = live_server.database_url
    ctx = browser.new_context(reduced_motion="no-preference")
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('jackpot.speed', 'slow')")
    state = bot_first_from_home(page, url, "jackpot", bot_wins=False)
    expect(page.locator("#skip")).to_be_visible()
    page.click("#throw")
    expect(page.locator("#log")).to_contain_text("You threw", timeout=WAIT)
    log = page.locator("#log li").all_inner_texts()[::-1]  # oldest first
    mine = next(i for i, line in enumerate(log) if "You threw" in line)
    bots = [i for i, line in enumerate(log) if "Bot threw" in line]
    assert len(bots) == len(bot_throws(page, url, state["id"])) and max(bots) < mine
    ctx.close()


def test_the_playback_speed_is_the_pages_own(browser: Browser, live_server: Any) -> None:
    """Fast plays the opening turn out in less of the page's clock than slow; the
    choice is kept for the next page."""
    url = live_server.url
    URL_DB[url] = live_server.database_url
    took = {}
    for speed in ("fast", "slow"):
        ctx = browser.new_context(reduced_motion="no-preference")
        page = ctx.new_page()
        page.goto(url + "/rules")
        page.evaluate(f"localStorage.setItem('jackpot.speed', '{speed}')")
        page.clock.install()
        bot_first_from_home(page, url, "jackpot", bot_wins=False)
        expect(page.locator("#speed")).to_have_value(speed)
        page.clock.pause_at(page.evaluate("Date.now()") + 10)
        steps = 0
        while page.get_attribute("#match", "data-settled") != "1" and steps < 400:
            page.clock.run_for(100)
            steps += 1
        took[speed] = steps
        ctx.close()
    assert took["fast"] * 3 < took["slow"], took
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(url + "/")
    page.locator("#play-bot").click()
    page.wait_for_url("**/matches/m_*")
    page.select_option("#speed", "fast")
    page.reload()
    expect(page.locator("#speed")).to_have_value("fast")
    ctx.close()


def test_practice_alone_says_the_score_and_names_no_place(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    page.click("text=Practise Classic alone")
    page.wait_for_url("**/matches/m_*")
    for _ in range(40):
        if page.locator("#result").is_visible():
            break
        page.wait_for_function(
            "() => document.querySelector('#match').dataset.settled === '1'"
        )
        if page.get_attribute("#throw", "aria-disabled") == "false":
            page.click("#throw")
        elif page.locator("#options .option").count():
            page.locator("#options .option").first.click()
        page.wait_for_timeout(100)
    expect(page.locator("#result h2")).to_contain_text("Practice over: you")
    expect(page.locator("#result")).not_to_contain_text("Place 1")
    expect(page.locator("#result")).not_to_contain_text("Rounds played")


def test_a_visitor_is_told_once_to_sign_up_for_a_seat(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context()
    ana = account(ctx, url, f"Waiter{abs(hash(url)) % 10_000}", autoplay=False)
    r = ana.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
    mid = r.json()["id"]
    guest_ctx = browser.new_context()
    guest = guest_ctx.new_page()
    guest.goto(f"{url}/matches/{mid}")
    expect(guest.locator("#status")).to_have_text("Waiting for 1 more player.")
    expect(guest.locator("#join-form")).to_contain_text("Playing people needs an account.")
    expect(guest.locator("main")).not_to_contain_text("take the free seat")
    # Someone with an account is asked to take it.
    ben_ctx = browser.new_context()
    ben = account(ben_ctx, url, f"Sitter{abs(hash(url)) % 10_000}", autoplay=False)
    ben.goto(f"{url}/matches/{mid}")
    expect(ben.locator("#status")).to_contain_text("take the free seat to play")
    expect(ben.locator("#join")).to_be_visible()
    for c in (ctx, guest_ctx, ben_ctx):
        c.close()
