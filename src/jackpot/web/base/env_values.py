"""Typed values read from the environment, strictly: counts per time, numbers, switches, hosts.

Each reader takes the environment, the variable's name and its default, and raises
:class:`SettingsError` naming the variable when its value cannot be used.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class SettingsError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


@dataclass(frozen=True)
class Rate:
    """At most ``count`` in ``window`` seconds (written ``10/1h``, ``5/15m``, ``3/90s``)."""

    count: int
    window: int


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate(env: Mapping[str, str], name: str, default: Rate) -> Rate:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    count, _, window = raw.strip().lower().partition("/")
    unit = _UNITS.get(window[-1:], 0)
    number, unit = (window[:-1], unit) if unit else (window, 1)
    try:
        rate = Rate(int(count), int(number) * unit)
    except ValueError:
        raise SettingsError(
            f"{name} is a count per time, like 10/1h, 5/15m or 3/90s; not {raw!r}"
        ) from None
    if rate.count < 1 or not 1 <= rate.window <= 30 * 86400:
        raise SettingsError(f"{name}: at least 1 per window of 1 s to 30 days, not {raw!r}")
    return rate


def whole(env: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
    if not lo <= value <= hi:
        raise SettingsError(f"{name} must be between {lo} and {hi}, not {value}")
    return value


def number(env: Mapping[str, str], name: str, default: float, lo: float, hi: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None
    if not lo <= value <= hi:
        raise SettingsError(f"{name} must be between {lo} and {hi}, not {value}")
    return value


def flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    low = raw.strip().lower()
    if low in {"1", "true", "yes", "on"}:
        return True
    if low in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"{name} must be true or false, not {raw!r}")


def host_list(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    raw = env.get(name) or ""
    hosts = tuple(h.strip().lower() for h in raw.split(",") if h.strip())
    for h in hosts:
        if h != "*" and ("/" in h or " " in h or h.startswith("http")):
            raise SettingsError(
                f"{name} is a comma-separated list of host names (no scheme, path or port), "
                f"not {h!r}"
            )
    return tuple(h.split(":")[0] if h.count(":") == 1 else h.strip("[]") for h in hosts)


def networks(env: Mapping[str, str], name: str) -> tuple[IPNetwork, ...]:
    raw = env.get(name) or ""
    try:
        return tuple(
            ipaddress.ip_network(item.strip(), strict=False)
            for item in raw.split(",")
            if item.strip()
        )
    except ValueError as exc:
        raise SettingsError(
            f"{name} is a comma-separated list of IP addresses or networks "
            f"(10.0.0.1, 10.0.0.0/8): {exc}"
        ) from None
