"""The tournament director: runs each tournament's life on the tables of the hub.

Everything a tournament decides is stored first (:mod:`.store`) and recomputed from
storage: pairing and standings are the pure functions of :mod:`cardtable.tournament`.
One *director* task per running tournament (on one process: with several, the
holder of the tournament's lease) sleeps until something happens — a table of the
round finished (:attr:`Hub.on_finished`), a player or the organiser changed something —
or until its next deadline (the start, the forfeit time-out), then takes one
:meth:`Tournaments.step`:

* at the start: players registered but not checked in (when a check-in is asked for)
  are withdrawn, a bot entrant is added to an odd Swiss when the organiser allows bots,
  and round 1 is paired;
* each round's tables are created through the hub with server-chosen seeds (a
  duplicate round: one seed for every table, :func:`~cardtable.tournament.duplicate.round_seed`);
  each person's seat is *claimed* — the player is seated with the token the tournament
  made for them — when their page asks for it (the tournament's WebSocket, its page's
  ``you.play_url``, or ``/api/tournaments/me``). A table starts when every seat is
  claimed, so no bot ever plays for a person who never came;
* ``forfeit_seconds`` after a round's start, every table still waiting is closed and
  the players who never claimed their seat lose it by forfeit (the others win it);
* a finished table's result (each seat's match total) is stored as the game's result;
  when every game of the round has one and the organiser's ``break_seconds`` have
  passed since (a countdown on the page), the next round is paired — the round's row is
  keyed by ``(tournament, round)``, so a pairing is made once even across a crash or
  two processes — or, after the last round, the tournament finishes.

An arena's tournament takes :meth:`.Arena.step` instead of rounds (:mod:`.arena`:
overlapping waves, each stored as a round, paired as players become free).

With several processes (:mod:`.across`) a seat is claimed and a waiting table closed
by the table's owner wherever the request arrives, and every change is told to the
other processes (the director's wakes, the pages read again).

Time is injected (``clock``, Unix seconds); tests call :meth:`Tournaments.step`
themselves with a fake clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from cardtable.server.account_store import Account
from cardtable.server.leases import Fence, Fenced
from cardtable.server.runtime import Hub, HubError
from cardtable.server.tournaments import across, store, views
from cardtable.server.tournaments.arena import Arena
from cardtable.server.tournaments.store import IN, Snapshot, bot_name
from cardtable.table import Status, Table, TimeControl
from cardtable.tournament.duplicate import dealing_seed, round_seed, table_options
from cardtable.tournament.model import RoundPlan
from cardtable.tournament.pairing import PairingError, pair_round

__all__ = ["Tournaments", "play_url"]

log = logging.getLogger("cardtable.server.tournaments")

#: Claimed seats remembered (past them the owners are asked again: a claim is idempotent).
CLAIMED_KEPT = 100_000


def play_url(table_id: str, token: str) -> str:
    """The client's address that plays a seat (the token is the seat's secret)."""
    return f"/play/{table_id}?token={token}"


def moment(seconds: float) -> datetime:
    """Unix seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)


@dataclass(frozen=True)
class Watched:
    """A tournament as its sockets show it: the snapshot, the page, and the page's
    message as JSON without its closing brace (each socket adds ``now`` and ``you``)."""

    snap: Snapshot
    page: dict[str, Any]
    head: str


@dataclass(eq=False)
class Directed:
    """A tournament this process runs: its director task and what wakes it."""

    id: str
    fence: Fence | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    #: The version last told to the other processes (several processes).
    told: int | None = None


class Tournaments:
    """Every tournament as this process sees it: the ones it directs, and the pages
    watching any (see the module docstring)."""

    def __init__(self, hub: Hub, clock: Callable[[], float] = time.time) -> None:
        self.hub = hub
        self.storage = hub.storage
        self.clock = clock
        self.directed: dict[str, Directed] = {}
        #: One lock per tournament: its steps run one at a time in this process.
        self.locks: dict[str, asyncio.Lock] = {}
        #: Table id -> tournament id, for the tables of rounds in play.
        self.tables: dict[str, str] = {}
        #: Pages watching a tournament (its WebSocket): each set on every change.
        self.watchers: dict[str, set[asyncio.Event]] = {}
        #: The last snapshot read for the watchers (one read per change, however many
        #: pages watch), dropped on every change.
        self._shared: dict[str, asyncio.Task[Watched]] = {}
        cluster = hub.cluster
        self.me: str | None = cluster.me if cluster is not None else None
        #: With several processes: seconds between looks at storage (changes made by
        #: other processes, tournaments whose owner is gone).
        self.poll: float | None = hub.settings.renew_seconds if cluster is not None else None
        self._leases: asyncio.Task[None] | None = None
        #: The arenas' stepping (:mod:`.arena`).
        self.arena = Arena(self)
        #: Seats claimed from here: (table id, seat) — a claim is never undone.
        self.claimed: set[tuple[str, int]] = set()
        self._looking: set[asyncio.Task[None]] = set()
        #: Awaited with each round (an arena's wave) just opened: the tournament's id
        #: and name, the round, the accounts playing (the community's notices).
        self.on_round: list[Callable[[str, str, int, list[str]], Awaitable[None]]] = []
        hub.on_finished.append(self._table_finished)
        across.install(hub, self.heard)

    # --------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Carry on every unfinished tournament (one process), or start looking for
        the ones nobody holds (several)."""
        if self.me is None:
            for tournament_id in await self.storage.aread(store.unfinished()):
                self.direct(tournament_id, None)
        else:
            self._leases = asyncio.get_running_loop().create_task(self._lease_loop())

    async def stop(self) -> None:
        """Stop every director (their state is all stored); with several processes,
        let their leases go so another process carries on at its next look."""
        if self._leases is not None:
            self._leases.cancel()
        for directed in list(self.directed.values()):
            if directed.task is not None:
                directed.task.cancel()
        for directed in list(self.directed.values()):
            if directed.fence is not None:
                with contextlib.suppress(Exception):
                    await self.storage.awrite(store.release_lease(directed.id, directed.fence))
        self.directed.clear()

    def direct(self, tournament_id: str, fence: Fence | None) -> None:
        """Run a tournament's director here (once)."""
        if tournament_id in self.directed:
            return
        directed = Directed(tournament_id, fence)
        self.directed[tournament_id] = directed
        directed.task = asyncio.get_running_loop().create_task(self._director(directed))

    def wake(self, tournament_id: str) -> None:
        """Something changed: the director looks again and then tells the pages (one
        message for the change and what the director did about it), or the pages are
        told at once when the director runs elsewhere."""
        directed = self.directed.get(tournament_id)
        if directed is not None:
            directed.wake.set()
        else:
            self.changed(tournament_id)
            across.tell(self.hub, tournament_id)

    def heard(self, tournament_id: str) -> None:
        """Another process changed the tournament: its director (here) looks again, or
        the pages here read it again."""
        directed = self.directed.get(tournament_id)
        if directed is not None:
            directed.wake.set()
        else:
            self.changed(tournament_id)

    def changed(self, tournament_id: str) -> None:
        """Tell the pages watching the tournament to look again."""
        self._shared.pop(tournament_id, None)
        for event in self.watchers.get(tournament_id, ()):
            event.set()

    async def watched(self, tournament_id: str, *, fresh: bool = False) -> Watched:
        """The tournament and its page (:func:`.views.detail`) for the sockets watching
        it: read, built and written as JSON once per change however many watch
        (``fresh``: read again, for a process that hears of other processes' changes
        only by looking)."""
        task = self._shared.get(tournament_id)
        if task is None or fresh or (task.done() and task.exception() is not None):
            task = asyncio.get_running_loop().create_task(self._page(tournament_id))
            self._shared[tournament_id] = task
        return await asyncio.shield(task)

    async def _page(self, tournament_id: str) -> Watched:
        snap = await self.load(tournament_id)
        page = views.detail(snap, self.clock())
        shared = {key: value for key, value in page.items() if key != "now"}
        return Watched(snap, page, json.dumps({"type": "tournament", **shared})[:-1])

    def lock(self, tournament_id: str) -> asyncio.Lock:
        """The tournament's lock in this process."""
        return self.locks.setdefault(tournament_id, asyncio.Lock())

    def _table_finished(self, table: Table) -> None:
        tournament_id = self.tables.get(table.id)
        if tournament_id is not None:
            self.wake(tournament_id)
        elif self.me is not None:  # perhaps a tournament's table taken from another process
            task = asyncio.get_running_loop().create_task(self._finished_elsewhere(table.id))
            self._looking.add(task)
            task.add_done_callback(self._looking.discard)

    async def _finished_elsewhere(self, table_id: str) -> None:
        tournament_id = await self.storage.aread(store.tournament_of(table_id))
        if tournament_id is not None:
            self.wake(tournament_id)

    async def _director(self, directed: Directed) -> None:
        while True:
            directed.wake.clear()
            try:
                async with self.lock(directed.id):
                    alive, deadline = await self.step(directed.id, directed.fence)
            except Fenced:
                log.warning("tournament %s is run by another process now", directed.id)
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament %s: step failed; trying again", directed.id)
                alive, deadline = True, self.clock() + 5.0
            self.changed(directed.id)
            if self.me is not None:
                await self._tell(directed)
            if not alive:
                break
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            if self.poll is not None and (timeout is None or timeout > self.poll):
                timeout = self.poll
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(directed.wake.wait(), timeout)
        if self.directed.get(directed.id) is directed:
            del self.directed[directed.id]

    async def _tell(self, directed: Directed) -> None:
        """Tell the other processes when a step changed the tournament."""
        try:
            version = await self.storage.aread(store.version_of(directed.id))
        except Exception:
            log.exception("tournament %s: cannot read its version", directed.id)
            return
        if version != directed.told:
            directed.told = version
            across.tell(self.hub, directed.id)

    async def _lease_loop(self) -> None:
        """Several processes: claim the tournaments nobody holds, renew our own."""
        assert self.me is not None
        assert self.poll is not None
        settings = self.hub.settings
        while True:
            now = time.time()
            until = now + settings.lease_seconds
            try:
                for tournament_id in list(self.directed):
                    fence = await self.storage.awrite(
                        store.claim_lease(tournament_id, self.me, now, until)
                    )
                    if fence is None or fence != self.directed[tournament_id].fence:
                        dropped = self.directed.pop(tournament_id)
                        if dropped.task is not None:
                            dropped.task.cancel()
                for tournament_id in await self.storage.aread(store.free_tournaments(now)):
                    fence = await self.storage.awrite(
                        store.claim_lease(tournament_id, self.me, now, until)
                    )
                    if fence is not None:
                        self.direct(tournament_id, fence)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cannot renew the tournaments' leases")
            await asyncio.sleep(self.poll)

    # -------------------------------------------------------------------- steps
    async def load(self, tournament_id: str) -> Snapshot:
        """The tournament as stored, or a 404."""
        snap = await self.storage.aread(store.load(tournament_id))
        if snap is None:
            raise HubError(
                404,
                "no_tournament",
                f"no tournament {tournament_id!r}",
                {"tournament": tournament_id},
                "tournament.no_tournament",
            )
        return snap

    async def step(
        self, tournament_id: str, fence: Fence | None = None
    ) -> tuple[bool, float | None]:
        """Do what is due now; returns whether the tournament still runs and when to
        look again (``None``: only when woken)."""
        snap = await self.load(tournament_id)
        now = self.clock()
        if snap.row["status"] == "finished":
            return False, None
        if snap.row["status"] == "upcoming":
            starts = snap.row["starts_at"].timestamp()
            if now < starts:
                return True, starts
            await self._begin(snap, now, fence)
            snap = await self.load(tournament_id)
            if snap.row["status"] != "running":
                return False, None
        if snap.spec.format == "arena":
            return await self.arena.step(snap, now, fence)
        number = snap.row["round"]
        current = next((r for r in snap.rounds if r["round"] == number), None)
        if current is not None and not current["finished"]:
            deadline = await self._collect(snap, current, now, fence)
            snap = await self.load(tournament_id)
            if any(g["status"] == "playing" for g in snap.round_games(number)):
                return True, deadline
            await self.storage.awrite(store.finish_round(snap.id, number, fence, now))
            snap = await self.load(tournament_id)
        if snap.row["paused"]:
            return True, None
        if number >= snap.spec.rounds:
            await self._finish(snap.id, now, fence)
            return False, None
        next_at = views.next_round_at(snap)
        if next_at is not None and now < next_at:
            return True, next_at  # the break between rounds
        forfeit_at = await self._open_round(snap, number + 1, now, fence)
        return True, forfeit_at

    async def _begin(self, snap: Snapshot, now: float, fence: Fence | None) -> None:
        """Start: withdraw who did not check in, add a bot to an odd Swiss if allowed."""
        settings = snap.settings
        if settings.get("checkin_seconds", 0) > 0:
            for p in snap.players:
                if p["status"] == "registered" and p["bot_level"] is None:
                    await self.storage.awrite(
                        store.set_player(snap.id, p["player"], {"status": "withdrawn", "left": 0})
                    )
        snap = await self.load(snap.id)
        playing = [p for p in snap.players if p["status"] in IN]
        if settings.get("bots_allowed") and snap.spec.format == "swiss" and len(playing) % 2:
            level = str(settings.get("bot_level", "medium"))
            await self.storage.awrite(
                store.add_player(
                    snap.id,
                    {
                        "player": bot_name(level, snap),
                        "account_id": None,
                        "bot_level": level,
                        "status": "checked_in",
                        "joined": 1,
                        "left": None,
                        "registered_at": moment(now),
                    },
                )
            )
            playing.append({})
        if len(playing) < 2:
            log.info("tournament %s: fewer than two players at the start", snap.id)
            await self._finish(snap.id, now, fence, when={"status": "upcoming"})
            return
        await self.storage.awrite(
            store.change(
                snap.id,
                {"status": "running", "started_at": moment(now)},
                fence=fence,
                when={"status": "upcoming"},
            )
        )

    async def _finish(
        self,
        tournament_id: str,
        now: float,
        fence: Fence | None,
        when: dict[str, Any] | None = None,
    ) -> None:
        await self.storage.awrite(
            store.change(
                tournament_id,
                {"status": "finished", "finished_at": moment(now)},
                fence=fence,
                when=when,
            )
        )

    async def _open_round(
        self, snap: Snapshot, number: int, now: float, fence: Fence | None
    ) -> float | None:
        """Pair round ``number``, store it, create its tables; when to forfeit."""
        spec = snap.spec
        try:
            plan = pair_round(spec, snap.entrants(), snap.results(), snap.plans(), number)
        except PairingError as exc:
            log.info("tournament %s ends before round %d: %s", snap.id, number, exc)
            await self._finish(snap.id, now, fence)
            return None
        return await self.open_plan(snap, plan, now, fence)

    async def open_plan(
        self, snap: Snapshot, plan: RoundPlan, now: float, fence: Fence | None
    ) -> float | None:
        """Store a round's (an arena's wave's) plan and games, create its tables; when
        to forfeit (``now`` when the round was stored before: nothing is made twice;
        ``None`` when the tournament ended meanwhile: nothing is made)."""
        spec = snap.spec
        number = plan.round
        bots = {p["player"]: p["bot_level"] for p in snap.players if p["bot_level"] is not None}
        games = []
        for table_no, seats in enumerate(plan.tables):
            seed = dealing_seed(
                spec.game,
                round_seed(int(snap.row["secret_seed"]), number)
                if spec.duplicate
                else secrets.randbelow(2**62),
            )
            games.append(
                {
                    "round": number,
                    "table_no": table_no,
                    "table_id": secrets.token_urlsafe(9),
                    "seed": seed,
                    "seats": list(seats),
                    "secrets": [
                        None if p in bots else {"token": secrets.token_urlsafe(24)} for p in seats
                    ],
                    "status": "playing",
                    "totals": None,
                    "forfeited": [],
                    "resigned": [],
                }
            )
        forfeit_at = now + float(snap.settings.get("forfeit_seconds", 60))
        round_row = {
            "round": number,
            "plan": plan.to_dict(),
            "started_at": moment(now),
            "forfeit_at": forfeit_at,
            "finished": False,
        }
        try:
            await self.storage.awrite(store.open_round(snap.id, round_row, games, fence))
        except IntegrityError:
            log.warning("tournament %s: round %d was paired already", snap.id, number)
            return now
        except store.NotRunning:
            log.info("tournament %s ended while round %d was paired", snap.id, number)
            return None
        # Made together: their inserts share commits.
        await asyncio.gather(*(self._make_table(snap, game, bots) for game in games))
        await self._tell_round(snap, plan)
        return forfeit_at

    async def _tell_round(self, snap: Snapshot, plan: RoundPlan) -> None:
        """Tell :attr:`on_round`'s hearers that a round (a wave) started: the accounts
        of the people seated in it (a hearer that fails is logged, nothing more)."""
        number = plan.round
        seated = {player for seats in plan.tables for player in seats}
        accounts = [
            p["account_id"] for p in snap.players if p["account_id"] and p["player"] in seated
        ]
        for hear in self.on_round:
            try:
                await hear(snap.id, str(snap.row["name"]), number, accounts)
            except Exception:
                log.exception("tournament %s: a hearer of round %d failed", snap.id, number)

    async def _make_table(self, snap: Snapshot, game: dict[str, Any], bots: dict[str, str]) -> None:
        """Create a game's table through the hub (once: its id was stored first)."""
        settings = snap.settings
        clock = settings.get("clock")
        table_id = game["table_id"]
        self.tables[table_id] = snap.id
        await self.hub.create_table(
            game=snap.row["game"],
            options=table_options(snap.spec),
            bot_levels=[bots.get(p) for p in game["seats"]],
            time_control=(
                TimeControl(round(clock["initial"] * 1000), round(clock["increment"] * 1000))
                if clock
                else None
            ),
            rated=bool(settings.get("rated", False)),
            seed=int(game["seed"]),
            names=[p if p in bots else None for p in game["seats"]],
            table_id=table_id,
            tournament=True,
        )

    async def _collect(
        self, snap: Snapshot, current: dict[str, Any], now: float, fence: Fence | None
    ) -> float | None:
        """Store the results of the round's finished tables, forfeit the tables still
        waiting past the time-out, create a table lost before it was made (a crash);
        returns the forfeit time while a table still waits for someone."""
        number = current["round"]
        playing = [g for g in snap.round_games(number) if g["status"] == "playing"]
        stored = await self.storage.aread(store.table_results([g["table_id"] for g in playing]))
        bots = {p["player"]: p["bot_level"] for p in snap.players if p["bot_level"] is not None}
        waiting = False
        retry: float | None = None
        for game in playing:
            table_id = game["table_id"]
            self.tables[table_id] = snap.id
            row = stored.get(table_id)
            if row is None:
                await self._make_table(snap, game, bots)
                waiting = True
                continue
            if row["status"] == Status.FINISHED.value and row["result"] is not None:
                result = row["result"]
                totals = [float(t) for t in result["totals"]]
                # A resignation loses the game whatever the totals (docs/tournaments.md).
                resigned = (
                    [game["seats"][result["ended_by"]]]
                    if result.get("ending") == "resigned"
                    else []
                )
                await self.storage.awrite(
                    store.set_game(
                        snap.id,
                        number,
                        game["table_no"],
                        {"status": "finished", "totals": totals, "resigned": resigned},
                        fence,
                    )
                )
            elif row["status"] == Status.WAITING.value:
                if now < current["forfeit_at"]:
                    waiting = True
                    continue
                kind, closed = await across.discard(self.hub, table_id)
                if kind == "later":  # its owner did not answer: at the next look
                    retry = now + (self.poll or 1.0)
                    continue
                if kind == "playing":  # every seat was claimed just now: it plays
                    waiting = True
                    continue
                # Closed, or gone with a crash before it started: its stored seats.
                seats = closed if closed is not None else row["meta"]["seats"]
                absent = [
                    name
                    for name, seat in zip(game["seats"], seats, strict=True)
                    if seat.get("token_hash") is None and seat.get("bot_level") is None
                ]
                log.info("tournament %s: %s forfeit round %d", snap.id, absent, number)
                await self.storage.awrite(
                    store.set_game(
                        snap.id,
                        number,
                        game["table_no"],
                        {
                            "status": "forfeit",
                            "totals": [0.0] * len(game["seats"]),
                            "forfeited": absent,
                        },
                        fence,
                    )
                )
        if retry is not None:
            return max(retry, current["forfeit_at"]) if waiting else retry
        return current["forfeit_at"] if waiting else None

    # -------------------------------------------------------------------- seats
    async def seat_of(self, snap: Snapshot, account: Account) -> dict[str, Any] | None:
        """The signed-in player's table in play (an arena's: in any wave), claimed for
        them now: ``{table_id, play_url}``; ``None`` when they have none."""
        found = await self.claimed_seat(snap, account)
        if found is None:
            return None
        table_id, _seat, token = found
        return {"table_id": table_id, "play_url": play_url(table_id, token)}

    async def claimed_seat(self, snap: Snapshot, account: Account) -> tuple[str, int, str] | None:
        """:meth:`seat_of` as the table's id, the seat and its token (a bot account's
        game in the Bot API), or ``None``."""
        player = snap.player_of(account.id)
        if player is None or snap.row["status"] != "running":
            return None
        name = player["player"]
        for game in snap.live_games():
            if game["status"] != "playing" or name not in game["seats"]:
                continue
            seat = game["seats"].index(name)
            secret = game["secrets"][seat]
            if secret is None:
                return None
            token = str(secret["token"])
            if not await self._claim(game["table_id"], seat, name, account, token):
                return None
            return str(game["table_id"]), seat, token
        return None

    async def _claim(
        self, table_id: str, seat: int, name: str, account: Account, token: str
    ) -> bool:
        """Seat the player at their table with their token (once, on whichever process
        owns the table: :func:`.across.claim`); False when it cannot be had now (closed
        by forfeit, or its owner did not answer)."""
        if (table_id, seat) in self.claimed:
            return True
        seated = await across.claim(self.hub, table_id, seat, name, account.id, token)
        if seated:
            if len(self.claimed) >= CLAIMED_KEPT:  # a cache: the owner answers again
                self.claimed.clear()
            self.claimed.add((table_id, seat))
        return seated
