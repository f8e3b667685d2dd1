"""Display names of any script, kept NFKC-normalised; names that read like another
account's, or like the site's own "Bot" and "Guest", are refused in the asker's language."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from web_helpers import PASSWORD, sign_up

from jackpot.web.base.names import name_key, name_look, normal_name
from jackpot.web.base.storage.migrate import alembic_config

HTML = {"accept": "text/html"}


async def new_account(client: httpx.AsyncClient, name: str, lang: str = "en") -> httpx.Response:
    return await client.post(
        "/api/account",
        json={"email": f"{secrets.token_hex(4)}@example.org", "password": PASSWORD, "name": name},
        headers={"accept-language": lang},
    )


@pytest.mark.parametrize(
    "name", ["Zoë Ñandú", "山田太郎", "Ηλέκτρα", "Сергей", "أحمد", "Nguyễn Văn"]
)
async def test_names_of_any_script(make_client: Any, name: str) -> None:
    c = await make_client()
    r = await new_account(c, name)
    assert r.status_code == 201, r.text
    assert r.json()["name"] == name
    # The profile's address is the name, in any case it is typed in.
    page = await c.get("/players/" + quote(name.upper()), headers=HTML)
    assert page.status_code == 200 and f"<h1>{name}</h1>" in page.text


async def test_names_are_kept_in_their_normal_form(make_client: Any) -> None:
    c = await make_client()
    # Full-width letters, a combining diaeresis, runs of spaces: one ordinary form.
    r = await new_account(c, "Ｚｏe\u0308   Ｌｉ")
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Zoë Li"
    other = await make_client()
    r = await new_account(other, "ZOË LI")
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"


@pytest.mark.parametrize(
    "name",
    [
        "x",
        "y" * 25,
        "Ana!",
        "_Ana",
        "A\u200dna",  # a zero-width joiner: invisible, so not in a name
        "Ana\u202eevil",  # a right-to-left override
        "Ana 🎲",
        "",
    ],
)
async def test_what_is_not_a_name(make_client: Any, name: str) -> None:
    r = await new_account(await make_client(), name)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text


@pytest.mark.parametrize(
    "name",
    [
        "Bot",
        "bot 2",
        "Ｂｏｔ",  # full width
        "B0T",  # a zero for the O
        "ВОТ",  # Cyrillic capitals
        "Βot Master",  # a Greek capital beta
        "Guest 1a2b",
        "Ꮐuest",  # a Cherokee letter for the G
        "GUEST",
    ],
)
async def test_names_that_read_as_the_sites_own(make_client: Any, name: str) -> None:
    r = await new_account(await make_client(), name)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text
    assert "look like 'Bot' or 'Guest'" in r.json()["error"]["message"]


@pytest.mark.parametrize(
    "lookalike",
    [
        "Аna",  # a Cyrillic capital A
        "Αna",  # a Greek capital alpha
        "ANA",  # the same name in other case: taken outright
        "Ana",
    ],
)
async def test_lookalikes_of_a_taken_name_are_refused(make_client: Any, lookalike: str) -> None:
    await sign_up(await make_client(), "Ana")
    r = await new_account(await make_client(), lookalike)
    assert r.status_code == 409, r.text
    code = r.json()["error"]["code"]
    assert code == ("name_taken" if lookalike.lower() == "ana" else "name_lookalike")


async def test_lookalikes_with_digits_for_letters(make_client: Any) -> None:
    await sign_up(await make_client(), "Iris")
    for name in ("lris", "1ris", "IriS"):
        r = await new_account(await make_client(), name)
        assert r.status_code == 409, (name, r.text)
    # Different enough to read as another name.
    assert (await new_account(await make_client(), "Irisa")).status_code == 201


async def test_the_refusal_says_which_name_in_every_language(make_client: Any) -> None:
    await sign_up(await make_client(), "Ana")
    messages = {}
    for lang in ("en", "pt", "ms", "et", "sk"):
        r = await new_account(await make_client(), "Аna", lang)
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_lookalike"
        messages[lang] = r.json()["error"]["message"]
        assert "Ana" in messages[lang]
        r = await new_account(await make_client(), "B0t", lang)
        messages[lang + " reserved"] = r.json()["error"]["message"]
    assert messages["en"].startswith("that display name looks like Ana, which is taken")
    assert messages["pt"].startswith("esse nome visível parece-se com Ana")
    assert len(set(messages.values())) == len(messages), messages


async def test_renaming_follows_the_same_rule(make_client: Any) -> None:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    r = await ben.patch("/api/account", json={"name": "Аna"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_lookalike"
    r = await ben.patch("/api/account", json={"name": "ВOT"})  # a Cyrillic В
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"
    # One's own name in another case, or another script's lookalike of it, is fine.
    r = await ana.patch("/api/account", json={"name": "ANA"})
    assert r.status_code == 200, r.text
    r = await ana.patch("/api/account", json={"name": "Аna"})
    assert r.status_code == 200, r.text
    r = await ben.patch("/api/account", json={"name": "Бен Ｂ"})
    assert r.status_code == 200 and r.json()["name"] == "Бен B"
    # The old name is free again, and the new one's lookalikes are not.
    r = await (await make_client()).post(
        "/api/account", json={"email": "b2@example.org", "password": PASSWORD, "name": "Ben"}
    )
    assert r.status_code == 201, r.text
    r = await (await make_client()).post(
        "/api/account", json={"email": "b3@example.org", "password": PASSWORD, "name": "Бeн B"}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_lookalike"


async def test_the_sign_up_form_shows_the_refusal(make_client: Any) -> None:
    await sign_up(await make_client(), "Ana")
    c = await make_client()
    page = await c.get("/signup", headers={**HTML, "accept-language": "sk"})
    csrf = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    r = await c.post(
        "/signup",
        data={
            "csrf_token": csrf,
            "email": "x@example.org",
            "password": PASSWORD,
            "name": "Аna",
            "next": "/",
        },
        headers={"origin": "http://testserver", "accept-language": "sk"},
    )
    assert r.status_code == 409
    assert "vyzerá ako Ana" in r.text


def test_the_migration_gives_existing_accounts_their_look(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        for name, guest in (("Ana", False), ("B0b", False), ("Guest 12ab", True)):
            conn.execute(
                sa.text(
                    "INSERT INTO users (name, name_key, is_guest, leaderboard, created_at,"
                    " last_seen) VALUES (:n, :k, :g, 0, :t, :t)"
                ),
                {"n": name, "k": None if guest else name.lower(), "g": guest, "t": "2026-01-01"},
            )
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "heads")
        rows = conn.execute(sa.text("SELECT name, name_look FROM users ORDER BY id")).all()
    assert rows == [("Ana", "ana"), ("B0b", "bob"), ("Guest 12ab", None)]


def test_keys_and_looks() -> None:
    assert normal_name(" Ｂｅｎ\t\tB ") == "Ben B"
    assert name_key("Straße") == name_key("STRASSE") == "strasse"
    assert name_look("Вот") != name_look("Bot")  # a Cyrillic т reads as a small capital
    assert name_look("ВОТ") == name_look("B0T") == name_look("bot")
    assert name_look("山田太郎") == "山田太郎"
