"""The fast lane for throws and covers (fast_moves.py) takes exactly the requests it
can answer as the routes would, and hands the rest to the framework."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from jackpot.web.play.edge import fast_moves

#: Repeated on PostgreSQL (make test): the move's SQL.
pytestmark = pytest.mark.pg


@pytest.fixture
def lane_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which moves the fast lane served (the routes call api.move directly)."""
    calls: list[str] = []
    real = fast_moves.move

    async def counted(request: Any, match_id: str, body: Any) -> dict[str, Any]:
        calls.append(match_id)
        return await real(request, match_id, body)

    monkeypatch.setattr(fast_moves, "move", counted)
    return calls


async def _bot_match(client: httpx.AsyncClient) -> dict[str, Any]:
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1})
    assert r.status_code == 201
    return dict(r.json())


def _error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code
    assert r.headers["x-content-type-options"] == "nosniff"


async def test_plain_moves_take_the_fast_lane(
    client: httpx.AsyncClient, lane_calls: list[str]
) -> None:
    state = await _bot_match(client)
    mid = state["id"]
    r = await client.post(f"/api/matches/{mid}/throw")  # no body at all: two dice
    assert r.status_code == 200, r.text
    assert r.headers["x-frame-options"] == "DENY"
    after = r.json()
    assert after == (await client.get(f"/api/matches/{mid}")).json()
    assert lane_calls == [mid]
    if after["turn"]["options"]:
        r = await client.post(
            f"/api/matches/{mid}/cover", json={"tiles": after["turn"]["options"][0]}
        )
        assert r.status_code == 200, r.text
        assert lane_calls == [mid, mid]
    # Refusals from the action itself come from the lane, in the one error shape.
    _error(await client.post(f"/api/matches/{mid}/cover", json={"tiles": [1, 1]}), 422,
           "not_on_offer")
    _error(await client.post("/api/matches/m_nothing/throw", json={}), 404, "not_found")
    assert len(lane_calls) >= 3


async def test_everything_else_goes_to_the_framework(
    make_client: Any, lane_calls: list[str]
) -> None:
    client = await make_client()
    mid = (await _bot_match(client))["id"]
    url = f"/api/matches/{mid}/throw"
    json_type = {"content-type": "application/json"}
    _error(await client.post(url, content=b"{nope", headers=json_type), 400, "bad_json")
    _error(await client.post(url, json={"dice": "many"}), 422, "invalid")
    nested = b"[" * 30000 + b"]" * 30000  # too deep for json.loads: RecursionError
    _error(await client.post(url, content=nested, headers=json_type), 400, "bad_json")
    _error(await client.post(f"/api/matches/{mid}/cover", json={}), 422, "invalid")
    _error(await client.post(url, content=b"dice=2", headers={
        "content-type": "application/x-www-form-urlencoded"}), 422, "invalid")
    _error(await client.post(url, json={}, headers={"origin": "https://evil.example"}), 403,
           "cross_site")
    stranger = await make_client()
    _error(await stranger.post(url, json={}), 401, "unauthorized")
    assert lane_calls == []
    # The match is untouched by all of that.
    assert (await client.get(f"/api/matches/{mid}")).json()["turn"]["dice"] is None
