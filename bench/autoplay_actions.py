"""Actions a person makes per turn on the site, with autoplay of forced moves off and on.

    .venv/bin/python bench/autoplay_actions.py --matches 60 --classic-matches 300 --seed 14

Plays two-person matches (a day a throw) through the site's own API, in process, on
a fresh SQLite database: each person choosing as the best bot would (so the figures
compare with docs/autoplay.md's table, which counts the same choices on the engine),
once with both people's autoplay off and once with it on. It counts the requests a
person sends (a throw or a cover each) and the turns they played, and prints actions
per person per turn. Dice come from each match's seeds; ``--seed`` fixes the client
seeds, the server seeds stay random, so two runs scatter a little.
Nothing here is asserted: it is a measurement to write down.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from jackpot.engine import Variant
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength
from jackpot.web.app import create_app
from jackpot.web.base.settings import Settings

PASSWORD = "correct horse battery"


@dataclass
class Count:
    actions: int = 0
    turns: int = 0

    def line(self) -> str:
        return f"{self.actions / self.turns:7.3f}  ({self.actions} actions in {self.turns} turns)"


async def person(app: Any, name: str, autoplay: bool) -> httpx.AsyncClient:
    c = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench")
    r = await c.post(
        "/api/account", json={"email": f"{name}@example.org", "password": PASSWORD, "name": name}
    )
    r.raise_for_status()
    switch = {"throws": autoplay, "single_covers": autoplay}
    (await c.put("/api/account/autoplay", json=switch)).raise_for_status()
    return c


async def play_match(
    app: Any, variant: str, autoplay: bool, k: int, seed: int, count: Count
) -> None:
    ana = await person(app, f"a{variant}{autoplay}{k}", autoplay)
    ben = await person(app, f"b{variant}{autoplay}{k}", autoplay)
    r = await ana.post(
        "/api/matches",
        json={"variant": variant, "seats": 2, "bots": 0, "deadline_seconds": 86400,
              "client_seed": f"s{seed}-{k}"},
    )
    mid = r.json()["id"]
    state = (await ben.post(f"/api/matches/{mid}/join", json={"client_seed": "b"})).json()
    clients = {}
    for c in (ana, ben):
        seats = (await c.get(f"/api/matches/{mid}")).json()["seats"]
        clients[next(i for i, s in enumerate(seats) if s["you"])] = c
    var = Variant(variant)
    in_turn: dict[int, int] = {0: 0, 1: 0}
    while state["status"] == "playing":
        turn = state["turn"]
        seat = turn["seat"]
        c = clients[seat]
        open_tiles = frozenset(turn["open"])
        if turn["dice"] is None:
            dice = choose_dice_count(var, Strength.BEST, open_tiles)
            r = await c.post(f"/api/matches/{mid}/throw", json={"dice": dice})
        else:
            tiles = choose_cover(var, Strength.BEST, open_tiles, tuple(turn["dice"]))
            r = await c.post(f"/api/matches/{mid}/cover", json={"tiles": list(tiles)})
        r.raise_for_status()
        in_turn[seat] += 1
        state = r.json()
    # Turns each person played: the record's throws, grouped by turn, per seat.
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    turns = {0: 0, 1: 0}
    last = None
    for e in record["events"]:
        if e["type"] == "throw" and e["seat"] != last:
            turns[e["seat"]] += 1
            last = e["seat"]
    for s in (0, 1):
        count.actions += in_turn[s]
        count.turns += turns[s]
    await ana.aclose()
    await ben.aclose()


async def main(matches: int, classic_matches: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}",
            secret_key="bench-secret-key-0123456789abcdef",
            var_dir=Path(tmp),
            outbox_dir=Path(tmp) / "outbox",
            sweeper_in_process=False,
        )
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            print(
                f"two-person matches ({matches} Jackpot, {classic_matches} Classic per line),"
                f" the best bot's choices, seed {seed}"
            )
            print("  variant   autoplay  actions per person per turn")
            for variant in ("jackpot", "classic"):
                for autoplay in (False, True):
                    count = Count()
                    for k in range(matches if variant == "jackpot" else classic_matches):
                        await play_match(app, variant, autoplay, k, seed, count)
                    label = "on " if autoplay else "off"
                    print(f"  {variant:8}  {label}      {count.line()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=60, help="Jackpot matches per line")
    parser.add_argument(
        "--classic-matches", type=int, default=300, help="Classic matches (one round each)"
    )
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.classic_matches, args.seed))
