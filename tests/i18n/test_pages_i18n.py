"""Every page, rendered in every language, carries no English text from the catalog
(names, seeds and numbers aside), sets <html lang>, and follows the language chosen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from catalog_check import LANGS, TAG, read_catalog
from ratings_helpers import people, play, start_match

from jackpot.web.base.clock import utcnow
from jackpot.web.daily.deals import day_of, make_deals
from jackpot.web.notify.prefs import unsubscribe_token

HTML = {"accept": "text/html"}
#: Catalog words that are names on the pages as well: the bots are named "Bot", "Bot 2".
NAMES = {"Bot"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


def english_fragments(lang: str) -> list[str]:
    """The pieces of English text the catalog translates differently in `lang`: a
    page in `lang` that contains one still shows untranslated catalog text."""
    catalog = read_catalog(lang, "messages")
    translated = " ".join(
        " ".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog if m.id
    )
    found = set()
    for m in catalog:
        if not m.id or m.id in NAMES:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if set(ids) <= set(strings):
            continue
        for text in ids:
            for piece in PLACEHOLDER.split(TAG.sub("\n", text)):
                for fragment in piece.split("\n"):
                    fragment = fragment.strip(" .,:;()…·")
                    if len(re.findall(r"[A-Za-z]", fragment)) >= 3 and fragment not in translated:
                        found.add(fragment)
    return sorted(found, key=len, reverse=True)


def visible(html: str) -> str:
    """What a person reads or hears of a page: its text, and the attributes that are
    read out or shown (not its scripts' data, styles, class names or links)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    # Text marked as English on purpose (the API schema's own descriptions).
    html = re.sub(r'<(td|p|span|code)\b[^>]*\blang="en"[^>]*>.*?</\1>', "", html, flags=re.S)
    said = re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', html)
    return "\n".join([*re.split(r"<[^>]*>", html), *said])


async def pages(make_client: Any, settings: Any) -> tuple[httpx.AsyncClient, list[str]]:
    """Ana with a finished rated match, a listing, a waiting match in the lobby and a
    match to replay; the list of every page she (or a stranger) can open."""
    ana, ben, cy = await people(make_client, ["Ana", "Ben", "Cy"])
    finished = await play([ana, ben], await start_match([ana, ben], "classic"))
    await ana.patch("/api/account", json={"leaderboard": True})
    r = await cy.post("/api/matches", json={"variant": "jackpot", "seats": 3, "bots": 0})
    assert r.status_code == 201, r.text
    user_id = (await ana.get("/api/account")).json()["id"]
    mid = finished["id"]
    # A match between people under way: on the watch list, its page with a few words said.
    playing = (await start_match([ana, ben], "jackpot"))["id"]
    r = await ana.post(f"/api/matches/{playing}/say", json={"phrase": "good_luck"})
    assert r.status_code == 204, r.text
    # Daily deals: an entry under way, one given up, and the day's board.
    await make_deals(ana._transport.app.state.db, utcnow())  # type: ignore[attr-defined]
    daily = (await ana.post("/api/daily/jackpot")).json()["match"]
    given_up = (await ana.post("/api/daily/classic")).json()["match"]
    assert (await ana.post(f"/api/matches/{given_up}/resign")).status_code == 200
    return ana, [
        "/daily",
        f"/daily/{day_of(utcnow())}/jackpot",
        f"/matches/{daily}",
        f"/matches/{given_up}",
        "/",
        "/lobby",
        "/watch",
        f"/matches/{playing}",
        "/my",
        "/matches/new",
        "/account",
        "/rules",
        "/fair-play",
        "/verify",
        "/leaderboard?variant=classic",
        "/players/Ana",
        "/players/Ana/history",
        f"/matches/{mid}/replay",
        "/analysis",
        # The analysis board: a match at stake with covers, one with the dice choice,
        # a throw that ends the turn, and a refused field.
        "/analysis?variant=jackpot&open=1,2,4,6,8&dice=2,4&seats=3&shut=0&after=1",
        "/analysis?variant=classic&open=1,2,3,4,5,6&beat=20&holders=1&after=1",
        "/analysis?variant=classic&open=1,5,9&dice=1,3",
        "/analysis?variant=jackpot&open=1,2&dice=3",
        "/no-such-page",
        "/offline",
        "/api-docs",
        f"/unsubscribe/{unsubscribe_token(settings, user_id)}",
        "!/signup",
        "!/login",
        "!/reset",
        "!/reset/some-token",
    ]


async def test_every_page_in_every_language_has_no_english_catalog_text(
    app: Any, make_client: Any, settings: Any
) -> None:
    ana, paths = await pages(make_client, settings)
    stranger = await make_client()
    problems = []
    for lang in LANGS:
        fragments = english_fragments(lang)
        assert len(fragments) > 300
        for path in paths:
            client = stranger if path.startswith("!") else ana
            page = await client.get(path.lstrip("!"), headers={**HTML, "accept-language": lang})
            assert page.status_code in (200, 404, 422), (path, page.status_code)
            assert f'<html lang="{lang}">' in page.text
            text = visible(page.text)
            left = [f for f in fragments if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text)]
            if left:
                problems.append(f"{lang} {path}: English left: {left[:8]}")
    assert not problems, "\n".join(problems)


async def test_english_pages_show_the_english_text(app: Any, make_client: Any) -> None:
    client = await make_client()
    page = await client.get("/rules", headers=HTML)
    assert '<html lang="en">' in page.text
    assert "Playing it here" in page.text and "7.99874%" in page.text


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt"),
        ("de-DE,sk;q=0.7,et;q=0.9", "et"),
        ("ms-MY", "ms"),
        ("fr, de;q=0.5", "en"),
        ("en;q=abc,sk;q=2,pt;q=0", "en"),
        ("x" * 5000, "en"),
    ],
)
async def test_accept_language_picks_among_the_five(
    app: Any, make_client: Any, header: str, lang: str
) -> None:
    client = await make_client()
    page = await client.get("/", headers={**HTML, "accept-language": header})
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    assert page.headers["content-language"] == lang


async def test_the_switcher_wins_over_the_browser_and_stays(app: Any, make_client: Any) -> None:
    client = await make_client()
    page = await client.get("/rules", headers={**HTML, "accept-language": "pt"})
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None
    r = await client.post(
        "/language",
        data={"csrf_token": csrf.group(1), "lang": "sk", "next": "/rules#classic"},
        headers={"origin": "http://testserver"},
    )
    assert r.status_code == 303 and r.headers["location"] == "/rules#classic"
    for path in ("/rules", "/lobby", "/fair-play"):
        page = await client.get(path, headers={**HTML, "accept-language": "pt"})
        assert '<html lang="sk">' in page.text, path
    assert "Ako hrať" in (await client.get("/rules", headers=HTML)).text
    # Somewhere else is never where the switcher sends you.
    r = await client.post(
        "/language",
        data={"csrf_token": csrf.group(1), "lang": "et", "next": "//evil.example/x"},
        headers={"origin": "http://testserver"},
    )
    assert r.status_code == 303 and r.headers["location"] == "/"
    # An unknown language is English, and a forged form changes nothing.
    r = await client.post(
        "/language",
        data={"csrf_token": "forged", "lang": "pt", "next": "/"},
        headers={"origin": "http://testserver"},
    )
    assert r.status_code == 403
    assert '<html lang="et">' in (await client.get("/", headers=HTML)).text


@pytest.mark.parametrize(
    ("lang", "percent", "deadline"),
    [
        ("en", "7.99874%", "1 day"),
        ("pt", "7,99874%", "1 dia"),
        ("sk", "7,99874\xa0%", "1 deň"),
        ("et", "7,99874%", "1 päev"),
        ("ms", "7.99874%", "1 hari"),
    ],
)
async def test_numbers_and_durations_follow_the_language(
    app: Any, make_client: Any, lang: str, percent: str, deadline: str
) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    rules = await ana.get("/rules", headers={**HTML, "accept-language": lang})
    assert percent in rules.text
    r = await ben.post("/api/matches", json={"variant": "jackpot", "seats": 2, "bots": 0})
    assert r.status_code == 201, r.text
    lobby = await ana.get("/lobby", headers={**HTML, "accept-language": lang})
    assert f">{deadline}</td>" in lobby.text


async def test_slovak_has_three_plural_forms(app: Any) -> None:
    from jackpot.i18n import use_locale
    from jackpot.i18n.formats import duration

    with use_locale("sk"):
        assert [duration(n * 86400) for n in (1, 2, 4, 5, 21)] == [
            "1 deň",
            "2 dni",
            "4 dni",
            "5 dní",
            "21 dní",
        ]
    with use_locale("pt"):
        assert [duration(n * 3600) for n in (1, 2)] == ["1 hora", "2 horas"]


def test_portuguese_numbers_and_dates_are_portugals() -> None:
    """Babel's plain "pt" writes 12.345,5 as Brazil does; the site's Portuguese is
    Portugal's, in its numbers and dates as in its words."""
    from jackpot.i18n import use_locale
    from jackpot.i18n.formats import day, number

    with use_locale("pt"):
        assert number(12345.5, 1) == "12\xa0345,5"
        assert day("2026-12-04T10:00:00") == "04/12/2026"
    with use_locale("sk"):
        assert number(12345.5, 1) == "12\xa0345,5"



def test_no_template_writes_a_label_outside_the_catalog() -> None:
    """Text in attributes a person hears or sees (aria-label, title, placeholder, alt)
    comes from the catalog: "Leaderboard table" was once written in English, and the
    leaderboard shows it only with settled ratings, which no page test has."""
    templates = Path(__file__).resolve().parents[2] / "src" / "jackpot" / "templates"
    bare = re.compile(r'\b(aria-label|title|placeholder|alt)="[^"{]')
    found = [
        f"{path.name}: {m.group(0)}"
        for path in sorted(templates.glob("*.html"))
        for m in bare.finditer(path.read_text())
    ]
    assert not found, found
