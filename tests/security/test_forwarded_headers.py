"""client.resolve_client: which address and scheme a request has, proxy by proxy."""

from __future__ import annotations

import pytest

from jackpot.web.base.edge.client import resolve_client
from jackpot.web.base.env_values import SettingsError
from jackpot.web.base.settings import load_settings


def _scope(peer: str, *headers: tuple[str, str], scheme: str = "http") -> dict[str, object]:
    return {
        "type": "http",
        "client": (peer, 1234),
        "scheme": scheme,
        "headers": [(k.encode(), v.encode()) for k, v in headers],
    }


def test_forwarded_headers_count_only_from_trusted_proxies(tmp_path) -> None:  # type: ignore[no-untyped-def]
    proxies = load_settings(
        {"JACKPOT_VAR_DIR": str(tmp_path), "JACKPOT_TRUSTED_PROXIES": "10.0.0.1, 10.1.0.0/16"}
    ).trusted_proxies
    spoof = ("x-forwarded-for", "6.6.6.6")
    https = ("x-forwarded-proto", "https")
    assert resolve_client(_scope("127.0.0.1", spoof, https), ()) == ("127.0.0.1", False)
    assert resolve_client(_scope("8.8.8.8", spoof, https), proxies) == ("8.8.8.8", False)
    assert resolve_client(_scope("10.0.0.1", spoof, https), proxies) == ("6.6.6.6", True)
    # The client wrote the left part; each trusted hop vouches for the one before it.
    chain = ("x-forwarded-for", "1.1.1.1, 2.2.2.2, 10.1.3.4")
    assert resolve_client(_scope("10.0.0.1", chain), proxies) == ("2.2.2.2", False)
    assert resolve_client(_scope("10.0.0.1", ("x-forwarded-for", "junk")), proxies)[0] == "10.0.0.1"
    with pytest.raises(SettingsError, match="JACKPOT_TRUSTED_PROXIES"):
        load_settings({"JACKPOT_VAR_DIR": str(tmp_path), "JACKPOT_TRUSTED_PROXIES": "proxy"})
