"""Helpers for the JavaScript verifier's tests: run node, and build records by hand.

The hand-made records use nothing from the jackpot package: dice come from ``hmac``
here, options and results are worked out by the few lines below, so a test that
passes shows the JavaScript agrees with an independent reading of docs/fair-play.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

RUNNER = Path(__file__).with_name("run_verify.mjs")
NODE = shutil.which("node") or "node"

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
CLIENT = "3fa94c1de2b07a55.ana"


def _node(args: list[str], stdin: str | None = None, catalog: str | None = None) -> Any:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if catalog is not None:
            path = Path(tmp) / "catalog.json"
            path.write_text(catalog, encoding="utf-8")
            env["JACKPOT_CATALOG"] = str(path)
        done = subprocess.run(
            [NODE, "--experimental-detect-module", str(RUNNER), *args],
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
            env=env,
        )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def node_call(name: str, *args: Any) -> Any:
    """Call one of verify.js's exported helpers with JSON arguments."""
    return _node(["call", name, json.dumps(list(args))])


def node_verify_texts(*texts: str, catalog: str | None = None) -> list[dict[str, Any]]:
    """verifyRecord on each text as it is, line breaks and all (a file each)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k, text in enumerate(texts):
            path = Path(tmp) / f"record{k}.json"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        return _node(["verify", *paths], catalog=catalog)


def node_verify(*records: dict[str, Any] | str, catalog: str | None = None) -> list[dict[str, Any]]:
    """verifyRecord on each record (objects or JSON text), one node process for all;
    with `catalog` (a page's script catalog, JSON) in that catalog's language."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    assert all("\n" not in line for line in lines)
    return _node(["verify-lines"], "\n".join(lines) + "\n", catalog)


# -- an independent reading of jackpot-fair/1 -------------------------------------


def stream(server_seed: str, label: str):
    key = server_seed.encode("ascii")
    k = 0
    while True:
        msg = label if k == 0 else f"{label}:{k}"
        yield from hmac.new(key, msg.encode("ascii"), hashlib.sha256).digest()
        k += 1


def dice(server_seed: str, client_seed: str, n: int, count: int = 2) -> list[int]:
    out: list[int] = []
    for b in stream(server_seed, f"{client_seed}:{n}"):
        if b < 252:
            out.append(b % 6 + 1)
            if len(out) == count:
                return out
    raise AssertionError("unreachable")


def order(server_seed: str, client_seed: str, seats: int) -> list[int]:
    """The order of play: Fisher-Yates over [0..seats-1] with the ':seats' label's bytes."""
    result = list(range(seats))
    stream_bytes = stream(server_seed, f"{client_seed}:seats")
    for i in range(seats - 1, 0, -1):
        b = next(stream_bytes)
        while b >= 256 - 256 % (i + 1):
            b = next(stream_bytes)
        j = b % (i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def options(variant: str, open_tiles: set[int], thrown: list[int]) -> list[list[int]]:
    if variant == "jackpot":
        return [[t] for t in sorted({*thrown, sum(thrown)} & open_tiles)]
    tiles = sorted(open_tiles)
    found = [
        list(c)
        for k in range(1, len(tiles) + 1)
        for c in combinations(tiles, k)
        if sum(c) == sum(thrown)
    ]
    return sorted(found)


Pick = Callable[[list[list[int]]], list[int]]


def first(opts: list[list[int]]) -> list[int]:
    return opts[0]


def last(opts: list[list[int]]) -> list[int]:
    return opts[-1]


class Builder:
    """Human seats playing a match throw by throw, written as a record.

    With ``drawn`` the record is jackpot-record/2: seats in the order the seed draws,
    seat s being the person who joined ``joined[s]``-th (named ``p<joining index>``).
    """

    def __init__(
        self, variant: str, seats: int, client_seed: str | None = None, drawn: bool = False
    ) -> None:
        self.variant = variant
        self.seats = seats
        self.client = (
            client_seed if client_seed is not None else ".".join(f"p{s}seed" for s in range(seats))
        )
        self.joined = order(SEED, self.client, seats) if drawn else None
        self.n = 0
        self.events: list[dict[str, Any]] = []

    def turn(self, seat: int, pick: Pick = first, stop_after: int | None = None) -> tuple[int, int]:
        """Play a turn; returns (score, throws). stop_after leaves the last throw uncovered."""
        open_tiles = set(range(1, 10))
        throws = 0
        while open_tiles:
            thrown = dice(SEED, self.client, self.n)
            opts = options(self.variant, open_tiles, thrown)
            throws += 1
            event = {"type": "throw", "n": self.n, "seat": seat, "dice": thrown, "cover": []}
            self.events.append(event)
            self.n += 1
            if not opts:
                return sum(open_tiles), throws
            if stop_after is not None and throws == stop_after:
                event["cover"] = None
                return -1, throws
            choice = pick(opts)
            event["cover"] = choice
            open_tiles -= set(choice)
        return 0, throws

    def out(self, seat: int, reason: str = "resigned") -> None:
        self.events.append({"type": "out", "seat": seat, "reason": reason})

    def record(self, result: dict[str, Any] | None) -> dict[str, Any]:
        joined = self.joined or list(range(self.seats))
        head: dict[str, Any] = {
            "format": "jackpot-record/1" if self.joined is None else "jackpot-record/2",
            "id": "m_handmade",
            "variant": self.variant,
            "deadline_seconds": 86400,
            "created": "2026-11-30T10:00:00Z",
            "seats": [{"name": f"p{j}", "bot": None} for j in joined],
        }
        if self.joined is not None:
            head["joined"] = self.joined
        return head | {
            "commitment": hashlib.sha256(SEED.encode("ascii")).hexdigest(),
            "server_seed": SEED,
            "client_seed": self.client,
            "events": self.events,
            "result": result,
        }


def ranked_places(keys: list[tuple[int, ...]]) -> list[int]:
    """Standard competition ranking (1, 1, 3) of the given keys, lower key = better."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]
