"""What the API shows of a tournament (docs/server.md, "Tournaments"): its summary in
lists, the whole page's state, and the exports of its standings (JSON and CSV).

Built from a stored :class:`~.store.Snapshot` alone, so any process answers the same;
standings come from :func:`cardtable.tournament.standings.standings`. Seat tokens are
never part of these views: a player's own ``play_url`` is added by the routes.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

from cardtable.server.tournaments.arena import ends_at
from cardtable.server.tournaments.store import IN, Snapshot
from cardtable.tournament import Standing
from cardtable.tournament.standings import standings

__all__ = ["detail", "export_csv", "export_json", "summary"]


def iso(value: datetime | None) -> str | None:
    """An aware datetime as ISO 8601 in UTC."""
    return None if value is None else value.astimezone(UTC).isoformat()


def summary(snap: Snapshot) -> dict[str, Any]:
    """A tournament in a list."""
    row = snap.row
    spec = snap.spec
    return {
        "id": snap.id,
        "name": row["name"],
        "game": row["game"],
        "format": row["format"],
        "duplicate": spec.duplicate,
        "rated": bool(snap.settings.get("rated", False)),
        "status": row["status"],
        "starts_at": iso(row["starts_at"]),
        "rounds": spec.rounds,
        "minutes": spec.minutes,
        "round": row["round"],
        "ends_at": (
            iso(datetime.fromtimestamp(ends_at(snap), UTC)) if spec.format == "arena" else None
        ),
        "players": sum(1 for p in snap.players if p["status"] in IN),
        "organiser": row["organiser"],
        "access": "invite" if row["invite_code"] is not None else "open",
        "bots": bool(snap.settings.get("bots", False)),
    }


def player_status(snap: Snapshot, player: dict[str, Any]) -> str:
    """``registered``, ``checked_in``, ``playing``, ``withdrawn`` or ``removed``."""
    status = str(player["status"])
    if status in IN and snap.row["status"] == "running":
        return "playing"
    return status


def table_standings(snap: Snapshot) -> list[Standing]:
    """The standings as stored results rank them (players who left before their
    first round are not in them)."""
    entrants = [p for p in snap.entrants() if p.left is None or p.left >= p.joined]
    return standings(snap.spec, entrants, snap.results(), snap.plans())


def rounds(snap: Snapshot) -> list[dict[str, Any]]:
    """Each round: its byes and tables with their results and links."""
    shown = []
    for round_row in snap.rounds:
        number = round_row["round"]
        tables = []
        for game in snap.round_games(number):
            table_id = game["table_id"]
            played = game["status"] == "finished"
            tables.append(
                {
                    "table_id": table_id,
                    "seats": list(game["seats"]),
                    "totals": game["totals"],
                    "forfeited": list(game["forfeited"]),
                    "status": "playing" if game["status"] == "playing" else "finished",
                    "watch_url": f"/watch/{table_id}" if game["status"] == "playing" else None,
                    "replay_url": f"/replay/{table_id}" if played else None,
                }
            )
        shown.append(
            {
                "round": number,
                "started_at": iso(round_row["started_at"]),
                "finished": bool(round_row["finished"]),
                "byes": list(round_row["plan"].get("byes", [])),
                "tables": tables,
            }
        )
    return shown


def next_round_at(snap: Snapshot) -> float | None:
    """When the next round of a running Swiss or race tournament is paired (Unix
    seconds): ``break_seconds`` after the round in play finished; ``None`` while a round
    is in play, after the last one, or with no break."""
    brk = float(snap.settings.get("break_seconds", 0))
    number = snap.row["round"]
    if snap.row["status"] != "running" or snap.spec.format == "arena" or brk <= 0:
        return None
    if number < 1 or number >= snap.spec.rounds:
        return None
    current = next((r for r in snap.rounds if r["round"] == number), None)
    if current is None or not current["finished"] or current.get("finished_at") is None:
        return None
    return float(current["finished_at"]) + brk


def iso_seconds(seconds: float | None) -> str | None:
    """Unix seconds as ISO 8601 (UTC), or ``None``."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC).isoformat()


def detail(snap: Snapshot, now: float) -> dict[str, Any]:
    """The tournament page's state (without ``you``)."""
    settings = snap.settings
    return {
        **summary(snap),
        "spec": snap.spec.to_dict(),
        "now": datetime.fromtimestamp(now, UTC).isoformat(),
        "paused": bool(snap.row["paused"]),
        "version": snap.row["version"],
        "clock": settings.get("clock"),
        "bots_allowed": bool(settings.get("bots_allowed", False)),
        "late_join": bool(settings.get("late_join", True)),
        "checkin_seconds": settings.get("checkin_seconds", 0),
        "forfeit_seconds": settings.get("forfeit_seconds", 60),
        "break_seconds": settings.get("break_seconds", 0),
        "next_round_at": iso_seconds(next_round_at(snap)),
        "started_at": iso(snap.row["started_at"]),
        "finished_at": iso(snap.row["finished_at"]),
        "players": [
            {
                "name": p["player"],
                "bot": snap.is_bot(p),
                "status": player_status(snap, p),
                "joined": p["joined"],
            }
            for p in snap.players
        ],
        "rounds": rounds(snap),
        "standings": [s.to_dict() for s in table_standings(snap)],
    }


def games_of(snap: Snapshot) -> list[dict[str, Any]]:
    """Every game with a result, each with its table and record link."""
    return [
        {
            "round": g["round"],
            "table": g["table_no"],
            "table_id": g["table_id"],
            "seats": list(g["seats"]),
            "totals": g["totals"],
            "forfeited": list(g["forfeited"]),
            "record_url": (
                f"/api/tables/{g['table_id']}/record" if g["status"] == "finished" else None
            ),
        }
        for g in snap.games
        if g["totals"] is not None
    ]


def export_json(snap: Snapshot) -> dict[str, Any]:
    """The standings with every game (a download)."""
    return {
        "tournament": summary(snap),
        "spec": snap.spec.to_dict(),
        "standings": [s.to_dict() for s in table_standings(snap)],
        "games": games_of(snap),
    }


def export_csv(snap: Snapshot) -> str:
    """The standings as CSV, one line a player: rank, player, bot, points, each
    tie-break, games, byes, and the player's games as ``round:table_id`` with the
    record's address."""
    lines = table_standings(snap)
    breaks = list(lines[0].tiebreaks) if lines else []
    bots = {p["player"] for p in snap.players if snap.is_bot(p)}
    games = games_of(snap)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player", "bot", "points", *breaks, "games", "byes", "tables"])
    for line in lines:
        mine = [
            f"{g['round']}:{g['table_id']}" + (f" {g['record_url']}" if g["record_url"] else "")
            for g in games
            if line.player in g["seats"]
        ]
        writer.writerow(
            [
                line.rank,
                line.player,
                "yes" if line.player in bots else "no",
                line.points,
                *[line.tiebreaks.get(b, "") for b in breaks],
                line.games,
                line.byes,
                "; ".join(mine),
            ]
        )
    return out.getvalue()
