"""Bots thinking for the server: a seat's move worked out off the event loop.

A bot is given ``match.bot_info(seat)`` — exactly what the seat may know at that
moment, whoever played it until then — and answers with an action id
(:class:`cardtable.bots.seat.SeatBot`). The thinking runs on an executor (worker
processes, spawned; or threads), so a searching bot never takes the event loop's time
and a slow bot never delays another table.

There is no fallback move. A bot that raises is a bug: it is logged at error level
with its traceback and counted in :attr:`BotRunner.errors` (the server's tests fail on
any), and the seat makes no move. A bot that thinks longer than ``bot_budget`` is
logged as a warning and waited for: its budget is in iterations, so only an overloaded
machine makes it slow, and its move is never replaced by another. A worker process that
died (killed, out of memory) is replaced and the bot thinks again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Protocol

from cardtable.bots.seat import SeatBot
from cardtable.server.limits import token_buckets
from cardtable.server.settings import Settings
from cardtable.server.shared import Shared

__all__ = ["BotMaker", "BotRunner", "HintRunner", "HintsBusy", "Thinker", "registry_bot"]

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


class BotRunner:
    """Runs bots' thinking on an executor for every table of a server."""

    def __init__(
        self, settings: Settings, make: BotMaker, executor: Executor | None = None
    ) -> None:
        self.settings = settings
        self.make = make
        self.executor = executor or bot_executor(settings)
        #: One line per bot that raised (``where: error``), oldest first.
        self.errors: list[str] = []

    async def think(
        self, *, game: str, bot: str, seed: int, seat: int, info: Any, where: str
    ) -> int | None:
        """The move of bot ``bot`` of ``game`` for ``seat`` in ``info``, or ``None`` if it
        failed.

        ``where`` names the table and seat in the log.
        """
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            started = time.monotonic()
            try:
                thinker = self.make(game, bot, seed, seat)
                future = loop.run_in_executor(self.executor, thinker.think, info)
                done, _pending = await asyncio.wait({future}, timeout=self.settings.bot_budget)
                if not done:
                    log.warning(
                        "bot %s at %s is over its %.1f s budget; waiting for its move",
                        bot,
                        where,
                        self.settings.bot_budget,
                    )
                action = await future
            except BrokenExecutor:
                # A worker process died (killed, out of memory): a fresh pool, think again.
                log.error("the bot executor broke; starting a new one")
                self.executor = bot_executor(self.settings)
                continue
            except Exception as exc:
                log.exception("bot %s at %s failed: no move is made for it", bot, where)
                self.errors.append(f"{where}: {bot}: {exc!r}")
                return None
            spent = time.monotonic() - started
            if spent > self.settings.bot_budget:
                log.warning("bot %s at %s thought for %.1f s", bot, where, spent)
            return int(action)
        return None

    def shutdown(self) -> None:
        """Stop the workers (queued thinking is cancelled)."""
        self.executor.shutdown(wait=True, cancel_futures=True)


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
