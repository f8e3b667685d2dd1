"""Render the site's PNG icons from its SVG ones (src/jackpot/static/icons/) with the
Chromium the browser tests use: the sizes a browser asks for to install the site
(192 and 512, a maskable 512), a dark 192 for a dark scheme and an Apple touch icon (180).

Run it after changing an SVG: ``.venv/bin/python tests/browser/make_icons.py``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[2] / "src" / "jackpot" / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
#: (svg, png, size): the PNGs the manifest and the pages name.
PNGS = (
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-dark.svg", "icon-dark-192.png", 192),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
    ("icon-maskable.svg", "apple-touch-icon.png", 180),
)


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for svg, png, size in PNGS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>"
                + (ICONS / svg).read_text()
            )
            page.screenshot(path=str(ICONS / png), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
