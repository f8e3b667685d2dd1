"""A tournament table's seeds: its server seed from its players' parts, and its client seed.

Each entrant is shown the commitment of a part of their own before choosing their
client seed, once, at entry. Every table they sit at is then seeded by the parts of
its players in joining order, followed by the table's place in the tournament
(``":r" + round + ":t" + table``), so one part serves every round while no two tables
share dice, and each player can check that their part went into every table's dice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from jackpot.fair.fields import HEX64
from jackpot.fair.seeds import combine_client_seeds


def table_suffix(round_number: int, table: int) -> str:
    """What follows the parts at round ``round_number``'s table ``table`` (both 1-based)."""
    for name, value in (("round", round_number), ("table", table)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"a tournament's {name} is a whole number from 1, not {value!r}")
    return f":r{round_number}:t{table}"


def table_server_seed(parts: Sequence[str], round_number: int, table: int) -> str:
    """Lowercase hex SHA-256 of the parts (64 hex each, joining order) joined by ``.``,
    then the table's suffix: a server seed like any other, committed to by its hash."""
    if isinstance(parts, str) or not parts:
        raise ValueError("a table's server seed is made of its players' parts, one or more")
    for part in parts:
        if not isinstance(part, str) or not HEX64.fullmatch(part):
            raise ValueError(
                f"a part of a server seed is 64 lowercase hex characters (0-9, a-f), not {part!r}"
            )
    text = ".".join(parts) + table_suffix(round_number, table)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def table_client_seed(client_seeds: Sequence[str]) -> str:
    """The players' client seeds (given at entry), in the table's joining order."""
    return combine_client_seeds(client_seeds)
