"""The community: friends, blocks, challenges, correspondence games and notices.

- :mod:`.models` — the rows (migration 0011);
- :mod:`.store` — reads and writes of them;
- :mod:`.notices` — notices stored, then carried by channels (the page's socket here,
  over Redis to other processes; email may be another channel);
- :mod:`.presence` — who is online and at which tables;
- :mod:`.challenges` — one player challenging another, answered, made into a table;
- :mod:`.correspondence` — games at days per move: turns, deadlines, time-outs;
- :mod:`.service` — the community of one process, joined to the hub and tournaments;
- :mod:`.routes` — the HTTP routes and the per-account socket ``/ws/me``.
"""

from cardtable.server.community.service import Community

__all__ = ["Community"]
