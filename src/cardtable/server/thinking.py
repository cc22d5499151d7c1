"""Bots thinking for the server: a seat's move worked out off the event loop.

A bot is given ``match.bot_info(seat)`` — exactly what the seat may know at that
moment, whoever played it until then — and answers with an action id
(:class:`cardtable.bots.seat.SeatBot`). The thinking runs on an executor (worker
processes, spawned; or threads), so a searching bot never takes the event loop's time
and a slow bot never delays another table.

There is no fallback for a broken bot. A bot that raises is a bug: it is logged at
error level with its traceback and counted in :attr:`BotRunner.errors` (the server's
tests fail on any), and the seat makes no move. A worker process that died (killed,
out of memory) is replaced and the bot thinks again.

An overloaded machine degrades the bots, never the tables:

* a bot still thinking when its ``bot_budget`` runs out is *overrun* (counted in
  ``cardtable_bot_overruns_total``): the same seat's move is then asked of the game's
  easiest level (a greedy bot, a few milliseconds) on a thread of its own, and
  whichever answers first is played — the table waits one budget at most;
* while the bots are behind (more thoughts in flight than ``bot_backlog``, or an
  overrun less than ``bot_relief_seconds`` ago) each bot thinks one step lower
  (:func:`degraded`: ``hard`` as ``medium``, ``medium`` as ``easy``, ``ismcts:N`` with
  a quarter of the iterations), counted in ``cardtable_bot_degraded_total``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from cardtable.bots.registry import LEVELS
from cardtable.bots.seat import SeatBot
from cardtable.server.limits import token_buckets
from cardtable.server.settings import Settings
from cardtable.server.shared import Shared

if TYPE_CHECKING:
    from cardtable.server.metrics import Metrics

__all__ = [
    "BotMaker",
    "BotRunner",
    "HintRunner",
    "HintsBusy",
    "Thinker",
    "degraded",
    "easiest",
    "registry_bot",
]

log = logging.getLogger("cardtable.server")


class Thinker(Protocol):
    """A bot ready to think for a seat; picklable, so it can think in a worker process."""

    def think(self, info: Any) -> int:
        """The bot's move (an action id) for an information set of ``match.bot_info``."""
        ...


#: Makes the bot for a game (its name), a level or bot spec, a seed and a seat.
BotMaker = Callable[[str, str, int, int], Thinker]


def registry_bot(game: str, bot: str, seed: int, seat: int) -> Thinker:
    """The bots of :mod:`cardtable.bots.registry` (levels ``easy``, ``medium``, ``hard``),
    as :class:`~cardtable.bots.seat.SeatBot` plays them: a move that is not the seat's
    to make raises :class:`~cardtable.bots.seat.BotError`."""
    return SeatBot.make(game, bot, seed=seed, seat=seat)


def bot_executor(settings: Settings) -> Executor:
    """Where bots think: worker processes (spawned, never forked from a threaded
    server), or threads of this process."""
    return _executor(settings.bot_processes, settings.bot_threads, "bot")


def hint_executor(settings: Settings) -> Executor:
    """Where hints think: ``hint_workers`` processes of their own (threads when the
    bots think in threads), apart from the bots' executor."""
    workers = settings.hint_workers
    return _executor(workers if settings.bot_processes > 0 else 0, workers, "hint")


def _executor(processes: int, threads: int, name: str) -> Executor:
    if processes > 0:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(processes, mp_context=context)
    return ThreadPoolExecutor(threads, thread_name_prefix=name)


def degraded(bot: str) -> str:
    """The bot one step lower: a level the next level down, ``NAME:N`` with a quarter
    of the iterations (at least 1), anything else as it is.

    >>> degraded("hard"), degraded("medium"), degraded("easy"), degraded("ismcts:1000")
    ('medium', 'easy', 'easy', 'ismcts:250')
    """
    steps = {"hard": "medium", "medium": "easy"}
    if bot in steps or bot == "easy":
        return steps.get(bot, bot)
    name, sep, budget = bot.partition(":")
    if sep and budget.isdigit():
        return f"{name}:{max(1, int(budget) // 4)}"
    return bot


def easiest(game: str) -> str:
    """The game's lowest level (the one an overrun bot falls back to)."""
    levels = LEVELS.get(game)
    return next(iter(levels)) if levels else "easy"


class BotRunner:
    """Runs bots' thinking on an executor for every table of a server (see the module
    docstring for budgets and degrading)."""

    def __init__(
        self,
        settings: Settings,
        make: BotMaker,
        executor: Executor | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.settings = settings
        self.make = make
        self.executor = executor or bot_executor(settings)
        self.metrics = metrics
        #: One line per bot that raised (``where: error``), oldest first.
        self.errors: list[str] = []
        #: Thoughts asked for and not answered yet.
        self.in_flight = 0
        #: Bots think one level lower until this ``time.monotonic()`` (after an overrun).
        self._relief_until = 0.0
        #: Where an overrun bot's easiest stand-in thinks (made on first need).
        self._fallback: ThreadPoolExecutor | None = None

    def level(self, bot: str) -> str:
        """``bot``, or one step lower while the bots are behind."""
        behind = self.in_flight > self.settings.bot_backlog or (
            time.monotonic() < self._relief_until
        )
        if not behind:
            return bot
        lower = degraded(bot)
        if lower != bot and self.metrics is not None:
            self.metrics.bot_degraded.inc()
        return lower

    async def think(
        self, *, game: str, bot: str, seed: int, seat: int, info: Any, where: str
    ) -> int | None:
        """The move of bot ``bot`` of ``game`` for ``seat`` in ``info``, or ``None`` if it
        failed; within about one ``bot_budget`` (module docstring).

        ``where`` names the table and seat in the log.
        """
        self.in_flight += 1
        try:
            return await self._think(game, self.level(bot), seed, seat, info, where)
        finally:
            self.in_flight -= 1

    async def _think(
        self, game: str, bot: str, seed: int, seat: int, info: Any, where: str
    ) -> int | None:
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            try:
                thinker = self.make(game, bot, seed, seat)
                future = loop.run_in_executor(self.executor, thinker.think, info)
                done, _pending = await asyncio.wait({future}, timeout=self.settings.bot_budget)
                if not done:
                    action = await self._overrun(future, game, bot, seed, seat, info, where)
                else:
                    action = future.result()
            except BrokenExecutor:
                # A worker process died (killed, out of memory): a fresh pool, think again.
                log.error("the bot executor broke; starting a new one")
                self.executor = bot_executor(self.settings)
                continue
            except Exception as exc:
                log.exception("bot %s at %s failed: no move is made for it", bot, where)
                self.errors.append(f"{where}: {bot}: {exc!r}")
                return None
            return int(action)
        return None

    async def _overrun(
        self,
        slow: asyncio.Future[int],
        game: str,
        bot: str,
        seed: int,
        seat: int,
        info: Any,
        where: str,
    ) -> int:
        """``slow`` is over its budget: ask the game's easiest level too and play
        whichever answers first (the slow one's answer, when it comes, is dropped)."""
        self._relief_until = time.monotonic() + self.settings.bot_relief_seconds
        if self.metrics is not None:
            self.metrics.bot_overruns.inc()
        stand_in = easiest(game)
        log.warning(
            "bot %s at %s is over its %.1f s budget; %s answers for it",
            bot,
            where,
            self.settings.bot_budget,
            stand_in,
        )
        if self._fallback is None:
            self._fallback = ThreadPoolExecutor(1, thread_name_prefix="bot-stand-in")
        thinker = self.make(game, stand_in, seed, seat)
        quick = asyncio.get_running_loop().run_in_executor(self._fallback, thinker.think, info)
        done, _pending = await asyncio.wait({slow, quick}, return_when=asyncio.FIRST_COMPLETED)
        first = slow if slow in done else quick
        for other in (slow, quick):
            if other is not first:
                other.add_done_callback(_retrieve)
        return first.result()

    def shutdown(self) -> None:
        """Stop the workers (queued thinking is cancelled)."""
        self.executor.shutdown(wait=True, cancel_futures=True)
        if self._fallback is not None:
            self._fallback.shutdown(wait=True, cancel_futures=True)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Collect a dropped answer (or its error), so nothing is logged as never retrieved."""
    if not future.cancelled():
        future.exception()


class HintsBusy(Exception):
    """As many hints as the server allows are being worked out already."""


class HintRunner:
    """Hints: the strongest bot thinking for a seat on the hints' own executor, with
    rate limits per seat and per address (:class:`~.limits.Buckets`) and a bound on the
    hints in progress, so asking for hints cannot delay any table's bots."""

    def __init__(self, settings: Settings, make: BotMaker, shared: Shared | None = None) -> None:
        self.settings = settings
        self.runner = BotRunner(settings, make, hint_executor(settings))
        # Several processes (``shared``): the buckets are the same on each (in Redis).
        self.per_seat = token_buckets(
            shared, "hint-seat", burst=settings.hint_seat_burst, seconds=settings.hint_seat_seconds
        )
        self.per_address = token_buckets(
            shared,
            "hint-address",
            burst=settings.hint_address_burst,
            seconds=settings.hint_address_seconds,
        )
        #: Hints being worked out now.
        self.in_progress = 0

    async def think(
        self, *, game: str, bot: str, seed: int, seat: int, info: Any, where: str
    ) -> int | None:
        """The bot's move as :meth:`BotRunner.think`; :class:`HintsBusy` when
        ``hint_waiting`` hints are in progress already."""
        if self.in_progress >= self.settings.hint_waiting:
            raise HintsBusy
        self.in_progress += 1
        try:
            return await self.runner.think(
                game=game, bot=bot, seed=seed, seat=seat, info=info, where=where
            )
        finally:
            self.in_progress -= 1

    def shutdown(self) -> None:
        """Stop the hints' workers."""
        self.runner.shutdown()
