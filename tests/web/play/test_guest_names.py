"""A guest's default name is stored (and kept in the record) in English, and shown in
the reader's language on every page that names players."""

from __future__ import annotations

import re

import httpx
from web_helpers import bot_match, play_out

from jackpot.i18n import use_locale
from jackpot.i18n.names import shown_name

SLOVAK = {"Accept-Language": "sk"}


def test_only_a_guest_default_name_is_translated() -> None:
    with use_locale("sk"):
        assert shown_name("Guest 1a2b") == "Hosť 1a2b"
        assert shown_name("Guest 1a2bc") == "Guest 1a2bc"
        assert shown_name("Ana") == "Ana"
        assert shown_name(None) is None
    with use_locale("en"):
        assert shown_name("Guest 1a2b") == "Guest 1a2b"


async def test_a_guest_reads_their_name_in_their_language(make_client) -> None:  # type: ignore[no-untyped-def]
    guest: httpx.AsyncClient = await make_client()
    state = await bot_match(guest, "jackpot")
    mine = next(s["name"] for s in state["seats"] if s["you"])
    tag = re.fullmatch(r"Guest ([0-9a-f]{4})", mine)
    assert tag, mine
    state = await play_out([guest], state)
    mid = state["id"]

    record = (await guest.get(f"/api/matches/{mid}/record")).json()
    assert mine in [s["name"] for s in record["seats"]]  # the record keeps it as stored

    for path in ("/", f"/matches/{mid}/replay", "/signup"):
        page = (await guest.get(path, headers=SLOVAK)).text
        assert f"Hosť {tag.group(1)}" in page, path
        assert mine not in page.replace(f'"{mine}"', ""), path  # JSON data aside
    english = (await guest.get(f"/matches/{mid}/replay")).text
    assert mine in english
