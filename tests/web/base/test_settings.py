"""Settings are read strictly: a wrong value stops start-up with a message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jackpot.web.app import create_app
from jackpot.web.base.env_values import Rate, SettingsError
from jackpot.web.base.settings import load_settings


def test_defaults_and_a_generated_secret_kept_in_var(tmp_path: Path) -> None:
    s = load_settings({"JACKPOT_VAR_DIR": str(tmp_path)})
    assert s.database_url == f"sqlite+aiosqlite:///{tmp_path / 'jackpot.sqlite3'}"
    assert s.min_deadline_seconds == 60
    assert s.outbox_dir == tmp_path / "outbox"
    again = load_settings({"JACKPOT_VAR_DIR": str(tmp_path)})
    assert again.secret_key == s.secret_key and len(s.secret_key) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_limits_are_counts_per_time(tmp_path: Path) -> None:
    env = {"JACKPOT_VAR_DIR": str(tmp_path)}
    assert load_settings(env).commitment_limit == Rate(300, 3600)
    for text, rate in (("5/1m", Rate(5, 60)), ("40/90s", Rate(40, 90)), ("7/2h", Rate(7, 7200))):
        assert load_settings({**env, "JACKPOT_COMMITMENT_LIMIT": text}).commitment_limit == rate
        assert load_settings({**env, "JACKPOT_LOGIN_LIMIT": text}).login_limit == rate


def test_database_urls_get_their_async_driver(tmp_path: Path) -> None:
    env = {"JACKPOT_VAR_DIR": str(tmp_path)}
    pg = load_settings({**env, "DATABASE_URL": "postgresql://u@127.0.0.1:5432/test"})
    assert pg.database_url == "postgresql+asyncpg://u@127.0.0.1:5432/test"
    lite = load_settings({**env, "DATABASE_URL": "sqlite:////tmp/x.db"})
    assert lite.database_url == "sqlite+aiosqlite:////tmp/x.db"


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("JACKPOT_MIN_DEADLINE_SECONDS", "soon", "whole number"),
        ("JACKPOT_MIN_DEADLINE_SECONDS", "0", "between"),
        ("JACKPOT_SMTP_PORT", "99999", "between"),
        ("JACKPOT_SMTP_STARTTLS", "maybe", "true or false"),
        ("DATABASE_URL", "mysql://x", "sqlite:// or postgresql://"),
        ("JACKPOT_SECRET_KEY", "short", "16 characters"),
        ("JACKPOT_BASE_URL", "example.org", "http://"),
        ("JACKPOT_VAPID_SUBJECT", "ops@example.org", "mailto:"),
        ("JACKPOT_PUSH_MAX_SUBSCRIPTIONS", "0", "between"),
        ("JACKPOT_PUSH_ALLOW_LOCAL", "perhaps", "true or false"),
        ("JACKPOT_USER_STREAMS_PER_ACCOUNT", "many", "whole number"),
        ("JACKPOT_COMMITMENT_LIMIT", "lots", "count per time"),
        ("JACKPOT_WATCHERS_SECONDS", "0", "between"),
        ("JACKPOT_WATCHERS_EXPIRY_SECONDS", "9", "twice"),
    ],
)
def test_wrong_values_are_refused_by_name(
    tmp_path: Path, name: str, value: str, words: str
) -> None:
    with pytest.raises(SettingsError) as err:
        load_settings({"JACKPOT_VAR_DIR": str(tmp_path), name: value})
    assert name in str(err.value) and words in str(err.value)


def test_watchers_count_three_periods_unless_told(tmp_path: Path) -> None:
    env = {"JACKPOT_VAR_DIR": str(tmp_path)}
    s = load_settings(env)
    assert (s.watchers_seconds, s.watchers_expiry_seconds) == (5.0, 15.0)
    s = load_settings({**env, "JACKPOT_WATCHERS_SECONDS": "2"})
    assert (s.watchers_seconds, s.watchers_expiry_seconds) == (2.0, 6.0)
    s = load_settings({**env, "JACKPOT_WATCHERS_SECONDS": "2",
                       "JACKPOT_WATCHERS_EXPIRY_SECONDS": "4"})
    assert s.watchers_expiry_seconds == 4.0


def test_a_bad_vapid_key_stops_the_app(tmp_path: Path) -> None:
    settings = load_settings(
        {"JACKPOT_VAR_DIR": str(tmp_path), "JACKPOT_VAPID_PRIVATE_KEY": "not-a-key"}
    )
    with pytest.raises(SettingsError) as err:
        create_app(settings)
    assert "JACKPOT_VAPID_PRIVATE_KEY" in str(err.value)


def test_serve_stops_with_a_message_on_a_bad_setting(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "jackpot.cli", "serve", "--port", "1"],
        env={
            "PATH": "/usr/bin:/bin",
            "JACKPOT_VAR_DIR": str(tmp_path),
            "JACKPOT_MIN_DEADLINE_SECONDS": "-5",
            "PYTHONPATH": ":".join(sys.path),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "JACKPOT_MIN_DEADLINE_SECONDS" in out.stderr


def test_db_upgrade_creates_the_database(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "jackpot.cli", "db", "upgrade"],
        env={
            "PATH": "/usr/bin:/bin",
            "JACKPOT_VAR_DIR": str(tmp_path),
            "PYTHONPATH": ":".join(sys.path),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "jackpot.sqlite3").exists()
    import sqlite3

    with sqlite3.connect(tmp_path / "jackpot.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"users", "matches", "seats", "record_events", "match_events"} <= tables
