"""The mailer: what the server's capabilities call to send an email.

:class:`Mailer` is the whole interface: :meth:`~Mailer.send` queues a :class:`Mail` and
returns at once (a request never waits on a mail server, and a delivery problem is
logged, never raised to the caller); :meth:`~Mailer.flush` waits until what is queued
has been delivered or given up (tests, shutdown); :meth:`~Mailer.close` stops.

:class:`SmtpMailer` drains its queue with one task and delivers each mail with
:mod:`smtplib` on a worker thread (:func:`asyncio.to_thread`), so the event loop never
blocks on the network; a failed delivery is tried again a few times, then logged.
:class:`LogMailer` (no ``--smtp``) writes each mail to the log instead: a server run on
one's own machine shows its verification and reset links there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any, Protocol

from cardtable.server.mail.smtp import SmtpConfig, parse_smtp_url

__all__ = ["LogMailer", "Mail", "Mailer", "SmtpMailer", "open_mailer"]

log = logging.getLogger("cardtable.server.mail")

#: Mails that may wait to be sent; past it a new one is dropped (and logged).
QUEUE_SIZE = 1000


@dataclass(frozen=True, slots=True)
class Mail:
    """One plain-text email to one address."""

    to: str
    subject: str
    text: str


class Mailer(Protocol):
    """Sends mail without ever blocking its caller."""

    def send(self, mail: Mail) -> None:
        """Queue ``mail`` (returns at once; a delivery problem is logged)."""
        ...

    async def flush(self) -> None:
        """Wait until every mail queued so far is delivered or given up."""
        ...

    async def close(self) -> None:
        """Deliver what is queued (a few seconds at most), then stop."""
        ...


class LogMailer:
    """The mailer without ``--smtp``: each mail is written to the log (INFO), whole."""

    def send(self, mail: Mail) -> None:
        """Log ``mail``: its address, subject and text (links included)."""
        log.info(
            "mail not sent (no --smtp), to %s: %s\n%s",
            mail.to,
            mail.subject,
            mail.text,
        )

    async def flush(self) -> None:
        """Nothing waits: logging is done at once."""

    async def close(self) -> None:
        """Nothing to stop."""


class SmtpMailer:
    """Sends mail by SMTP: a queue drained by one task, each delivery on a thread."""

    def __init__(
        self,
        config: SmtpConfig,
        *,
        tries: int = 3,
        retry_seconds: float = 5.0,
        queue_size: int = QUEUE_SIZE,
    ) -> None:
        self.config = config
        self.tries = tries
        self.retry_seconds = retry_seconds
        self._queue: asyncio.Queue[Mail] = asyncio.Queue(maxsize=queue_size)
        self._worker: asyncio.Task[None] | None = None
        #: Mails delivered and given up so far (the log says which).
        self.delivered = 0
        self.failed = 0

    def send(self, mail: Mail) -> None:
        """Queue ``mail``; the sending task starts with the first one."""
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())
        try:
            self._queue.put_nowait(mail)
        except asyncio.QueueFull:
            self.failed += 1
            log.error("mail queue full (%d): dropped the mail to %s", self._queue.maxsize, mail.to)

    async def flush(self) -> None:
        """Wait until the queue is empty and its last mail delivered or given up."""
        await self._queue.join()

    async def close(self) -> None:
        """Deliver what is queued (10 s at most), then stop the sending task."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), 10)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def _work(self) -> None:
        while True:
            mail = await self._queue.get()
            try:
                await self._deliver_with_retries(mail)
            finally:
                self._queue.task_done()

    async def _deliver_with_retries(self, mail: Mail) -> None:
        for attempt in range(1, self.tries + 1):
            try:
                await asyncio.to_thread(self.deliver, mail)
            except (OSError, smtplib.SMTPException) as exc:
                if attempt == self.tries:
                    self.failed += 1
                    log.error("cannot send mail to %s by %s: %s", mail.to, self.config.shown(), exc)
                    return
                log.warning("mail to %s: %s; trying again", mail.to, exc)
                await asyncio.sleep(self.retry_seconds * attempt)
            else:
                self.delivered += 1
                log.info("mail sent to %s: %s", mail.to, mail.subject)
                return

    def message(self, mail: Mail) -> EmailMessage:
        """``mail`` as the message sent: UTF-8 plain text with its headers."""
        message = EmailMessage()
        message["From"] = self.config.sender
        message["To"] = mail.to
        message["Subject"] = mail.subject
        message["Date"] = formatdate(usegmt=True)
        message["Message-ID"] = make_msgid(domain=self.config.sender.rpartition("@")[2])
        message.set_content(mail.text)
        return message

    def deliver(self, mail: Mail) -> None:
        """Send one mail now (blocking: run on a worker thread)."""
        config = self.config
        context = ssl.create_default_context()
        client: Any
        if config.tls:
            client = smtplib.SMTP_SSL(
                config.host, config.port, timeout=config.timeout, context=context
            )
        else:
            client = smtplib.SMTP(config.host, config.port, timeout=config.timeout)
        with client:
            if config.starttls:
                client.starttls(context=context)
            if config.user is not None:
                client.login(config.user, config.password or "")
            client.send_message(self.message(mail))


def open_mailer(url: str | None) -> Mailer:
    """The mailer of ``--smtp URL`` (:class:`SmtpMailer`), or a :class:`LogMailer` when
    there is none; :class:`ValueError` for a URL that cannot be read."""
    if url is None:
        return LogMailer()
    return SmtpMailer(parse_smtp_url(url))
