"""The database side of moderation: reports, the moderators' actions and their log.

Every function returns a read or a write for :class:`~cardtable.server.storage.Storage`.
A write that cannot be done answers with a code (``no_player``, ``name_taken``, …)
instead of raising, so it never fails the writer's batch. Every action is one
transaction with its line in the log: an action is never done without its record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from cardtable.server.account_store import finished_games
from cardtable.server.accounts import name_key, skeleton
from cardtable.server.models import AccountRow, ChatRow, RatingRow, SessionRow, TableRow
from cardtable.server.moderation.models import ActionRow, ReportRow

__all__ = [
    "ACTIONS",
    "CATEGORIES",
    "REPORTS_PER_HOUR",
    "Acted",
    "act",
    "banned",
    "file_report",
    "log_lines",
    "muted_until",
    "notices",
    "reports",
    "set_moderator",
]

#: What a report is about.
CATEGORIES = ("chat", "name", "play")
#: What a moderator may do to an account (``close``: a report, without acting).
ACTIONS = ("warn", "mute", "unmute", "ban", "unban", "rename", "close")
#: Reports one player may file in an hour.
REPORTS_PER_HOUR = 10
#: Chat lines and games a report shows its moderator.
REPORT_LINES = 40
REPORT_GAMES = 5

Write = Callable[[Session], Any]


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back; they were stored in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _iso(moment: datetime | None) -> str | None:
    aware = _aware(moment)
    return aware.isoformat() if aware is not None else None


def _account(session: Session, name: str) -> AccountRow | None:
    return session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))


def file_report(
    reporter_id: str,
    target: str,
    category: str,
    reason: str,
    table_id: str | None = None,
    line: int | None = None,
) -> Callable[[Session], int | str]:
    """A write that files a report of the account named ``target``: its id, or
    ``no_player``, ``report_self`` or ``report_limited`` (more than
    :data:`REPORTS_PER_HOUR` in the last hour)."""

    def run(session: Session) -> int | str:
        now = _now()
        reporter = session.get(AccountRow, reporter_id)
        found = _account(session, target)
        if reporter is None or found is None:
            return "no_player"
        if found.id == reporter.id:
            return "report_self"
        recent = session.scalar(
            select(func.count())
            .select_from(ReportRow)
            .where(
                ReportRow.reporter_id == reporter.id,
                ReportRow.created_at > now - timedelta(hours=1),
            )
        )
        if (recent or 0) >= REPORTS_PER_HOUR:
            return "report_limited"
        row = ReportRow(
            reporter_id=reporter.id,
            reporter_name=reporter.name,
            target_id=found.id,
            target_name=found.name,
            category=category,
            reason=reason,
            table_id=table_id,
            line=line,
            status="open",
            created_at=now,
        )
        session.add(row)
        session.flush()
        return int(row.id)

    return run


def _state(row: AccountRow) -> dict[str, Any]:
    """An account as a moderator sees it: name, role, ban and mute."""
    muted = _aware(row.muted_until)
    return {
        "name": row.name,
        "moderator": row.moderator,
        "banned": row.banned_at is not None,
        "muted_until": muted.isoformat() if muted is not None and muted > _now() else None,
    }


def _chat(session: Session, report: ReportRow, target: AccountRow) -> list[dict[str, Any]]:
    """The reported player's chat lines: at the reported table (under the name it had
    then or has now), else their latest anywhere; the reported line is marked."""
    names = {report.target_name, target.name}
    query = select(ChatRow).where(ChatRow.name.in_(names), ChatRow.signed_in.is_(True))
    if report.table_id is not None:
        query = query.where(ChatRow.table_id == report.table_id)
    rows = session.scalars(query.order_by(ChatRow.created_at.desc()).limit(REPORT_LINES)).all()
    return [
        {
            "table": r.table_id,
            "number": r.number,
            "name": r.name,
            "text": r.text,
            "at": _iso(r.created_at),
            "reported": report.table_id == r.table_id and report.line == r.number,
        }
        for r in reversed(rows)
    ]


def _games(session: Session, report: ReportRow, target: AccountRow) -> list[dict[str, Any]]:
    """The games in question: the reported table first, then the player's latest."""
    games: list[dict[str, Any]] = []
    if report.table_id is not None:
        table = session.get(TableRow, report.table_id)
        if table is not None:
            games.append(
                {
                    "table": table.id,
                    "game": table.game,
                    "status": table.status,
                    "players": [s.get("name") for s in table.meta.get("seats", [])],
                    "reported": True,
                }
            )
    for game in finished_games(session, target.id, REPORT_GAMES):
        if game["table"] != report.table_id:
            games.append(
                {
                    "table": game["table"],
                    "game": game["game"],
                    "status": "finished",
                    "players": game["players"],
                    "reported": False,
                }
            )
    return games


def reports(status: str = "open", most: int = 100) -> Callable[[Session], list[dict[str, Any]]]:
    """A read: the reports of ``status`` (oldest open first; closed: newest first), each
    with the reported player's state, chat lines and games."""

    def run(session: Session) -> list[dict[str, Any]]:
        order = ReportRow.id if status == "open" else ReportRow.id.desc()
        rows = session.scalars(
            select(ReportRow).where(ReportRow.status == status).order_by(order).limit(most)
        ).all()
        out = []
        for report in rows:
            target = session.get(AccountRow, report.target_id)
            if target is None:
                continue
            out.append(
                {
                    "id": report.id,
                    "category": report.category,
                    "reason": report.reason,
                    "reporter": report.reporter_name,
                    "reported_name": report.target_name,
                    "target": _state(target),
                    "table": report.table_id,
                    "line": report.line,
                    "status": report.status,
                    "at": _iso(report.created_at),
                    "chat": _chat(session, report, target),
                    "games": _games(session, report, target),
                }
            )
        return out

    return run


@dataclass(frozen=True, slots=True)
class Acted:
    """A done action: the account it was done to (its name now) and its details."""

    target_id: str | None
    name: str
    details: dict[str, Any] = field(default_factory=dict)


def _rename(session: Session, target: AccountRow, new_name: str) -> dict[str, Any] | str:
    key, skel = name_key(new_name), skeleton(new_name)
    clash = session.scalar(
        select(AccountRow.id).where(
            or_(AccountRow.name_key == key, AccountRow.skeleton == skel),
            AccountRow.id != target.id,
        )
    )
    if clash is not None:
        return "name_taken"
    old = target.name
    target.name, target.name_key, target.skeleton = new_name, key, skel
    session.execute(
        update(RatingRow).where(RatingRow.account_id == target.id).values(name=new_name)
    )
    return {"from": old, "to": new_name}


def _apply(
    session: Session, target: AccountRow, action: str, minutes: int | None, new_name: str | None
) -> dict[str, Any] | str:
    """Do ``action`` to ``target``: its details for the log, or a refusal's code."""
    now = _now()
    if action == "mute":
        until = now + timedelta(minutes=minutes or 60)
        target.muted_until = until
        return {"minutes": minutes or 60, "until": until.isoformat()}
    if action == "unmute":
        target.muted_until = None
    elif action == "ban":
        target.banned_at = now
        session.execute(delete(SessionRow).where(SessionRow.account_id == target.id))
    elif action == "unban":
        target.banned_at = None
    elif action == "rename":
        return _rename(session, target, new_name or "")
    return {}


def act(
    moderator_id: str | None,
    moderator_name: str,
    name: str,
    action: str,
    reason: str,
    *,
    minutes: int | None = None,
    new_name: str | None = None,
    report_id: int | None = None,
) -> Callable[[Session], Acted | str]:
    """A write that does ``action`` to the account named ``name`` and logs it (who, to
    whom, why); an action taken on a report closes it. Answers the :class:`Acted`, or
    ``no_player``, ``act_self``, ``name_taken`` or ``no_report``."""

    def run(session: Session) -> Acted | str:
        report = session.get(ReportRow, report_id) if report_id is not None else None
        if report_id is not None and report is None:
            return "no_report"
        if action == "close":
            if report is None:
                return "no_report"
            target_row = session.get(AccountRow, report.target_id)
        else:
            target_row = _account(session, name)
        if target_row is None:
            return "no_player"
        if target_row.id == moderator_id and action != "close":
            return "act_self"
        before = target_row.name
        details = _apply(session, target_row, action, minutes, new_name)
        if isinstance(details, str):
            return details
        if report is not None and report.status == "open":
            report.status, report.closed_at = "closed", _now()
        session.add(
            ActionRow(
                created_at=_now(),
                moderator_id=moderator_id,
                moderator_name=moderator_name,
                target_id=target_row.id,
                target_name=before,
                action=action,
                reason=reason,
                details=details,
                report_id=report.id if report is not None else None,
            )
        )
        return Acted(target_row.id, target_row.name, details)

    return run


def set_moderator(name: str, on: bool, reason: str) -> Callable[[Session], str | None]:
    """A write that grants (``on``) or revokes the moderator role, logged as done from
    the command line: the account's name, or ``None`` when there is no such account."""

    def run(session: Session) -> str | None:
        row = _account(session, name)
        if row is None:
            return None
        row.moderator = on
        session.add(
            ActionRow(
                created_at=_now(),
                moderator_id=None,
                moderator_name="cardtable admin",
                target_id=row.id,
                target_name=row.name,
                action="grant" if on else "revoke",
                reason=reason,
                details={},
                report_id=None,
            )
        )
        return row.name

    return run


def _line(row: ActionRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "at": _iso(row.created_at),
        "moderator": row.moderator_name,
        "target": row.target_name,
        "action": row.action,
        "reason": row.reason,
        "details": row.details,
        "report": row.report_id,
    }


def log_lines(
    most: int = 100, before: int | None = None
) -> Callable[[Session], list[dict[str, Any]]]:
    """A read: the log's lines, newest first (``before``: older than that line)."""

    def run(session: Session) -> list[dict[str, Any]]:
        query = select(ActionRow).order_by(ActionRow.id.desc()).limit(most)
        if before is not None:
            query = query.where(ActionRow.id < before)
        return [_line(r) for r in session.scalars(query).all()]

    return run


#: What a player is told of on their account page.
NOTICES = ("warn", "mute", "rename")


def notices(account_id: str, most: int = 20) -> Callable[[Session], list[dict[str, Any]]]:
    """A read: the moderators' warnings, mutes and renames of the account, newest first
    (without the moderators' names)."""

    def run(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(
            select(ActionRow)
            .where(ActionRow.target_id == account_id, ActionRow.action.in_(NOTICES))
            .order_by(ActionRow.id.desc())
            .limit(most)
        ).all()
        return [
            {"action": r.action, "reason": r.reason, "at": _iso(r.created_at), "details": r.details}
            for r in rows
        ]

    return run


def muted_until(account_id: str | None, name: str | None) -> Callable[[Session], datetime | None]:
    """A read: until when the account (by id, else by name) is muted; ``None``: it is not."""

    def run(session: Session) -> datetime | None:
        where = (
            AccountRow.id == account_id
            if account_id
            else AccountRow.name_key == name_key(name or "")
        )
        until = _aware(session.scalar(select(AccountRow.muted_until).where(where)))
        return until if until is not None and until > _now() else None

    return run


def banned(account_id: str) -> Callable[[Session], bool]:
    """A read: whether the account is banned."""

    def run(session: Session) -> bool:
        return (
            session.scalar(select(AccountRow.banned_at).where(AccountRow.id == account_id))
            is not None
        )

    return run
