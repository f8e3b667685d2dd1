"""Headers every response carries: a CSP, and over https HSTS and Secure cookies.

The policy allows scripts only from our own ``/static`` files (no inline script,
no handler attributes, no other site), so markup that slipped through escaping
still cannot run. Inline styles stay allowed: they cannot run code, and the pages
and charts use a few. One policy for every response: no page is served that needs a
script from another origin (FastAPI's documentation page, which loaded Swagger UI
from a CDN, is gone; the schema is at ``/api/openapi.json``).

"Served over https" means the configured base URL is https, or the request came
in over https (directly, or says a proxy in ``JACKPOT_TRUSTED_PROXIES``: client.py).
Then browsers are told to use https only (HSTS) and every cookie is marked ``Secure``; with
``JACKPOT_SECURE_COOKIES`` cookies are ``Secure`` always. A pure ASGI middleware:
no per-request task.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.web.base.edge.client import client_https
from jackpot.web.base.settings import Settings

CSP = (
    b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    b"form-action 'self'; frame-ancestors 'none'"
)
#: One year, the usual value once a site is known to work over https.
HSTS = b"max-age=31536000"

COMMON = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)


def served_over_https(scope: Scope, settings: Settings) -> bool:
    """True when the base URL is https or this request reached us over https."""
    if settings.base_url is not None and settings.base_url.startswith("https://"):
        return True
    return client_https(HTTPConnection(scope))


def _secure(value: bytes) -> bytes:
    attributes = [a.strip().lower() for a in value.split(b";")[1:]]
    return value if b"secure" in attributes else value + b"; Secure"


class SecurityHeaders:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = served_over_https(scope, self.settings)
        secure_cookies = https or self.settings.secure_cookies

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", []))
                if secure_cookies:
                    headers = [
                        (k, _secure(v)) if k.lower() == b"set-cookie" else (k, v)
                        for k, v in headers
                    ]
                headers.extend(COMMON)
                headers.append((b"content-security-policy", CSP))
                if https:
                    headers.append((b"strict-transport-security", HSTS))
                msg["headers"] = headers
            await send(msg)

        await self.app(scope, receive, send_with_headers)
