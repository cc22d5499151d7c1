"""The arena's step: for a fixed time, players are paired again as soon as they are free.

An arena (``spec.format == "arena"``, Candidate or Spy) runs from ``starts_at`` until
:func:`ends_at` (``spec.minutes`` later). Its games are stored as Swiss rounds are —
each pairing is a *wave*, a round row numbered 1, 2, 3… keyed by ``(tournament,
round)``, so a wave is stored once even across a crash or two processes — but waves
overlap in time. Each :meth:`Arena.step` (called by :meth:`.Tournaments.step`):

1. collects the tables of every unfinished wave (:meth:`.Tournaments._collect`:
   results, seats never claimed forfeited after ``forfeit_seconds``, tables lost in a
   crash made again) and marks a wave finished once none of its games plays;
2. withdraws a player who has just lost a game by forfeit (absent: they are not paired
   again; registering again, where late joins are allowed, brings them back);
3. before the end and unless the organiser paused, pairs the players who are free now
   — registered or checked in, not at a table — with
   :func:`~cardtable.tournament.pairing.pair_waiting` into the next wave:

   * Candidate: as soon as two are free;
   * Spy: when ``table_size`` are free, or every player who is in is free, or two or
     more have waited :data:`GATHER_SECONDS` (a short gathering window so races are
     not all of two; the wait is counted in memory, so a restart starts it again);
   * bots (the organiser allows them, Candidate only): a player who has waited alone
     :func:`bot_wait` seconds is paired with a marked bot entrant (added on first need;
     a bot plays one game at a time);

4. after the end no game starts; the games in play finish and count, and once none
   plays the tournament finishes.

Points are those of :func:`cardtable.tournament.standings.standings` for arenas.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cardtable.server.leases import Fence
from cardtable.server.tournaments import store
from cardtable.server.tournaments.store import IN, Snapshot, bot_name
from cardtable.tournament.model import RoundPlan
from cardtable.tournament.pairing import pair_waiting

if TYPE_CHECKING:
    from cardtable.server.tournaments.service import Tournaments

__all__ = ["GATHER_SECONDS", "Arena", "bot_wait", "ends_at"]

log = logging.getLogger("cardtable.server.tournaments")

#: Spy: how long free players wait for others to gather before a smaller race starts.
GATHER_SECONDS = 10.0


def ends_at(snap: Snapshot) -> float:
    """When an arena stops starting games (Unix seconds): its start plus its minutes."""
    starts: datetime = snap.row["starts_at"]
    return starts.timestamp() + 60.0 * snap.spec.minutes


def bot_wait(settings: dict[str, Any]) -> float:
    """How long a Candidate player waits alone before a bot is paired with them (when
    the organiser allows bots): the tournament's forfeit time-out."""
    return float(settings.get("forfeit_seconds", 60))


class Arena:
    """The arenas' stepping for a :class:`.Tournaments` (module docstring)."""

    def __init__(self, service: Tournaments) -> None:
        self.service = service
        #: Tournament id -> free player -> since when (Unix) they have been free.
        self.since: dict[str, dict[str, float]] = {}

    async def step(
        self, snap: Snapshot, now: float, fence: Fence | None
    ) -> tuple[bool, float | None]:
        """One look at a running arena; whether it still runs and when to look again."""
        service = self.service
        deadlines: list[float] = []
        open_waves = [r for r in snap.rounds if not r["finished"]]
        playing_before = {
            (g["round"], g["table_no"]) for g in snap.games if g["status"] == "playing"
        }
        for wave in open_waves:
            deadline = await service._collect(snap, wave, now, fence)
            if deadline is not None:
                deadlines.append(deadline)
        if open_waves:
            snap = await service.load(snap.id)
            await self._pause_absent(snap, playing_before, fence)
            for wave in open_waves:
                number = wave["round"]
                if all(g["status"] != "playing" for g in snap.round_games(number)):
                    await service.storage.awrite(store.finish_round(snap.id, number, fence, now))
            snap = await service.load(snap.id)
        end = ends_at(snap)
        if now >= end:
            self.since.pop(snap.id, None)
            if any(g["status"] == "playing" for g in snap.games):
                return True, min(deadlines, default=None)
            log.info("tournament %s: the arena is over", snap.id)
            await service._finish(snap.id, now, fence)
            return False, None
        deadlines.append(end)
        if not snap.row["paused"]:
            again = await self._pair(snap, now, fence)
            if again is not None:
                deadlines.append(again)
        return True, min(deadlines)

    async def _pause_absent(
        self, snap: Snapshot, playing_before: set[tuple[int, int]], fence: Fence | None
    ) -> None:
        """Withdraw the players who have just lost a game by forfeit."""
        for game in snap.games:
            if game["status"] != "forfeit" or (game["round"], game["table_no"]) not in (
                playing_before
            ):
                continue
            for name in game["forfeited"]:
                entrant = snap.player(name)
                if entrant is not None and entrant["status"] in IN:
                    log.info("tournament %s: %s absent, withdrawn", snap.id, name)
                    await self.service.storage.awrite(
                        store.set_player(
                            snap.id, name, {"status": "withdrawn", "left": game["round"]}, fence
                        )
                    )

    async def _pair(self, snap: Snapshot, now: float, fence: Fence | None) -> float | None:
        """Pair the free players into the next wave when it is time; when to look again
        for a wait that may end without a wake (a gathering window, a bot's wait)."""
        spec = snap.spec
        busy = {p for g in snap.games if g["status"] == "playing" for p in g["seats"]}
        people = [p["player"] for p in snap.players if p["status"] in IN and p["bot_level"] is None]
        free = [p for p in people if p not in busy]
        since = self.since.setdefault(snap.id, {})
        for name in [n for n in since if n not in free]:
            del since[name]
        for name in free:
            since.setdefault(name, now)
        waiting = list(free)
        if spec.game == "candidate":
            if len(free) == 1 and snap.settings.get("bots_allowed"):
                ready = since[free[0]] + bot_wait(snap.settings)
                if now < ready:
                    return ready
                snap, bot = await self._free_bot(snap, busy, now)
                waiting.append(bot)
        elif 2 <= len(free) < min(spec.table_size, len(people)):
            ready = min(since[n] for n in free) + GATHER_SECONDS
            if now < ready:
                return ready
        if len(waiting) < 2:
            return None
        number = max((r["round"] for r in snap.rounds), default=0) + 1
        tables = pair_waiting(spec, snap.entrants(), snap.results(), waiting, number)
        if not tables:
            return None
        forfeit_at = await self.service.open_plan(
            snap, RoundPlan(number, tuple(tables)), now, fence
        )
        for seats in tables:
            for name in seats:
                since.pop(name, None)
        return forfeit_at

    async def _free_bot(self, snap: Snapshot, busy: set[str], now: float) -> tuple[Snapshot, str]:
        """A bot entrant not at a table, added when every one plays (or none exists)."""
        for p in snap.players:
            if p["bot_level"] is not None and p["status"] in IN and p["player"] not in busy:
                return snap, str(p["player"])
        level = str(snap.settings.get("bot_level", "medium"))
        name = bot_name(level, snap)
        await self.service.storage.awrite(
            store.add_player(
                snap.id,
                {
                    "player": name,
                    "account_id": None,
                    "bot_level": level,
                    "status": "checked_in",
                    "joined": snap.row["round"] + 1,
                    "left": None,
                    "registered_at": datetime.fromtimestamp(now, UTC),
                },
            )
        )
        return await self.service.load(snap.id), name
