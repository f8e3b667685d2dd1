"""The installable site: its web app manifest, its offline page, and /favicon.ico.

/favicon.ico is for the programs that ask for it without reading a page's <head>.

A browser installs the site from the manifest (its name, its start page, the icons in
static/icons/, its colours) once a service worker with a fetch handler controls the
page (static/sw.js, registered by every page). The worker keeps one page, this
offline page, in the reader's language, and shows it for a navigation that finds no
network; it keeps nothing else, the API's answers least of all.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates

from jackpot.i18n import current_locale, gettext

router = APIRouter(include_in_schema=False)

ICONS = "/static/icons"
#: The icon files themselves (``ICONS`` is where the pages load them from).
ICON_FILES = Path(__file__).resolve().parents[3] / "static" / "icons"
#: The page's own colours (static/site.css): the light theme's background and header.
BACKGROUND = "#f6f1e7"
THEME_COLOUR = "#fff8ec"


def manifest() -> dict[str, Any]:
    """The manifest in the current language (its description and ``lang``)."""
    return {
        "id": "/",
        "name": "peer2peergames' Jackpot",
        "short_name": "Jackpot",
        "description": gettext(
            "Shut the box against people or a bot, with dice anyone can check afterwards."
        ),
        "lang": current_locale(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": f"{ICONS}/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": f"{ICONS}/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{ICONS}/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": f"{ICONS}/icon-maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }


@router.get("/manifest.webmanifest")
async def web_manifest() -> Response:
    return JSONResponse(
        manifest(),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/offline")
async def offline_page(request: Request) -> Response:
    """What the service worker shows when a page cannot be reached; it fetches it again
    whenever the reader's language changes (static/sw.js)."""
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(
        request, "offline.html", {}, headers={"Cache-Control": "no-cache"}
    )


@functools.cache
def favicon() -> bytes:
    """The light 192 px icon as a one-image .ico: an ICO file may hold a PNG whole
    (a 6-byte header, a 16-byte entry: 192 × 192, 32 bits, its size and offset)."""
    png = (ICON_FILES / "icon-192.png").read_bytes()
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", 192, 192, 0, 0, 1, 32, len(png), len(header) + 16)
    return header + entry + png


@router.get("/favicon.ico")
async def favicon_ico() -> Response:
    """Pages name their icons in <head>; a bookmark, a feed reader or an old browser
    asks here, and got a 404."""
    return Response(
        favicon(), media_type="image/x-icon", headers={"Cache-Control": "public, max-age=86400"}
    )
