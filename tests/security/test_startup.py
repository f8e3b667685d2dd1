"""Issue 11 item 11: a broken set-up stops `jackpot serve` with one line and exit 2.

Each case runs the real command in a subprocess, as an operator would. Each used to
end in a Python traceback (or, for a short key, in a silently replaced key).
/proc stands for a place nobody can write: the tests may run as root, for whom
file modes mean nothing.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from testdb import pg_admin_url


def serve(var_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "JACKPOT_VAR_DIR": str(var_dir), **env}
    for name in ("DATABASE_URL", "JACKPOT_SECRET_KEY", "JACKPOT_SMTP_HOST"):
        if name not in env:
            full.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "jackpot.cli", "serve", "--port", "1"],
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )


def refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("configuration error: "), lines[0]
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_a_short_key_file_is_refused_not_replaced(tmp_path: Path) -> None:
    key = tmp_path / "secret_key"
    key.write_text("short\n")
    line = refused(serve(tmp_path), "secret key", "16")
    assert "remove" in line
    assert key.read_text() == "short\n"  # never replaced silently


def test_a_binary_key_file_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "secret_key"
    key.write_bytes(bytes(range(256)))
    refused(serve(tmp_path), "not text")
    assert key.read_bytes() == bytes(range(256))


def test_a_key_path_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret_key").mkdir()
    refused(serve(tmp_path), "is a directory")


def test_a_var_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "var"
    path.write_text("not a directory")
    refused(serve(path), "JACKPOT_VAR_DIR", "not a directory")
    # Also with the key given in the environment.
    refused(serve(path, JACKPOT_SECRET_KEY="k" * 32), "JACKPOT_VAR_DIR")


def test_an_unreachable_postgresql_is_refused(tmp_path: Path) -> None:
    refused(
        serve(tmp_path, DATABASE_URL="postgresql://postgres@127.0.0.1:1/jackpot"),
        "cannot reach PostgreSQL",
        "DATABASE_URL",
    )


def test_a_missing_database_is_refused(tmp_path: Path) -> None:
    admin = pg_admin_url()
    missing = admin.rsplit("/", 1)[0] + "/jackpot_missing_" + secrets.token_hex(4)
    refused(serve(tmp_path, DATABASE_URL=missing), "does not exist", "createdb")


def test_an_unwritable_sqlite_path_is_refused(tmp_path: Path) -> None:
    refused(
        serve(tmp_path, DATABASE_URL="sqlite:////proc/jackpot-test/jackpot.sqlite3"),
        "SQLite",
        "writable",
    )


def test_a_corrupt_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "jackpot.sqlite3"
    db.write_bytes(b"this is not SQLite\n" * 1000)
    refused(serve(tmp_path), "not a usable SQLite database", "backup")
    assert db.read_bytes() == b"this is not SQLite\n" * 1000


@pytest.mark.parametrize("where", ["file", "proc"])
def test_an_unwritable_outbox_is_refused(tmp_path: Path, where: str) -> None:
    outbox = tmp_path / "outbox-file"
    if where == "file":
        outbox.write_text("a file where the outbox should be")
    else:
        outbox = Path("/proc/jackpot-outbox")
    refused(serve(tmp_path, JACKPOT_OUTBOX_DIR=str(outbox)), "outbox", "JACKPOT_SMTP_HOST")


def test_a_file_limit_below_the_reserve_is_refused(tmp_path: Path) -> None:
    refused(serve(tmp_path, JACKPOT_FD_RESERVE="1000000"), "open-file limit", "ulimit")


# Issue 40 item 5: the Web Push key and Redis stopped start-up with tracebacks.


def test_a_bad_vapid_key_setting_is_refused(tmp_path: Path) -> None:
    refused(serve(tmp_path, JACKPOT_VAPID_PRIVATE_KEY="not a key"),
            "JACKPOT_VAPID_PRIVATE_KEY", "P-256")


def test_a_p384_vapid_key_is_refused(tmp_path: Path) -> None:
    """Web Push signs with ES256 only: a P-384 key was taken and signed nothing a push
    service accepts."""
    p384 = ec.generate_private_key(ec.SECP384R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    refused(serve(tmp_path, JACKPOT_VAPID_PRIVATE_KEY=p384), "JACKPOT_VAPID_PRIVATE_KEY", "P-256")


def test_a_garbage_vapid_key_file_is_refused_not_replaced(tmp_path: Path) -> None:
    key = tmp_path / "vapid_private_key.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n")
    refused(serve(tmp_path), "vapid_private_key.pem", "backup")
    assert "garbage" in key.read_text()  # never replaced silently
    key.unlink()
    key.mkdir()
    refused(serve(tmp_path), "vapid_private_key.pem", "readable")


@pytest.mark.parametrize("url", ["redis://127.0.0.1:1/0", "http://127.0.0.1:6379"])
def test_an_unreachable_redis_is_refused(tmp_path: Path, url: str) -> None:
    refused(serve(tmp_path, JACKPOT_REDIS_URL=url), "Redis", "JACKPOT_REDIS_URL")


def test_a_database_url_with_a_port_that_is_no_number_is_refused(tmp_path: Path) -> None:
    refused(serve(tmp_path, DATABASE_URL="postgresql://postgres@127.0.0.1:abc/x"),
            "DATABASE_URL", "port", "'abc'")


def test_a_sqlite_path_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    refused(serve(tmp_path, DATABASE_URL=f"sqlite:///{folder}"), str(folder), "directory")
