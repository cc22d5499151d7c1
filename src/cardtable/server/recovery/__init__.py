"""Account recovery: an email address on the account, verified by a link, and a
forgotten password reset by a one-time link (docs/server.md, "Email and recovery").

- :mod:`.models` — the links' rows (``account_tokens``, migration 0010);
- :mod:`.store` — addresses, links used once, the reset that ends every session;
- :mod:`.service` — :class:`~.service.Recovery`: makes the links, mails them (through
  :mod:`cardtable.server.mail`), and the rate limits;
- :mod:`.routes` — the HTTP routes.

A "forgot password" request is answered before anything is looked up (the work goes
on in the background), so neither its answer nor its timing tells whether a name or
an address exists.
"""
