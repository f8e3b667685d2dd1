"""Settings read from the environment, strictly.

A typo in a deployment's environment should stop the server at start-up with a
message naming the variable, not surface hours later as odd behaviour, so every
value is parsed by a typed helper that raises :class:`SettingsError`.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: The longest deadline a match may have: one week (the rules: 60 s to 7 days a throw).
MAX_DEADLINE_SECONDS = 7 * 24 * 3600


class SettingsError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


def _int(env: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
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


def _float(env: Mapping[str, str], name: str, default: float, lo: float, hi: float) -> float:
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


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    low = raw.strip().lower()
    if low in {"1", "true", "yes", "on"}:
        return True
    if low in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"{name} must be true or false, not {raw!r}")


def _database_url(raw: str | None, var_dir: Path) -> str:
    """Accept the usual spellings and pick the async driver for each database."""
    if not raw:
        return f"sqlite+aiosqlite:///{var_dir / 'jackpot.sqlite3'}"
    url = raw.strip()
    for plain, async_ in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return async_ + url[len(plain) :]
    if url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        return url
    raise SettingsError(
        f"DATABASE_URL must start with sqlite:// or postgresql://, not {url.split(':')[0]!r}"
    )


def _secret_key(raw: str | None, var_dir: Path) -> str:
    """Use the configured key, or one generated once and kept in the data directory,
    so sessions survive a restart without anybody having to invent a key."""
    if raw:
        if len(raw) < 16:
            raise SettingsError("JACKPOT_SECRET_KEY must be at least 16 characters long")
        return raw
    path = var_dir / "secret_key"
    if path.exists():
        key = path.read_text().strip()
        if len(key) >= 16:
            return key
    var_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


@dataclass(frozen=True)
class Settings:
    database_url: str
    secret_key: str
    var_dir: Path
    min_deadline_seconds: int = 60
    outbox_dir: Path = field(default_factory=lambda: Path("var/outbox"))
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = False
    mail_from: str = "Jackpot <noreply@localhost>"
    base_url: str | None = None
    #: How often the built-in sweeper looks for missed deadlines.
    sweep_interval: float = 0.5
    #: Run the sweeper inside the web process (``jackpot serve``).
    sweeper_in_process: bool = True
    #: Days a guest's matches are kept after the guest was last seen.
    guest_days: int = 7
    secure_cookies: bool = False
    redis_url: str | None = None
    #: Seconds between keep-alive comments on an idle SSE stream.
    sse_keepalive: float = 15.0

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read every setting from ``env`` (default: the process environment)."""
    env = os.environ if env is None else env
    var_dir = Path(env.get("JACKPOT_VAR_DIR") or "var")
    min_deadline = _int(env, "JACKPOT_MIN_DEADLINE_SECONDS", 60, 1, MAX_DEADLINE_SECONDS)
    smtp_host = env.get("JACKPOT_SMTP_HOST") or None
    base_url = env.get("JACKPOT_BASE_URL") or None
    if base_url and not base_url.startswith(("http://", "https://")):
        raise SettingsError(
            f"JACKPOT_BASE_URL must start with http:// or https://, not {base_url!r}"
        )
    return Settings(
        database_url=_database_url(env.get("DATABASE_URL"), var_dir),
        secret_key=_secret_key(env.get("JACKPOT_SECRET_KEY"), var_dir),
        var_dir=var_dir,
        min_deadline_seconds=min_deadline,
        outbox_dir=Path(env.get("JACKPOT_OUTBOX_DIR") or var_dir / "outbox"),
        smtp_host=smtp_host,
        smtp_port=_int(env, "JACKPOT_SMTP_PORT", 25, 1, 65535),
        smtp_user=env.get("JACKPOT_SMTP_USER") or None,
        smtp_password=env.get("JACKPOT_SMTP_PASSWORD") or None,
        smtp_starttls=_bool(env, "JACKPOT_SMTP_STARTTLS", False),
        mail_from=env.get("JACKPOT_MAIL_FROM") or "Jackpot <noreply@localhost>",
        base_url=base_url.rstrip("/") if base_url else None,
        sweep_interval=_float(env, "JACKPOT_SWEEP_INTERVAL", 0.5, 0.05, 60.0),
        sweeper_in_process=_bool(env, "JACKPOT_SWEEPER", True),
        guest_days=_int(env, "JACKPOT_GUEST_DAYS", 7, 1, 365),
        secure_cookies=_bool(env, "JACKPOT_SECURE_COOKIES", False),
        redis_url=env.get("JACKPOT_REDIS_URL") or None,
        sse_keepalive=_float(env, "JACKPOT_SSE_KEEPALIVE_SECONDS", 15.0, 0.1, 300.0),
    )
