"""The "play now" queue: seeks for a game and time control, paired into tables.

A *seek* is a person waiting for a game: a game, rated or casual, an optional time
control, and who they are (a guest's display name, or a signed-in account). Seeks with
the same game, rating and clock form one *queue*. A queue becomes a table as soon as it
holds the game's most players (Candidate: two, so two seeks pair at once), or once it has
held the fewest players for :attr:`Seeks.window` seconds (Spy: 2–8 players gather for a
short window after the second one came). Anyone waiting :attr:`Seeks.bots_after`
seconds may instead fill the empty seats with bots (:meth:`Seeks.fill_with_bots`).

Two accounts one of which blocked the other never sit together (:attr:`Hub.apart`):
each waits for someone else. A queue at days per move (signed-in players, a turn-based
game, no clock, no bots) seats a correspondence game: a table without stand-ins that
the community times (:attr:`Seeks.on_correspondence`).

The server creates the table: it deals (its own seed, as every table), puts the players
and bots in the seats in random order, and seats each person with their own token. Each
seek has a secret known only to its owner; only that secret reads the seek's seat token.

A seek lives only while its owner asks about it (:meth:`Seeks.poll`, the client's
heartbeat): one not asked about for :attr:`Seeks.heartbeat` seconds is gone — the page
was closed — and so is a cancelled one. Time passes lazily: every call looks at the
clock first (:meth:`Seeks.sweep`).

Where the seeks live is the *store*'s business. One process keeps them in its memory
(:class:`LocalSeeks`; a restart forgets the waiting seeks, never a table). Several
processes (``serve --redis``) keep them in one Redis hash (:class:`SharedSeeks`): every
call runs under a lock that holds across processes and reads the hash, changes it and
writes back what changed — a script that writes only while the lock's lease is still
the caller's. So a queue pairs once whichever processes its seeks were made and polled
on; the process that pairs creates the table. Their clocks are the machines' wall
clocks (the processes of one site keep them in step, as NTP does).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from cardtable.server.runtime import Hub, HubError
from cardtable.server.shared import LockLost, LockTimeout, Shared
from cardtable.table import TimeControl, hash_token

__all__ = ["LocalSeeks", "Queue", "Seek", "SeekStore", "Seeks", "SharedSeeks", "Status"]

#: What the owner's poll answers besides the seek: ``in_queue``, ``starts_in``, ``bots_in``.
Status = dict[str, Any]

#: What makes two seeks meet: game, rated, the clock (initial and increment in ms) and
#: the days per move of a correspondence game (``None``: a live game).
Queue = tuple[str, bool, TimeControl | None, int | None]


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
    #: The table's public facts when it was made (for a process that does not hold it).
    table: dict[str, Any] | None = None

    def dump(self) -> str:
        """As the shared store keeps it (JSON)."""
        game, rated, tc, days = self.queue
        return json.dumps(
            {
                "id": self.id,
                "secret_hash": self.secret_hash,
                "queue": [game, rated, [tc.initial_ms, tc.increment_ms] if tc else None, days],
                "name": self.name,
                "account": self.account,
                "since": self.since,
                "seen": self.seen,
                "table_id": self.table_id,
                "seat": self.seat,
                "token": self.token,
                "table": self.table,
            },
            sort_keys=True,
        )

    @classmethod
    def load(cls, text: str) -> Seek:
        """The seek :meth:`dump` wrote."""
        data = json.loads(text)
        game, rated, tc, *days = data.pop("queue")  # kept before days existed: none
        return cls(
            queue=(game, rated, TimeControl(*tc) if tc else None, days[0] if days else None),
            **data,
        )

    def public(self, now: float) -> dict[str, Any]:
        """What the lobby shows of a waiting seek: never its secret, never a token."""
        game, rated, tc, days = self.queue
        return {
            "id": self.id,
            "game": game,
            "rated": rated,
            "time_control": tc.to_dict() if tc else None,
            "days": days,
            "name": self.name,
            "signed_in": self.account is not None,
            "guest": self.account is None,
            "waited": round(now - self.since, 1),
        }


class SeekStore(Protocol):
    """Where the seeks live: one process's memory, or Redis shared by several."""

    def holding(self) -> contextlib.AbstractAsyncContextManager[dict[str, Seek]]:
        """Every seek by id, held alone (no other call, in any process, meanwhile);
        what the caller changes in the dict and its seeks is kept when it lets go."""
        ...

    async def peek(self) -> dict[str, Seek]:
        """Every seek by id as it is now, to read only."""
        ...


class LocalSeeks:
    """The seeks of one process, in its memory."""

    def __init__(self) -> None:
        self.seeks: dict[str, Seek] = {}
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def holding(self) -> AsyncIterator[dict[str, Seek]]:
        async with self._lock:
            yield self.seeks

    async def peek(self) -> dict[str, Seek]:
        return self.seeks


#: Write what changed, only while the lock (KEYS[1]) still holds the caller's token
#: (ARGV[1]): ARGV[3] fields to set (id, JSON pairs), then the ids to delete. The hash
#: expires an hour after its last change (a site whose processes all stopped).
_SAVE = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
local n = tonumber(ARGV[3])
for i = 4, 3 + n, 2 do redis.call('hset', KEYS[2], ARGV[i], ARGV[i + 1]) end
for i = 4 + n, #ARGV do redis.call('hdel', KEYS[2], ARGV[i]) end
redis.call('pexpire', KEYS[2], tonumber(ARGV[2]))
return 1
"""


class SharedSeeks:
    """The seeks of every process of a site, in one Redis hash (id → JSON)."""

    #: Milliseconds the hash outlives its last change.
    KEEP_MS = 3_600_000

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.key = shared.key("seeks")
        #: Seconds the lock is held at most (a process that died holding it blocks the
        #: queues that long); pairing takes milliseconds.
        self.lease = 15.0
        self._save = shared.script(_SAVE)

    async def _read(self) -> dict[str, str]:
        raw = await self.shared.redis.hgetall(self.key)
        return cast(dict[str, str], raw)  # the client decodes replies to str

    @contextlib.asynccontextmanager
    async def holding(self) -> AsyncIterator[dict[str, Seek]]:
        try:
            async with self._holding() as seeks:
                yield seeks
        except (LockTimeout, LockLost):
            # Another process held the queues too long, or this one lost its lease
            # (nothing was written): the client may simply ask again.
            raise HubError(
                503, "seeks_busy", "the play-now queues are busy: try again in a moment"
            ) from None

    @contextlib.asynccontextmanager
    async def _holding(self) -> AsyncIterator[dict[str, Seek]]:
        async with self.shared.locked("seeks", lease=self.lease) as token:
            before = await self._read()
            seeks = {id_: Seek.load(text) for id_, text in before.items()}
            try:
                yield seeks
            finally:
                # Kept even when the caller raised: a sweep before a refusal still
                # seated people (as in memory, where changes are made in place).
                after = {id_: seek.dump() for id_, seek in seeks.items()}
                changed = [(i, t) for i, t in after.items() if before.get(i) != t]
                gone = [i for i in before if i not in after]
                if changed or gone:
                    pairs = [part for pair in changed for part in pair]
                    written = await self._save(
                        keys=[self.shared.lock_key("seeks"), self.key],
                        args=[token, self.KEEP_MS, len(pairs), *pairs, *gone],
                    )
                    if not written:
                        raise LockLost("the seeks' lock ran out before they were written")

    async def peek(self) -> dict[str, Seek]:
        return {id_: Seek.load(text) for id_, text in (await self._read()).items()}


class Seeks:
    """Every queue of the site: in this process's memory, or shared through Redis."""

    def __init__(
        self,
        hub: Hub,
        *,
        shared: Shared | None = None,
        window: float = 10.0,
        bots_after: float = 20.0,
        heartbeat: float = 10.0,
    ) -> None:
        self.hub = hub
        self.store: SeekStore = LocalSeeks() if shared is None else SharedSeeks(shared)
        #: The clock of the seeks' times: the hub's in one process, the wall clock
        #: when processes (perhaps on several machines) share them.
        self.clock: Callable[[], float] = hub.now if shared is None else time.time
        #: Seconds a queue gathers once it holds the game's fewest players.
        self.window = window
        #: Seconds a seek waits before its owner may fill the table with bots.
        self.bots_after = bots_after
        #: Seconds without a heartbeat after which a seek is gone.
        self.heartbeat = heartbeat
        self._random = random.SystemRandom()
        #: Awaited with a correspondence game a queue just seated: its table, days per
        #: move, each seat's account and each account's token (the community's).
        self.on_correspondence: (
            Callable[[str, int, list[str], dict[str, str]], Awaitable[None]] | None
        ) = None

    # ----------------------------------------------------------------- asking
    async def add(
        self,
        game: str,
        rated: bool,
        time_control: TimeControl | None,
        name: str,
        account: str | None,
        days: int | None = None,
    ) -> tuple[Seek, Status, str]:
        """A new seek, its status and its secret. An account waits in one queue at a
        time: its older seek is dropped. A rated seek needs an account (the route
        refuses a guest's first; this is the second line), and so does a seek at
        ``days`` per move (a correspondence game, of a turn-based game, no clock)."""
        info = self.hub.game(game).info  # 422 for an unknown game
        if days is not None:
            self._check_days(info.name, info.realtime, time_control, account)
        if rated and account is None:
            raise HubError(
                403,
                "rated_needs_account",
                "rated tables are for signed-in players: sign in, or play unrated",
            )
        secret = secrets.token_urlsafe(24)
        async with self.store.holding() as seeks:
            now = self.clock()
            if account is not None:
                for old in [s for s in seeks.values() if s.account == account]:
                    if old.table_id is None:
                        del seeks[old.id]
            seek = Seek(
                id=secrets.token_urlsafe(9),
                secret_hash=hash_token(secret),
                queue=(game, rated, time_control, days),
                name=name,
                account=account,
                since=now,
                seen=now,
            )
            seeks[seek.id] = seek
            await self._sweep(seeks, now)
            status = self._status(seeks, seek, now)
        return seek, status, secret

    async def poll(self, seek_id: str, secret: str) -> tuple[Seek, Status]:
        """The owner's heartbeat: the seek as it is now (seated, once paired)."""
        async with self.store.holding() as seeks:
            now = self.clock()
            seek = self._owned(seeks, seek_id, secret)
            seek.seen = now
            await self._sweep(seeks, now)
            return seek, self._status(seeks, seek, now)

    async def cancel(self, seek_id: str, secret: str) -> None:
        """The owner leaves the queue (a seated seek is only forgotten: the seat stays
        taken, and a bot takes over if its player never comes)."""
        async with self.store.holding() as seeks:
            seek = self._owned(seeks, seek_id, secret)
            del seeks[seek.id]

    async def fill_with_bots(
        self, seek_id: str, secret: str, seats: int | None, level: str
    ) -> tuple[Seek, Status]:
        """Start the owner's queue now, the empty seats taken by bots of ``level``.

        Allowed once the seek has waited :attr:`bots_after` seconds. Everyone waiting
        in the same queue sits down too (up to the game's most players); ``seats`` is
        the table's size (default the game's fewest), never fewer than the people.
        """
        async with self.store.holding() as seeks:
            seek = self._owned(seeks, seek_id, secret)
            now = self.clock()
            seek.seen = now
            await self._sweep(seeks, now)
            if seek.table_id is not None:
                return seek, self._status(seeks, seek, now)
            waited = now - seek.since
            if seek.queue[3] is not None:
                raise HubError(
                    409, "seek_days_bots", "a correspondence game is played between people"
                )
            if waited < self.bots_after:
                wait = round(self.bots_after - waited, 1)
                raise HubError(
                    409,
                    "seek_bots_later",
                    f"bots may fill the table after {wait:g} s more of waiting",
                    {"seconds": wait},
                )
            info = self.hub.game(seek.queue[0]).info
            others = [s for s in self._waiting(seeks, seek.queue) if s is not seek]
            apart = await self._apart([seek, *others])
            people = self._gather([seek, *others], apart, info.max_players)
            size = max(len(people), seats or info.min_players)
            if size > info.max_players:
                raise HubError(
                    422,
                    "seek_seats",
                    f"this game seats {info.min_players} to {info.max_players} players",
                    {"min": info.min_players, "max": info.max_players},
                )
            await self._seat(seek.queue, people, [level] * (size - len(people)))
            return seek, self._status(seeks, seek, now)

    async def waiting(self) -> list[dict[str, Any]]:
        """The lobby's list: every waiting seek, oldest first (no secrets, no tokens)."""
        now = self.clock()
        return [
            s.public(now)
            for s in sorted((await self.store.peek()).values(), key=lambda s: s.since)
            if s.table_id is None and now - s.seen <= self.heartbeat
        ]

    async def sweep(self) -> None:
        """Let time pass: drop the seeks whose owner left, start the queues that are due."""
        async with self.store.holding() as seeks:
            await self._sweep(seeks, self.clock())

    # ----------------------------------------------------------------- inside
    def _status(self, seeks: dict[str, Seek], seek: Seek, now: float) -> Status:
        """What the owner's poll answers besides the seat: how many wait in the queue,
        when the gathering window closes, when bots may fill the table."""
        if seek.table_id is not None:
            return {"in_queue": 0, "starts_in": None, "bots_in": 0.0}
        info = self.hub.game(seek.queue[0]).info
        queue = self._waiting(seeks, seek.queue)
        starts_in = None
        if len(queue) >= info.min_players:
            starts_in = round(max(0.0, queue[info.min_players - 1].since + self.window - now), 1)
        return {
            "in_queue": len(queue),
            "starts_in": starts_in,
            "bots_in": round(max(0.0, seek.since + self.bots_after - now), 1),
        }

    @staticmethod
    def _check_days(
        game: str, realtime: bool, time_control: TimeControl | None, account: str | None
    ) -> None:
        """Refuse a correspondence seek that cannot be one (4xx)."""
        if account is None:
            raise HubError(
                403, "seek_days_account", "correspondence games are for signed-in players"
            )
        if realtime:
            raise HubError(
                422,
                "days_realtime",
                f"{game} is a race: it cannot be played at days per move",
                {"game": game},
                "community.days_realtime",
            )
        if time_control is not None:
            raise HubError(422, "seek_days_clock", "choose a clock or days per move, not both")

    @staticmethod
    def _owned(seeks: dict[str, Seek], seek_id: str, secret: str) -> Seek:
        """The seek ``seek_id`` if ``secret`` is its own, else the same 404 for an unknown
        seek and a wrong secret (a seek's id is public, its secret is not)."""
        seek = seeks.get(seek_id)
        if seek is None or not hmac.compare_digest(seek.secret_hash, hash_token(secret)):
            raise HubError(404, "no_seek", "no such seek: it was cancelled or has expired")
        return seek

    @staticmethod
    def _waiting(seeks: dict[str, Seek], queue: Queue) -> list[Seek]:
        """The seeks of ``queue`` not seated yet, oldest first."""
        return sorted(
            (s for s in seeks.values() if s.queue == queue and s.table_id is None),
            key=lambda s: s.since,
        )

    async def _sweep(self, seeks: dict[str, Seek], now: float) -> None:
        for seek in list(seeks.values()):
            if now - seek.seen > self.heartbeat:
                del seeks[seek.id]
        for queue in {s.queue for s in seeks.values() if s.table_id is None}:
            info = self.hub.game(queue[0]).info
            waiting = self._waiting(seeks, queue)
            apart = await self._apart(waiting)
            while len(group := self._gather(waiting, apart, info.max_players)) >= (
                info.max_players
            ):
                await self._seat(queue, group, [])
                waiting = [s for s in waiting if s not in group]
            group = self._gather(waiting, apart, info.max_players)
            if len(group) >= info.min_players and (
                now >= group[info.min_players - 1].since + self.window
            ):
                await self._seat(queue, group, [])

    async def _apart(self, waiting: list[Seek]) -> set[frozenset[str]]:
        """The pairs of waiting accounts that must not share a table (one blocked the
        other: :attr:`Hub.apart`)."""
        accounts = sorted({s.account for s in waiting if s.account is not None})
        if self.hub.apart is None or len(accounts) < 2:
            return set()
        return await self.hub.apart(accounts)

    @staticmethod
    def _gather(waiting: list[Seek], apart: set[frozenset[str]], most: int) -> list[Seek]:
        """Oldest first, the seeks that may sit together: each one kept unless it is
        kept apart from one already taken (a block), up to ``most``."""
        group: list[Seek] = []
        for seek in waiting:
            if len(group) == most:
                break
            if seek.account is not None and any(
                frozenset((seek.account, other.account)) in apart
                for other in group
                if other.account is not None
            ):
                continue
            group.append(seek)
        return group

    async def _seat(self, queue: Queue, people: list[Seek], bots: list[str]) -> None:
        """Create the table of ``people`` and ``bots`` (seats in random order), dealt by
        the server, and seat each person with a token of their own. Only games between
        people are rated (docs/server.md, Fair play): a rated queue filled with bots sits
        at a casual table, and no table of strangers allows hints."""
        game, rated, tc, days = queue
        order: list[Seek | str] = [*people, *bots]
        self._random.shuffle(order)
        table = await self.hub.create_table(
            game=game,
            options={},
            bot_levels=[None if isinstance(s, Seek) else s for s in order],
            time_control=tc,
            rated=rated and not bots,
            seed=None,
            stand_ins=days is None,
        )
        invites = dict(table.open_invites())
        for index, seek in enumerate(order):
            if isinstance(seek, Seek):
                _, seat, token = await self.hub.join(
                    table.id, invites[index], seek.name, account=seek.account
                )
                seek.table_id, seek.seat, seek.token = table.id, seat, token
        if days is not None and self.on_correspondence is not None:
            await self.on_correspondence(
                table.id,
                days,
                [s.account or "" for s in order if isinstance(s, Seek)],
                {
                    s.account: s.token
                    for s in order
                    if isinstance(s, Seek) and s.account and s.token
                },
            )
        info = table.info()
        for seek in people:
            seek.table = info
