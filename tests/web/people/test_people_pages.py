"""The pages of finding people: /play-now, the Challenge button on a profile, and the
account page's challenge setting and blocks."""

from __future__ import annotations

from web_helpers import sign_up


async def csrf(client, path: str) -> str:  # type: ignore[no-untyped-def]
    page = (await client.get(path)).text
    return page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


async def test_play_now_page(app, make_client) -> None:  # type: ignore[no-untyped-def]
    anonymous = await make_client()
    page = await anonymous.get("/play-now")
    assert page.status_code == 200
    assert 'href="/signup?next=/play-now"' in page.text and "seek-form" not in page.text
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await ana.post("/api/seeks", json={"variant": "classic", "deadline_seconds": 7200})
    await ana.post("/api/challenges", json={"to": "Ben"})
    page = (await ben.get("/play-now?to=Ana")).text
    assert 'id="seek-form"' in page and 'value="Ana"' in page
    assert 'class="join-kind" data-variant="classic" data-deadline="7200"' in page
    assert "challenge-accept" in page and '<span class="pname">Ana</span>' in page
    assert 'class="provisional"' in page
    assert 'href="/play-now"' in (await ben.get("/lobby")).text


async def test_profile_and_account(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await ben.patch("/api/account", json={"leaderboard": True})
    profile = (await ana.get("/players/Ben")).text
    assert 'action="/play-now"' in profile and 'name="to" value="Ben"' in profile
    assert 'id="challenge-player"' not in (await ben.get("/players/Ben")).text
    token = await csrf(ana, "/account")
    done = await ana.post(
        "/account", data={"csrf_token": token, "what": "block", "name": "ben"}
    )
    assert done.status_code == 200 and '<span class="pname">Ben</span>' in done.text
    assert (await ana.get("/api/blocks")).json() == {"blocked": ["Ben"]}
    done = await ana.post(
        "/account", data={"csrf_token": token, "what": "challenges", "challenges": "nobody"}
    )
    assert 'value="nobody" checked' in done.text
    assert (await ana.get("/api/account")).json()["challenges"] == "nobody"
    done = await ana.post(
        "/account", data={"csrf_token": token, "what": "block", "name": "Nobody Here"}
    )
    assert done.status_code == 404
    done = await ana.post("/account", data={"csrf_token": token, "what": "unblock", "name": "Ben"})
    assert (await ana.get("/api/blocks")).json() == {"blocked": []}
