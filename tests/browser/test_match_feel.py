"""The match page as a player feels it (issue 13): other seats' turns played out
step by step, the final board, keyboard play, Classic sets picked tile by tile, a
seat that is out, a lost connection, one log live and after a reload, and "Verify
this match"."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from browser_helpers import NEXT_ACTION, classic_sets, play_the_bot, start_match
from playwright.sync_api import Browser, Page, expect
from test_replay import finished_match

#: Records every dice shown on the board in turn, and whether Skip ever showed.
WATCH_DICE = """
window.__seen = [];
window.__skipShown = false;
document.addEventListener("DOMContentLoaded", () => {
  const dice = document.getElementById("dice");
  const skip = document.getElementById("skip");
  new MutationObserver(() => {
    const shown = [...dice.querySelectorAll(".die")].map((d) => d.textContent).join(",");
    const entry = `${dice.dataset.throw}:${shown}`;
    if (shown && entry !== window.__seen[window.__seen.length - 1]) window.__seen.push(entry);
  }).observe(dice, { childList: true, subtree: true });
  new MutationObserver(() => { if (!skip.hidden) window.__skipShown = true; })
    .observe(skip, { attributes: true });
});
"""


def in_order(wanted: list[str], seen: list[str]) -> bool:
    """Whether ``wanted`` appears in ``seen`` in order (other entries in between)."""
    it = iter(seen)
    return all(any(w == s for s in it) for w in wanted)


def api(page: Page, method: str, url: str, data: dict[str, Any] | None = None) -> Any:
    r = page.request.fetch(url, method=method, data=data)
    assert r.ok, r.text()
    return r.json()


def sign_up(page: Page, url: str, name: str) -> None:
    api(
        page,
        "POST",
        url + "/api/account",
        {"email": f"{name.lower()}@example.org", "password": "correct horse", "name": name},
    )
    # Every move pressed here (test_autoplay_page.py shows autoplay).
    api(page, "PUT", url + "/api/account/autoplay", {"throws": False, "single_covers": False})


def bot_throws_since_mine(page: Page, url: str, mid: str) -> list[list[int]]:
    """The bot's throws after my latest move (the bot may have been drawn to go first)."""
    state = api(page, "GET", f"{url}/api/matches/{mid}")
    me = next(i for i, st in enumerate(state["seats"]) if st["you"])
    events = api(page, "GET", f"{url}/api/matches/{mid}/record")["events"]
    mine = max(i for i, e in enumerate(events) if e["seat"] == me)
    return [e["dice"] for e in events[mine + 1 :] if e["type"] == "throw"]


MY_TURN_ENDS = (
    "() => [...document.querySelectorAll('#log li')]"
    ".filter(li => /You threw .*nothing reachable|You shut the box/.test(li.textContent)).length"
)


def play_my_turn_by_keys(page: Page) -> None:
    """Throw and cover (the first tile on offer) with the keyboard until my turn ends."""
    ended = page.evaluate(MY_TURN_ENDS)
    for _ in range(40):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over" or (
            action == "throw" and "Your throw" not in page.locator("#status").inner_text()
        ):
            return
        # Space throws (nothing focused, or Throw focused) or presses the focused tile:
        # after a throw the first tile on offer has the focus.
        page.keyboard.press("Space")
        done = page.wait_for_function(
            f"() => ({MY_TURN_ENDS})() > {ended} ? 'ended'"
            " : document.querySelector('#match').dataset.settled === '1' ? 'settled' : false"
        ).json_value()
        if done == "ended":
            return


SETTLED = "() => document.querySelector('#match').dataset.settled === '1'"


def test_the_bots_turn_is_played_out_step_by_step(browser: Browser, live_server: Any) -> None:
    """With motion allowed, the bot's throws are shown one step at a time, each after
    a pause, with Skip offered meanwhile; under prefers-reduced-motion nothing waits.

    The page's clock is Playwright's: a pause ends only when the test moves the
    clock on, so what the page shows between two steps can be looked at in peace."""
    url = live_server.url
    ctx = browser.new_context(reduced_motion="no-preference")
    ctx.add_init_script(WATCH_DICE)
    page = ctx.new_page()
    page.clock.install()
    for _ in range(5):
        mid = play_the_bot(page, url)
        # The bot may be drawn to throw first: its turn is shown step by step too.
        expect(page.locator("#status")).to_contain_text("Your throw", timeout=30000)
        page.clock.pause_at(int(time.time() * 1000) + 1000)
        play_my_turn_by_keys(page)
        # Unless my turn ended the match (the last of a round in which the box was
        # shut): no bot turn follows then, so play another.
        if bot_throws_since_mine(page, url, mid):
            break
    # My turn is over and the bot's is queued: the page holds it back, step by step.
    expect(page.locator("#skip")).to_be_visible()
    assert not page.evaluate(SETTLED)
    steps = 0
    while not page.evaluate(SETTLED) and steps < 60:
        page.clock.run_for(500)
        steps += 1
    assert steps >= 2, "the bot's turn did not wait between its steps"
    expect(page.locator("#skip")).to_be_hidden()
    thrown = [",".join(map(str, d)) for d in bot_throws_since_mine(page, url, mid)]
    assert thrown, "the bot threw nothing"
    # Each of the bot's throws was on the board, in order.
    seen = [e.split(":")[1] for e in page.evaluate("window.__seen")]
    assert in_order(thrown, seen), f"{thrown} {seen}"

    # Skip shows the rest at once, with no clock moved (if the bot has a turn after my
    # next one: the bot's shut box can have made that one the match's last).
    if page.locator("#result").is_hidden():
        play_my_turn_by_keys(page)
        if bot_throws_since_mine(page, url, mid):
            expect(page.locator("#skip")).to_be_visible()
            page.click("#skip")
            expect(page.locator("#match")).to_have_attribute("data-settled", "1")
            expect(page.locator("#skip")).to_be_hidden()
            if page.locator("#result").is_hidden():  # the bot's turn may have ended it
                expect(page.locator("#throw")).to_be_focused()
    ctx.close()

    # Reduced motion: the bot's whole turn lands without the clock moving at all.
    ctx = browser.new_context(reduced_motion="reduce")
    ctx.add_init_script(WATCH_DICE)
    page = ctx.new_page()
    page.clock.install()
    play_the_bot(page, url)
    expect(page.locator("#status")).to_contain_text("Your throw")
    page.clock.pause_at(int(time.time() * 1000) + 1000)
    play_my_turn_by_keys(page)
    expect(page.locator("#match")).to_have_attribute("data-settled", "1")
    assert page.evaluate("window.__skipShown") is False
    ctx.close()


def test_the_final_board_is_the_last_turns(page: Page, live_server: Any) -> None:
    """A solo Jackpot match ends with the box shut: the board shows nine tiles down,
    no stale dead-throw notice, the result first; the replay's last step too."""
    url = live_server.url
    page.goto(url + "/")
    mid = finished_match(page, url, "jackpot")
    page.goto(f"{url}/matches/{mid}")
    expect(page.locator("#result h2")).to_contain_text("shut the box")
    expect(page.locator("#board-caption")).to_contain_text("final board")
    expect(page.locator(".tile.covered")).to_have_count(9)
    expect(page.locator("#notice")).to_have_text("")
    # The result comes before the board in the page.
    assert page.evaluate(
        "document.querySelector('#result').compareDocumentPosition("
        "document.querySelector('#board')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    page.goto(f"{url}/matches/{mid}/replay")
    page.keyboard.press("End")
    expect(page.locator("#step-text")).to_contain_text("Box shut!")
    expect(page.locator("#replay-tiles .tile.covered")).to_have_count(9)


def test_keyboard_play_keeps_focus_in_the_order_of_play(page: Page, live_server: Any) -> None:
    url = live_server.url
    play_the_bot(page, url)
    expect(page.locator("#status")).to_contain_text("Your throw")
    active = (
        "() => document.activeElement.id || document.activeElement.dataset.tile"
        " || document.activeElement.tagName"
    )
    # A focused button keeps its own Space: Resign opens its question, no throw (the
    # Throw button stays on offer; the bot, if drawn to go first, has thrown already).
    page.focus("#resign")
    page.keyboard.press("Space")
    expect(page.locator("#resign-confirm")).to_be_visible()
    expect(page.locator("#throw")).to_have_attribute("aria-disabled", "false")
    assert "You threw" not in page.locator("#log").inner_text()
    page.keyboard.press("Enter")  # "No, keep playing" has the focus
    expect(page.locator("#resign")).to_be_focused()
    page.evaluate("document.activeElement.blur()")

    covered = 0
    for _ in range(40):
        page.wait_for_function(NEXT_ACTION)
        if "Your throw" not in page.locator("#status").inner_text():
            break
        page.keyboard.press("Space")  # nothing focused: the shortcut throws
        page.wait_for_function(NEXT_ACTION)
        if page.locator(".tile.offered").count() == 0:
            break  # a dead throw: the turn passed
        # Still our turn, so nothing of the bot's can have replaced it: the polite
        # live region says the throw.
        expect(page.locator("#announce")).to_contain_text("You threw")
        first = page.locator(".tile.offered").first.get_attribute("data-tile")
        assert page.evaluate(active) == first, "focus is not on the first tile on offer"
        # Shift+Tab goes back to Throw: the page order is the order of play.
        page.keyboard.press("Shift+Tab")
        expect(page.locator("#throw")).to_be_focused()
        page.keyboard.press("Tab")
        assert page.evaluate(active) == first
        page.keyboard.press("Space")  # presses the focused tile
        expect(page.locator(f".tile[data-tile='{first}']")).to_have_class(re.compile("covered"))
        page.wait_for_function(NEXT_ACTION)
        covered += 1
        if "Your throw" in page.locator("#status").inner_text():
            expect(page.locator("#throw")).to_be_focused()
            page.evaluate("document.activeElement.blur()")
    assert covered >= 1 or page.locator("#log .dead").count() >= 1
    # After the bot's turn the turn comes back with focus on Throw (if the match goes on).
    page.focus("#throw")
    if page.locator("#result").is_hidden():
        expect(page.locator("#status")).to_contain_text("Your throw")
        expect(page.locator("#throw")).to_have_attribute("aria-disabled", "false")
        # The polite live region said whose turn it is.
        expect(page.locator("#announce")).to_contain_text("Your turn.")
        page.keyboard.press("Space")
        expect(page.locator("#dice .die")).to_have_count(2)
        expect(page.locator("#announce")).to_contain_text("You threw")
    else:
        # The match ended (a shut box): the live region says who won.
        expect(page.locator("#announce")).to_contain_text(re.compile(r"\bwins?\b"))


def test_classic_sets_narrow_as_tiles_are_picked(page: Page, live_server: Any) -> None:
    sets, total = classic_sets(
        page,
        live_server.url,
        lambda sets: len(sets) >= 2 and any(len(s) > 1 for s in sets),
        lambda: page.click("#throw"),
    )
    multi = [s for s in sets if len(s) > 1]
    chosen = multi[0]
    expect(page.locator("#pick-sum")).to_have_text(f"0 of {total}")
    page.click(f".tile[data-tile='{chosen[0]}']")
    expect(page.locator("#pick-sum")).to_have_text(f"{chosen[0]} of {total}")
    # Only tiles that can still complete a set with the pick stay highlighted.
    can = sorted({t for s in sets if chosen[0] in s for t in s if t != chosen[0]})
    offered = sorted(
        int(t)
        for t in page.locator(".tile.offered").evaluate_all("ts => ts.map(t => t.dataset.tile)")
    )
    assert offered == can, (offered, can)
    expect(page.locator(".option")).to_have_count(len([s for s in sets if chosen[0] in s]))
    # A tile that cannot join says why, by key.
    open_tiles = [
        int(t)
        for t in page.locator(".tile:not(.covered)").evaluate_all(
            "ts => ts.map(t => t.dataset.tile)"
        )
    ]
    misfit = [t for t in open_tiles if t not in can and t != chosen[0]]
    if misfit:
        page.keyboard.press(str(misfit[0]))
        expect(page.locator("#message")).to_contain_text(f"{misfit[0]} cannot go with")
    # Clear starts again; then the whole set, tile by tile, covers it.
    page.click("#pick-clear")
    expect(page.locator("#pick-sum")).to_have_text(f"0 of {total}")
    for t in chosen:
        page.click(f".tile[data-tile='{t}']")
    for t in chosen:
        expect(page.locator(f".tile[data-tile='{t}']")).to_have_class(re.compile("covered"))


def test_a_seat_that_is_out_watches_the_match_go_on(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}")
    sign_up(ben, url, f"Ben{tag}")
    mid = start_match(ana, url, {"seats": 3, "bots": 1}, joiners=(ben,))
    ana.goto(f"{url}/matches/{mid}")
    # Whoever the draw put first (the bot has moved already, if it was first).
    expect(ana.locator("#status")).to_contain_text(re.compile("Your throw|to throw"))
    ana.click("#resign")
    expect(ana.locator("#resign-question")).to_contain_text("Resign")
    ana.click("#resign-yes")
    expect(ana.locator("#status")).to_have_text(re.compile("You are out.*the match goes on"))
    expect(ana.locator("#controls")).to_be_hidden()
    expect(ana.locator("#resign-box")).to_be_hidden()
    expect(ana.locator("#result")).to_be_hidden()
    expect(ana.locator("#seats li.out")).to_have_count(1)
    ana_ctx.close()
    ben_ctx.close()


def test_reconnecting_and_one_log_live_and_after_reload(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}")
    sign_up(ben, url, f"Ben{tag}")
    mid = api(ana, "POST", url + "/api/matches", {"seats": 2, "bots": 0})["id"]
    ana.goto(f"{url}/matches/{mid}")
    ben.goto(f"{url}/matches/{mid}")
    ben.click("#join")
    expect(ana.locator("#log")).to_contain_text(f"Ben{tag} took a seat")
    expect(ana.locator("#connection")).to_be_hidden()
    # The order of play is drawn as Ben sits down: "first" throws first.
    ana_first = api(ana, "GET", f"{url}/api/matches/{mid}")["seats"][0]["you"]
    first, second = (ana, ben) if ana_first else (ben, ana)
    second_ctx = ben_ctx if ana_first else ana_ctx
    first_name = f"Ana{tag}" if ana_first else f"Ben{tag}"
    expect(first.locator("#status")).to_contain_text("Your throw")
    # Both logs say the order was drawn, and who throws first.
    expect(first.locator("#log")).to_contain_text(
        "The seeds drew the order of play: you throw first"
    )
    expect(second.locator("#log")).to_contain_text(
        f"The seeds drew the order of play: {first_name} throws first"
    )

    # The second's network goes; the page says so, and catches up when it is back.
    second_ctx.set_offline(True)
    expect(second.locator("#connection")).to_be_visible()
    expect(second.locator("#connection")).to_contain_text("reconnecting")
    first.click("#throw")
    expect(first.locator("#log")).to_contain_text("You threw")
    second_ctx.set_offline(False)
    expect(second.locator("#connection")).to_be_hidden()
    expect(second.locator("#log")).to_contain_text(f"{first_name} threw")

    # One log: what the pages wrote live is what a fresh load writes.
    for page in (ana, ben):
        expect(page.locator("#match")).to_have_attribute("data-settled", "1")
        live = page.locator("#log").inner_text()
        assert "took a seat" in live and "order of play" in live and "threw" in live
        page.reload()
        expect(page.locator("#log li")).to_have_count(len(live.splitlines()))
        assert page.locator("#log").inner_text() == live
    ana_ctx.close()
    ben_ctx.close()


def test_verify_this_match_loads_its_record_and_runs(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    mid = finished_match(page, url, "classic")
    page.goto(f"{url}/matches/{mid}")
    page.click("#verify-link")
    expect(page).to_have_url(re.compile(rf"/verify\?match={mid}$"))
    expect(page.locator("#verify-summary")).to_contain_text("✓ Verified", timeout=30000)
    expect(page.locator("#verify-scope")).to_contain_text("Not proved")
    expect(page.locator("#verify-scope")).to_contain_text("names")


#: A stand-in for Web Audio that counts the sounds started.
AUDIO_STUB = """
window.__sounds = 0;
class FakeNode { connect(n) { return n || this; } }
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = new FakeNode(); }
  resume() {}
  createOscillator() {
    const o = new FakeNode();
    o.frequency = { value: 0 };
    o.start = () => { window.__sounds += 1; };
    o.stop = () => {};
    return o;
  }
  createGain() {
    const g = new FakeNode();
    g.gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return g;
  }
};
"""


def test_sound_is_off_until_chosen_and_remembered(page: Page, live_server: Any) -> None:
    page.add_init_script(AUDIO_STUB)
    play_the_bot(page, live_server.url)
    expect(page.locator("#sound")).not_to_be_checked()
    page.click("#throw")
    expect(page.locator("#dice .die")).not_to_have_count(0)
    assert page.evaluate("window.__sounds") == 0
    page.check("#sound")
    page.reload()
    expect(page.locator("#sound")).to_be_checked()
    page.wait_for_function(NEXT_ACTION)
    before = page.evaluate("window.__sounds")
    if page.locator(".tile.offered").count():
        page.locator(".tile.offered").first.click()
        page.wait_for_function(NEXT_ACTION)
    if page.locator("#result").is_hidden():
        page.click("#throw")
        page.wait_for_function("(n) => window.__sounds > n", arg=before)


def test_calling_a_match_off_says_so(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, url, f"Cal{secrets.token_hex(2)}")
    mid = api(page, "POST", url + "/api/matches", {"seats": 2, "bots": 0})["id"]
    page.goto(f"{url}/matches/{mid}")
    expect(page.locator("#resign")).to_have_text("Call the match off")
    page.click("#resign")
    expect(page.locator("#resign-question")).to_contain_text("Call the match off?")
    expect(page.locator("#resign-yes")).to_have_text("Yes, call it off")
    page.click("#resign-yes")
    expect(page.locator("#round")).to_have_text("Called off")
    expect(page.locator("#result")).to_have_text("This match was called off before it started.")
    assert "Round 0" not in page.locator("main").inner_text()
    ctx.close()


def test_the_one_die_key_in_classic(page: Page, live_server: Any) -> None:
    """Once 7, 8 and 9 are down in Classic, the key 1 throws one die."""
    url = live_server.url
    page.goto(url + "/")
    for _ in range(40):
        state = api(
            page, "POST", url + "/api/matches", {"variant": "classic", "seats": 1, "bots": 0}
        )
        mid = state["id"]
        while state["status"] == "playing" and not state["turn"]["one_die"]:
            turn = state["turn"]
            if turn["dice"] is None:
                state = api(page, "POST", f"{url}/api/matches/{mid}/throw", {})
            else:  # the set with the highest tiles, to get 7, 8 and 9 down
                best = max(turn["options"], key=lambda o: sorted(o, reverse=True))
                state = api(page, "POST", f"{url}/api/matches/{mid}/cover", {"tiles": best})
        if state["status"] == "playing":
            break
    else:
        raise AssertionError("no practice turn got 7, 8 and 9 down")
    page.goto(f"{url}/matches/{mid}")
    expect(page.locator("#throw-one")).to_be_visible()
    expect(page.locator("#throw")).to_have_text("Throw two dice")
    page.keyboard.press("1")
    expect(page.locator("#dice .die")).to_have_count(1)
    expect(page.locator("#announce")).to_contain_text("You threw")
