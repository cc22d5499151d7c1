"""Challenges: one signed-in player asks another, by name, for a game.

A challenge names the game, its rule options, the clock — none, a live clock
(``{"initial", "increment"}`` in seconds) or days per move (``{"days": 1|2|3|7}``, a
correspondence game of a turn-based game, :mod:`.correspondence`) — and whether it is
rated. The challenged player is told at once (a ``challenge`` notice on every open page)
and accepts or declines; the challenger may cancel it. A pending challenge expires after
:data:`LIVE_SECONDS` (10 minutes) with a live clock or none, :data:`DAYS_SECONDS` (two
days) at days per move.

On accept the server makes the table exactly as the play-now queues do: the hub's
``create_table`` with the server's own seed, the two seats in random order, each person
seated through ``join`` with a token the server makes and keeps in the challenge (each
side reads only their own, ``GET /api/challenges/{id}``). Answering is a compare-and-set
on the challenge's status (``pending`` → ``accepting`` → ``accepted``), so two pages or
two processes answering at once make one table.

Refused with a 4xx and a message id (``community.<code>``): a guest (401), challenging
oneself, an unknown player, a block either way, a pending challenge to the same player,
more than :data:`MAX_PENDING` challenges waiting at once (429), an unknown game, bad
options, days per move for a race.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Final

from cardtable.errors import BadOptions
from cardtable.server.account_store import Account, find_by_name
from cardtable.server.community import store
from cardtable.server.community.notices import Notifier
from cardtable.server.runtime import Hub, HubError
from cardtable.server.tournaments.service import play_url
from cardtable.table import TimeControl

__all__ = ["DAYS", "DAYS_SECONDS", "LIVE_SECONDS", "MAX_PENDING", "Challenges", "clock_of"]

#: Seconds a challenge with a live clock (or none) waits for its answer.
LIVE_SECONDS: Final = 600.0
#: Seconds a challenge at days per move waits for its answer.
DAYS_SECONDS: Final = 2 * 86400.0
#: Challenges of one player that may wait for an answer at once.
MAX_PENDING: Final = 20
#: The days per move a correspondence game may have.
DAYS: Final = (1, 2, 3, 7)


def refuse(status: int, code: str, message: str, **params: Any) -> HubError:
    """A refusal of the community (its message id ``community.<code>``)."""
    return HubError(status, code, message, params, f"community.{code}")


def clock_of(clock: dict[str, Any] | None) -> TimeControl | None:
    """The table's time control of a live clock (``None``: none, or days per move)."""
    if clock is None or "days" in clock:
        return None
    return TimeControl(round(clock["initial"] * 1000), round(clock.get("increment", 0) * 1000))


class Challenges:
    """Challenges made, answered and expired (see the module docstring)."""

    def __init__(
        self,
        hub: Hub,
        notifier: Notifier,
        clock: Callable[[], float],
        on_correspondence: Callable[[str, int, list[str], dict[str, str]], Awaitable[None]],
    ) -> None:
        self.hub = hub
        self.storage = hub.storage
        self.notifier = notifier
        self.clock = clock
        #: Awaited with a correspondence table just made: id, days, accounts by seat,
        #: tokens by account.
        self.on_correspondence = on_correspondence
        self._random = random.SystemRandom()

    async def player(self, name: str) -> Account:
        """The account called ``name``, or 404."""
        found = await self.storage.aread(lambda s: find_by_name(s, name))
        if found is None:
            raise refuse(404, "no_player", f"no player called {name!r}", name=name)
        return found[0]

    async def check_apart(self, me: Account, other: Account) -> None:
        """403 when either of the two blocked the other."""
        blocker = await self.storage.aread(store.blocked_between(me.id, other.id))
        if blocker == me.id:
            raise refuse(403, "you_blocked", "you blocked this player: unblock them first")
        if blocker is not None:
            raise refuse(403, "blocked_you", "this player has blocked you")

    async def make(
        self,
        me: Account,
        name: str,
        game: str,
        options: dict[str, Any],
        clock: dict[str, Any] | None,
        rated: bool,
    ) -> dict[str, Any]:
        """Challenge the player ``name``; the stored challenge (refusals: the module's)."""
        other = await self.player(name)
        if other.id == me.id:
            raise refuse(422, "challenge_self", "you cannot challenge yourself")
        await self.check_apart(me, other)
        found = self.hub.game(game)  # 422 for an unknown game
        info = found.info
        if info.min_players > 2:
            raise refuse(
                422, "challenge_seats", f"{info.name} is not played by two", game=info.name
            )
        try:
            checked = found.check_options(options, 2)
        except (BadOptions, ValueError) as exc:
            raise refuse(422, "challenge_options", str(exc), detail=str(exc)) from None
        if clock is not None and "days" in clock and info.realtime:
            raise refuse(
                422,
                "days_realtime",
                f"{info.name} is a race: it cannot be played at days per move",
                game=info.name,
            )
        now = self.clock()
        mine = await self.storage.aread(store.challenges_of(me.id, now))
        waiting = [
            c
            for c in mine
            if c["status"] == "pending" and c["challenger_id"] == me.id and c["expires_at"] > now
        ]
        if any(c["challenged_id"] == other.id for c in waiting):
            raise refuse(409, "challenge_pending", "you have challenged this player already")
        if len(waiting) >= MAX_PENDING:
            raise refuse(
                429,
                "challenges_limit",
                f"at most {MAX_PENDING} challenges wait for an answer at once",
                most=MAX_PENDING,
            )
        wait = DAYS_SECONDS if clock is not None and "days" in clock else LIVE_SECONDS
        row = {
            "id": secrets.token_urlsafe(9),
            "challenger_id": me.id,
            "challenged_id": other.id,
            "game": game,
            "options": checked,
            "clock": clock,
            "rated": rated,
            "status": "pending",
            "created_at": now,
            "expires_at": now + wait,
            "table_id": None,
            "seats": None,
        }
        await self.storage.awrite(store.insert_challenge(row))
        await self.notifier.notify(
            other.id,
            "challenge",
            {"challenge": row["id"], "from": me.name, "game": game, "clock": clock, "rated": rated},
        )
        return row

    async def mine(self, me: Account) -> list[dict[str, Any]]:
        """The challenges ``me`` made or received: the pending ones, and the others of
        the last day."""
        await self.expire()
        now = self.clock()
        rows = await self.storage.aread(store.challenges_of(me.id, now - 86400))
        names = await self.storage.aread(
            store.names_of([c["challenger_id"] for c in rows] + [c["challenged_id"] for c in rows])
        )
        return [self.public(c, me, names) for c in rows]

    async def one(self, challenge_id: str, me: Account) -> dict[str, Any]:
        """A challenge ``me`` made or received (404 for any other)."""
        await self.expire()
        row = await self._row(challenge_id, me)
        names = await self.storage.aread(
            store.names_of([row["challenger_id"], row["challenged_id"]])
        )
        return self.public(row, me, names)

    @staticmethod
    def public(row: dict[str, Any], me: Account, names: dict[str, str]) -> dict[str, Any]:
        """A challenge as one of its two players sees it: their own seat's token only."""
        seat = (row["seats"] or {}).get(me.id)
        return {
            "id": row["id"],
            "from": names.get(row["challenger_id"], ""),
            "to": names.get(row["challenged_id"], ""),
            "incoming": row["challenged_id"] == me.id,
            "game": row["game"],
            "options": row["options"],
            "clock": row["clock"],
            "rated": row["rated"],
            "status": row["status"],
            "expires_at": row["expires_at"],
            "table": row["table_id"],
            "seat": None if seat is None else seat["seat"],
            "play_url": None if seat is None else play_url(row["table_id"], seat["token"]),
        }

    async def _row(self, challenge_id: str, me: Account) -> dict[str, Any]:
        row = await self.storage.aread(store.challenge(challenge_id))
        if row is None or me.id not in (row["challenger_id"], row["challenged_id"]):
            raise refuse(404, "no_challenge", "no such challenge", challenge=challenge_id)
        return row

    async def expire(self) -> None:
        """Mark the pending challenges past their time expired."""
        await self.storage.awrite(store.expire_challenges(self.clock()))

    async def _pending(self, challenge_id: str, me: Account, *, incoming: bool) -> dict[str, Any]:
        """The challenge, still pending, that ``me`` received (or made)."""
        await self.expire()
        row = await self._row(challenge_id, me)
        side = "challenged_id" if incoming else "challenger_id"
        if row[side] != me.id:
            if incoming:
                raise refuse(
                    403, "not_your_challenge", "only the challenged player answers a challenge"
                )
            raise refuse(403, "not_challenger", "only the challenger cancels a challenge")
        if row["status"] != "pending":
            raise refuse(
                409, "challenge_answered", "this challenge was answered already", now=row["status"]
            )
        return row

    async def decline(self, challenge_id: str, me: Account) -> None:
        """The challenged player says no; the challenger is told."""
        row = await self._pending(challenge_id, me, incoming=True)
        if not await self.storage.awrite(store.move_challenge(row["id"], "pending", "declined")):
            raise refuse(409, "challenge_answered", "this challenge was answered already")
        await self.notifier.notify(
            row["challenger_id"], "challenge_declined", {"challenge": row["id"], "by": me.name}
        )

    async def cancel(self, challenge_id: str, me: Account) -> None:
        """The challenger takes the challenge back."""
        row = await self._pending(challenge_id, me, incoming=False)
        if not await self.storage.awrite(store.move_challenge(row["id"], "pending", "cancelled")):
            raise refuse(409, "challenge_answered", "this challenge was answered already")

    async def accept(self, challenge_id: str, me: Account) -> dict[str, Any]:
        """The challenged player says yes: the table is made and both are seated; the
        challenge as ``me`` sees it now (with their seat's ``play_url``)."""
        row = await self._pending(challenge_id, me, incoming=True)
        challenger = await self.storage.aread(store.names_of([row["challenger_id"]]))
        if row["challenger_id"] not in challenger:
            raise refuse(404, "no_player", "the challenger's account is gone", name="")
        await self.check_apart(me, Account(row["challenger_id"], challenger[row["challenger_id"]]))
        if not await self.storage.awrite(store.move_challenge(row["id"], "pending", "accepting")):
            raise refuse(409, "challenge_answered", "this challenge was answered already")
        try:
            table_id, seats = await self._seat(row, me, challenger[row["challenger_id"]])
        except BaseException:
            await self.storage.awrite(store.move_challenge(row["id"], "accepting", "pending"))
            raise
        await self.storage.awrite(
            store.move_challenge(row["id"], "accepting", "accepted", table_id=table_id, seats=seats)
        )
        await self.notifier.notify(
            row["challenger_id"],
            "challenge_accepted",
            {"challenge": row["id"], "by": me.name, "table": table_id},
        )
        return await self.one(row["id"], me)

    async def _seat(
        self, row: dict[str, Any], me: Account, challenger_name: str
    ) -> tuple[str, dict[str, Any]]:
        """Make the challenge's table and seat both players; its id and the seats."""
        people = [(row["challenger_id"], challenger_name), (me.id, me.name)]
        self._random.shuffle(people)
        clock = row["clock"]
        days = int(clock["days"]) if clock is not None and "days" in clock else None
        table = await self.hub.create_table(
            game=row["game"],
            options=row["options"],
            bot_levels=[None, None],
            time_control=clock_of(clock),
            rated=bool(row["rated"]),
            seed=None,
            stand_ins=days is None,
        )
        invites = dict(table.open_invites())
        seats: dict[str, Any] = {}
        for index, (account, name) in enumerate(people):
            token = secrets.token_urlsafe(24)
            await self.hub.join(table.id, invites[index], name, account=account, token=token)
            seats[account] = {"seat": index, "token": token}
        if days is not None:
            tokens = {account: seat["token"] for account, seat in seats.items()}
            await self.on_correspondence(table.id, days, [account for account, _ in people], tokens)
        return table.id, seats
