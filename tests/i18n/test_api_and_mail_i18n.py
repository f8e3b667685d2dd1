"""The API's error messages and the mails in the reader's language: ``error.code``
stays the same English identifier, ``error.message`` follows Accept-Language, and a
mail is written in its recipient's language (read back from the .eml)."""

from __future__ import annotations

import ast
import re
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from catalog_check import ROOT, source_messages
from web_helpers import join_in_joining_order, sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.notify.confirmations import send_confirm_mails
from jackpot.web.notify.mailer import mail_step

PT = {"accept-language": "pt-PT,pt;q=0.9"}


async def test_api_errors_follow_accept_language(app: Any, make_client: Any) -> None:
    client = await make_client()
    await sign_up(client, "Ana")
    r = await client.get("/api/matches/m_0000000000000000", headers=PT)
    assert r.status_code == 404
    assert r.json()["error"] == {
        "code": "not_found",
        "message": "não há nenhuma partida m_0000000000000000",
    }
    english = await client.get("/api/matches/m_0000000000000000")
    assert english.json()["error"]["message"] == "there is no match m_0000000000000000"

    r = await client.post("/api/matches", json={"variant": "chess"}, headers=PT)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid"
    assert r.json()["error"]["message"] == (
        "variant tem de ser 'jackpot' ou 'classic', não 'chess'"
    )
    for seats in ("many", 1.5, True, "2"):  # strict: neither a fraction, nor true, nor text
        r = await client.post("/api/matches", json={"seats": seats}, headers=PT)
        assert r.status_code == 422 and r.json()["error"]["message"] == (
            "seats: tem de ser um número inteiro"
        ), seats
    r = await client.get("/api/nowhere", headers=PT)
    assert r.json()["error"] == {"code": "not_found", "message": "não há nada neste endereço"}


async def test_password_refusals_and_limits_in_portuguese_and_slovak(make_client: Any) -> None:
    """The refusals built from parts (zxcvbn's reason, the wait of a limit) are said
    whole in the reader's language, Slovak's plural of minutes included."""
    client = await make_client()
    body = {"email": "ana@example.org", "name": "Ana", "password": "qwertyuiop"}
    r = await client.post("/api/account", json=body, headers=PT)
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    assert r.json()["error"]["message"].startswith("essa palavra-passe é das mais usadas")
    body["password"] = "short"
    r = await client.post("/api/account", json=body, headers={"accept-language": "sk"})
    assert r.json()["error"]["message"] == "heslo musí mať aspoň 8 znakov"
    body["password"] = "correct horse battery"
    assert (await client.post("/api/account", json=body)).status_code == 201
    attacker = await make_client()
    wrong = {"email": "ana@example.org", "password": "wrong guess"}
    while (r := await attacker.post("/api/session", json=wrong)).status_code == 401:
        pass
    r = await attacker.post("/api/session", json=wrong, headers={"accept-language": "sk"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert r.json()["error"]["message"] == (
        "priveľa nesprávnych hesiel k tomuto účtu z vašej adresy;"
        " skúste to znova o približne 15 minút"
    )
    r = await attacker.post("/api/session", json=wrong, headers=PT)
    assert r.json()["error"]["message"].endswith("tente de novo daqui a cerca de 15 minutos")


async def test_the_engines_refusal_in_portuguese(app: Any, make_client: Any) -> None:
    client = await make_client()
    await sign_up(client, "Ana")
    r = await client.post("/api/matches", json={"variant": "jackpot", "seats": 1, "bots": 0})
    state = r.json()
    mid = state["id"]
    r = await client.post(f"/api/matches/{mid}/throw", json={})
    state = r.json()
    while state["turn"]["dice"] is None:  # a dead throw passes the turn: throw again
        state = (await client.post(f"/api/matches/{mid}/throw", json={})).json()
    offered = {t for option in state["turn"]["options"] for t in option}
    wrong = next(t for t in range(1, 10) if t not in offered)
    r = await client.post(f"/api/matches/{mid}/cover", json={"tiles": [wrong]}, headers=PT)
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "not_on_offer"
    assert error["message"].startswith(f"a peça {wrong} não está em jogo: os dados ")
    r = await client.post(f"/api/matches/{mid}/throw", json={}, headers=PT)
    assert r.json()["error"]["code"] == "wrong_phase"
    message = r.json()["error"]["message"]
    assert message.startswith("o lugar 0 tem de cobrir antes de voltar a lançar")


def outbox(settings: Any) -> list[EmailMessage]:
    return [
        message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
        for p in sorted(settings.outbox_dir.glob("*.eml"))
    ]


async def test_mails_are_in_the_recipients_language(
    app: Any, make_client: Any, settings: Any
) -> None:
    """Ana chose Slovak with the switcher; Ben signed up in an Estonian browser. Each
    gets the turn mail in their own language, whatever language the sweeper runs in."""
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    page = await ana.get("/", headers={"accept": "text/html"})
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None
    r = await ana.post(
        "/language",
        data={"csrf_token": csrf.group(1), "lang": "sk", "next": "/"},
        headers={"origin": "http://testserver"},
    )
    assert r.status_code == 303
    assert (await ana.get("/api/account")).json()["locale"] == "sk"
    r = await ben.post(
        "/api/account",
        json={"email": "ben@example.org", "password": "correct horse battery", "name": "Ben"},
        headers={"accept-language": "et-EE,et;q=0.9"},
    )
    assert r.status_code == 201
    # His address's confirmation comes in Estonian too; he opens it.
    assert await send_confirm_mails(app.state.db, settings) == 1
    [confirm] = outbox(settings)
    assert confirm["Subject"] == "Kinnita oma aadress Jackpotis"
    body = confirm.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert body.startswith("Tere, Ben!")
    link = re.search(r"/confirm-email/\S+", body)
    assert link is not None
    await ben.get(link.group(0))
    r = await ben.post(link.group(0), data={"csrf_token": ben.cookies["jackpot_csrf"]})
    assert r.status_code == 200 and (await ben.get("/api/account")).json()["email_confirmed"]
    for path in settings.outbox_dir.glob("*.eml"):
        path.unlink()
    state = (
        await ana.post("/api/matches", json={"seats": 2, "bots": 0, "deadline_seconds": 86400})
    ).json()
    # Ben joins with a client seed that keeps the joining order: Ana throws first.
    r = await join_in_joining_order(ben, state["id"])
    assert r.status_code == 200
    assert await mail_step(app.state.db, settings, utcnow() + timedelta(minutes=2)) == 1
    [mail] = outbox(settings)
    assert mail["To"] == "ana@example.org"
    assert mail["Subject"] == "Ste na rade: Jackpot proti Ben"
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert text.startswith("Dobrý deň, Ana,")
    assert "Ste na rade v hre Jackpot proti Ben." in text
    assert "Zastaviť tieto e-maily (bez prihlásenia):" in text
    # Ben's turn comes after Ana's whole turn: play it out through the API.
    mid = state["id"]
    for _ in range(60):
        state = (await ana.get(f"/api/matches/{mid}")).json()
        if state["turn"]["seat"] == 1:
            break
        if state["turn"]["dice"] is None:
            await ana.post(f"/api/matches/{mid}/throw", json={})
        else:
            await ana.post(f"/api/matches/{mid}/cover", json={"tiles": state["turn"]["options"][0]})
    assert state["turn"]["seat"] == 1
    assert await mail_step(app.state.db, settings, utcnow() + timedelta(hours=2)) >= 1
    ben_mail = [m for m in outbox(settings) if m["To"] == "ben@example.org"]
    assert ben_mail and ben_mail[0]["Subject"] == "Sinu vise: Jackpot, vastane Ana"
    assert "Tere, Ben!" in ben_mail[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]


async def test_logging_in_brings_back_the_accounts_language(app: Any, make_client: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana")
    r = await ana.patch("/api/account", json={"locale": "ms"})
    assert r.status_code == 200 and r.json()["locale"] == "ms"
    assert (await ana.patch("/api/account", json={"locale": "xx"})).status_code == 422
    elsewhere = await make_client()
    page = await elsewhere.get("/login", headers={"accept": "text/html"})
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None
    r = await elsewhere.post(
        "/login",
        data={
            "csrf_token": csrf.group(1),
            "email": "ana@example.org",
            "password": "correct horse battery",
            "next": "/lobby",
        },
        headers={"origin": "http://testserver"},
    )
    assert r.status_code == 303
    lobby = await elsewhere.get("/lobby", headers={"accept": "text/html", "accept-language": "sk"})
    assert '<html lang="ms">' in lobby.text and "<h1>Lobi</h1>" in lobby.text


def test_every_api_error_message_is_a_catalog_entry() -> None:
    """Messages of ApiError and its helpers are literal catalog text with %(name)s
    placeholders (never an f-string), so the catalog test sees every one of them."""
    helpers = {"bad_request", "unauthorized", "forbidden", "not_found", "conflict", "invalid"}
    wrong = []
    for path in sorted((ROOT / "src" / "jackpot" / "web").rglob("*.py")):
        if path.name == "errors.py" and path.parent.name == "base":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            at = {"ApiError": [2], "CountedError": [2, 3]}.get(str(name), [0])
            literal = all(len(node.args) <= i or isinstance(node.args[i], ast.Constant) for i in at)
            if (name in helpers or name in ("ApiError", "CountedError")) and not literal:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not wrong, "messages that the catalog cannot see:\n" + "\n".join(wrong)
    found = source_messages("messages")
    assert "there is no match %(match)s" in found
    assert found["you may block at most %(num)s player"] == "you may block at most %(num)s players"
