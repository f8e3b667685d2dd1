"""Issue 40 item 9: the OpenAPI schema says what the routes do.

The attack's findings: the live-event streams were documented as answering
``application/json`` (they answer ``text/event-stream``), and about ten request
schemas were looser than the validation behind them: bodies the schema called
valid were refused (``SignUp`` with a one-letter name, ``NewToken`` with a NUL in
its label, a match with five seats...). Here each refusal is sent to the site, and
the schema of the same operation must call the same body invalid; bodies the site
takes must be valid by the schema.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from web_helpers import PASSWORD, bot_match, sign_up

STREAMS = (
    "/api/lobby/events", "/api/my/events", "/api/matches/{match_id}/events",
    "/api/daily/events", "/api/seeks/events", "/api/seeks/{seek_id}/events",
)
GOOD_NAME, GOOD_PASSWORD = "Newcomer", "another long phrase of words"

#: (method, path, body the route refuses)
REFUSED: list[tuple[str, str, dict[str, Any]]] = [
    ("post", "/api/account", {"email": "not-an-address", "password": GOOD_PASSWORD,
                              "name": GOOD_NAME}),
    ("post", "/api/account", {"email": "a" * 250 + "@x.org", "password": GOOD_PASSWORD,
                              "name": GOOD_NAME}),
    ("post", "/api/account", {"email": "n@example.org", "password": "short", "name": GOOD_NAME}),
    ("post", "/api/account", {"email": "n@example.org", "password": " " * 12, "name": GOOD_NAME}),
    ("post", "/api/account", {"email": "n@example.org", "password": "x" * 201, "name": GOOD_NAME}),
    ("post", "/api/account", {"email": "n@example.org", "password": GOOD_PASSWORD, "name": "A"}),
    ("post", "/api/account", {"email": "n@example.org", "password": GOOD_PASSWORD,
                              "name": "N" * 25}),
    ("post", "/api/account", {"email": "n@example.org", "password": GOOD_PASSWORD,
                              "name": "Nul\u0000l"}),
    ("post", "/api/session", {"email": "ana\u0000@example.org", "password": PASSWORD}),
    ("patch", "/api/account", {"locale": "xx"}),
    ("patch", "/api/account", {"name": "B"}),
    ("patch", "/api/account", {"password": "short", "current_password": PASSWORD}),
    ("post", "/api/tokens", {"label": "bad\u0000label", "password": PASSWORD}),
    ("post", "/api/tokens", {"label": "ok", "password": PASSWORD, "days": 366}),
    ("post", "/api/password-reset", {"email": "\u0000"}),
    ("post", "/api/password-reset/confirm", {"token": "abc", "password": "short"}),
    ("put", "/api/account/notifications", {"turn_mail": "sometimes"}),
    ("post", "/api/matches", {"variant": "chess"}),
    ("post", "/api/matches", {"seats": 5, "bots": 1}),
    ("post", "/api/matches", {"seats": 2, "bots": -1}),
    ("post", "/api/matches", {"seats": 2, "bots": 1, "deadline_seconds": 59}),
    ("post", "/api/matches", {"seats": 2, "bots": 1, "deadline_seconds": 7 * 86400 + 1}),
    ("post", "/api/matches", {"seats": 2, "bots": 1, "expiry_seconds": 60}),
    ("post", "/api/matches", {"seats": 2, "bots": 1, "client_seed": "two.parts"}),
    ("post", "/api/matches", {"seats": 2, "bots": 1, "client_seed": "s" * 65}),
    ("post", "/api/matches/{match_id}/join", {"client_seed": "with space"}),
    ("post", "/api/matches/{match_id}/throw", {"dice": 3}),
    ("post", "/api/matches/{match_id}/cover", {"tiles": [10]}),
    ("post", "/api/matches/{match_id}/cover", {"tiles": [4, 4]}),
    ("post", "/api/matches/{match_id}/cover", {"tiles": []}),
    ("post", "/api/matches/{match_id}/rematch", {"client_seed": "x.y"}),
    ("post", "/api/push/subscriptions", {"endpoint": "https://push.example/\u0000",
                                         "keys": {"p256dh": "x", "auth": "y"}}),
]
#: Bodies the routes take (each must be valid by the schema).
TAKEN: list[tuple[str, str, dict[str, Any]]] = [
    ("post", "/api/matches/{match_id}/throw", {"dice": None}),
    ("patch", "/api/account", {"locale": "sk", "name": None}),
    ("post", "/api/matches", {"variant": "classic", "seats": 2, "bots": 1, "client_seed": ""}),
    ("post", "/api/matches", {"seats": 4, "bots": 3, "deadline_seconds": 60,
                              "expiry_seconds": 3600, "client_seed": "a-Z_9"}),
    ("put", "/api/account/notifications", {"turn_mail": "off"}),
    # Last: it signs the client in as the new account.
    ("post", "/api/account", {"email": "  Mixed.Case@Example.org ", "password": GOOD_PASSWORD,
                              "name": "Zoë Ñ"}),
]


def body_schema(doc: dict[str, Any], method: str, path: str) -> Any:
    operation = doc["paths"][path][method]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return jsonschema_rs.Draft202012Validator({**schema, "components": doc["components"]})


@pytest.fixture
async def signed_in(app_with):  # type: ignore[no-untyped-def]
    clients = await app_with(min_deadline_seconds=60)
    c = clients("10.0.0.9")
    await sign_up(c, "Ana")
    state = await bot_match(c, "jackpot")  # one under way, the caller's throw due
    return c, state["id"]


async def test_the_streams_say_text_event_stream(client) -> None:  # type: ignore[no-untyped-def]
    doc = (await client.get("/api/openapi.json")).json()
    for path in STREAMS:
        content = doc["paths"][path]["get"]["responses"]["200"]["content"]
        assert list(content) == ["text/event-stream"], (path, content)


async def test_every_refused_body_is_invalid_by_the_schema(signed_in) -> None:  # type: ignore[no-untyped-def]
    client, match_id = signed_in
    doc = (await client.get("/api/openapi.json")).json()
    loose = []
    for method, path, body in REFUSED:
        url = path.replace("{match_id}", match_id)
        r = await client.request(method, url, json=body)
        assert 400 <= r.status_code < 500 and r.status_code != 401, (path, body, r.text)
        if body_schema(doc, method, path).is_valid(body):
            loose.append(f"{method.upper()} {path} {body!r}: {r.status_code} {r.text[:120]}")
    assert loose == [], "\n".join(loose)


async def test_bodies_the_site_takes_are_valid_by_the_schema(signed_in) -> None:  # type: ignore[no-untyped-def]
    client, match_id = signed_in
    doc = (await client.get("/api/openapi.json")).json()
    for method, path, body in TAKEN:
        assert body_schema(doc, method, path).is_valid(body), (path, body)
        r = await client.request(method, path.replace("{match_id}", match_id), json=body)
        assert r.status_code < 300, (path, body, r.text)


async def test_every_text_field_and_parameter_refuses_nul(client) -> None:  # type: ignore[no-untyped-def]
    doc = (await client.get("/api/openapi.json")).json()
    for path, operations in doc["paths"].items():
        for operation in operations.values():
            for param in operation.get("parameters", []):
                if param["schema"].get("type") == "string":
                    check = jsonschema_rs.Draft202012Validator(param["schema"])
                    assert not check.is_valid("a\u0000b"), (path, param["name"])
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" not in content:
                continue
            ref = content["application/json"]["schema"].get("$ref", "")
            model = doc["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
            for name, prop in model.get("properties", {}).items():
                texts = prop.get("type") == "string" or any(
                    p.get("type") == "string" for p in prop.get("anyOf", []))
                if texts:
                    check = jsonschema_rs.Draft202012Validator(prop)
                    assert not check.is_valid("ab\u0000"), (path, name)
