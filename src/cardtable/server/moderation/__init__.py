"""Moderation: players report players; moderators warn, mute, ban and rename, every
action logged with who and why (docs/server.md, "Moderation").

- :mod:`.models` — ``reports`` and ``moderation_actions`` (migration 0010);
- :mod:`.store` — reports filed and read with their chat and games, actions done with
  their log line, the moderator role;
- :mod:`.service` — :class:`~.service.Moderation`: the live tables' gate (mutes, bans)
  and actions carried out on every process;
- :mod:`.routes` — the HTTP routes; :mod:`.admin` — ``cardtable admin``.
"""
