"""The routes of moderation (docs/server.md, "Moderation").

Any signed-in player:

- ``POST /api/reports`` — report a player (their chat, name or play) with a reason,
  from their profile or from a table's chat (the table and the line);
- ``GET /api/account/notices`` — the moderators' warnings, mutes and renames of you.

Moderators only (403 for others; the role is given by ``cardtable admin
grant-moderator NAME``):

- ``GET /api/moderation/reports?status=open|closed`` — reports with the reported
  player's state, chat lines and games (their replays);
- ``POST /api/moderation/actions`` — warn, mute for a time, unmute, ban, unban, rename,
  or close a report; every one logged with who and why;
- ``GET /api/moderation/log`` — that log, newest first;
- ``GET /api/moderation/fairplay/{name}?game=candidate|spy`` — the player's fair-play
  signals over their latest games (:mod:`.fairplay`): figures, never a verdict.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi import Path as FastPath
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.requests import HTTPConnection

from cardtable.server.account_store import Account
from cardtable.server.accounts import NAME_MAX, NameError_, check_name
from cardtable.server.moderation import store
from cardtable.server.moderation.fairplay import FairPlay
from cardtable.server.moderation.service import Moderation
from cardtable.server.routes import app_service, current_hub
from cardtable.server.routes.accounts import AccountDep, api_error
from cardtable.server.runtime import Hub

__all__ = ["current_moderation", "router"]

router = APIRouter(tags=["moderation"])

HubDep = Annotated[Hub, Depends(current_hub)]

#: A reason as people write it: one line or a few, no control characters but newlines.
Reason = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=500, pattern=r"^[^\x00-\x09\x0b-\x1f\x7f]+$"
    ),
]
PlayerName = Annotated[str, Field(min_length=1, max_length=4 * NAME_MAX)]
TableId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]


def current_moderation(connection: HTTPConnection) -> Moderation:
    """The application's moderation (a dependency), or 503 while starting."""
    service: Moderation = app_service(connection, "moderation")
    return service


ModerationDep = Annotated[Moderation, Depends(current_moderation)]


def moderator_only(account: Account) -> None:
    """403 unless ``account`` is a moderator. Checked in each handler, after the body's
    own checks (a body that is not JSON is answered 415 on every route, whoever asks)."""
    if not account.moderator:
        raise api_error(403, "not_moderator", "only moderators may do this")


class NewReport(BaseModel):
    """A report of the player ``name``: what about, why, and where it was seen."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName
    category: Literal["chat", "name", "play"]
    reason: Reason
    table: TableId | None = None
    line: int | None = Field(default=None, ge=1, le=10_000_000)


class Filed(BaseModel):
    """A report just filed."""

    id: int


_REFUSALS: dict[str, tuple[int, str]] = {
    "no_player": (404, "there is no such player"),
    "report_self": (422, "you cannot report yourself"),
    "report_limited": (429, f"at most {store.REPORTS_PER_HOUR} reports an hour"),
    "act_self": (422, "a moderator does not act on their own account"),
    "name_taken": (409, "that name is taken"),
    "no_report": (404, "there is no such report"),
}


def _refuse(code: str, **params: Any) -> Exception:
    status, message = _REFUSALS[code]
    return api_error(status, code, message, **params)


@router.post("/api/reports", summary="Report a player", status_code=201)
async def report(body: NewReport, account: AccountDep, hub: HubDep) -> Filed:
    """Report a player for their chat, name or play, with a reason; from a table's
    chat, the table and the chat line's number too. 404 no such player, 422 yourself,
    429 past ten reports an hour."""
    filed = await hub.storage.awrite(
        store.file_report(account.id, body.name, body.category, body.reason, body.table, body.line)
    )
    if isinstance(filed, str):
        raise _refuse(filed, name=body.name)
    return Filed(id=filed)


class Notice(BaseModel):
    """A moderator's warning, mute or rename of you."""

    action: str
    reason: str
    at: str | None
    details: dict[str, Any]


@router.get("/api/account/notices", summary="Moderators' notices to you")
async def account_notices(account: AccountDep, hub: HubDep) -> list[Notice]:
    """The moderators' warnings, mutes and renames of your account, newest first."""
    found = await hub.storage.aread(store.notices(account.id))
    return [Notice.model_validate(n) for n in found]


class TargetState(BaseModel):
    """A reported player as they are now."""

    name: str
    moderator: bool
    banned: bool
    muted_until: str | None


class ReportLine(BaseModel):
    """A chat line of the reported player; ``reported``: the line reported."""

    table: str
    number: int
    name: str
    text: str
    at: str | None
    reported: bool


class ReportGame(BaseModel):
    """A game in question (its replay: ``/replay/{table}``)."""

    table: str
    game: str
    status: str
    players: list[str | None]
    reported: bool


class Report(BaseModel):
    """A report with what a moderator needs to judge it."""

    id: int
    category: str
    reason: str
    reporter: str
    reported_name: str
    target: TargetState
    table: str | None
    line: int | None
    status: str
    at: str | None
    chat: list[ReportLine]
    games: list[ReportGame]


@router.get("/api/moderation/reports", summary="Reports (moderators)")
async def reports(
    moderator: AccountDep,
    hub: HubDep,
    status: Annotated[Literal["open", "closed"], Query()] = "open",
) -> list[Report]:
    """Open reports, oldest first (``closed``: the latest closed), each with the
    reported player's state, chat lines and games."""
    moderator_only(moderator)
    found = await hub.storage.aread(store.reports(status))
    return [Report.model_validate(r) for r in found]


class Action(BaseModel):
    """A moderator's action on the player ``name`` (``close``: on the ``report``)."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName | None = None
    action: Literal["warn", "mute", "unmute", "ban", "unban", "rename", "close"]
    reason: Reason
    minutes: int | None = Field(
        default=None, ge=1, le=60 * 24 * 365, description="A mute's length in minutes."
    )
    new_name: str | None = Field(default=None, max_length=4 * NAME_MAX)
    report: int | None = Field(default=None, ge=1, le=2**31 - 1)


class Done(BaseModel):
    """An action done: the player's name now and its details."""

    action: str
    name: str
    details: dict[str, Any]


@router.post("/api/moderation/actions", summary="Act on a player (moderators)")
async def action(body: Action, moderator: AccountDep, moderation: ModerationDep) -> Done:
    """Warn, mute for ``minutes``, unmute, ban (the account's sessions and connections
    end on every process; its rated results stay, its rating leaves the leaderboard),
    unban, rename to ``new_name``, or close a ``report``. An action taken on a report
    closes it. Logged with the moderator's name and the reason."""
    moderator_only(moderator)
    new_name = None
    if body.action == "rename":
        try:
            new_name = check_name(body.new_name or "")
        except NameError_ as exc:
            raise api_error(422, exc.code, exc.message, min=2, max=NAME_MAX) from None
    if body.action == "mute" and body.minutes is None:
        raise api_error(422, "mute_minutes", "a mute needs its length in minutes")
    if body.action == "close" and body.report is None:
        raise api_error(422, "close_report", "close names the report")
    if body.action != "close" and body.name is None:
        raise api_error(422, "action_name", "name the player to act on")
    done = await moderation.act(
        moderator.id,
        moderator.name,
        body.name or "",
        body.action,
        body.reason,
        minutes=body.minutes,
        new_name=new_name,
        report_id=body.report,
    )
    if isinstance(done, str):
        raise _refuse(done, name=(new_name if done == "name_taken" else body.name) or "")
    return Done(action=body.action, name=done.name, details=done.details)


class LogLine(BaseModel):
    """A line of the moderators' log."""

    id: int
    at: str | None
    moderator: str
    target: str
    action: str
    reason: str
    details: dict[str, Any]
    report: int | None


@router.get("/api/moderation/log", summary="The moderators' log (moderators)")
async def log(
    moderator: AccountDep,
    hub: HubDep,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[LogLine]:
    """Every action, newest first: who did what to whom, when and why."""
    moderator_only(moderator)
    found = await hub.storage.aread(store.log_lines(limit, before))
    return [LogLine.model_validate(line) for line in found]


def current_fairplay(connection: HTTPConnection) -> FairPlay:
    """The application's fair-play figures (a dependency), or 503 while starting."""
    service: FairPlay = app_service(connection, "fairplay")
    return service


@router.get("/api/moderation/fairplay/{name}", summary="A player's fair-play signals (moderators)")
async def fairplay(
    name: Annotated[str, FastPath(min_length=1, max_length=4 * NAME_MAX)],
    moderator: AccountDep,
    figures: Annotated[FairPlay, Depends(current_fairplay)],
    game: Annotated[Literal["candidate", "spy"], Query()],
) -> dict[str, Any]:
    """The player's signals in ``game`` over their latest finished games: agreement with
    the strongest bot from their own seat's information (all, the last 20 deals or
    rounds, those against the earlier ones), in Spy the race pace, the calibrated
    levels and which figures are past them (``attention``), and each game's own
    figures. A moderator reads them beside the games; nothing is decided by them."""
    moderator_only(moderator)
    found = await figures.player(name, game)
    if found is None:
        raise _refuse("no_player", name=name)
    return found
