"""Table chat: the players' chat and the spectators' chat of one table.

Two channels per table. ``players``: the seated people write in it, and everyone at the
table (seats and spectators) reads it. ``spectators``: spectators write in it and only
spectators read it, so nothing said by the audience reaches a player during the game
(nor after it: the channels stay apart). The server stamps every line with who said
it — the seat proven by its token at ``hello``, or for a spectator the signed-in
account's name or "spectator n" — and never takes a name from the client.

A line is at most :data:`MAX_CHARS` characters after control characters are taken
out, and each connection may send :data:`BURST` lines at once and one more every
:data:`SECONDS` seconds (a token bucket); the server refuses the rest with a message
id. Lines are stored with the game (:mod:`.chat_store`) and a connection's ``welcome``
carries the last :data:`KEEP` lines of the channels it reads.

This module has no I/O: :class:`ChatRoom` judges a line and says what to store and
whom to tell; the runtime carries it out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final, Literal

from cardtable.server.core import Peer, refusal
from cardtable.server.protocol import ChatLine, Error
from cardtable.table import Table

__all__ = ["BURST", "KEEP", "MAX_CHARS", "SECONDS", "ChatRoom", "clean", "readers"]

#: Longest line, in characters (after cleaning).
MAX_CHARS: Final = 300
#: Lines a connection may send at once, and the seconds to regain one.
BURST: Final = 5
SECONDS: Final = 2.0
#: Lines of each channel a ``welcome`` carries (the newest).
KEEP: Final = 100

Channel = Literal["players", "spectators"]

#: Characters that could reorder or hide the text around them (bidirectional
#: overrides and isolates): taken out like the control characters.
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """``text`` without control characters (C0, C1, DEL; newlines and tabs become
    spaces) or bidirectional overrides, with outer whitespace trimmed.

    >>> clean(" hi\\tthere\\x00\\u202e! \\n")
    'hi there!'
    """
    kept = []
    for char in text:
        if char in "\t\n\r":
            kept.append(" ")
        elif unicodedata.category(char) != "Cc" and char not in _BIDI:
            kept.append(char)
    return "".join(kept).strip()


def readers(channel: str, seat: int | None) -> bool:
    """Whether a connection as ``seat`` (``None``: a spectator) reads ``channel``:
    everyone reads the players' chat, only spectators the spectators'."""
    return channel == "players" or seat is None


@dataclass(slots=True)
class _Sender:
    """What the room knows of one connection: its spectator name and its bucket."""

    account: str | None = None
    number: int | None = None
    tokens: float = float(BURST)
    stamp: float | None = None


@dataclass(eq=False)
class ChatRoom:
    """The chat of one table: its lines so far and the connections that write."""

    lines: list[ChatLine] = field(default_factory=list)
    #: Lines were read from storage (once per table in memory).
    loaded: bool = False
    _senders: dict[Peer, _Sender] = field(default_factory=dict)
    _spectators: int = 0

    def load(self, lines: Iterable[ChatLine]) -> None:
        """Take the stored lines (oldest first), ahead of any said since; spectators
        who speak next are numbered after those already stored."""
        self.lines = [*lines, *self.lines]
        self.loaded = True
        numbers = [line.spectator for line in self.lines if line.spectator is not None]
        self._spectators = max([self._spectators, *numbers])
        self._trim()

    def _trim(self) -> None:
        """Keep in memory only what a ``welcome`` can carry (storage keeps every line)."""
        if len(self.lines) > 4 * KEEP:
            self.lines = self.history(None)

    def sign(self, peer: Peer, account: str | None) -> None:
        """``peer``'s connection is signed in as ``account`` (its name; ``None``: a guest)."""
        self._senders.setdefault(peer, _Sender()).account = account

    def account_of(self, peer: Peer) -> str | None:
        """The account name ``peer``'s connection is signed in as (``None``: a guest)."""
        sender = self._senders.get(peer)
        return sender.account if sender is not None else None

    def forget(self, peer: Peer) -> None:
        """``peer``'s connection closed."""
        self._senders.pop(peer, None)

    def history(self, seat: int | None) -> list[ChatLine]:
        """The newest :data:`KEEP` lines of each channel ``seat`` reads, oldest first."""
        counts = {"players": 0, "spectators": 0}
        shown = []
        for line in reversed(self.lines):
            if readers(line.channel, seat) and counts[line.channel] < KEEP:
                counts[line.channel] += 1
                shown.append(line)
        shown.reverse()
        return shown

    def post(self, peer: Peer, table: Table, text: str, now: float) -> ChatLine | Error:
        """Judge a line ``peer`` sends at ``now`` (a monotonic clock): the stamped line
        to store and pass on, or the ``error`` that refuses it."""
        version = table.version
        if not peer.greeted:
            return refusal("no_hello", "say hello first", version=version)
        said = clean(text)
        if not said:
            return refusal("chat_empty", "a chat message needs some text", version=version)
        if len(said) > MAX_CHARS:
            return refusal(
                "chat_too_long",
                f"a chat message may be at most {MAX_CHARS} characters",
                version=version,
                params={"limit": MAX_CHARS, "length": len(said)},
            )
        sender = self._senders.setdefault(peer, _Sender())
        wait = self._take(sender, now)
        if wait:
            return refusal(
                "chat_rate_limited",
                f"too many chat messages: wait {wait} s",
                version=version,
                params={"seconds": wait},
            )
        seat = peer.seat
        channel: Channel = "players" if seat is not None else "spectators"
        if seat is not None:
            info = table.seats[seat]
            name = info.name or f"Player {seat + 1}"
            signed_in = info.account is not None
        elif sender.account is not None:
            name, signed_in = sender.account, True
        else:
            if sender.number is None:
                self._spectators += 1
                sender.number = self._spectators
            name, signed_in = f"spectator {sender.number}", False
        line = ChatLine(
            number=(self.lines[-1].number + 1) if self.lines else 1,
            channel=channel,
            seat=seat,
            name=name,
            signed_in=signed_in,
            spectator=sender.number if seat is None and not signed_in else None,
            text=said,
            at=datetime.now(UTC),
        )
        self.lines.append(line)
        self._trim()
        return line

    @staticmethod
    def _take(sender: _Sender, now: float) -> int:
        """Take a token from ``sender``'s bucket: 0 when granted, else seconds to wait."""
        if sender.stamp is not None:
            sender.tokens = min(float(BURST), sender.tokens + (now - sender.stamp) / SECONDS)
        sender.stamp = now
        if sender.tokens >= 1:
            sender.tokens -= 1
            return 0
        return max(1, round((1 - sender.tokens) * SECONDS + 0.499))
