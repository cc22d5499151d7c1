"""``cardtable connect``: play as a bot account on a cardtable server, through the Bot
API (docs/bot-api.md), with any bot the project knows or one of the user's.

:class:`BotClient` holds the account's event stream open, accepts the challenges its
:class:`Limits` allow (and declines the others), and plays every game it holds a seat
in (a challenge's, a seek's, or a table of a tournament it joined with ``--tournament``),
one task each: the game's stream is read as it comes, and whenever the newest state
asks the seat for a move the bot thinks (on a thread) and the move is posted against
that state's version. A dropped connection or a restarted server is met by connecting
again, with a growing pause (1 s to 30 s); the server tells a reconnected client its
live games again (``gameStart``). A revoked token (401) stops the client. Each game is
logged when it starts and ends, and with ``log_dir`` its record is saved there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from cardtable.botclient.players import Roster, SeatPlayer

__all__ = ["BotClient", "Limits", "Patient", "Revoked"]

log = logging.getLogger("cardtable.connect")

#: Pauses before connecting again, in seconds: doubled up to the last.
BACKOFF = (1.0, 30.0)


class Revoked(Exception):
    """The server refused the token (revoked, unknown): the client stops."""


class Patient(httpx.AsyncBaseTransport):
    """A transport that waits out the server's rate limit: a ``429`` answer is sent
    again after its ``Retry-After`` seconds, so a bot that moves faster than its
    token's limit allows (a run of forced passes, say) slows down instead of losing
    the move. Every request of the client goes through it, streams included."""

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.inner = inner
        self.sleep = sleep  # a test's own, to see the waits without waiting

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        while True:
            response = await self.inner.handle_async_request(request)
            if response.status_code != 429:
                return response
            await response.aclose()
            wait = retry_after(response.headers.get("Retry-After"))
            log.info("%s %s: rate limited, again in %g s", request.method, request.url.path, wait)
            await self.sleep(wait)

    async def aclose(self) -> None:
        await self.inner.aclose()


def retry_after(header: str | None) -> float:
    """The seconds a ``Retry-After`` header asks for (1 when it names none)."""
    try:
        return max(0.1, float(header)) if header is not None else 1.0
    except ValueError:
        return 1.0


@dataclass(frozen=True)
class Limits:
    """Which challenges the client accepts."""

    #: Games at once.
    concurrency: int = 1
    #: Accept rated challenges.
    rated: bool = True
    #: Accept games without a clock.
    untimed: bool = True
    #: The initial clock's bounds in seconds (None: any).
    min_seconds: float | None = None
    max_seconds: float | None = None

    def refusal(self, challenge: dict[str, Any], games: list[str], playing: int) -> str | None:
        """Why ``challenge`` is declined, or ``None`` to accept it."""
        clock = challenge.get("clock")
        if challenge.get("game") not in games:
            return f"no bot for {challenge.get('game')}"
        if challenge.get("rated") and not self.rated:
            return "rated games are declined"
        if clock is None:
            return None if self.untimed else "games without a clock are declined"
        if "days" in clock:
            return "days per move are declined"
        initial = float(clock.get("initial", 0))
        if self.min_seconds is not None and initial < self.min_seconds:
            return f"clocks under {self.min_seconds:g} s are declined"
        if self.max_seconds is not None and initial > self.max_seconds:
            return f"clocks over {self.max_seconds:g} s are declined"
        if playing >= self.concurrency:
            return f"already playing {playing} games"
        return None


class BotClient:
    """Plays as the token's bot account (module docstring)."""

    def __init__(
        self,
        server: str,
        token: str,
        roster: Roster,
        limits: Limits | None = None,
        *,
        log_dir: Path | None = None,
        seed: int | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        tournaments: tuple[str, ...] = (),
    ) -> None:
        self.server = server.rstrip("/")
        #: Tournaments to join at the start (their games come as ``gameStart`` events).
        self.tournaments = tournaments
        self.roster = roster
        self.limits = limits or Limits()
        self.log_dir = log_dir
        self.random = random.Random(seed)
        self.http = httpx.AsyncClient(
            base_url=self.server,
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(30.0, read=None),
            transport=Patient(transport or httpx.AsyncHTTPTransport()),
        )
        #: The games being played, by table id.
        self.games: dict[str, asyncio.Task[None]] = {}
        #: Finished games: table id → result (as the last state says).
        self.finished: dict[str, dict[str, Any]] = {}
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ run
    async def run(self) -> None:
        """Play until stopped (:meth:`stop`) or the token is refused (:class:`Revoked`)."""
        self._task = asyncio.current_task()
        pause = BACKOFF[0]
        try:
            me = await self._get("/api/bot/account")
            if not me["bot"]:
                raise Revoked(f"{me['name']} is not a bot account: POST /api/bot/account/upgrade")
            log.info("connected as %s, playing %s", me["name"], ", ".join(self.roster.games))
            for tournament in self.tournaments:
                await self._join(tournament)
            while not self._stop.is_set():
                try:
                    async for event in self._lines("/api/bot/stream/event"):
                        pause = BACKOFF[0]
                        await self._event(event)
                except (httpx.TransportError, httpx.RemoteProtocolError) as exc:
                    log.warning("event stream lost (%s): connecting again in %g s", exc, pause)
                if self._stop.is_set():
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), pause)
                pause = min(BACKOFF[1], pause * 2)
        except asyncio.CancelledError:
            if not self._stop.is_set():
                raise
        finally:
            for task in self.games.values():
                task.cancel()
            for task in list(self.games.values()):
                with contextlib.suppress(BaseException):
                    await task
            await self.http.aclose()

    def stop(self) -> None:
        """Stop now: every stream is closed, every game left (its seat's clock runs on)."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()

    async def _get(self, path: str) -> Any:
        answer = await self.http.get(path)
        self._check(answer)
        return answer.json()

    @staticmethod
    def _check(answer: httpx.Response) -> None:
        if answer.status_code == 401:
            raise Revoked(f"the server refused the token: {answer.text}")
        if answer.status_code >= 500:
            raise httpx.RemoteProtocolError(f"server error {answer.status_code}")

    async def _lines(self, path: str) -> AsyncIterator[dict[str, Any]]:
        """The objects of an NDJSON stream until it ends (keepalives skipped)."""
        async with self.http.stream("GET", path) as answer:
            if answer.status_code != 200:
                await answer.aread()
                self._check(answer)
                raise LookupError(answer.text)
            async for text in answer.aiter_lines():
                if text.strip():
                    yield json.loads(text)

    # --------------------------------------------------------------- events
    async def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            await self._answer(event["challenge"])
        elif kind == "gameStart":
            game = event["game"]
            table = str(game["id"])
            task = self.games.get(table)
            if (task is None or task.done()) and table not in self.finished:
                self.games[table] = asyncio.create_task(self._play(game))

    async def _join(self, tournament: str) -> None:
        """Register in a tournament (already registered is fine; a refusal is logged)."""
        answer = await self.http.post(f"/api/bot/tournament/{tournament}/join")
        self._check(answer)
        if answer.status_code == 200:
            log.info("joined tournament %s", tournament)
        else:
            log.error("tournament %s: %s", tournament, answer.text)

    async def _answer(self, challenge: dict[str, Any]) -> None:
        playing = sum(1 for t in self.games.values() if not t.done())
        why = self.limits.refusal(challenge, self.roster.games, playing)
        verb = "decline" if why else "accept"
        answer = await self.http.post(f"/api/bot/challenge/{challenge['id']}/{verb}")
        self._check(answer)
        log.info(
            "challenge %s from %s (%s): %s",
            challenge["id"],
            challenge.get("from"),
            challenge.get("game"),
            f"declined: {why}" if why else "accepted",
        )

    # ---------------------------------------------------------------- games
    async def _play(self, game: dict[str, Any]) -> None:
        table, seat = str(game["id"]), int(game["seat"])
        name = game.get("game") or ""
        maker = self.roster.makers.get(name)
        if maker is None:
            log.error("game %s: no bot for %r; resigning", table, name)
            await self.http.post(f"/api/bot/game/{table}/resign")
            return
        player = SeatPlayer(name, seat, maker, self.random.randrange(2**31))
        log.info(
            "game %s (%s) started: seat %d, %s", table, name, seat + 1, self.roster.labels[name]
        )
        pause = BACKOFF[0]
        while True:
            try:
                state = await self._follow(table, player)
            except (httpx.TransportError, httpx.RemoteProtocolError) as exc:
                log.warning("game %s: stream lost (%s): again in %g s", table, exc, pause)
                await asyncio.sleep(pause)
                pause = min(BACKOFF[1], pause * 2)
                continue
            except LookupError as refused:
                if not await self._still_played(table, str(refused)):
                    return
                # Live on another process, or being taken over: ask again, ever later.
                log.info("game %s: not here now: again in %g s", table, pause)
                await asyncio.sleep(pause)
                pause = min(BACKOFF[1], pause * 2)
                continue
            if state is not None and state.get("status") == "finished":
                await self._over(table, name, seat, state)
                return
            await asyncio.sleep(pause)  # the stream ended early: a restart, say

    async def _still_played(self, table: str, refusal: str) -> bool:
        """Whether a game whose stream was refused (404) may still need our moves: not
        when we hold no seat there, nor when the table says it is finished (it ended
        while we were away: a stand-in or the clock finished it)."""
        with contextlib.suppress(ValueError):
            if json.loads(refusal).get("code") == "no_game":
                log.error("game %s: the server says we hold no seat there", table)
                return False
        answer = await self.http.get(f"/api/tables/{table}")
        self._check(answer)
        if answer.status_code == 404 or answer.json().get("status") == "finished":
            log.info("game %s ended while we were away", table)
            self.finished[table] = {}
            return False
        return True

    async def _follow(self, table: str, player: SeatPlayer) -> dict[str, Any] | None:
        """Read the game's stream, moving when asked; the last state seen."""
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        state: dict[str, Any] | None = None
        moved = 0  # the version our last move made: older states are stale

        async def pump() -> None:
            try:
                async for message in self._lines(f"/api/bot/game/stream/{table}"):
                    queue.put_nowait(message)
            finally:
                queue.put_nowait(None)

        reader = asyncio.create_task(pump())
        try:
            while True:
                message = await queue.get()  # then all that came meanwhile
                ended = False
                while True:
                    if message is None:
                        ended = True
                        break
                    player.observe(message)
                    if queue.empty():
                        break
                    message = queue.get_nowait()
                state = player.follower.state
                if ended and reader.done() and not reader.cancelled():
                    failed = reader.exception()
                    if failed is not None:
                        raise failed  # the stream's refusal (a 404) or its loss
                if ended or (state is not None and state.get("status") == "finished"):
                    return state
                if state is None or not state.get("legal_moves") or state["version"] < moved:
                    continue
                moved = max(moved, await self._move(table, player, state))
        finally:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader

    async def _move(self, table: str, player: SeatPlayer, state: dict[str, Any]) -> int:
        """Think and post a move for ``state``; the version to wait for."""
        move = await asyncio.to_thread(player.choose)
        answer = await self.http.post(
            f"/api/bot/game/{table}/move", json={"move": move, "version": state["version"]}
        )
        self._check(answer)
        body = answer.json()
        if body.get("type") == "ack":
            return int(body["move_version"])
        if body.get("type") == "error":
            log.warning("game %s: %s refused: %s", table, move, body.get("message"))
        return int(state["version"]) + 1

    async def _over(self, table: str, game: str, seat: int, state: dict[str, Any]) -> None:
        result = state.get("result") or {}
        ranks = result.get("ranks") or []
        rank = ranks[seat] if seat < len(ranks) else None
        log.info(
            "game %s (%s) over: %s, rank %s, totals %s",
            table,
            game,
            result.get("ending"),
            rank,
            result.get("totals"),
        )
        if self.log_dir is not None:
            answer = await self.http.get(f"/api/tables/{table}/record")
            if answer.status_code == 200:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                (self.log_dir / f"{table}.json").write_text(answer.text)
        self.finished[table] = result  # last: the game is fully logged
