"""The async walk-through of spare deadlines, on a server whose clock runs 60 times
fast (``faketime``): a 3-person match with an hour a throw and one spare each. The
person to throw first stays away: an hour later they use their spare, an hour after
that they are out on time, and the other two play the match to its end. Their mails
and pushes arrive in order: for the idle person the turn, then the spare, then the
time-out.

Only the order is checked; the times are printed (``pytest -s``), in the server's
clock and in real seconds since the start, for the record.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import http_ece
import httpx
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from multi_helpers import bearer, sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.notify.confirmations import mark_confirmed
from testdb import app_url

#: The server's clock runs this many times as fast as the real one.
SPEED = 60
#: An hour a throw: a minute of real time.
DEADLINE = 3600
#: A liveness bound on the whole walk (about five minutes of real time are enough).
BOUND = 900


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Phone:
    """One person's browser subscribed to pushes: its keys and what reached it."""

    def __init__(self, origin: str, name: str) -> None:
        self.path = f"/push/{name}"
        self.endpoint = origin + self.path
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.got: list[tuple[float, dict[str, Any]]] = []

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.endpoint, "keys": keys}

    def take(self, body: bytes, at: float) -> None:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        self.got.append((at, json.loads(plain)))


class PushService:
    """A push service on 127.0.0.1 that hands each push to its phone."""

    def __init__(self, start: float) -> None:
        self.start = start
        self.phones: dict[str, Phone] = {}
        self.origin = ""

    async def handle(self, request: web.Request) -> web.Response:
        phone = self.phones.get(request.path)
        if phone is not None:
            phone.take(await request.read(), time.monotonic() - self.start)
        return web.Response(status=201)

    async def __aenter__(self) -> PushService:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.origin = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()


class Mailbox:
    """The server's outbox, read as mails arrive: (real seconds, mail) per address."""

    def __init__(self, box: Path, start: float) -> None:
        self.box, self.start = box, start
        self.seen: dict[str, tuple[float, EmailMessage]] = {}

    def look(self) -> None:
        if not self.box.exists():
            return
        for p in sorted(self.box.glob("*.eml")):
            if p.name not in self.seen:
                mail = message_from_bytes(p.read_bytes(), policy=policy.default)
                self.seen[p.name] = (time.monotonic() - self.start, mail)  # type: ignore[assignment]

    def to(self, email: str) -> list[tuple[float, EmailMessage]]:
        return sorted((at, m) for at, m in self.seen.values() if m["To"] == email)


def server_time(text: str | None) -> str:
    return "-" if text is None else text.replace("T", " ").replace("Z", "")


async def _confirm(url: str, people: list[dict[str, Any]]) -> None:
    db = Database(url)
    try:
        async with db.write() as conn:
            for p in people:
                await mark_confirmed(conn, p["id"], p["email"], utcnow())
    finally:
        await db.dispose()


async def _walk(base: str, url: str, outbox: Path) -> None:
    start = time.monotonic()
    mails = Mailbox(outbox, start)
    log: list[str] = []

    def note(what: str, server: str | None = None) -> None:
        line = f"{time.monotonic() - start:7.1f} s real  {server_time(server):19}  {what}"
        log.append(line)
        print(line, flush=True)

    async with httpx.AsyncClient(base_url=base, timeout=30) as c, PushService(start) as pushes:
        tokens = [await sign_up(c, base, name) for name in ("Ida", "Max", "Sol")]
        people = [(await c.get("/api/account", headers=bearer(tok))).json() for tok in tokens]
        await _confirm(url, people)
        phones = []
        for tok, me in zip(tokens, people, strict=True):
            phone = Phone(pushes.origin, me["name"])
            pushes.phones[phone.path] = phone
            r = await c.post("/api/push/subscriptions", headers=bearer(tok),
                             json=phone.subscription())
            assert r.status_code == 201, r.text
            phones.append(phone)
        body = {"seats": 3, "bots": 0, "deadline_seconds": DEADLINE, "spares": 1}
        made = (await c.post("/api/matches", headers=bearer(tokens[0]), json=body)).json()
        mid = made["id"]
        for tok in tokens[1:]:
            r = await c.post(f"/api/matches/{mid}/join", headers=bearer(tok), json={})
            assert r.status_code == 200, r.text
        # Who sits where was drawn from the seeds: the first to throw stays away.
        by_seat: dict[int, int] = {}
        for k, tok in enumerate(tokens):
            view = (await c.get(f"/api/matches/{mid}", headers=bearer(tok))).json()
            by_seat[next(i for i, s in enumerate(view["seats"]) if s["you"])] = k
        idle = by_seat[0]
        state = (await c.get(f"/api/matches/{mid}")).json()
        assert state["status"] == "playing" and state["turn"]["seat"] == 0
        note(f"match starts; {people[idle]['name']} throws first, due", state["turn"]["due_at"])
        spare_seen = out_seen = False
        while time.monotonic() - start < BOUND:
            mails.look()
            state = (await c.get(f"/api/matches/{mid}")).json()
            if not spare_seen and state["seats"][0]["spares_left"] == 0:
                spare_seen = True
                note(f"{people[idle]['name']} used a spare, due again", state["turn"]["due_at"])
            if not out_seen and state["seats"][0]["out"] == "timeout":
                out_seen = True
                note(f"{people[idle]['name']} is out on time; the other two play on")
            if out_seen and state["status"] == "playing":
                seat = state["turn"]["seat"]
                tok = tokens[by_seat[seat]]
                turn = state["turn"]
                if turn["dice"] is None:
                    r = await c.post(f"/api/matches/{mid}/throw", headers=bearer(tok), json={})
                else:
                    r = await c.post(f"/api/matches/{mid}/cover", headers=bearer(tok),
                                     json={"tiles": turn["options"][-1]})
                assert r.status_code == 200, r.text
                continue
            if state["status"] == "finished":
                break
            await asyncio.sleep(0.5)
        assert spare_seen and out_seen and state["status"] == "finished", state
        note("the match is over")
        # The news of the time-out goes within a few passes of the workers (the mail
        # may wait for the hourly cap, which the spare's mail started).
        idle_mail = people[idle]["email"]
        # The mails name the others in the order of play.
        others = " and ".join(people[by_seat[seat]]["name"] for seat in (1, 2))
        out_subject = f"You ran out of time in Jackpot against {others}"
        while time.monotonic() - start < BOUND:
            mails.look()
            subjects = [m["Subject"] for _at, m in mails.to(idle_mail)]
            pushed = [msg["kind"] for _at, msg in phones[idle].got]
            if out_subject in subjects and "out" in pushed:
                break
            await asyncio.sleep(1)
        await asyncio.sleep(12)  # one more pass of each worker: nothing late is missed
        mails.look()
        for k, me in enumerate(people):
            for at, m in mails.to(me["email"]):
                print(f"{at:7.1f} s real  {m['Date']}  mail to {me['name']}: {m['Subject']}")
            for at, msg in phones[k].got:
                print(f"{at:7.1f} s real  push to {me['name']}: {msg['title']}: {msg['body']}")
        subjects = [m["Subject"] for _at, m in mails.to(idle_mail)]
        name = people[idle]["name"]
        turn = subjects.index(f"Your throw in Jackpot against {others}")
        spare = subjects.index(f"You missed a deadline against {others}: a spare deadline was used")
        out = subjects.index(out_subject)
        assert turn < spare < out, subjects
        spare_text = mails.to(idle_mail)[spare][1].get_body(("plain",)).get_content()
        assert "You have 0 spares left." in spare_text
        kinds = [msg["kind"] for _at, msg in phones[idle].got]
        assert kinds.index("turn") < kinds.index("spare") < kinds.index("out"), kinds
        assert kinds.count("spare") == 1
        for k, phone in enumerate(phones):
            if k != idle:
                assert "spare" not in [msg["kind"] for _at, msg in phone.got], name
        record = (await c.get(f"/api/matches/{mid}/record")).json()
        assert [e for e in record["events"] if e["type"] != "throw"][:2] == [
            {"type": "spare", "seat": 0},
            {"type": "out", "seat": 0, "reason": "timeout"},
        ]


def test_the_spare_walk_through_on_a_fast_clock(servers: Any, db_url: str) -> None:
    faketime = shutil.which("faketime")
    assert faketime is not None, "the walk-through needs faketime (apt-get install faketime)"
    srv = servers(
        prefix=(faketime, "-f", f"+0 x{SPEED}"),
        # Only the wall clock runs fast: the workers' pauses stay in real seconds.
        FAKETIME_DONT_FAKE_MONOTONIC="1",
        JACKPOT_SWEEPER="true",
        JACKPOT_SWEEP_INTERVAL="0.5",
        JACKPOT_PUSH_ALLOW_LOCAL="true",
    )
    asyncio.run(_walk(srv.url, app_url(db_url), srv.var_dir / "outbox"))
