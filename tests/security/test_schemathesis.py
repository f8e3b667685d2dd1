"""A bounded schemathesis run over the OpenAPI schema against a real server.

Requests generated from the schema (valid ones, and invalid ones: wrong types,
missing fields, odd path and query values), sent anonymously, with a bearer token
and with a session cookie. Any 5xx, a status the schema does not document, or an
answer that does not match what the schema documents for its status fails the
test. Derandomized, so a failure comes back the same on every run. The live-event
stream is left out: a valid request to it never ends.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from servers import running_server

#: Repeated on PostgreSQL (make test): odd text, where PostgreSQL broke most.
pytestmark = pytest.mark.pg

#: Examples per operation and way of signing in (about 30 operations, 3 ways).
EXAMPLES = 40
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {
        "JACKPOT_MIN_DEADLINE_SECONDS": "1",
        # Generous caps, so requests reach the code behind them rather than a 429.
        "JACKPOT_GUESTS_PER_ADDRESS_HOUR": "1000000",
        "JACKPOT_ACCOUNT_ACTIVE_MATCHES": "100000",
        "JACKPOT_GUEST_ACTIVE_MATCHES": "10000",
        "JACKPOT_SIGNUP_LIMIT": "1000000/1h",
        "JACKPOT_SIGNUP_TRY_LIMIT": "1000000/1h",
        "JACKPOT_NAME_LOOKUP_LIMIT": "1000000/1h",
        "JACKPOT_LOGIN_LIMIT": "1000000/1h",
        "JACKPOT_PASSWORD_CHANGE_LIMIT": "1000000/1h",
        "JACKPOT_RESET_LIMIT": "1000000/1h",
    }
    with running_server(tmp_path_factory.mktemp("fuzz"), env) as url:
        yield url


class Caller:
    """One way of asking: nobody, a bearer token or a session cookie, with a match
    of the account's own (so match routes meet a real match and a seated caller)."""

    def __init__(self, url: str, who: str) -> None:
        self.url = url
        self.who = who
        self.headers: dict[str, str] = {}
        self.cookies: dict[str, str] = {}
        with httpx.Client(base_url=url) as c:
            name = f"Fuzz{who}"
            r = c.post(
                "/api/account",
                json={"email": f"{name}@example.org", "password": PASSWORD, "name": name},
            )
            assert r.status_code == 201, r.text
            r = c.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": 3600})
            self.match_id = r.json()["id"]
            if who == "token":
                r = c.post("/api/tokens", json={"label": "fuzz", "password": PASSWORD})
                token = r.json()["token"]
                self.headers = {"authorization": f"Bearer {token}"}
            if who == "cookie":
                self.cookies = {"jackpot_session": c.cookies["jackpot_session"]}

    def log_in(self) -> None:
        # From an address of its own: the fuzzer's failed logins from 127.0.0.1
        # soon reach that address's limit.
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=self.url, transport=transport) as c:
            r = c.post(
                "/api/session", json={"email": f"Fuzz{self.who}@example.org", "password": PASSWORD}
            )
            assert r.status_code == 200, r.text
            self.cookies = {"jackpot_session": c.cookies["jackpot_session"]}

    def still_signed_in(self) -> None:
        """The fuzzer may have logged the session out (DELETE /api/session)."""
        if self.who == "cookie":
            r = httpx.get(self.url + "/api/account", cookies=self.cookies)
            if r.status_code == 401:
                self.log_in()


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def fuzz(operation: Any, caller: Caller) -> int:
    """Send EXAMPLES generated requests for one operation; returns how many went.

    Half of a match route's requests go to the caller's own match."""
    sent = 0
    strategies = [
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    ]
    if "{match_id}" in operation.path:
        own = {"match_id": caller.match_id}
        strategies += [
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=own),
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=own),
        ]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=st.one_of(strategies))
    def check(case: Any) -> None:
        nonlocal sent
        sent += 1
        response = case.call(
            base_url=caller.url, headers=caller.headers, cookies=caller.cookies, timeout=30
        )
        case.validate_response(response, checks=CHECKS)

    check()
    return sent


@pytest.mark.parametrize("who", ["anonymous", "token", "cookie"])
def test_the_api_answers_as_its_schema_says(server: str, who: str) -> None:
    schema = schemathesis.openapi.from_url(server + "/api/openapi.json")
    failures: list[str] = []
    cases = 0
    started = time.monotonic()
    caller = Caller(server, who)
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path.endswith("/events"):
            continue
        caller.still_signed_in()
        try:
            cases += fuzz(operation, caller)
        except (Exception, BaseExceptionGroup) as exc:  # every failure, not only the first
            failures.append(f"{operation.method.upper()} {operation.path}: {exc}"[:3000])
    elapsed = time.monotonic() - started
    print(f"schemathesis ({who}): {cases} cases in {elapsed:.1f} s")
    assert failures == [], "\n\n".join(failures)
    assert cases >= 500
