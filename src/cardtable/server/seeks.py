"""The "play now" queue: seeks for a game and time control, paired into tables.

A *seek* is a person waiting for a game: a game, rated or casual, an optional time
control, and who they are (a guest's display name, or a signed-in account). Seeks with
the same game, rating and clock form one *queue*. A queue becomes a table as soon as it
holds the game's most players (Candidate: two, so two seeks pair at once), or once it has
held the fewest players for :attr:`Seeks.window` seconds (Spy: 2–8 players gather for a
short window after the second one came). Anyone waiting :attr:`Seeks.bots_after`
seconds may instead fill the empty seats with bots (:meth:`Seeks.fill_with_bots`).

The server creates the table: it deals (its own seed, as every table), puts the players
and bots in the seats in random order, and seats each person with their own token. Each
seek has a secret known only to its owner; only that secret reads the seek's seat token.

A seek lives only while its owner asks about it (:meth:`Seeks.poll`, the client's
heartbeat): one not asked about for :attr:`Seeks.heartbeat` seconds is gone — the page
was closed — and so is a cancelled one. The state is held in the server process (one
process serves a queue; a restart forgets the waiting seeks, never a table). Time
passes lazily: every call looks at the clock first (:meth:`Seeks.sweep`).
"""

from __future__ import annotations

import asyncio
import hmac
import random
import secrets
from dataclasses import dataclass
from typing import Any

from cardtable.server.runtime import Hub, HubError
from cardtable.table import TimeControl, hash_token

__all__ = ["Queue", "Seek", "Seeks"]

#: What makes two seeks meet: game, rated, and the clock (initial and increment in ms).
Queue = tuple[str, bool, TimeControl | None]


@dataclass(eq=False)
class Seek:
    """One person waiting in a queue."""

    id: str
    secret_hash: str
    queue: Queue
    name: str
    account: str | None
    since: float
    #: When the owner last asked (the heartbeat).
    seen: float
    #: Once seated: the table, the seat and the seat's secret token (its owner's only).
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None

    def public(self, now: float) -> dict[str, Any]:
        """What the lobby shows of a waiting seek: never its secret, never a token."""
        game, rated, tc = self.queue
        return {
            "id": self.id,
            "game": game,
            "rated": rated,
            "time_control": tc.to_dict() if tc else None,
            "name": self.name,
            "signed_in": self.account is not None,
            "waited": round(now - self.since, 1),
        }


class Seeks:
    """Every queue of one server process."""

    def __init__(
        self,
        hub: Hub,
        *,
        window: float = 10.0,
        bots_after: float = 20.0,
        heartbeat: float = 10.0,
    ) -> None:
        self.hub = hub
        #: Seconds a queue gathers once it holds the game's fewest players.
        self.window = window
        #: Seconds a seek waits before its owner may fill the table with bots.
        self.bots_after = bots_after
        #: Seconds without a heartbeat after which a seek is gone.
        self.heartbeat = heartbeat
        self.seeks: dict[str, Seek] = {}
        self._lock = asyncio.Lock()
        self._random = random.SystemRandom()

    # ----------------------------------------------------------------- asking
    async def add(
        self,
        game: str,
        rated: bool,
        time_control: TimeControl | None,
        name: str,
        account: str | None,
    ) -> tuple[Seek, str]:
        """A new seek and its secret. An account waits in one queue at a time: its
        older seek is dropped. A rated seek needs an account (the route refuses a
        guest's first; this is the second line)."""
        self.hub.game(game)  # 422 for an unknown game
        if rated and account is None:
            raise HubError(
                403,
                "rated_needs_account",
                "rated tables are for signed-in players: sign in, or play unrated",
            )
        secret = secrets.token_urlsafe(24)
        now = self.hub.now()
        async with self._lock:
            if account is not None:
                for old in [s for s in self.seeks.values() if s.account == account]:
                    if old.table_id is None:
                        del self.seeks[old.id]
            seek = Seek(
                id=secrets.token_urlsafe(9),
                secret_hash=hash_token(secret),
                queue=(game, rated, time_control),
                name=name,
                account=account,
                since=now,
                seen=now,
            )
            self.seeks[seek.id] = seek
            await self._sweep()
        return seek, secret

    async def poll(self, seek_id: str, secret: str) -> Seek:
        """The owner's heartbeat: the seek as it is now (seated, once paired)."""
        async with self._lock:
            seek = self._owned(seek_id, secret)
            seek.seen = self.hub.now()
            await self._sweep()
        return seek

    async def cancel(self, seek_id: str, secret: str) -> None:
        """The owner leaves the queue (a seated seek is only forgotten: the seat stays
        taken, and a bot takes over if its player never comes)."""
        async with self._lock:
            seek = self._owned(seek_id, secret)
            del self.seeks[seek.id]

    async def fill_with_bots(
        self, seek_id: str, secret: str, seats: int | None, level: str
    ) -> Seek:
        """Start the owner's queue now, the empty seats taken by bots of ``level``.

        Allowed once the seek has waited :attr:`bots_after` seconds. Everyone waiting
        in the same queue sits down too (up to the game's most players); ``seats`` is
        the table's size (default the game's fewest), never fewer than the people.
        """
        async with self._lock:
            seek = self._owned(seek_id, secret)
            now = self.hub.now()
            seek.seen = now
            await self._sweep()
            if seek.table_id is not None:
                return seek
            waited = now - seek.since
            if waited < self.bots_after:
                wait = round(self.bots_after - waited, 1)
                raise HubError(
                    409,
                    "seek_bots_later",
                    f"bots may fill the table after {wait:g} s more of waiting",
                    {"seconds": wait},
                )
            info = self.hub.game(seek.queue[0]).info
            others = [s for s in self._waiting(seek.queue) if s is not seek]
            people = [seek, *others[: info.max_players - 1]]
            size = max(len(people), seats or info.min_players)
            if size > info.max_players:
                raise HubError(
                    422,
                    "seek_seats",
                    f"this game seats {info.min_players} to {info.max_players} players",
                    {"min": info.min_players, "max": info.max_players},
                )
            await self._seat(seek.queue, people, [level] * (size - len(people)))
        return seek

    def waiting(self) -> list[dict[str, Any]]:
        """The lobby's list: every waiting seek, oldest first (no secrets, no tokens)."""
        now = self.hub.now()
        return [
            s.public(now)
            for s in sorted(self.seeks.values(), key=lambda s: s.since)
            if s.table_id is None and now - s.seen <= self.heartbeat
        ]

    async def sweep(self) -> None:
        """Let time pass: drop the seeks whose owner left, start the queues that are due."""
        async with self._lock:
            await self._sweep()

    def status(self, seek: Seek) -> dict[str, Any]:
        """What the owner's poll answers besides the seat: how many wait in the queue,
        when the gathering window closes, when bots may fill the table."""
        if seek.table_id is not None:
            return {"in_queue": 0, "starts_in": None, "bots_in": 0.0}
        now = self.hub.now()
        info = self.hub.game(seek.queue[0]).info
        queue = self._waiting(seek.queue)
        starts_in = None
        if len(queue) >= info.min_players:
            starts_in = round(max(0.0, queue[info.min_players - 1].since + self.window - now), 1)
        return {
            "in_queue": len(queue),
            "starts_in": starts_in,
            "bots_in": round(max(0.0, seek.since + self.bots_after - now), 1),
        }

    # ----------------------------------------------------------------- inside
    def _owned(self, seek_id: str, secret: str) -> Seek:
        """The seek ``seek_id`` if ``secret`` is its own, else the same 404 for an unknown
        seek and a wrong secret (a seek's id is public, its secret is not)."""
        seek = self.seeks.get(seek_id)
        if seek is None or not hmac.compare_digest(seek.secret_hash, hash_token(secret)):
            raise HubError(404, "no_seek", "no such seek: it was cancelled or has expired")
        return seek

    def _waiting(self, queue: Queue) -> list[Seek]:
        """The seeks of ``queue`` not seated yet, oldest first."""
        return sorted(
            (s for s in self.seeks.values() if s.queue == queue and s.table_id is None),
            key=lambda s: s.since,
        )

    async def _sweep(self) -> None:
        now = self.hub.now()
        for seek in list(self.seeks.values()):
            if now - seek.seen > self.heartbeat:
                del self.seeks[seek.id]
        for queue in {s.queue for s in self.seeks.values() if s.table_id is None}:
            info = self.hub.game(queue[0]).info
            waiting = self._waiting(queue)
            while len(waiting) >= info.max_players:
                await self._seat(queue, waiting[: info.max_players], [])
                waiting = waiting[info.max_players :]
            if len(waiting) >= info.min_players and (
                now >= waiting[info.min_players - 1].since + self.window
            ):
                await self._seat(queue, waiting, [])

    async def _seat(self, queue: Queue, people: list[Seek], bots: list[str]) -> None:
        """Create the table of ``people`` and ``bots`` (seats in random order), dealt by
        the server, and seat each person with a token of their own."""
        game, rated, tc = queue
        order: list[Seek | str] = [*people, *bots]
        self._random.shuffle(order)
        table = await self.hub.create_table(
            game=game,
            options={},
            bot_levels=[None if isinstance(s, Seek) else s for s in order],
            time_control=tc,
            rated=rated,
            seed=None,
        )
        invites = dict(table.open_invites())
        for index, seek in enumerate(order):
            if isinstance(seek, Seek):
                _, seat, token = await self.hub.join(
                    table.id, invites[index], seek.name, account=seek.account
                )
                seek.table_id, seek.seat, seek.token = table.id, seat, token
