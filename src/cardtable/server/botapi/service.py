"""The Bot API of one process: tokens, bot accounts, the streams and the bots' actions.

:class:`BotApi` is made when the application starts (:func:`cardtable.server.app.create_app`)
and kept as ``app.state.botapi``. It decides; :mod:`.routes` only translates.

Every action of a bot goes through the one table, exactly as a person's: the bot's seat
is a connection of the table (:class:`~.streams.SeatSocket` in place of a WebSocket)
that said ``hello`` with the seat's token, and a move is the table protocol's ``move``
handled by :meth:`Hub.handle <cardtable.server.runtime.Hub.handle>` — the same
judgement, storage, broadcast, clocks, pauses, race pacing and per-connection rate
limit as a person's. A POST without an open game stream uses a connection of its own
for that one message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

from cardtable.server.account_store import Account
from cardtable.server.accounts import session_digest
from cardtable.server.botapi import store
from cardtable.server.botapi.store import TokenOwner
from cardtable.server.botapi.streams import KEEPALIVE, SeatSocket, finished, line
from cardtable.server.botapi.tokens import RECHECK_SECONDS, SCOPES, Gatekeeper, new_token, refuse
from cardtable.server.community import store as community_store
from cardtable.server.community.service import Community
from cardtable.server.connection import Connection
from cardtable.server.live import LiveTable
from cardtable.server.runtime import Hub
from cardtable.server.seeks import Seeks
from cardtable.server.storage import Storage
from cardtable.server.tournaments import Tournaments
from cardtable.server.tournaments import commands as tournament_commands
from cardtable.server.tournaments import store as tournament_store
from cardtable.table import Status, TimeControl

__all__ = ["ANSWER_SECONDS", "MAX_TOKENS", "BotApi"]

#: Live tokens one account may hold.
MAX_TOKENS: Final = 20
#: Seconds a POST waits for the table's answer to its message.
ANSWER_SECONDS: Final = 10.0
#: Seconds between two looks at storage by the event stream.
EVENT_TICK: Final = 0.5


class BotApi:
    """Everything of the Bot API on this process (see the module docstring)."""

    def __init__(
        self,
        hub: Hub,
        community: Community,
        gate: Gatekeeper,
        clock: Callable[[], float] = time.time,
        tournaments: Tournaments | None = None,
    ) -> None:
        self.hub = hub
        self.tournaments = tournaments
        self.storage: Storage = hub.storage
        self.community = community
        self.gate = gate
        self.clock = clock
        #: Open game streams here: (account id, table id) → the seat's connection.
        self.seats: dict[tuple[str, str], tuple[LiveTable, Connection, SeatSocket]] = {}
        #: Seeks being kept alive for bots here, by account id.
        self.seeking: dict[str, asyncio.Task[None]] = {}

    async def stop(self) -> None:
        """Stop the bots' seeks."""
        for task in self.seeking.values():
            task.cancel()
        for task in list(self.seeking.values()):
            with contextlib.suppress(BaseException):
                await task

    # ---------------------------------------------------------------- tokens
    async def make_token(self, me: Account, name: str, scopes: list[str]) -> dict[str, Any]:
        """A new token of ``me`` (shown once: only its digest is kept)."""
        unknown = sorted(set(scopes) - set(SCOPES))
        if unknown or not scopes:
            raise refuse(
                422, "bad_scopes", f"scopes are some of {', '.join(SCOPES)}", scopes=unknown
            )
        if len(await self.storage.aread(store.tokens_of(me.id))) >= MAX_TOKENS:
            raise refuse(409, "too_many_tokens", f"at most {MAX_TOKENS} tokens", most=MAX_TOKENS)
        token = new_token()
        row = {
            "id": secrets.token_urlsafe(9),
            "account_id": me.id,
            "digest": session_digest(token),
            "name": name,
            "scopes": sorted(set(scopes)),
            "created_at": self.clock(),
        }
        await self.storage.awrite(store.insert_token(row))
        return {
            "id": row["id"],
            "name": name,
            "scopes": row["scopes"],
            "created_at": row["created_at"],
            "last_used_at": None,
            "token": token,
        }

    async def revoke(self, me: Account, token_id: str) -> None:
        """Revoke a token of ``me``: refused by the next request on every process."""
        if not await self.storage.awrite(store.revoke_token(me.id, token_id, self.clock())):
            raise refuse(404, "no_token", "no such token", token=token_id)

    # ---------------------------------------------------------- bot accounts
    async def upgrade(self, owner: TokenOwner) -> None:
        """Turn the token's account into a bot account, for good; not while it is
        entered in a tournament that does not allow bot accounts (it would play there
        as one: the same refusal as a bot's registration there)."""
        entered = await self.storage.aread(tournament_store.entered_without_bots(owner.account_id))
        if entered:
            raise tournament_commands.refuse(
                403,
                "bots_not_allowed",
                "this tournament does not allow bot accounts",
                tournament=entered[0],
            )
        done = await self.storage.awrite(store.make_bot(owner.account_id, self.clock()))
        if done == "already":
            raise refuse(409, "already_bot", "this account is a bot account already")
        if done == "rated":
            raise refuse(
                409,
                "played_rated",
                "an account that played rated games as a person cannot become a bot",
            )

    async def is_bot(self, account: str) -> bool:
        """Whether the account is a bot account."""
        return bool(await self.storage.aread(store.bots_among([account])))

    @staticmethod
    def need_bot(owner: TokenOwner) -> None:
        """403 unless the token's account is a bot account."""
        if not owner.bot:
            raise refuse(
                403,
                "not_bot",
                "only a bot account plays through the Bot API: POST /api/bot/account/upgrade first",
            )

    # ------------------------------------------------------------ challenges
    async def accept(self, owner: TokenOwner, challenge_id: str) -> dict[str, Any]:
        """Accept a challenge to the bot: the table is made and the bot's seat noted."""
        self.need_bot(owner)
        me = Account(owner.account_id, owner.name)
        answer = await self.community.challenges.accept(challenge_id, me)
        await self._note_challenge_seat(owner.account_id, challenge_id)
        return {"challenge": challenge_id, "table": answer["table"], "seat": answer["seat"]}

    async def challenge(
        self,
        owner: TokenOwner,
        name: str,
        game: str,
        options: dict[str, Any],
        clock: dict[str, Any] | None,
        rated: bool,
    ) -> dict[str, Any]:
        """The bot challenges the player ``name``: a bot any game, a person only to an
        unrated one (a person chooses a rated game against a bot by challenging it)."""
        self.need_bot(owner)
        other = await self.community.challenges.player(name)
        if rated and not await self.is_bot(other.id):
            raise refuse(
                403, "bot_rated_person", "a bot may challenge a person to unrated games only"
            )
        me = Account(owner.account_id, owner.name)
        row = await self.community.challenges.make(me, name, game, options, clock, rated)
        return {"id": row["id"], "to": other.name, "game": game, "rated": rated}

    async def decline(self, owner: TokenOwner, challenge_id: str) -> None:
        """Decline a challenge to the bot."""
        self.need_bot(owner)
        await self.community.challenges.decline(challenge_id, Account(owner.account_id, owner.name))

    async def _note_challenge_seat(self, account: str, challenge_id: str) -> bool:
        row = await self.storage.aread(community_store.challenge(challenge_id))
        seats = (row or {}).get("seats") or {}
        seat = seats.get(account)
        if row is None or seat is None or row["table_id"] is None:
            return False
        return bool(
            await self.storage.awrite(
                store.add_bot_game(
                    account, row["table_id"], int(seat["seat"]), str(seat["token"]), self.clock()
                )
            )
        )

    # ----------------------------------------------------------- tournaments
    async def join_tournament(
        self, owner: TokenOwner, tournament_id: str, code: str | None
    ) -> dict[str, Any]:
        """Register the bot in a tournament that allows bot accounts (as a person
        registers: docs/server.md); its tables come as ``gameStart`` events."""
        self.need_bot(owner)
        if self.tournaments is None:
            raise refuse(503, "starting", "the server is starting: try again in a moment")
        me = Account(owner.account_id, owner.name)
        await tournament_commands.register(self.tournaments, tournament_id, me, code)
        return {"tournament": tournament_id, "registered": True}

    async def withdraw_tournament(self, owner: TokenOwner, tournament_id: str) -> dict[str, Any]:
        """Take the bot out of a tournament, as a person withdraws: before the start off
        the list, after it from the next round on (a table in play is played out)."""
        self.need_bot(owner)
        if self.tournaments is None:
            raise refuse(503, "starting", "the server is starting: try again in a moment")
        me = Account(owner.account_id, owner.name)
        await tournament_commands.withdraw(self.tournaments, tournament_id, me)
        return {"tournament": tournament_id, "registered": False}

    async def _note_tournament_seats(self, owner: TokenOwner, told: set[str]) -> None:
        """Claim the bot's seats at its tournaments' tables in play and note them as its
        games (each once per stream): a seat is claimed only while the bot listens, as
        a person's only while their page is open."""
        if self.tournaments is None:
            return
        me = Account(owner.account_id, owner.name)
        seated = await self.storage.aread(tournament_store.seated_tournaments(me.id))
        for tournament_id in seated:
            # The snapshot the tournament's pages share: read again only on a change.
            watched = await self.tournaments.watched(tournament_id)
            found = await self.tournaments.claimed_seat(watched.snap, me)
            if found is None or "table:" + found[0] in told:
                continue
            table_id, seat, token = found
            await self.storage.awrite(
                store.add_bot_game(me.id, table_id, seat, token, self.clock())
            )
            told.add("table:" + table_id)

    # ----------------------------------------------------------------- seeks
    async def seek(
        self, owner: TokenOwner, seeks: Seeks, game: str, time_control: TimeControl | None
    ) -> dict[str, Any]:
        """Wait in the play-now queue of ``game`` (unrated: a bot never takes a rated
        game from a person who did not choose it); kept alive here until seated, then
        a ``gameStart`` event. A newer seek replaces the bot's older one."""
        self.need_bot(owner)
        seek, _status, secret = await seeks.add(
            game, False, time_control, owner.name, owner.account_id
        )
        old = self.seeking.pop(owner.account_id, None)
        if old is not None:
            old.cancel()
        self.seeking[owner.account_id] = asyncio.create_task(
            self._keep_seek(owner.account_id, seeks, seek.id, secret)
        )
        return {"seek": seek.id, "game": game}

    async def cancel_seek(self, owner: TokenOwner) -> None:
        """Leave the queue."""
        task = self.seeking.pop(owner.account_id, None)
        if task is None:
            raise refuse(404, "no_seek", "this bot is not seeking")
        task.cancel()

    async def _keep_seek(self, account: str, seeks: Seeks, seek_id: str, secret: str) -> None:
        try:
            while True:
                seek, _status = await seeks.poll(seek_id, secret)
                if seek.table_id is not None and seek.seat is not None and seek.token:
                    await self.storage.awrite(
                        store.add_bot_game(
                            account, seek.table_id, seek.seat, seek.token, self.clock()
                        )
                    )
                    return
                await asyncio.sleep(1.0)  # the queue's heartbeat, as a page polls
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await seeks.cancel(seek_id, secret)
            raise
        except Exception:  # the seek vanished (a restart): the bot seeks again
            return
        finally:
            if self.seeking.get(account) is asyncio.current_task():
                del self.seeking[account]

    # ----------------------------------------------------------- the streams
    async def events(self, owner: TokenOwner, token: str) -> AsyncIterator[str]:
        """The bot's events (see :mod:`.streams`)."""
        told_challenges: set[str] = set()
        started: set[str] = set()
        quiet = 0.0
        checked = 0.0
        while True:
            lines = await self._event_lines(owner, told_challenges, started)
            for text in lines:
                yield text
            quiet = 0.0 if lines else quiet + EVENT_TICK
            if quiet >= KEEPALIVE:
                quiet = 0.0
                yield "\n"
            checked += EVENT_TICK
            if checked >= RECHECK_SECONDS:
                checked = 0.0
                if await self.gate.owner(token) is None:
                    return
            await asyncio.sleep(EVENT_TICK)

    async def _event_lines(self, owner: TokenOwner, told: set[str], started: set[str]) -> list[str]:
        account = owner.account_id
        now = self.clock()  # no write here: an expired challenge is only left out
        rows = await self.storage.aread(community_store.challenges_of(account, now - 86400))
        out: list[str] = []
        names = await self.storage.aread(
            community_store.names_of([r["challenger_id"] for r in rows])
        )
        bots = await self.storage.aread(store.bots_among(r["challenger_id"] for r in rows))
        for row in rows:
            accepted = row["status"] == "accepted" and account in (row["seats"] or {})
            if accepted and "seat:" + row["id"] not in told:  # noted once per stream
                told.add("seat:" + row["id"])
                await self._note_challenge_seat(account, row["id"])
            mine = row["challenged_id"] == account
            pending = row["status"] == "pending" and row["expires_at"] > now
            if mine and pending and row["id"] not in told:
                told.add(row["id"])
                out.append(
                    line(
                        {
                            "type": "challenge",
                            "challenge": {
                                "id": row["id"],
                                "from": names.get(row["challenger_id"], ""),
                                "bot": row["challenger_id"] in bots,
                                "game": row["game"],
                                "options": row["options"],
                                "clock": row["clock"],
                                "rated": row["rated"],
                            },
                        }
                    )
                )
        await self._note_tournament_seats(owner, told)
        for seat in await self.storage.aread(store.bot_games_of(account)):
            table_id = seat["table_id"]
            status, name = await self._status(table_id)
            game = {"id": table_id, "seat": seat["seat"], "game": name}
            if table_id not in started:
                started.add(table_id)
                out.append(line({"type": "gameStart", "game": game}))
            if status in (Status.FINISHED.value, None):
                await self.storage.awrite(store.finish_bot_game(account, table_id))
                out.append(line({"type": "gameFinish", "game": game}))
        return out

    async def _status(self, table_id: str) -> tuple[str | None, str | None]:
        """A table's status and game (``None``: no such table)."""
        live = self.hub.tables.get(table_id)
        if live is not None:
            return live.table.status.value, live.table.game.info.name
        found = await self.storage.aread(store.table_status(table_id))
        return (None, None) if found is None else found

    async def _seat_of(self, owner: TokenOwner, table_id: str) -> dict[str, Any]:
        found = await self.storage.aread(store.bot_game(owner.account_id, table_id))
        if found is None:
            raise refuse(404, "no_game", "this bot holds no seat at that table", table=table_id)
        return found

    async def game(self, owner: TokenOwner, token: str, table_id: str) -> AsyncIterator[str]:
        """One seat's game (see :mod:`.streams`): a connection of the table for the
        seat, whose every message is a line."""
        seat = await self._seat_of(owner, table_id)
        live = await self.hub.reachable(table_id)
        if live is None or live.gone:
            raise refuse(404, "no_live_table", "the game is over or elsewhere", table=table_id)
        socket = SeatSocket()
        conn = await self.hub.connect(live, socket, owner.name)
        key = (owner.account_id, table_id)
        await self.hub.handle(live, conn, json.dumps({"type": "hello", "token": seat["token"]}))
        return self._game_lines(live, conn, socket, key, token)

    async def _game_lines(
        self,
        live: LiveTable,
        conn: Connection,
        socket: SeatSocket,
        key: tuple[str, str],
        token: str,
    ) -> AsyncIterator[str]:
        old = self.seats.get(key)
        self.seats[key] = (live, conn, socket)
        quiet = 0.0
        try:
            if old is not None:  # one game stream per seat: the newer one
                await self.hub.disconnect(old[0], old[1])
            while True:
                try:
                    data = await asyncio.wait_for(socket.queue.get(), RECHECK_SECONDS)
                except TimeoutError:
                    if conn.closed or await self.gate.owner(token) is None:
                        return
                    quiet += RECHECK_SECONDS
                    if quiet >= KEEPALIVE:
                        quiet = 0.0
                        yield "\n"
                    continue
                if data is None:
                    return
                quiet = 0.0
                yield data + "\n"
                if finished(data):
                    return
        finally:
            if self.seats.get(key) == (live, conn, socket):
                del self.seats[key]
            await self.hub.disconnect(live, conn)

    # ------------------------------------------------------------- actions
    async def act(
        self, owner: TokenOwner, table_id: str, message: dict[str, Any]
    ) -> dict[str, Any]:
        """Send a table message for the bot's seat (its token added) through the one
        table; the table's answer to it: an ``ack``, ``resync`` or ``error``, or
        ``{"type": "done"}`` for a message that has no answer of its own."""
        seat = await self._seat_of(owner, table_id)
        message = {**message, "token": seat["token"]}
        held = self.seats.get((owner.account_id, table_id))
        if held is not None and not held[1].closed:
            live, conn, socket = held
            return await self._send(live, conn, socket, message)
        found = await self.hub.reachable(table_id)
        if found is None or found.gone:
            raise refuse(404, "no_live_table", "the game is over or elsewhere", table=table_id)
        socket = SeatSocket()
        conn = await self.hub.connect(found, socket, owner.name)
        try:
            hello = {"type": "hello", "token": seat["token"]}
            await self.hub.handle(found, conn, json.dumps(hello))
            return await self._send(found, conn, socket, message)
        finally:
            await self.hub.disconnect(found, conn)

    async def _send(
        self, live: LiveTable, conn: Connection, socket: SeatSocket, message: dict[str, Any]
    ) -> dict[str, Any]:
        before = socket.answered
        await self.hub.handle(live, conn, json.dumps(message))
        written = conn.written(conn.queued)  # what the table answered is queued by now
        if written is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(written, ANSWER_SECONDS)
        move_id = message.get("move_id")
        answers: list[dict[str, Any]] = socket.since(before)
        for found in reversed(answers):
            if move_id is None or found.get("move_id") in (move_id, None):
                return dict(found)
        return {"type": "done"}
