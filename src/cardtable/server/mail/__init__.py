"""Email from the server: a small interface the other capabilities call (:class:`Mailer`),
sent by SMTP off the event loop (``serve --smtp URL``) or, without ``--smtp``, written
to the server's log.

- :mod:`.mailer` — :class:`Mail`, the :class:`Mailer` interface, :class:`LogMailer`
  and :class:`SmtpMailer` (a queue drained by one task, each delivery on a thread);
- :mod:`.smtp` — the ``--smtp`` URL read into :class:`SmtpConfig`;
- :mod:`.texts` — the emails' words in English and Ukrainian.

A caller writes ``mailer.send(Mail(to, subject, text))``: it returns at once and never
raises for a delivery problem (that is logged), so no request ever waits on a mail
server.
"""

from cardtable.server.mail.mailer import LogMailer, Mail, Mailer, SmtpMailer, open_mailer
from cardtable.server.mail.smtp import SmtpConfig, parse_smtp_url

__all__ = [
    "LogMailer",
    "Mail",
    "Mailer",
    "SmtpConfig",
    "SmtpMailer",
    "open_mailer",
    "parse_smtp_url",
]
