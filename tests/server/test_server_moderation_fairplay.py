"""Fair-play signals on the moderators' page: a player's finished Spy games as the
server stores them (the record, the moves with their source and race times) give
figures a moderator reads — a script racing at five moves a second is pointed at by
its pace, a person at a person's pace is not — and only moderators may ask."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
from server_helpers import ServerThread
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_server_moderation import db_url, moderator, register, server

from cardtable.fairplay import StoredMove
from cardtable.games.registry import find_game
from cardtable.server.models import AccountRow, MoveRow, TableRow

__all__ = ["db_url", "server"]  # the fixtures this module uses


def spy_game(seconds_per_move: float, seed: int) -> tuple[dict[str, Any], list[StoredMove]]:
    """A one-round Spy match: seat 1 resigns, seat 0 turns 30 times, one move every
    ``seconds_per_move`` seconds of the race."""
    match = find_game("spy").new_match(seed=seed, players=["A", "B"], options={"rounds": 1})
    stored = [StoredMove(1, match.apply(1, "resign").text, "player", 0.0)]
    for i in range(1, 31):
        stored.append(
            StoredMove(0, match.apply(0, "turn").text, "player", round(i * seconds_per_move, 1))
        )
    return match.record(), stored


def finished(
    name: str, record: dict[str, Any], moves: list[StoredMove]
) -> Callable[[Session], str]:
    """A write: a finished Spy table where ``name`` sat at seat 0; its id."""

    def run(session: Session) -> str:
        account = session.scalar(select(AccountRow).where(AccountRow.name == name))
        assert account is not None
        now = datetime.now(UTC)
        table_id = uuid.uuid4().hex[:12]
        seats = [
            {"index": 0, "account": account.id, "name": name},
            {"index": 1, "account": None, "name": "Guest"},
        ]
        session.add(
            TableRow(
                id=table_id,
                game="spy",
                options={"rounds": 1},
                seed=1,
                time_control=None,
                rated=False,
                status="finished",
                version=len(moves),
                meta={"seats": seats},
                result={"ranks": [0, 1]},
                record=record,
                created_at=now,
                updated_at=now,
                finished_at=now,
            )
        )
        session.flush()
        for version, move in enumerate(moves, 1):
            session.add(
                MoveRow(
                    table_id=table_id,
                    version=version,
                    seat=move.seat,
                    move=move.move,
                    source=move.source,
                    created_at=now,
                    race_time=move.race_time,
                )
            )
        return table_id

    return run


def test_a_racing_script_is_pointed_at_by_its_pace_and_a_person_is_not(
    server: ServerThread, db_url: str
) -> None:
    base = server.base
    _, mod = moderator(base, db_url)
    storage = server.app.state.hub.storage
    paces = {"Script": 0.2, "Person": 0.8}  # seconds a move: 5 a second, and 1.25
    names = {}
    for who, pace in paces.items():
        names[who], _ = register(base, who)
        for seed in range(3):
            storage.write(finished(names[who], *spy_game(pace, seed))).result()

    figures = {}
    for who, name in names.items():
        answer = httpx.get(f"{base}/api/moderation/fairplay/{name}?game=spy", headers=mod)
        assert answer.status_code == 200, answer.text
        figures[who] = answer.json()
    script, person = figures["Script"], figures["Person"]
    assert script["signals"]["speed"]["flagged"] == 3
    assert script["signals"]["speed"]["median_peak"] > 3.0
    assert "speed" in script["signals"]["attention"]
    assert person["signals"]["speed"]["flagged"] == 0
    assert "speed" not in person["signals"]["attention"]
    for shown in (script, person):
        assert shown["skipped"] == 0
        assert len(shown["games"]) == 3
        assert shown["signals"]["levels"]["speed"] == 3.0
        assert shown["signals"]["agreement"]["decisions"] > 0
    assert all(g["flagged_rounds"] == 1 for g in script["games"])

    # A game whose stored moves are not its record's is skipped, never a 500.
    record, moves = spy_game(0.8, 9)
    storage.write(finished(names["Person"], record, moves[:-1])).result()
    again = httpx.get(f"{base}/api/moderation/fairplay/{names['Person']}?game=spy", headers=mod)
    assert (again.status_code, again.json()["skipped"], len(again.json()["games"])) == (200, 1, 3)

    # No games of the kind: no figures; no such player: 404; not a moderator: 403.
    none = httpx.get(
        f"{base}/api/moderation/fairplay/{names['Person']}?game=candidate", headers=mod
    )
    assert none.json()["signals"] is None
    missing = httpx.get(
        f"{base}/api/moderation/fairplay/Nobody{uuid.uuid4().hex[:6]}?game=spy", headers=mod
    )
    assert (missing.status_code, missing.json()["detail"]["code"]) == (404, "no_player")
    bad = httpx.get(f"{base}/api/moderation/fairplay/{names['Person']}?game=chess", headers=mod)
    assert bad.status_code == 422
    _, someone = register(base, "Someone")
    refused = httpx.get(
        f"{base}/api/moderation/fairplay/{names['Script']}?game=spy", headers=someone
    )
    assert refused.status_code == 403
