"""The site's VAPID key pair (RFC 8292), made once and kept, or given by a setting.

Push services accept a push only when it is signed by the key the browser
subscribed with.

The key is generated once and kept in ``$JACKPOT_VAR_DIR/vapid_private_key.pem``,
like the secret key, or given whole by ``JACKPOT_VAPID_PRIVATE_KEY``. Changing it
strands every stored subscription (browsers must subscribe again), so every process
must use the same one: an operator keeps that file, or sets the variable.
"""

from __future__ import annotations

import base64
import os
import threading
from email.utils import parseaddr
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from jackpot.web.base.env_values import SettingsError
from jackpot.web.base.settings import Settings

KEY_FILE = "vapid_private_key.pem"
_lock = threading.Lock()
_cache: dict[tuple[str | None, Path], Vapid02] = {}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _from_text(text: str, where: str, fix: str) -> Vapid02:
    """The key, refused unless it is a P-256 private key: Web Push (RFC 8292) signs
    with ES256 only, and a key on another curve (P-384 was taken) signs nothing a
    push service accepts."""
    try:
        if "-----BEGIN" in text:
            key = Vapid02.from_pem(text.strip().encode())
        else:
            key = Vapid02.from_string(text.strip())
        curve = key.private_key.curve
    except Exception:
        curve = None
    if not isinstance(curve, ec.SECP256R1):
        raise SettingsError(f"{where} is not a P-256 private key (PEM or base64url): {fix}")
    return key


#: What to do about an unusable key, by where it came from.
SETTING_FIX = (
    "set JACKPOT_VAPID_PRIVATE_KEY to the key every process shares, or unset it to use "
    f"the one kept in JACKPOT_VAR_DIR/{KEY_FILE}"
)
FILE_FIX = (
    "restore the file from a backup (browsers are subscribed to its key), or move it away "
    "to have a new one made (every browser must then turn push notifications on again)"
)


def _read_file(path: Path) -> Vapid02:
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise SettingsError(
            f"cannot read the Web Push key file {str(path)!r} ({exc.strerror or exc}): "
            "make it a readable file for this user"
        ) from None
    return _from_text(text, f"the Web Push key file {str(path)!r}", FILE_FIX)


def _generate(path: Path) -> Vapid02:
    """A new key in ``path``, unless another process got there first (a hard link
    never replaces a file): then everybody uses that one."""
    fresh = Vapid02()
    fresh.generate_keys()
    tmp = path.with_name(f"{KEY_FILE}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(fresh.private_pem())
        tmp.chmod(0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    except OSError as exc:
        raise SettingsError(
            f"cannot create the Web Push key file {str(path)!r} ({exc.strerror or exc}): "
            "make JACKPOT_VAR_DIR writable for this user, or set JACKPOT_VAPID_PRIVATE_KEY"
        ) from None
    return _read_file(path)


def vapid_key(settings: Settings) -> Vapid02:
    """The key from the setting, else from the var directory (made there on first use)."""
    cache_key = (settings.vapid_private_key, settings.var_dir)
    with _lock:
        found = _cache.get(cache_key)
        if found is not None:
            return found
        if settings.vapid_private_key:
            key = _from_text(settings.vapid_private_key, "JACKPOT_VAPID_PRIVATE_KEY", SETTING_FIX)
        else:
            path = settings.var_dir / KEY_FILE
            exists = path.exists() or path.is_symlink()
            key = _read_file(path) if exists else _generate(path)
        _cache[cache_key] = key
        return key


def application_server_key(settings: Settings) -> str:
    """The public key as browsers want it for ``pushManager.subscribe``: the
    uncompressed P-256 point, base64url without padding."""
    point = vapid_key(settings).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def subject(settings: Settings) -> str:
    """Who push services may contact about our pushes: the setting, else the
    address mails are sent from."""
    if settings.vapid_subject:
        return settings.vapid_subject
    address = parseaddr(settings.mail_from)[1] or "noreply@localhost"
    return f"mailto:{address}"
