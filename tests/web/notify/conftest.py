"""Fixtures of the notification tests: a real SMTP server for the mails."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from test_notify import free_port


@pytest.fixture
def smtp(settings: Any) -> Iterator[tuple[Any, list[EmailMessage]]]:
    """A real SMTP server on 127.0.0.1 (aiosmtpd), the settings that send to it, and
    what it received."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    received: list[EmailMessage] = []

    class Keep(Message):  # type: ignore[misc]
        def handle_message(self, message: Any) -> None:
            received.append(message)

    port = free_port()
    server = Controller(Keep(), hostname="127.0.0.1", port=port)
    server.start()
    try:
        yield dataclasses.replace(settings, smtp_host="127.0.0.1", smtp_port=port), received
    finally:
        server.stop()
