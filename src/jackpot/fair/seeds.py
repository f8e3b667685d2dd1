"""Seeds and the commitment of jackpot-fair/1.

The server seed is drawn by the caller (``secrets.token_hex(32)``): this module only
checks and hashes, so that the pure core stays free of randomness and a verifier can
import it without pulling in anything that draws.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

#: The characters a client seed may use: safe in URLs, file names and the "." join.
CLIENT_SEED_ALPHABET = "A-Za-z0-9_-"
CLIENT_SEED_MAX = 64

_SERVER_SEED = re.compile(r"[0-9a-f]{64}")
_CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_server_seed(server_seed: object) -> str:
    """Reject anything but 64 lowercase hex characters.

    The seed is the HMAC key as ASCII text, so "AB" and "ab" would be different keys:
    one spelling only, or two verifiers could disagree about the same match.
    """
    if not isinstance(server_seed, str):
        raise ValueError(f"server seed must be text, not {type(server_seed).__name__}")
    if not _SERVER_SEED.fullmatch(server_seed):
        raise ValueError(
            f"server seed must be 64 lowercase hex characters (0-9, a-f), got {server_seed!r}"
        )
    return server_seed


def check_client_seed(client_seed: object) -> str:
    """Reject a client seed a player typed that the scheme cannot carry.

    The "." is excluded because it joins the seats' seeds: allowing it would let one
    player's seed impersonate two.
    """
    if not isinstance(client_seed, str):
        raise ValueError(f"client seed must be text, not {type(client_seed).__name__}")
    if not client_seed:
        raise ValueError("client seed is empty: type 1 to 64 letters, digits, '_' or '-'")
    if len(client_seed) > CLIENT_SEED_MAX:
        raise ValueError(
            f"client seed is {len(client_seed)} characters long: at most {CLIENT_SEED_MAX}"
        )
    if not _CLIENT_SEED.fullmatch(client_seed):
        bad = sorted({c for c in client_seed if not _CLIENT_SEED.fullmatch(c)})
        shown = ", ".join(repr(c) for c in bad)
        raise ValueError(
            f"client seed may use only letters A-Z a-z, digits 0-9, '_' and '-': "
            f"{shown} {'is' if len(bad) == 1 else 'are'} not allowed"
        )
    return client_seed


def combine_client_seeds(parts: Sequence[str]) -> str:
    """Join the human seats' seeds, in seat order, into the match's client seed.

    Every human's contribution enters the dice, so no single party (the server
    included) can steer them. A match with no human seat has the empty client seed.
    """
    if isinstance(parts, str):
        raise TypeError("combine_client_seeds takes a sequence of seeds, not one string")
    for part in parts:
        check_client_seed(part)
    return ".".join(parts)


def split_client_seed(client_seed: str) -> list[str]:
    """The human seats' parts of a combined client seed ("" has none)."""
    return client_seed.split(".") if client_seed else []


def commitment(server_seed: str) -> str:
    """Lowercase hex SHA-256 of the seed's ASCII text, shown before the first throw."""
    check_server_seed(server_seed)
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()
