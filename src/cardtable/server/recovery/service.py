"""Recovery at run time: links made and mailed, the work of a "forgot password" done
in the background, and the limits on how often each may be asked.

The limits are token buckets (:mod:`cardtable.server.limits`, in Redis with several
processes): per client address for "forgot password" (beyond: 429, which says nothing
about any account), per name or address asked about (beyond: no more mail, and the
same answer as ever), per account for adding an address, and per client address for
using links.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable
from datetime import timedelta
from typing import Any

from cardtable.server.accounts import name_key
from cardtable.server.limits import token_buckets
from cardtable.server.mail import Mail, Mailer
from cardtable.server.mail.texts import mail_text
from cardtable.server.recovery import store
from cardtable.server.shared import Shared
from cardtable.server.storage import Storage

__all__ = ["Recovery"]

log = logging.getLogger("cardtable.server")


class Recovery:
    """Makes and mails the links of one server process."""

    def __init__(
        self,
        storage: Storage,
        mailer: Mailer,
        shared: Shared | None,
        public_url: str | None = None,
    ) -> None:
        self.storage = storage
        self.mailer = mailer
        #: The site's address the links start with (``serve --public-url``); ``None``:
        #: the address the request came to.
        self.public_url = public_url.rstrip("/") if public_url else None
        self.recover_by_address = token_buckets(shared, "recover-addr", burst=5, seconds=300.0)
        self.recover_by_target = token_buckets(shared, "recover-who", burst=2, seconds=900.0)
        self.email_by_account = token_buckets(shared, "email-set", burst=5, seconds=600.0)
        self.links_by_address = token_buckets(shared, "link-use", burst=20, seconds=30.0)
        self._tasks: set[asyncio.Task[Any]] = set()
        #: The event loop the service works on (made inside the application's lifespan).
        self.loop = asyncio.get_running_loop()

    def link(self, base: str, page: str, token: str) -> str:
        """The address of a link: the page, the token after ``#`` (a fragment never
        reaches a server's log nor a ``Referer``)."""
        site = self.public_url or base.rstrip("/")
        return f"{site}/{page}#{token}"

    async def send_verification(self, recipient: store.Recipient, base: str) -> None:
        """Store a verification link for ``recipient.email`` and mail it there."""
        await self._mail_link(recipient, "verify", base)

    async def _mail_link(self, recipient: store.Recipient, purpose: str, base: str) -> None:
        """Store a new link of ``purpose`` (``verify`` or ``reset``) for the recipient's
        account and mail it to the recipient's address, in the account's language."""
        token = secrets.token_urlsafe(32)
        if purpose == "verify":
            lifetime, page, times = (
                timedelta(hours=store.VERIFY_HOURS),
                "verify-email",
                {"hours": store.VERIFY_HOURS},
            )
        else:
            lifetime, page, times = (
                timedelta(minutes=store.RESET_MINUTES),
                "reset",
                {"minutes": store.RESET_MINUTES},
            )
        await self.storage.awrite(
            store.issue(recipient.account_id, purpose, recipient.email, token, lifetime)
        )
        subject, text = mail_text(
            purpose,
            recipient.lang,
            name=recipient.name,
            link=self.link(base, page, token),
            **times,
        )
        self.mailer.send(Mail(recipient.email, subject, text))

    def recover(self, who: str, base: str) -> None:
        """Mail reset links for ``who`` (a name or an address) in the background."""
        self._spawn(self._recover(who, base))

    async def _recover(self, who: str, base: str) -> None:
        target = store.check_email(who) or name_key(who)
        if await self.recover_by_target.acquire(target):
            log.info("password reset for %r not mailed: asked too often", who)
            return
        for recipient in await self.storage.aread(store.recipients(who)):
            await self._mail_link(recipient, "reset", base)

    def notify(self, account_id: str, kind: str, **fields: Any) -> None:
        """Mail the account a notice ``kind`` (:mod:`..mail.texts`) in its language,
        in the background; nothing when it has no verified address."""
        self._spawn(self._notify(account_id, kind, fields))

    async def _notify(self, account_id: str, kind: str, fields: dict[str, Any]) -> None:
        recipient = await self.storage.aread(store.account_mail(account_id))
        if recipient is None:
            return
        subject, text = mail_text(kind, recipient.lang, name=recipient.name, **fields)
        self.mailer.send(Mail(recipient.email, subject, text))

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("mail work failed", exc_info=task.exception())

    async def settle(self) -> None:
        """Wait for the background work so far, then for the mail it queued (tests,
        shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await self.mailer.flush()

    def settle_from_thread(self, timeout: float) -> None:
        """:meth:`settle`, waited for from another thread (a test beside the server)."""
        asyncio.run_coroutine_threadsafe(self.settle(), self.loop).result(timeout)

    async def stop(self) -> None:
        """Finish the background work (10 s at most) and close the mailer."""
        try:
            await asyncio.wait_for(self.settle(), 10)
        except TimeoutError:
            for task in list(self._tasks):
                task.cancel()
        await self.mailer.close()
