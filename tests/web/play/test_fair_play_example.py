"""The fair-play page's worked example is computed, not copied: every label's first
bytes, and the order of play it shows, come out of the same code that draws them."""

from __future__ import annotations

import html
import re
from itertools import islice

import httpx

from jackpot.fair.dice import byte_stream
from jackpot.fair.seating import draw_order

SERVER_SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
CLIENT_SEED = "3fa94c1de2b07a55.ana"
ROW = re.compile(r"<td><code>([^<]+)</code></td>\s*<td><code>([0-9a-f ]+) …</code></td>")


async def test_every_label_in_the_example_shows_its_stream(client: httpx.AsyncClient) -> None:
    page = (await client.get("/fair-play")).text
    rows = ROW.findall(page)
    assert len(rows) == 8, rows
    for label, shown in rows:
        label = html.unescape(label)
        assert label.startswith(CLIENT_SEED + ":"), label
        first = bytes(islice(byte_stream(SERVER_SEED, label), 4)).hex(" ")
        assert shown == first, (label, shown, first)


async def test_the_example_order_of_play_is_the_draw(client: httpx.AsyncClient) -> None:
    page = (await client.get("/fair-play")).text
    order = draw_order(SERVER_SEED, CLIENT_SEED, 3)
    assert order == (0, 2, 1)
    assert f"the order of play is <strong>[{', '.join(map(str, order))}]</strong>" in page
