"""Mail and account recovery: the mailer against a local SMTP server, an address
verified by its link, a forgotten password reset by a one-time, expiring link that
ends every session, and "forgot password" answering alike whoever is asked about."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
from server_helpers import ServerThread, fast_settings
from sqlalchemy import update

pytest.importorskip("aiosmtpd", reason="aiosmtpd (the test extra) runs the local SMTP server")

from server_mail import Inbox, body, link, link_token, smtp_server

from cardtable.server.app import create_app
from cardtable.server.mail import LogMailer, Mail, SmtpMailer, parse_smtp_url
from cardtable.server.recovery.models import AccountTokenRow
from cardtable.server.storage import Storage

WEB = {"X-Cardtable-Client": "test"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory, inbox: Inbox) -> Iterator[ServerThread]:
    """A server that mails through the local SMTP server; it trusts X-Forwarded-For
    from loopback, so each test speaks from addresses of its own (the limits count
    by address)."""
    db: Path = tmp_path_factory.mktemp("db") / "mail.db"
    settings = fast_settings()
    settings.smtp_url = inbox.url
    settings.public_url = "https://cards.example.org"
    app = create_app(f"sqlite:///{db}", settings=settings, static_dir=None)
    server = ServerThread(app, trusted_proxies=("127.0.0.1",)).start()
    yield server
    server.stop()


def address() -> dict[str, str]:
    """Headers of a request from an address of its own."""
    return {**WEB, "X-Forwarded-For": f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"}


def register(base: str, name: str | None = None, lang: str = "en") -> tuple[str, dict[str, str]]:
    """A new account: its name and bearer headers."""
    name = name or f"Ann{uuid.uuid4().hex[:8]}"
    made = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": PASSWORD, "bearer": True, "lang": lang},
        headers=address(),
    )
    assert made.status_code == 201, made.text
    return name, {**WEB, "Authorization": f"Bearer {made.json()['token']}"}


def verified(base: str, inbox: Inbox, auth: dict[str, str], email: str) -> None:
    """Add ``email`` to the account and open its verification link."""
    added = httpx.post(
        f"{base}/api/account/email",
        json={"email": email, "password": PASSWORD, "lang": "uk"},
        headers=auth,
    )
    assert added.status_code == 202, added.text
    assert added.json() == {"email": None, "pending": email}
    token = link_token(inbox.wait(email), "verify-email")
    done = httpx.post(f"{base}/api/account/email/verify", json={"token": token}, headers=address())
    assert done.status_code == 200, done.text


def reset_mail(
    base: str, inbox: Inbox, name: str, auth: dict[str, str], *, by_address: bool
) -> EmailMessage:
    """Verify an address for the account, then ask for a reset link by its name or its
    address (written in capitals: addresses match whatever their case): the mail."""
    email = f"{name.lower()}@example.org"
    verified(base, inbox, auth, email)
    who = email.upper() if by_address else name
    asked = httpx.post(f"{base}/api/account/recover", json={"who": who}, headers=address())
    assert asked.status_code == 202
    return inbox.wait(email, count=2)  # the verification came first


def reset(base: str, token: str, password: str) -> httpx.Response:
    """Use a reset link's token with a new password."""
    return httpx.post(
        f"{base}/api/account/reset", json={"token": token, "new_password": password}, headers=WEB
    )


def login(base: str, name: str, password: str) -> httpx.Response:
    """Log in from an address of its own."""
    return httpx.post(
        f"{base}/api/account/login", json={"name": name, "password": password}, headers=address()
    )


# ---------------------------------------------------------------- the mailer
def test_the_smtp_mailer_delivers_off_the_event_loop(inbox: Inbox) -> None:
    mailer = SmtpMailer(parse_smtp_url(inbox.url))
    to = f"{uuid.uuid4().hex[:8]}@example.org"

    async def send() -> None:
        mailer.send(Mail(to, "Вітаємо", "Привіт, Оля!\nДругий рядок."))
        # send() only queued it: nothing has been delivered yet.
        assert mailer.delivered == 0
        await mailer.flush()
        await mailer.close()

    asyncio.run(send())
    message = inbox.wait(to)
    assert message["Subject"] == "Вітаємо"
    assert message["From"] == "games@cardtable.test"
    assert body(message).startswith("Привіт, Оля!\nДругий рядок.")
    assert mailer.delivered == 1


def test_a_mail_server_that_cannot_be_reached_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = parse_smtp_url("smtp://127.0.0.1:9?timeout=5")  # the discard port: refused
    mailer = SmtpMailer(config, tries=2, retry_seconds=0.0)

    async def send() -> None:
        mailer.send(Mail("ann@example.org", "subject", "text"))
        await mailer.flush()

    with caplog.at_level(logging.WARNING, logger="cardtable.server.mail"):
        asyncio.run(send())
    assert mailer.failed == 1
    assert "cannot send mail to ann@example.org" in caplog.text


def test_without_smtp_the_mail_is_written_to_the_log(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="cardtable.server.mail"):
        LogMailer().send(Mail("ann@example.org", "Reset", "open https://x/reset#abc"))
    assert "ann@example.org" in caplog.text
    assert "https://x/reset#abc" in caplog.text


@pytest.mark.parametrize(
    "url", ["smtp://", "http://host", "smtp://h?starttls=maybe", "smtps://h?starttls=1"]
)
def test_a_bad_smtp_url_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="smtp|starttls|host"):
        parse_smtp_url(url)


# ---------------------------------------------------------- verification
def test_an_address_is_verified_by_its_link_in_the_accounts_language(
    mail_server: ServerThread, inbox: Inbox
) -> None:
    base = mail_server.base
    name, auth = register(base)
    email = f"{name.lower()}@example.org"
    wrong = httpx.post(
        f"{base}/api/account/email",
        json={"email": email, "password": "not it at all", "lang": "uk"},
        headers=auth,
    )
    assert wrong.status_code == 403
    bad = httpx.post(
        f"{base}/api/account/email",
        json={"email": "not an address", "password": PASSWORD},
        headers=auth,
    )
    assert (bad.status_code, bad.json()["detail"]["code"]) == (422, "bad_email")
    verified(base, inbox, auth, email)
    message = inbox.wait(email)
    assert message["Subject"] == "Підтвердьте адресу електронної пошти для cardtable"
    assert link(message, "verify-email").startswith("https://cards.example.org/verify-email#")
    state = httpx.get(f"{base}/api/account/email", headers=auth).json()
    assert state == {"email": email, "pending": None}
    token = link_token(message, "verify-email")
    again = httpx.post(f"{base}/api/account/email/verify", json={"token": token}, headers=WEB)
    assert (again.status_code, again.json()["detail"]["code"]) == (410, "link_used")


# ------------------------------------------------------------------ reset
def test_a_reset_link_sets_the_password_ends_every_session_and_works_once(
    mail_server: ServerThread, inbox: Inbox
) -> None:
    base = mail_server.base
    name, auth = register(base)
    other = httpx.post(
        f"{base}/api/account/login",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=address(),
    ).json()["token"]
    message = reset_mail(base, inbox, name, auth, by_address=False)
    assert message["Subject"] == "Скидання пароля cardtable"  # the account's language
    token = link_token(message, "reset")
    short = reset(base, token, "short")
    assert (short.status_code, short.json()["detail"]["code"]) == (422, "password_short")
    done = reset(base, token, "a brand new secret")
    assert done.status_code == 204, done.text
    for headers in (auth, {"Authorization": f"Bearer {other}"}):
        assert httpx.get(f"{base}/api/account", headers=headers).status_code == 401
    old = login(base, name, PASSWORD)
    assert old.status_code == 401
    new = login(base, name, "a brand new secret")
    assert new.status_code == 200
    used = reset(base, token, "yet another secret")
    assert (used.status_code, used.json()["detail"]["code"]) == (410, "link_used")


def test_an_expired_or_unknown_reset_link_is_refused(
    mail_server: ServerThread, inbox: Inbox
) -> None:
    base = mail_server.base
    name, auth = register(base)
    email = f"{name.lower()}@example.org"
    token = link_token(reset_mail(base, inbox, name, auth, by_address=True), "reset")
    # The link's time runs out (moved back in the database: no test waits 30 minutes).
    storage = Storage(mail_server.app.state.hub.storage.engine.url.render_as_string(False))
    try:
        storage.write(
            lambda s: s.execute(
                update(AccountTokenRow)
                .where(AccountTokenRow.purpose == "reset", AccountTokenRow.email == email)
                .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
            )
        ).result(timeout=30)
    finally:
        storage.close()
    late = reset(base, token, "a brand new secret")
    assert (late.status_code, late.json()["detail"]["code"]) == (410, "link_expired")
    unknown = reset(base, "x" * 43, "a brand new secret")
    assert (unknown.status_code, unknown.json()["detail"]["code"]) == (400, "link_unknown")
    # The password is what it was.
    assert login(base, name, PASSWORD).status_code == 200


def test_forgot_password_answers_alike_whoever_is_asked_about(
    mail_server: ServerThread, inbox: Inbox
) -> None:
    base = mail_server.base
    known, auth = register(base)
    email = f"{known.lower()}@example.org"
    verified(base, inbox, auth, email)
    without_email, _ = register(base)
    answers = [
        httpx.post(f"{base}/api/account/recover", json={"who": who}, headers=address())
        for who in (
            f"Nobody{uuid.uuid4().hex[:8]}",
            f"nobody{uuid.uuid4().hex[:8]}@example.org",
            without_email,
            known,
        )
    ]
    assert {a.status_code for a in answers} == {202}
    assert len({a.content for a in answers}) == 1  # the same words, byte for byte
    assert len({tuple(sorted(a.headers.keys())) for a in answers}) == 1
    mail_server.app.state.recovery.settle_from_thread(60)  # every request's work is done
    # Only the known account was mailed: its verification, then its reset link.
    assert len(inbox.to(email)) == 2
    assert not [m for m in inbox.messages if without_email.lower() in str(m["To"])]


def test_forgot_password_is_limited_per_address_and_per_account(
    mail_server: ServerThread, inbox: Inbox
) -> None:
    base = mail_server.base
    name, auth = register(base)
    email = f"{name.lower()}@example.org"
    verified(base, inbox, auth, email)
    one = address()
    answers = [
        httpx.post(f"{base}/api/account/recover", json={"who": name}, headers=one).status_code
        for _ in range(6)
    ]
    assert answers == [202] * 5 + [429]
    # From other addresses the answer stays 202, but the account gets no more than its
    # two mails in a row (the verification, then two reset links).
    for _ in range(3):
        assert (
            httpx.post(f"{base}/api/account/recover", json={"who": name}, headers=address())
        ).status_code == 202
    inbox.wait(email, count=3)
    mail_server.app.state.recovery.settle_from_thread(60)  # every request's work is done
    assert len(inbox.to(email)) == 3
