"""Strict readers of a record's JSON fields, each refusal naming the field and what was wrong.

A record is the verifier's only input, so nothing is coerced: a bool is not a number
(JSON ``true`` must never pass for 1), ``7.0`` is not an integer, an unknown key is an
error. ``record.py`` and ``daily.py`` build the record's parts from these.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

HEX64 = re.compile(r"[0-9a-f]{64}")


class RecordFormatError(ValueError):
    """The document is not a well-formed record; the message names the field."""


def kind_of(value: object) -> str:
    """What a JSON value is, in words, for a refusal ("the number 7.0", "a list")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}" if len(value) <= 40 else "a long text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def refusal(where: str, expected: str, value: object) -> RecordFormatError:
    return RecordFormatError(f"{where}: expected {expected}, got {kind_of(value)}")


def read_object(
    value: object, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """An object with exactly ``keys`` (and any of ``optional``)."""
    if not isinstance(value, Mapping):
        raise refusal(where, "an object", value)
    obj = cast(Mapping[str, Any], value)
    missing = [k for k in keys if k not in obj]
    if missing:
        raise RecordFormatError(f"{where}: missing field {missing[0]!r}")
    extra = [k for k in obj if k not in keys and k not in optional]
    if extra:
        raise RecordFormatError(f"{where}: unknown field {extra[0]!r}")
    return dict(obj)


def read_list(value: object, where: str, expected: str) -> list[Any]:
    if not isinstance(value, list):
        raise refusal(where, expected, value)
    return value


def read_int(value: object, where: str, lo: int, hi: int | None, expected: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refusal(where, expected, value)
    if value < lo or (hi is not None and value > hi):
        raise refusal(where, expected, value)
    return value


def read_string(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise refusal(where, "text", value)
    return value


def read_text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise refusal(where, "non-empty text", value)
    return value


def read_hex64(value: object, where: str) -> str:
    if not isinstance(value, str) or not HEX64.fullmatch(value):
        raise refusal(where, "64 lowercase hex characters", value)
    return value
