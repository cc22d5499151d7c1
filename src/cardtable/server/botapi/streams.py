"""The Bot API's two streams, as NDJSON lines: the account's events and one seat's game.

Why NDJSON over HTTP rather than the table WebSocket: a bot is a program, often a short
script, and every language's plain HTTP client reads a streamed response line by line
(``curl -N``, ``requests``' ``iter_lines``, ``httpx``' ``aiter_lines``), through any
proxy, with the token in one header; it needs no WebSocket library, no framing and no
ping loop. Moves go the other way as ordinary POSTs whose answer says at once whether
the move was taken. lichess's Bot API made the same choice, so bot frameworks already
speak it.

**Events** (``GET /api/bot/stream/event``): ``{"type": "challenge", …}`` for each
pending challenge to the bot, ``{"type": "gameStart", …}`` for each game it holds a
seat in (all of them again after a reconnection), ``{"type": "gameFinish", …}`` when
one ends. An empty line every :data:`KEEPALIVE` seconds keeps proxies from closing it.

**A game** (``GET /api/bot/game/stream/{id}``): exactly the messages a person's
WebSocket at that seat gets (docs/protocol.md: ``welcome``, ``update``, ``ack``,
``resync``, ``error``, ``chat``): the server says ``hello`` with the seat's token on the
bot's behalf through the one table, so the bot sees the seat's own view and legal moves
and nothing else. The stream ends after the match is over.

Both read the token again every :data:`~.tokens.RECHECK_SECONDS` and end once it is
revoked.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final

__all__ = ["KEEPALIVE", "SeatSocket", "finished", "line"]

#: Seconds of silence after which a stream sends an empty line.
KEEPALIVE: Final = 5.0
#: The table's answers to a sender, and how many a socket keeps.
ANSWERS: Final = frozenset({"ack", "resync", "error"})
KEPT: Final = 16


def line(message: dict[str, Any]) -> str:
    """One NDJSON line."""
    return json.dumps(message, separators=(",", ":")) + "\n"


class SeatSocket:
    """The socket of a bot's seat connection: what the table sends is queued for the
    stream, and the answers meant for the sender (``ack``, ``resync``, ``error``) are
    kept too, for the POST that sent the message."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        #: The answers so far (the latest :data:`KEPT` of them).
        self.answers: list[dict[str, Any]] = []
        #: How many answers came in all.
        self.answered = 0
        self.closed = False

    async def send_text(self, data: str) -> None:
        """A message of the table to this seat."""
        self.queue.put_nowait(data)
        message = json.loads(data)
        if message.get("type") in ANSWERS:
            self.answered += 1
            self.answers = [*self.answers[-(KEPT - 1) :], message]

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """The table closed the connection."""
        self.closed = True
        self.queue.put_nowait(None)

    def since(self, count: int) -> list[dict[str, Any]]:
        """The answers that came after the first ``count``."""
        return (
            self.answers[len(self.answers) - (self.answered - count) :]
            if (self.answered > count)
            else []
        )


def finished(data: str) -> bool:
    """Whether a table message says the match is over."""
    try:
        state = json.loads(data).get("state")
    except (ValueError, AttributeError):
        return False
    return isinstance(state, dict) and state.get("status") == "finished"
