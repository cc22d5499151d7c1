"""A local SMTP server for the tests (aiosmtpd, on a loopback port): it keeps every
message it is given, and a test waits on its arrival, never on a guessed pause."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from server_helpers import GUARD, free_port


class Inbox:
    """Every message the local SMTP server has taken, with a condition to wait on."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._changed = threading.Condition()
        self.port = 0

    @property
    def url(self) -> str:
        """The ``--smtp`` URL of the server."""
        return f"smtp://127.0.0.1:{self.port}?from=games@cardtable.test"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        """aiosmtpd's handler: keep the message, wake the waiters."""
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self._changed:
            self.messages.append(message)
            self._changed.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages to ``address`` so far."""
        with self._changed:
            return [m for m in self.messages if m["To"] == address]

    def wait(self, address: str, count: int = 1, timeout: float = GUARD) -> EmailMessage:
        """The ``count``-th message to ``address``, once it has come."""
        deadline = time.monotonic() + timeout  # a guard against a hang, not a speed goal
        with self._changed:
            while True:
                found = [m for m in self.messages if m["To"] == address]
                if len(found) >= count:
                    return found[count - 1]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no mail {count} to {address}")
                self._changed.wait(left)


def body(message: EmailMessage) -> str:
    """The plain text of ``message``."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    text = part.get_content()
    assert isinstance(text, str)
    return text.replace("\r\n", "\n")  # lines as the mail's writer wrote them


def link_token(message: EmailMessage, page: str) -> str:
    """The token of the ``/page#TOKEN`` link in ``message``."""
    found = re.search(rf"/{page}#([A-Za-z0-9_-]+)", body(message))
    assert found is not None, body(message)
    return found.group(1)


def link(message: EmailMessage, page: str) -> str:
    """The whole ``…/page#TOKEN`` link in ``message``."""
    found = re.search(rf"\S+/{page}#[A-Za-z0-9_-]+", body(message))
    assert found is not None, body(message)
    return found.group(0)


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    """A local SMTP server on a free loopback port for the block's length."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
