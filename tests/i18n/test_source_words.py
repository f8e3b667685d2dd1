"""The English source leaves each language room to be right: a bot's strength is named
as the rule it plays by inside whole sentences (an adjective slotted in alone read as
"the tallest bot" in Portuguese), a counted cap goes through plural forms (Slovak
"každých 3 sekúnd"), and the same control says the same words in the page and its script."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.pofile import read_po
from catalog_check import LANGS, LOCALE, source_messages
from daily_helpers import deals_made, enter, player

from jackpot.i18n import use_locale
from jackpot.i18n.catalogs import translations
from jackpot.web.base.errors import CountedError

HTML = {"accept": "text/html"}
STRENGTHS = ("lowest", "highest", "best")
#: A strength slotted into a sentence, or standing alone as a message to be slotted.
SLOTTED_STRENGTH = re.compile(r"\{strength\}|%\(strength\)s")
#: A number said before a plural noun in a message without plural forms: "%(cap)s
#: challenges", "{n} seconds" (a sum of points or a range's end aside, see below).
CAP = re.compile(r"%\((cap|limit|count|seconds|num)\)s")
COUNTED = re.compile(r"(%\(\w+\)[sd]|\{\w+\}) (\w+ )?(?!pts\b)[a-z]+s\b(?! (is|was|has)\b)")


def bare_strengths(messages: dict[str, str | None]) -> list[str]:
    return [
        m for m in messages if m in ("lowest", "highest") or SLOTTED_STRENGTH.search(m)
    ]


def test_no_bot_strength_is_slotted_into_a_sentence() -> None:
    for domain in ("messages", "js"):
        found = source_messages(domain)
        assert not bare_strengths(found), domain
        for rule in ("lowest tile", "highest tile", "best move"):
            assert rule in found, (domain, rule)
    assert bare_strengths({"bot: %(strength)s": None, "highest": None, "best": None}) == [
        "bot: %(strength)s",
        "highest",
    ]


@pytest.mark.parametrize("lang", LANGS)
async def test_the_worked_example_names_the_rule_in_the_readers_words(
    client: Any, lang: str
) -> None:
    page = (await client.get("/fair-play", headers={**HTML, "accept-language": lang})).text
    words = translations(lang)
    for strength in ("highest", "best"):
        assert f"<strong>{strength}</strong>" not in page
    for rule, code in (("highest tile", "highest"), ("best move", "best")):
        assert words.gettext(rule) != rule
        assert f"<strong>{words.gettext(rule)}</strong>" in page
        assert f"<code>{code}</code>" in page


def cap_messages() -> list[str]:
    """Messages of the API (and pages) that say a number before a plural noun without
    plural forms; a range ("2 to %(most)s seats") of fixed ends and units of a sum are
    said right by a translator who sees the fixed number."""
    return [
        m
        for m, plural in source_messages("messages").items()
        if plural is None and COUNTED.search(m) and CAP.search(m)
    ]


def test_every_cap_is_counted_with_plural_forms() -> None:
    assert not cap_messages()
    assert COUNTED.search("you may have %(cap)s challenges open at once")
    assert COUNTED.search("one phrase every %(seconds)s seconds: wait a moment")
    assert not COUNTED.search("%(points)s pts")


@pytest.mark.parametrize(
    ("num", "said"),
    [(1, "1 výzvu"), (3, "3 výzvy"), (5, "5 výziev")],
)
def test_a_cap_takes_the_plural_form_of_its_number(num: int, said: str) -> None:
    error = CountedError(
        429,
        "too_many_challenges",
        "you may make %(num)s challenge a day; try again tomorrow",
        "you may make %(num)s challenges a day; try again tomorrow",
        num,
    )
    with use_locale("sk"):
        assert said in error.message
    with use_locale("en"):
        assert error.message == str(error)
        assert error.message.startswith(f"you may make {num} challenge")


@pytest.mark.parametrize("lang", LANGS)
def test_skip_to_now_says_what_the_script_says(lang: str) -> None:
    """The page's button and the script's label of the same control begin alike."""
    with (LOCALE / lang / "LC_MESSAGES" / "js.po").open("rb") as fp:
        script = read_po(fp)["Skip to now ({n} step to show)"].string
    page = translations(lang).gettext("Skip to now")
    assert page != "Skip to now"
    for form in script:
        assert form.startswith(page + " ("), (page, form)


async def test_the_daily_pages_say_when_a_daily_seed_is_published(make_client: Any) -> None:
    ana = await player(make_client)
    day = await deals_made(ana)
    mid = await enter(ana)
    daily_words = "Every throw of a daily deal comes from its seed, published when the day ends."
    match_words = "Every throw comes from a seed published when the match ends."
    for path in ("/daily", f"/daily/{day}/jackpot", f"/matches/{mid}"):
        page = (await ana.get(path, headers=HTML)).text
        assert daily_words in page and match_words not in page, path
    page = (await ana.get("/lobby", headers=HTML)).text
    assert match_words in page and daily_words not in page
