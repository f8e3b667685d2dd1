"""Ending a server the tests started as a subprocess: politely, then by force."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen[bytes] | None, grace: float = 15) -> None:
    """SIGTERM, ``grace`` seconds for the server to finish its work, then SIGKILL."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)
