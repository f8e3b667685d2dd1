"""Every refusal has the one error shape and a fitting status; no input gives a 500."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from web_helpers import seated, sign_up


def error_of(r: httpx.Response, status: int, code: str | None = None) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code is not None:
        assert body["error"]["code"] == code
    return str(body["error"]["message"])


async def bot_match(client: httpx.AsyncClient, **kw: Any) -> dict[str, Any]:
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1, **kw})
    assert r.status_code == 201
    return dict(r.json())


async def test_malformed_json_is_400_and_wrong_shapes_are_422(client: httpx.AsyncClient) -> None:
    headers = {"content-type": "application/json"}
    error_of(await client.post("/api/matches", content=b"{nope", headers=headers), 400, "bad_json")
    error_of(await client.post("/api/matches", content=b"[1, 2]", headers=headers), 422)
    error_of(await client.post("/api/matches", json={"seats": "many"}), 422)
    error_of(await client.post("/api/matches", json={"seats": 9}), 422)
    error_of(await client.post("/api/matches", json={"seats": 2, "bots": 2}), 422)
    error_of(await client.post("/api/matches", json={"variant": "poker"}), 422)
    error_of(await client.post("/api/matches", json={"deadline_seconds": 0}), 422)
    error_of(await client.post("/api/matches", json={"deadline_seconds": 10**12}), 422)
    msg = error_of(await client.post("/api/matches", json={"client_seed": "a.b"}), 422)
    assert "client seed" in msg
    deep = b"[" * 50000 + b"]" * 50000
    r = await client.post("/api/matches", content=deep[:60000], headers=headers)
    assert r.status_code in (400, 422)
    # Bodies the JSON parser gives up on say what to send instead.
    for body in (
        b'{"seats": ' + b"1" * 5000 + b"}",  # past Python's digits for an int
        b'{"client_seed": "\xff\xfe"}',  # not UTF-8
        b"[" * 20000 + b"]" * 20000,
    ):
        msg = error_of(await client.post("/api/matches", content=body, headers=headers), 400)
        assert "UTF-8 JSON" in msg, (body[:40], msg)


async def test_numbers_and_switches_are_strict(client: httpx.AsyncClient) -> None:
    """"3600", 3600.0 and true are not seconds; 1, "yes" and "true" are not true."""
    for field, bad in (
        ("expiry_seconds", "3600"), ("expiry_seconds", 3600.0), ("expiry_seconds", True),
        ("private", 1), ("private", "yes"), ("private", "true"),
    ):
        r = await client.post("/api/matches", json={"seats": 2, "bots": 1, field: bad})
        error_of(r, 422)
    solo = (await client.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    for body in ({"dice": "2"}, {"dice": True}, {"dice": 2.0}):
        error_of(await client.post(f"/api/matches/{solo['id']}/throw", json=body), 422)
    error_of(await client.post(f"/api/matches/{solo['id']}/cover", json={"tiles": ["3"]}), 422)
    error_of(await client.post(f"/api/matches/{solo['id']}/throw", json={"seat": 0}), 422)
    state = (await client.get(f"/api/matches/{solo['id']}")).json()
    assert state["seq"] == solo["seq"]  # nothing was played by any of those
    # A field the request does not take is named, not dropped.
    msg = error_of(await client.post("/api/matches", json={"seats": 2, "expiry": 3600}), 422)
    assert msg.startswith("expiry:")


async def test_huge_bodies_are_413(client: httpx.AsyncClient) -> None:
    big = b'{"tiles": [' + b"1," * 100000 + b"1]}"
    error_of(
        await client.post(
            "/api/matches/x/cover", content=big, headers={"content-type": "application/json"}
        ),
        413,
        "too_large",
    )

    async def chunks() -> Any:
        for _ in range(100):
            yield b" " * 4096

    r = await client.post(
        "/api/matches", content=chunks(), headers={"content-type": "application/json"}
    )
    error_of(r, 413, "too_large")


async def test_unknown_things_are_404(client: httpx.AsyncClient) -> None:
    error_of(await client.get("/api/matches/m_nothing"), 404, "not_found")
    error_of(await client.get("/api/matches/m_nothing/record"), 404)
    error_of(await client.get("/api/matches/m_nothing/events"), 404)
    error_of(await client.get("/api/nowhere"), 404)
    # An id no match can have (too long for the column). A NUL byte, which
    # PostgreSQL refuses outright, is refused at the edge (tests/security).
    await bot_match(client)  # a seated caller, so the move reaches the match lookup
    for odd in ("m_" + "a" * 40,):
        error_of(await client.get(f"/api/matches/{odd}"), 404, "not_found")
        error_of(await client.post(f"/api/matches/{odd}/throw", json={}), 404, "not_found")
        error_of(await client.post(f"/api/matches/{odd}/cover", json={"tiles": [1]}), 404)
        error_of(await client.post(f"/api/matches/{odd}/resign"), 404, "not_found")
    error_of(await client.delete("/api/matches"), 405)
    # A 405 says which methods the address takes (RFC 9110), all of them.
    assert (await client.delete("/api/matches")).headers["allow"] == "GET, POST"
    page = await client.put("/", headers={"accept": "text/html"})
    assert page.status_code == 405 and "GET" in page.headers["allow"]
    r = await client.get("/matches/m_nothing", headers={"accept": "text/html"})
    assert r.status_code == 404 and "<html" in r.text


async def test_an_error_page_names_the_kind_of_error_in_its_title(make_client) -> None:  # type: ignore[no-untyped-def]
    client = await make_client()
    r = await client.get("/matches/m_nothing", headers={"accept": "text/html"})
    assert "<title>Not here" in r.text and "<h1>Not here</h1>" in r.text
    r = await client.get("/matches/m_nothing",
                         headers={"accept": "text/html", "accept-language": "et"})
    assert "<title>Siin pole midagi" in r.text, r.text
    r = await client.post("/logout", headers={"accept": "text/html", "origin": "https://evil.example"})
    assert r.status_code == 403 and "<h1>Not allowed</h1>" in r.text, r.text


async def test_moves_out_of_turn_phase_or_offer(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, stranger = await make_client(), await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    error_of(await ana.post(f"/api/matches/{mid}/throw", json={}), 409, "not_started")
    await ben.post(f"/api/matches/{mid}/join", json={})
    # The order of play is drawn: "first" throws first, "second" waits.
    by_seat = await seated([ana, ben], mid)
    first, second = by_seat[0], by_seat[1]
    error_of(await second.post(f"/api/matches/{mid}/throw", json={}), 409, "not_your_turn")
    error_of(await first.post(f"/api/matches/{mid}/cover", json={"tiles": [1]}), 409, "wrong_phase")
    error_of(await first.post(f"/api/matches/{mid}/throw", json={"dice": 1}), 422)
    error_of(await first.post(f"/api/matches/{mid}/throw", json={"dice": 3}), 422)
    state = (await first.post(f"/api/matches/{mid}/throw", json={})).json()
    if state["turn"]["seat"] == 0:
        on_offer = {t for o in state["turn"]["options"] for t in o}
        off = next(t for t in range(1, 10) if t not in on_offer)
        msg = error_of(
            await first.post(f"/api/matches/{mid}/cover", json={"tiles": [off]}),
            422,
            "not_on_offer",
        )
        assert "not on offer" in msg
        error_of(await first.post(f"/api/matches/{mid}/cover", json={"tiles": [0, 99]}), 422)
        error_of(await first.post(f"/api/matches/{mid}/cover", json={"tiles": "7"}), 422)
        error_of(await first.post(f"/api/matches/{mid}/cover", json={}), 422)
    # Nobody acts for another seat; a stranger has no seat; nobody signed in is 401.
    error_of(await stranger.post(f"/api/matches/{mid}/throw", json={}), 401)
    await sign_up(stranger, "Cat")
    error_of(await stranger.post(f"/api/matches/{mid}/resign"), 403, "not_seated")
    error_of(await stranger.post(f"/api/matches/{mid}/join", json={}), 409, "match_started")
    await ana.post(f"/api/matches/{mid}/resign")
    error_of(await ben.post(f"/api/matches/{mid}/throw", json={}), 409, "match_over")


async def test_guests_may_not_play_people(make_client) -> None:  # type: ignore[no-untyped-def]
    guest, ana = await make_client(), await make_client()
    msg = error_of(
        await guest.post("/api/matches", json={"seats": 2, "bots": 0}), 403, "account_required"
    )
    assert "sign up" in msg
    await sign_up(ana, "Ana")
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    error_of(await guest.post(f"/api/matches/{mid}/join", json={}), 401)
    await bot_match(guest)  # now the guest has a cookie
    error_of(await guest.post(f"/api/matches/{mid}/join", json={}), 403, "account_required")
    error_of(await ana.post(f"/api/matches/{mid}/join", json={}), 409, "already_seated")


async def test_random_bodies_never_give_a_500(client: httpx.AsyncClient) -> None:
    mid = (await bot_match(client))["id"]
    rng = random.Random(7)
    values: list[Any] = [
        None,
        True,
        -1,
        0,
        1,
        2,
        7,
        10**30,
        1.5,
        "",
        "x" * 500,
        [],
        [1, 2],
        [[1]],
        {"a": 1},
        "7",
        [-3, 12],
        "\u0000\ud7ff",
    ]
    keys = [
        "variant",
        "seats",
        "bots",
        "deadline_seconds",
        "client_seed",
        "private",
        "dice",
        "tiles",
        "email",
        "password",
        "name",
        "token",
        "label",
    ]
    paths = [
        "/api/matches",
        f"/api/matches/{mid}/throw",
        f"/api/matches/{mid}/cover",
        f"/api/matches/{mid}/join",
        f"/api/matches/{mid}/resign",
        "/api/account",
        "/api/session",
        "/api/tokens",
        "/api/password-reset",
        "/api/password-reset/confirm",
    ]
    for _ in range(300):
        body = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 4))}
        r = await client.post(
            rng.choice(paths),
            content=json.dumps(body),
            headers={"content-type": "application/json"},
        )
        assert r.status_code < 500, (body, r.text)
        if r.status_code >= 400:
            assert "error" in r.json()
    for raw in (b"", b"null", b"\xff\xfe", b'{"tiles": [1', b"1e999999"):
        r = await client.post(
            f"/api/matches/{mid}/cover", content=raw, headers={"content-type": "application/json"}
        )
        assert 400 <= r.status_code < 500


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/lobby",
        "/my",
        "/login",
        "/signup",
        "/reset",
        "/rules",
        "/fair-play",
        "/verify",
        "/leaderboard",
        "/api/openapi.json",
        "/api/health",
    ],
)
async def test_pages_answer(client: httpx.AsyncClient, path: str) -> None:
    r = await client.get(path)
    assert r.status_code == 200
