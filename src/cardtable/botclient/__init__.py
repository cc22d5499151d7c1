"""``cardtable connect``: a program plays on a cardtable server as a bot account.

- :mod:`.client` — :class:`~.client.BotClient`: the event stream, challenges within
  :class:`~.client.Limits`, one task per game, reconnecting, the games' log;
- :mod:`.players` — ``--bot`` specs read into a roster; a seat's player;
- :mod:`.candidate_seat`, :mod:`.spy_seat` — a seat's information set rebuilt from the
  messages the server sends that seat (nothing else is known to it).

A face of its own: it speaks to the server over HTTP only (httpx), never imports it.
"""
