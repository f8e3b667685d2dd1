"""One push to one browser: the endpoint checked again, the request built and signed, the POST.

Everything that can go wrong for one browser stays with that browser: building the
request (the payload's encryption to the browser's keys, the VAPID token for the
endpoint's origin) happens inside the same ``try`` as the POST, so a subscription
whose keys or address a library refuses (an IPv6-literal endpoint made py-vapid
raise) is one failed send, and the player's other browsers are still tried.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from pywebpush import WebPusher

from jackpot.web.base.settings import Settings
from jackpot.web.notify.push import endpoints
from jackpot.web.notify.push.keys import subject, vapid_key
from jackpot.web.notify.push.messages import About

#: How long a push service keeps a push for a browser that is offline.
TTL = 86400
#: ``send_one``'s answer for an endpoint that failed the check at send time.
REFUSED = -1
SEND_TIMEOUT = 10.0


def signed_request(
    settings: Settings, browser: Any, data: bytes, about: About
) -> dict[str, Any]:
    """The encrypted body (aes128gcm, RFC 8291) and headers (VAPID, RFC 8292)."""
    info = {"endpoint": browser.endpoint, "keys": {"p256dh": browser.p256dh, "auth": browser.auth}}
    body = WebPusher(info).encode(data, "aes128gcm")["body"]
    parts = urlsplit(browser.endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "sub": subject(settings),
        # The token's life is the real clock's business, whatever the worker's ``now``.
        "exp": int(time.time()) + 12 * 3600,
    }
    headers = {
        **vapid_key(settings).sign(claims),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL),
        "Urgency": "high" if about.kind == "reminder" else "normal",
        # An undelivered push about the same match (or challenge) is replaced, not stacked.
        "Topic": about.ref.replace("_", "-")[:32],
    }
    return {"data": body, "headers": headers}


async def send_one(
    session: aiohttp.ClientSession, settings: Settings, browser: Any, data: bytes, about: About
) -> tuple[int, str]:
    """The push service's HTTP status, or REFUSED (the endpoint is not public any
    more) or 0 (no answer, no DNS answer, or a request that could not be made:
    retried), with what went wrong."""
    try:
        await endpoints.check(browser.endpoint, settings.push_allow_local)
    except endpoints.EndpointUnresolved as exc:
        return 0, str(exc)  # DNS may be back on the next try
    except endpoints.EndpointRefused as exc:
        return REFUSED, str(exc)
    try:
        req = signed_request(settings, browser, data, about)
        async with session.post(
            browser.endpoint,
            data=req["data"],
            headers=req["headers"],
            allow_redirects=False,
            timeout=aiohttp.ClientTimeout(total=SEND_TIMEOUT),
        ) as resp:
            await resp.read()
            return resp.status, f"the push service answered {resp.status}"
    except Exception as exc:  # this browser's trouble, whatever it is: retry later
        return 0, f"{type(exc).__name__}: {exc}"


def client_session(settings: Settings) -> aiohttp.ClientSession:
    """HTTP to push services: only public addresses (``endpoints.PublicResolver``),
    no proxy from the environment, no redirects (per request)."""
    connector = aiohttp.TCPConnector(
        resolver=endpoints.PublicResolver(settings.push_allow_local), limit=20
    )
    return aiohttp.ClientSession(connector=connector, trust_env=False)
