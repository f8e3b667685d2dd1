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
from urllib.parse import urlsplit

from jackpot.web.base.env_values import (
    IPNetwork,
    Rate,
    SettingsError,
    flag,
    host_list,
    networks,
    number,
    rate,
    whole,
)

#: The longest deadline a match may have: one week (the rules: 60 s to 7 days a throw).
MAX_DEADLINE_SECONDS = 7 * 24 * 3600
#: How long a match may wait in the lobby for players: an hour to 30 days, a week
#: unless its creator chooses.
MIN_EXPIRY_SECONDS = 3600
MAX_EXPIRY_SECONDS = 30 * 24 * 3600
DEFAULT_EXPIRY_SECONDS = 7 * 24 * 3600

#: Names that always reach this machine itself.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Where links point when nothing better is known (a `jackpot sweep` without
#: JACKPOT_BASE_URL beside a `jackpot serve` on the default port).
FALLBACK_BASE_URL = "http://localhost:8000"


def _with_port_checked(url: str) -> str:
    """``url``, whose port (if any) must be a number from 1 to 65535: a port like
    ``abc`` ended start-up with a traceback from the URL's parser."""
    netloc = urlsplit(url).netloc.rpartition("@")[2]
    host_end = netloc.rfind("]")
    port = netloc[host_end + 1 :].partition(":")[2] if ":" in netloc[host_end + 1 :] else ""
    if port and not (port.isdigit() and 1 <= int(port) <= 65535):
        raise SettingsError(
            f"DATABASE_URL's port must be a number from 1 to 65535, not {port[:20]!r}"
        )
    return url


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
            return _with_port_checked(async_ + url[len(plain) :])
    if url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        return _with_port_checked(url)
    raise SettingsError(
        f"DATABASE_URL must start with sqlite:// or postgresql://, not {url.split(':')[0]!r}"
    )


def _secret_key(raw: str | None, var_dir: Path) -> str:
    """Use the configured key, or one generated once and kept in the data directory,
    so sessions survive a restart without anybody having to invent a key.

    A key file that is there but unusable stops start-up: replacing it would end
    every session and kill every signed link already mailed, without a word."""
    if raw:
        if len(raw) < 16:
            raise SettingsError("JACKPOT_SECRET_KEY must be at least 16 characters long")
        return raw
    if var_dir.exists() and not var_dir.is_dir():
        raise SettingsError(
            f"JACKPOT_VAR_DIR is {str(var_dir)!r}, which is a file, not a directory: "
            "point it at a directory (it is created if missing)"
        )
    path = var_dir / "secret_key"
    if path.exists() or path.is_symlink():
        return _read_key_file(path)
    try:
        var_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32)
        path.write_text(key + "\n")
        path.chmod(0o600)
    except OSError as exc:
        raise SettingsError(
            f"cannot create the secret key file {str(path)!r} ({exc.strerror or exc}): "
            "make JACKPOT_VAR_DIR writable for this user, or set JACKPOT_SECRET_KEY"
        ) from None
    return key


def _read_key_file(path: Path) -> str:
    fix = "put a key of at least 16 characters in it (e.g. from `openssl rand -hex 32`)"
    if path.is_dir():
        raise SettingsError(f"the secret key file {str(path)!r} is a directory: remove it")
    try:
        key = path.read_bytes().decode("ascii", errors="replace").strip()
    except OSError as exc:
        raise SettingsError(
            f"cannot read the secret key file {str(path)!r} ({exc.strerror or exc}): "
            "make it readable for this user"
        ) from None
    if not key.isprintable() or "\ufffd" in key:
        raise SettingsError(
            f"the secret key file {str(path)!r} is not text: {fix}, or remove it to have "
            "one generated (signed-in sessions and mailed links made with the old key end)"
        )
    if len(key) < 16:
        raise SettingsError(
            f"the secret key in {str(path)!r} is {len(key)} characters long, under the 16 "
            f"needed: {fix}, or remove the file to have one generated (signed-in sessions "
            "and mailed links made with the old key end)"
        )
    return key


def _vapid_subject(raw: str | None) -> str | None:
    """Push services contact the sender at this address when its pushes misbehave."""
    if raw and not raw.startswith(("mailto:", "https://")):
        raise SettingsError(
            f"JACKPOT_VAPID_SUBJECT must start with mailto: or https://, not {raw!r}"
        )
    return raw


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
    #: "host:port" `jackpot serve` listens on, and its processes (it sets JACKPOT_LISTEN
    #: and JACKPOT_WORKERS itself).
    listen: str | None = None
    workers: int = 1
    #: Seconds a process trusts who a credential is, told of changes (else one second).
    credential_cache_seconds: float = 30.0
    #: Host names the site answers for; empty: the defaults of ``hosts_allowed``.
    allowed_hosts: tuple[str, ...] = ()
    #: Peers whose X-Forwarded-For / -Proto headers are believed (client.py).
    trusted_proxies: tuple[IPNetwork, ...] = ()
    #: Limits per client address (signin.py, and the match seeds handed out ahead of
    #: their match: play/edge/api.py; docs/security.md lists them all).
    signup_limit: Rate = Rate(10, 3600)
    signup_try_limit: Rate = Rate(50, 3600)
    login_limit: Rate = Rate(30, 900)
    password_limit: Rate = Rate(10, 3600)
    commitment_limit: Rate = Rate(300, 3600)
    #: Wrong passwords per account and address, per address, per account.
    failure_limit: Rate = Rate(5, 900)
    address_failure_limit: Rate = Rate(20, 900)
    account_failure_ceiling: Rate = Rate(50, 3600)
    #: Reset requests per client address; reset and confirmation mails per account.
    reset_limit: Rate = Rate(5, 3600)
    reset_mail_limit: Rate = Rate(1, 900)
    confirm_mail_limit: Rate = Rate(3, 86400)
    #: Accounts looked up by name (a challenge, a block) per client address.
    name_lookup_limit: Rate = Rate(120, 3600)
    #: Records one answer of ``/api/players/{name}/records`` holds at most.
    records_page: int = 100
    #: Name changes per account (each also counts as a name looked up: blocks.py).
    rename_limit: Rate = Rate(5, 86400)
    #: Threads hashing passwords (0: the machine's cores, at most 4), and how many
    #: checks may wait for one, from strangers and from known devices (hash_queue.py).
    hash_threads: int = 0
    hash_queue: int = 64
    hash_known_queue: int = 16
    #: Checks one account may have in the known devices' lane per window (signin.py).
    known_lane_limit: Rate = Rate(10, 900)
    #: Connections to Redis one process holds at most, shared by the limit counters and
    #: the stream and watcher counts; a request waits this many seconds for one.
    redis_connections: int = 64
    redis_wait_seconds: float = 10.0
    #: argon2id's passes and memory (KiB) per password hash: RFC 9106's low-memory
    #: profile (passwords.py). Lower only where no real password is kept (tests).
    hash_time_cost: int = 3
    hash_memory_kib: int = 65536
    streams_per_address: int = 32  # live streams and sockets at once per client address
    #: Seconds a connection has for a request's line and headers, then for its body;
    #: the bytes its line and headers may take; HTTP connections open at once from one
    #: client address, not a trusted proxy's (all in http_guard.py).
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    max_header_bytes: int = 16384
    connections_per_address: int = 256
    #: Live-event streams open at once in this process; 0: the file limit less the reserve.
    max_streams: int = 0
    #: File descriptors kept for everything but streams (database, sockets, files).
    fd_reserve: int = 128
    #: Matches waiting or in play at once for one guest, and for one account.
    guest_active_matches: int = 5
    account_active_matches: int = 50
    #: Guests one client address may create in an hour (all processes with Redis).
    guests_per_address_hour: int = 20
    unused_guest_hours: int = 24  # a guest that never sat in a match is kept
    #: VAPID private key (PEM, or base64url raw/DER); unset: generated once in var_dir.
    vapid_private_key: str | None = None
    #: The VAPID "sub" claim (mailto: or https:); unset: mailto: the mail sender.
    vapid_subject: str | None = None
    #: Browsers one account may register for Web Push.
    push_max_subscriptions: int = 10
    #: Let push endpoints be http:// on loopback (tests and demos only).
    push_allow_local: bool = False
    #: Live streams one account may hold open per server process (its tabs).
    user_streams_per_account: int = 20
    #: Entries one answer of a daily deal's board lists at most (a page of it).
    daily_board_page: int = 100
    #: Phrases in a match (play/phrases.py): seconds between two from one seat, how
    #: many one seat may say in a match, and seconds after the end they may still.
    phrase_gap: float = 3.0
    phrases_per_seat: int = 30
    phrase_after_end: int = 600
    #: Matches the watch list shows at most (watch/listing.py).
    watch_list_size: int = 50
    #: With Redis: seconds between two publications of a process's watchers, and
    #: how long they count after the last one (a dead process's, then no longer).
    watchers_seconds: float = 5.0
    watchers_expiry_seconds: float = 15.0
    #: Seeks ("play now") one account may have waiting at once, one per kind.
    seeks_per_account: int = 5
    #: Challenges one account may have open at once, and make in a day.
    challenges_open: int = 20
    challenges_per_day: int = 50
    #: Players one account may block.
    blocks_per_account: int = 500
    #: Tournaments one account may have created and not yet finished, and the most
    #: players a tournament may take.
    tournaments_per_account: int = 5
    tournament_max_players: int = 1000

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def link_base(self) -> str:
        """Where links in mails point: JACKPOT_BASE_URL, else the address served.

        Never the request's Host header: a stranger could name their own site there
        and receive the reset link meant for somebody else."""
        if self.base_url:
            return self.base_url
        if self.listen:
            host, port = _split_listen(self.listen)
            if host not in ("0.0.0.0", "::", ""):
                return f"http://{'[' + host + ']' if ':' in host else host}:{port}"
            return f"http://localhost:{port}"
        return FALLBACK_BASE_URL

    @property
    def hosts_allowed(self) -> tuple[str, ...]:
        """JACKPOT_ALLOWED_HOSTS, or the address served, localhost and the base URL's host."""
        if self.allowed_hosts:
            return self.allowed_hosts
        hosts = list(LOCAL_HOSTS)
        if self.listen:
            hosts.append(_split_listen(self.listen)[0])
        if self.base_url:
            hosts.append(urlsplit(self.base_url).hostname or "")
        return tuple(dict.fromkeys(h.lower() for h in hosts if h))


def _watchers_expiry(env: Mapping[str, str], period: float) -> float:
    """Three periods unless set; never under two, or one late publication would make
    a live process's watchers blink out of the count."""
    expiry = number(env, "JACKPOT_WATCHERS_EXPIRY_SECONDS", 3 * period, 0.2, 3600.0)
    if expiry < 2 * period:
        raise SettingsError(
            f"JACKPOT_WATCHERS_EXPIRY_SECONDS must be at least twice "
            f"JACKPOT_WATCHERS_SECONDS ({period:g}), not {expiry:g}"
        )
    return expiry


def _split_listen(listen: str) -> tuple[str, str]:
    host, _, port = listen.rpartition(":")
    return host.strip("[]"), port


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read every setting from ``env`` (default: the process environment)."""
    env = os.environ if env is None else env
    var_dir = Path(env.get("JACKPOT_VAR_DIR") or "var")
    min_deadline = whole(env, "JACKPOT_MIN_DEADLINE_SECONDS", 60, 1, MAX_DEADLINE_SECONDS)
    smtp_host = env.get("JACKPOT_SMTP_HOST") or None
    base_url = env.get("JACKPOT_BASE_URL") or None
    if base_url and not base_url.startswith(("http://", "https://")):
        raise SettingsError(
            f"JACKPOT_BASE_URL must start with http:// or https://, not {base_url!r}"
        )
    watchers_seconds = number(env, "JACKPOT_WATCHERS_SECONDS", 5.0, 0.1, 300.0)
    return Settings(
        database_url=_database_url(env.get("DATABASE_URL"), var_dir),
        secret_key=_secret_key(env.get("JACKPOT_SECRET_KEY"), var_dir),
        var_dir=var_dir,
        min_deadline_seconds=min_deadline,
        outbox_dir=Path(env.get("JACKPOT_OUTBOX_DIR") or var_dir / "outbox"),
        smtp_host=smtp_host,
        smtp_port=whole(env, "JACKPOT_SMTP_PORT", 25, 1, 65535),
        smtp_user=env.get("JACKPOT_SMTP_USER") or None,
        smtp_password=env.get("JACKPOT_SMTP_PASSWORD") or None,
        smtp_starttls=flag(env, "JACKPOT_SMTP_STARTTLS", False),
        mail_from=env.get("JACKPOT_MAIL_FROM") or "Jackpot <noreply@localhost>",
        base_url=base_url.rstrip("/") if base_url else None,
        sweep_interval=number(env, "JACKPOT_SWEEP_INTERVAL", 0.5, 0.05, 60.0),
        sweeper_in_process=flag(env, "JACKPOT_SWEEPER", True),
        guest_days=whole(env, "JACKPOT_GUEST_DAYS", 7, 1, 365),
        secure_cookies=flag(env, "JACKPOT_SECURE_COOKIES", False),
        redis_url=env.get("JACKPOT_REDIS_URL") or None,
        sse_keepalive=number(env, "JACKPOT_SSE_KEEPALIVE_SECONDS", 15.0, 0.1, 300.0),
        listen=env.get("JACKPOT_LISTEN") or None,
        workers=whole(env, "JACKPOT_WORKERS", 1, 1, 1024),
        credential_cache_seconds=number(env, "JACKPOT_CREDENTIAL_CACHE_SECONDS", 30.0, 1.0, 3600.0),
        allowed_hosts=host_list(env, "JACKPOT_ALLOWED_HOSTS"),
        trusted_proxies=networks(env, "JACKPOT_TRUSTED_PROXIES"),
        signup_limit=rate(env, "JACKPOT_SIGNUP_LIMIT", Rate(10, 3600)),
        signup_try_limit=rate(env, "JACKPOT_SIGNUP_TRY_LIMIT", Rate(50, 3600)),
        login_limit=rate(env, "JACKPOT_LOGIN_LIMIT", Rate(30, 900)),
        password_limit=rate(env, "JACKPOT_PASSWORD_CHANGE_LIMIT", Rate(10, 3600)),
        failure_limit=rate(env, "JACKPOT_FAILURE_LIMIT", Rate(5, 900)),
        address_failure_limit=rate(env, "JACKPOT_ADDRESS_FAILURE_LIMIT", Rate(20, 900)),
        account_failure_ceiling=rate(env, "JACKPOT_ACCOUNT_FAILURE_CEILING", Rate(50, 3600)),
        reset_limit=rate(env, "JACKPOT_RESET_LIMIT", Rate(5, 3600)),
        reset_mail_limit=rate(env, "JACKPOT_RESET_MAIL_LIMIT", Rate(1, 900)),
        confirm_mail_limit=rate(env, "JACKPOT_CONFIRM_MAIL_LIMIT", Rate(3, 86400)),
        name_lookup_limit=rate(env, "JACKPOT_NAME_LOOKUP_LIMIT", Rate(120, 3600)),
        rename_limit=rate(env, "JACKPOT_RENAME_LIMIT", Rate(5, 86400)),
        records_page=whole(env, "JACKPOT_RECORDS_PAGE", 100, 1, 10_000),
        hash_threads=whole(env, "JACKPOT_HASH_THREADS", 0, 0, 64),
        hash_queue=whole(env, "JACKPOT_HASH_QUEUE", 64, 1, 10_000),
        hash_known_queue=whole(env, "JACKPOT_HASH_KNOWN_QUEUE", 16, 1, 10_000),
        known_lane_limit=rate(env, "JACKPOT_KNOWN_LANE_LIMIT", Rate(10, 900)),
        redis_connections=whole(env, "JACKPOT_REDIS_CONNECTIONS", 64, 2, 100_000),
        redis_wait_seconds=number(env, "JACKPOT_REDIS_WAIT_SECONDS", 10.0, 0.1, 300.0),
        hash_time_cost=whole(env, "JACKPOT_HASH_TIME_COST", 3, 1, 100),
        hash_memory_kib=whole(env, "JACKPOT_HASH_MEMORY_KIB", 65536, 32, 4_194_304),
        streams_per_address=whole(env, "JACKPOT_STREAMS_PER_ADDRESS", 32, 1, 100_000),
        header_seconds=number(env, "JACKPOT_HEADER_SECONDS", 10.0, 0.5, 300.0),
        body_seconds=number(env, "JACKPOT_BODY_SECONDS", 30.0, 0.5, 600.0),
        max_header_bytes=whole(env, "JACKPOT_MAX_HEADER_BYTES", 16384, 1024, 1_048_576),
        connections_per_address=whole(env, "JACKPOT_CONNECTIONS_PER_ADDRESS", 256, 1, 10**6),
        max_streams=whole(env, "JACKPOT_MAX_STREAMS", 0, 0, 10_000_000),
        fd_reserve=whole(env, "JACKPOT_FD_RESERVE", 128, 16, 1_000_000),
        guest_active_matches=whole(env, "JACKPOT_GUEST_ACTIVE_MATCHES", 5, 1, 10_000),
        account_active_matches=whole(env, "JACKPOT_ACCOUNT_ACTIVE_MATCHES", 50, 1, 100_000),
        guests_per_address_hour=whole(env, "JACKPOT_GUESTS_PER_ADDRESS_HOUR", 20, 1, 1_000_000),
        unused_guest_hours=whole(env, "JACKPOT_UNUSED_GUEST_HOURS", 24, 1, 24 * 365),
        commitment_limit=rate(env, "JACKPOT_COMMITMENT_LIMIT", Rate(300, 3600)),
        vapid_private_key=env.get("JACKPOT_VAPID_PRIVATE_KEY") or None,
        vapid_subject=_vapid_subject(env.get("JACKPOT_VAPID_SUBJECT") or None),
        push_max_subscriptions=whole(env, "JACKPOT_PUSH_MAX_SUBSCRIPTIONS", 10, 1, 100),
        push_allow_local=flag(env, "JACKPOT_PUSH_ALLOW_LOCAL", False),
        user_streams_per_account=whole(env, "JACKPOT_USER_STREAMS_PER_ACCOUNT", 20, 1, 1000),
        daily_board_page=whole(env, "JACKPOT_DAILY_BOARD_PAGE", 100, 1, 10_000),
        phrase_gap=number(env, "JACKPOT_PHRASE_GAP_SECONDS", 3.0, 0.0, 3600.0),
        phrases_per_seat=whole(env, "JACKPOT_PHRASES_PER_SEAT", 30, 0, 10_000),
        phrase_after_end=whole(env, "JACKPOT_PHRASE_AFTER_END_SECONDS", 600, 0, 86_400),
        watch_list_size=whole(env, "JACKPOT_WATCH_LIST_SIZE", 50, 1, 1000),
        watchers_seconds=watchers_seconds,
        watchers_expiry_seconds=_watchers_expiry(env, watchers_seconds),
        seeks_per_account=whole(env, "JACKPOT_SEEKS_PER_ACCOUNT", 5, 1, 100),
        challenges_open=whole(env, "JACKPOT_CHALLENGES_OPEN", 20, 1, 10_000),
        challenges_per_day=whole(env, "JACKPOT_CHALLENGES_PER_DAY", 50, 1, 100_000),
        blocks_per_account=whole(env, "JACKPOT_BLOCKS_PER_ACCOUNT", 500, 1, 100_000),
        tournaments_per_account=whole(env, "JACKPOT_TOURNAMENTS_PER_ACCOUNT", 5, 1, 1000),
        tournament_max_players=whole(env, "JACKPOT_TOURNAMENT_MAX_PLAYERS", 1000, 2, 100_000),
    )
