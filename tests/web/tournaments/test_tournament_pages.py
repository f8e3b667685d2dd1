"""The tournaments' pages: the list, the form that makes one, a tournament's page with
its forms (enter, start, withdraw), its standings and tables, and the profile's list."""

from __future__ import annotations

from datetime import timedelta

import httpx
from tournament_helpers import create, enter, people, view

from jackpot.web.base.clock import utcnow

HTML = {"accept": "text/html"}


def token_of(page: str) -> str:
    return page.split('name="csrf_token" value="')[1].split('"')[0]


async def test_made_entered_and_followed_through_the_pages(make_client) -> None:  # type: ignore[no-untyped-def]
    clients = await people(make_client, ["Ana", "Ben"])
    ana, ben = clients["Ana"], clients["Ben"]
    form_page = await ana.get("/tournaments/new", headers=HTML)
    assert form_page.status_code == 200
    start = (utcnow() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "csrf_token": token_of(form_page.text),
        "name": "Sunday Swiss",
        "variant": "classic",
        "table_size": "2",
        "rounds": "2",
        "deadline_seconds": "3600",
        "spares": "1",
        "round_seconds": "86400",
        "starts_at": start,
        "max_players": "8",
    }
    bad = await ana.post("/tournaments/new", data=form | {"rounds": "40"})
    assert bad.status_code == 422 and "rounds" in bad.text
    r = await ana.post("/tournaments/new", data=form)
    assert r.status_code == 303, r.text
    tid = r.headers["location"].rsplit("/", 1)[1]
    listed = (await ben.get("/tournaments", headers=HTML)).text
    assert "Sunday Swiss" in listed and f"/tournaments/{tid}" in listed
    page = (await ben.get(f"/tournaments/{tid}", headers=HTML)).text
    assert 'id="enter-tournament"' in page
    # Without scripts the form sends no commitment: the part is made with the entry.
    r = await ben.post(
        f"/tournaments/{tid}/enter", data={"csrf_token": token_of(page), "client_seed": "ben-1"}
    )
    assert r.status_code == 303, r.text
    assert (await enter(ana, tid)).status_code == 201
    page = (await ana.get(f"/tournaments/{tid}", headers=HTML)).text
    assert 'id="start-now"' in page and "Entered: 2 of 8." in page
    r = await ana.post(f"/tournaments/{tid}/start", data={"csrf_token": token_of(page)})
    assert r.status_code == 303, r.text
    page = (await ben.get(f"/tournaments/{tid}", headers=HTML)).text
    state = await view(ben, tid)
    match = state["pairings"][0]["tables"][0]["match"]
    assert f'href="/matches/{match}"' in page and 'id="play-table"' in page
    assert 'id="standings"' in page
    # Ben withdraws: his match is resigned, Ana wins it, and round 2 sits her out alone.
    r = await ben.post(f"/tournaments/{tid}/withdraw", data={"csrf_token": token_of(page)})
    assert r.status_code == 303, r.text
    state = await view(ben, tid)
    assert state["status"] == "finished"
    assert [(s["name"], s["points"]) for s in state["standings"]] == [("Ana", "3/2"), ("Ben", "0")]
    profile = (await ana.get("/players/Ana", headers=HTML)).text
    assert "Sunday Swiss" in profile and f"/tournaments/{tid}" in profile
    api = (await ana.get("/api/players/Ana")).json()
    assert api["tournaments"][0] == {
        "id": tid,
        "name": "Sunday Swiss",
        "status": "finished",
        "place": 1,
        "entered": 2,
        "withdrawn": False,
    }


async def test_a_stranger_sees_the_page_and_no_form(make_client) -> None:  # type: ignore[no-untyped-def]
    clients = await people(make_client, ["Ana"])
    tid = (await create(clients["Ana"]))["id"]
    stranger = await make_client()
    page = await stranger.get(f"/tournaments/{tid}", headers=HTML)
    assert page.status_code == 200 and "enter-tournament" not in page.text
    assert (await stranger.get("/tournaments/t_0000000000000000", headers=HTML)).status_code == 404
    r = await stranger.post(f"/api/tournaments/{tid}/entries", json={"commitment": "a" * 64})
    assert r.status_code in (401, 403)
    assert isinstance(stranger, httpx.AsyncClient)
