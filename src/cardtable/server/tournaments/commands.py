"""What people ask of a tournament: create it, register, withdraw, check in, and the
organiser's start, pause, resume, remove and end.

Each command checks who asks and what the tournament allows, stores its change (any
process may: these are plain row changes) and wakes the director
(:meth:`~.service.Tournaments.wake`), which acts on it at once. Every refusal is a
:class:`~cardtable.server.runtime.HubError` (4xx with a code and a message id).

Rules, as docs/server.md states them:

* registration is open until the tournament finishes; after the start only when the
  organiser allows late joins (``late_join``): a late player is paired from the next
  round on (earlier rounds count as not played); a bot account only when the
  organiser allows bot accounts (``bots``);
* check-in opens ``checkin_seconds`` before the start (0: no check-in asked); at the
  start, players who did not check in are withdrawn;
* a withdrawal (or a removal by the organiser) after the start takes effect from the
  next round (an arena: the player is not paired again): the game in play goes on and
  counts;
* ending early finishes the tournament at once: the games of the round in play that
  have no result yet do not count (their tables play on as ordinary tables).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from cardtable.errors import BadOptions
from cardtable.server.account_store import Account
from cardtable.server.botapi.store import bots_among
from cardtable.server.runtime import HubError
from cardtable.server.tournaments import store
from cardtable.server.tournaments.service import Tournaments, moment
from cardtable.server.tournaments.store import IN, Snapshot
from cardtable.tournament import TournamentSpec
from cardtable.tournament.duplicate import table_options

__all__ = [
    "MAX_ARENA_MINUTES",
    "checkin",
    "create",
    "end",
    "pause",
    "refuse",
    "register",
    "remove",
    "resume",
    "start_now",
    "withdraw",
]

#: The longest arena (a day).
MAX_ARENA_MINUTES = 24 * 60


def refuse(status: int, code: str, message: str, **params: Any) -> HubError:
    """A refusal with its ``tournament.*`` message id (messages.py has its texts)."""
    return HubError(status, code, message, params, f"tournament.{code}")


def check_spec(service: Tournaments, spec: TournamentSpec) -> None:
    """Refuse a format the game does not have, or options its tables would refuse."""
    game = service.hub.game(spec.game)
    wanted = {"swiss": "candidate", "race": "spy", "arena": spec.game}.get(spec.format)
    if wanted is None:
        raise refuse(
            422,
            "bad_format",
            "the server runs 'swiss' (Candidate), 'race' (Spy) and 'arena' (both) "
            f"tournaments, not {spec.format}",
            format=spec.format,
        )
    if spec.format == "arena":
        if not 1 <= spec.minutes <= MAX_ARENA_MINUTES:
            raise refuse(
                422,
                "arena_minutes",
                f"an arena lasts 1 to {MAX_ARENA_MINUTES} minutes, not {spec.minutes}",
                minutes=spec.minutes,
                most=MAX_ARENA_MINUTES,
            )
        if spec.duplicate:
            raise refuse(
                422,
                "arena_duplicate",
                "an arena cannot be duplicate: its games start at different times",
            )
    if spec.game != wanted:
        raise refuse(
            422,
            "format_game",
            f"a {spec.format} tournament is played at {wanted}",
            format=spec.format,
            game=wanted,
        )
    seats = 2 if spec.game == "candidate" else spec.table_size
    try:
        game.check_options(table_options(spec), seats)
    except (BadOptions, ValueError) as exc:
        raise refuse(
            422,
            "bad_options",
            f"these options do not suit the tournament's tables: {exc}",
            detail=str(exc),
        ) from None


async def create(
    service: Tournaments,
    account: Account,
    *,
    name: str,
    spec: TournamentSpec,
    settings: dict[str, Any],
    starts_at: float,
    invite: bool,
) -> tuple[str, str | None]:
    """Store a new tournament organised by ``account``; its id and invite code."""
    check_spec(service, spec)
    now = service.clock()
    if starts_at < now - 1:
        raise refuse(422, "start_past", "the start time has passed")
    tournament_id = secrets.token_urlsafe(9)
    code = secrets.token_urlsafe(8) if invite else None
    await service.storage.awrite(
        store.insert_tournament(
            {
                "id": tournament_id,
                "name": name,
                "game": spec.game,
                "format": spec.format,
                "spec": spec.to_dict(),
                "settings": settings,
                "organiser_id": account.id,
                "organiser": account.name,
                "invite_code": code,
                "status": "upcoming",
                "paused": False,
                "round": 0,
                "secret_seed": secrets.randbelow(2**62),
                "version": 0,
                "starts_at": moment(starts_at),
                "created_at": moment(now),
                "owner": service.me,
                "lease_token": 1,
                "lease_until": 0.0,
            }
        )
    )
    if service.me is None:
        service.direct(tournament_id, None)
    return tournament_id, code


def _not_finished(snap: Snapshot) -> None:
    if snap.row["status"] == "finished":
        raise refuse(409, "finished", "the tournament is over")


async def register(
    service: Tournaments, tournament_id: str, account: Account, code: str | None
) -> None:
    """Enter the signed-in player (an invite tournament asks for its code)."""
    snap = await service.load(tournament_id)
    _not_finished(snap)
    running = snap.row["status"] == "running"
    if running and not snap.settings.get("late_join", True):
        raise refuse(409, "started", "the tournament has started")
    invite = snap.row["invite_code"]
    if invite is not None and code != invite:
        raise refuse(403, "bad_code", "this tournament needs its invite code")
    bot = await service.storage.aread(bots_among([account.id]))
    if bot and not snap.settings.get("bots"):
        raise refuse(403, "bots_not_allowed", "this tournament does not allow bot accounts")
    joined = snap.row["round"] + 1 if running else 1
    status = "checked_in" if running else "registered"
    mine = snap.player_of(account.id)
    if mine is not None:
        if mine["status"] in IN:
            raise refuse(409, "registered", "you are registered already")
        if mine["status"] == "removed":
            raise refuse(403, "removed", "the organiser removed you from this tournament")
        await service.storage.awrite(
            store.set_player(
                tournament_id, mine["player"], {"status": status, "left": None, "joined": joined}
            )
        )
    else:
        if snap.player(account.name) is not None:
            raise refuse(409, "registered", "you are registered already")
        await service.storage.awrite(
            store.add_player(
                tournament_id,
                {
                    "player": account.name,
                    "account_id": account.id,
                    "bot_level": None,
                    "status": status,
                    "joined": joined,
                    "left": None,
                    "registered_at": moment(service.clock()),
                },
            )
        )
    service.wake(tournament_id)


def _entrant(snap: Snapshot, account: Account) -> dict[str, Any]:
    mine = snap.player_of(account.id)
    if mine is None or mine["status"] not in IN:
        raise refuse(409, "not_registered", "you are not registered in this tournament")
    return mine


async def withdraw(service: Tournaments, tournament_id: str, account: Account) -> None:
    """Leave: before the start, off the list; after it, from the next round on."""
    snap = await service.load(tournament_id)
    _not_finished(snap)
    mine = _entrant(snap, account)
    await _leave(service, snap, mine["player"], "withdrawn")


async def _leave(service: Tournaments, snap: Snapshot, player: str, status: str) -> None:
    await service.storage.awrite(
        store.set_player(snap.id, player, {"status": status, "left": snap.row["round"]})
    )
    service.wake(snap.id)


async def checkin(service: Tournaments, tournament_id: str, account: Account) -> None:
    """Say "I am here" within the check-in window before the start."""
    snap = await service.load(tournament_id)
    if snap.row["status"] != "upcoming":
        raise refuse(409, "started", "the tournament has started")
    mine = _entrant(snap, account)
    window = float(snap.settings.get("checkin_seconds", 0))
    opens = snap.row["starts_at"] - timedelta(seconds=window)
    if window > 0 and moment(service.clock()) < opens:
        raise refuse(
            409,
            "checkin_closed",
            f"check-in has not opened yet (it opens at {opens.isoformat()})",
            opens_at=opens.isoformat(),
        )
    if mine["status"] != "checked_in":
        await service.storage.awrite(
            store.set_player(tournament_id, mine["player"], {"status": "checked_in"})
        )
    service.wake(tournament_id)


async def _organised(service: Tournaments, tournament_id: str, account: Account) -> Snapshot:
    snap = await service.load(tournament_id)
    if snap.row["organiser_id"] != account.id:
        raise refuse(403, "not_organiser", "only the tournament's organiser may do that")
    _not_finished(snap)
    return snap


async def start_now(service: Tournaments, tournament_id: str, account: Account) -> None:
    """The organiser starts the tournament at once."""
    snap = await _organised(service, tournament_id, account)
    if snap.row["status"] != "upcoming":
        raise refuse(409, "started", "the tournament has started")
    await service.storage.awrite(
        store.change(
            tournament_id, {"starts_at": moment(service.clock())}, when={"status": "upcoming"}
        )
    )
    service.wake(tournament_id)


async def pause(service: Tournaments, tournament_id: str, account: Account) -> None:
    """No new round is paired until :func:`resume` (the tables in play go on)."""
    await _organised(service, tournament_id, account)
    await service.storage.awrite(store.change(tournament_id, {"paused": True}))
    service.wake(tournament_id)


async def resume(service: Tournaments, tournament_id: str, account: Account) -> None:
    """Pair the next round again when the current one is over."""
    await _organised(service, tournament_id, account)
    await service.storage.awrite(store.change(tournament_id, {"paused": False}))
    service.wake(tournament_id)


async def remove(service: Tournaments, tournament_id: str, account: Account, player: str) -> None:
    """The organiser removes an entrant (from the next round on)."""
    snap = await _organised(service, tournament_id, account)
    entrant = snap.player(player)
    if entrant is None or entrant["status"] not in IN:
        raise refuse(404, "no_player", f"no player {player!r} in this tournament", player=player)
    await _leave(service, snap, player, "removed")


async def end(service: Tournaments, tournament_id: str, account: Account) -> None:
    """The organiser ends the tournament now: the standings so far are final."""
    await _organised(service, tournament_id, account)
    await service.storage.awrite(
        store.change(tournament_id, {"status": "finished", "finished_at": moment(service.clock())})
    )
    service.wake(tournament_id)
