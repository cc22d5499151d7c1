"""Tournaments on the server: an authority above tables, as the table is above the engine.

- :mod:`.models` — the rows (migration 0007);
- :mod:`.store` — reads and writes of them, a whole tournament read at once;
- :mod:`.service` — the director of each running tournament: pairs, opens tables,
  collects results, forfeits the absent, finishes;
- :mod:`.arena` — an arena's step: overlapping waves paired as players become free,
  until its end time;
- :mod:`.commands` — what players and the organiser ask;
- :mod:`.views` — what the API shows, and the exports;
- :mod:`.routes` — the HTTP routes and the ``/ws/tournament/{id}`` socket.

Pairing and standings are :mod:`cardtable.tournament`'s, the same as the arena's.
"""

from cardtable.server.tournaments.service import Tournaments

__all__ = ["Tournaments"]
