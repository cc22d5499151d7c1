"""The ``--smtp`` URL: where and how the server sends mail.

``smtp://[USER[:PASSWORD]@]HOST[:PORT][?starttls=1&from=ADDRESS]`` — plain SMTP (port
25 by default, 587 with ``starttls``); ``smtps://…`` — SMTP over TLS from the first byte
(port 465 by default). User and password are percent-decoded (``%40`` for ``@``).
``from`` is the sender's address (``cardtable@localhost`` by default); ``timeout`` the
seconds one delivery may take (30).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["SmtpConfig", "parse_smtp_url"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, slots=True)
class SmtpConfig:
    """Where and how to send: host, port, TLS, credentials, the sender's address."""

    host: str
    port: int
    #: ``smtps``: TLS from the first byte; ``starttls``: upgrade a plain connection.
    tls: bool = False
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str = "cardtable@localhost"
    timeout: float = 30.0

    def shown(self) -> str:
        """The URL as it may be printed or logged: the password masked."""
        scheme = "smtps" if self.tls else "smtp"
        who = (
            f"{self.user}:***@"
            if self.user and self.password
            else (f"{self.user}@" if self.user else "")
        )
        extra = "?starttls=1" if self.starttls else ""
        return f"{scheme}://{who}{self.host}:{self.port}{extra}"


def parse_smtp_url(url: str) -> SmtpConfig:
    """Read an ``--smtp`` URL, or raise :class:`ValueError` saying what is wrong.

    >>> config = parse_smtp_url("smtp://mail.example.org?starttls=1&from=games@example.org")
    >>> config.host, config.port, config.starttls, config.sender
    ('mail.example.org', 587, True, 'games@example.org')
    >>> parse_smtp_url("smtps://ann:p%40ss@127.0.0.1").shown()
    'smtps://ann:***@127.0.0.1:465'
    >>> parse_smtp_url("http://example.org")
    Traceback (most recent call last):
    ...
    ValueError: an --smtp URL starts with smtp:// or smtps://, not 'http://'
    """
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(
            f"an --smtp URL starts with smtp:// or smtps://, not {parts.scheme + '://'!r}"
        )
    if not parts.hostname:
        raise ValueError("an --smtp URL names a host: smtp://HOST[:PORT]")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("the --smtp port is a number from 1 to 65535") from None
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    unknown = set(query) - {"starttls", "from", "timeout"}
    if unknown:
        raise ValueError(f"unknown --smtp setting {sorted(unknown)[0]!r}: starttls, from, timeout")
    flag = query.get("starttls", "0").lower()
    if flag not in _TRUE | _FALSE:
        raise ValueError("starttls is 1 or 0")
    starttls = flag in _TRUE
    tls = parts.scheme == "smtps"
    if tls and starttls:
        raise ValueError("smtps:// is TLS already: starttls goes with smtp://")
    try:
        timeout = float(query.get("timeout", "30"))
    except ValueError:
        raise ValueError("timeout is a number of seconds") from None
    sender = query.get("from", "cardtable@localhost")
    if "@" not in sender or any(c in sender for c in "\r\n<>"):
        raise ValueError(f"the sender {sender!r} is not an email address")
    return SmtpConfig(
        host=parts.hostname,
        port=port or (465 if tls else 587 if starttls else 25),
        tls=tls,
        starttls=starttls,
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        sender=sender,
        timeout=timeout if timeout > 0 else 30.0,
    )
