"""Bot accounts, personal API tokens and the Bot API (docs/bot-api.md).

- :mod:`.tokens` — tokens made, proven, limited, revoked (:class:`~.tokens.Gatekeeper`);
- :mod:`.store` and :mod:`.models` — their storage, bot accounts, bots' seats, the
  ratings pool of games with a bot;
- :mod:`.streams` — the NDJSON streams and why NDJSON;
- :mod:`.service` — :class:`~.service.BotApi`: everything a bot does, through the one
  table;
- :mod:`.routes` — the HTTP routes.

This package's own ``__init__`` imports nothing, so the storage layer may read
:mod:`.store` without a cycle.
"""
