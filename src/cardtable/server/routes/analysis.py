"""The analysis board's routes: analyse a finished game on the server (docs/analysis.md).

- ``POST /api/games/{id}/analysis`` — start the analysis of a finished game: 202 with
  its progress; 200 with the result when it is stored already (nothing is worked out
  twice). Refused: 404 no such game, 409 the game is not finished (or it is being
  analysed already, or the requester has another analysis running), 422 a game with no
  analysis, 429 over the requester's limit, 503 the server's analyses are all busy.
- ``GET /api/games/{id}/analysis`` — ``status`` (``none``, ``running``, ``failed``,
  ``done``), ``done``/``total`` moves analysed and ``percent``, and once done the
  ``result`` (the JSON of ``cardtable analyse``, each judged move with its replay
  ``step``).

Anyone who can open the replay may start its analysis — the record is public once the
game is over: a signed-in player within the account's bucket, a guest within the bucket
of the address. The game's own players get no other limit (docs/analysis.md). With
several processes (``serve --redis``) the buckets and the one-at-a-time count in Redis,
across every process; the bound on analyses at once is each process's own.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response

from cardtable.bots.review import ANALYSED_GAMES
from cardtable.server.account_store import Account
from cardtable.server.analysis import AnalysisRunner, load_analysis, stored_status
from cardtable.server.routes import current_hub
from cardtable.server.routes.accounts import optional_account
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.table import Status

__all__ = ["router"]

router = APIRouter(tags=["analysis"])

HubDep = Annotated[Hub, Depends(current_hub)]
AccountDep = Annotated[Account | None, Depends(optional_account)]

#: Longest table id looked up (ids are 32 characters at most).
MAX_ID = 32


def _refuse(
    status: int,
    code: str,
    message: str,
    params: dict[str, Any] | None = None,
    retry: int | None = None,
) -> HTTPException:
    return HTTPException(
        status,
        detail={
            "code": code,
            "message": message,
            "message_id": f"server.{code}",
            "params": params or {},
        },
        headers=None if retry is None else {"Retry-After": str(retry)},
    )


def _no_game() -> HTTPException:
    return HTTPException(404, detail={"code": "no_table", "message": "no such game"})


async def _finished_game(hub: Hub, table_id: str) -> dict[str, Any]:
    """The stored finished game, or the 404/409/422 that says why not."""
    if len(table_id) > MAX_ID:
        raise _no_game()
    row = await hub.storage.aread(lambda s: Storage.finished_table(s, table_id))
    if row is None:
        raise _no_game()
    if row["status"] != Status.FINISHED.value or row["record"] is None:
        raise _refuse(
            409,
            "analysis_not_finished",
            "the game is not finished: it can be analysed once it is over",
        )
    if row["game"] not in ANALYSED_GAMES:
        raise _refuse(
            422,
            "analysis_no_game",
            f"there is no analysis for the game {row['game']}",
            {"game": row["game"]},
        )
    return row


def _runner(request: Request) -> AnalysisRunner:
    runner: AnalysisRunner = request.app.state.analysis
    return runner


def _requester(request: Request, account: Account | None) -> tuple[str, bool]:
    if account is not None:
        return f"account:{account.id}", True
    return f"address:{request.client.host if request.client else '?'}", False


def _moves(record: dict[str, Any]) -> int:
    segments = record.get("deals") or record.get("rounds") or []
    return sum(len(segment.get("moves", [])) for segment in segments)


@router.get("/api/games/{table_id}/analysis", summary="Analysis of a finished game")
async def analysis_status(table_id: str, hub: HubDep, request: Request) -> dict[str, Any]:
    """The analysis's status, progress and (once done) result; ``none`` before any."""
    await _finished_game(hub, table_id)
    # The job before the stored result: a job is dropped only after its result is
    # stored, so a job that ends while storage is read is found there, never "none".
    job = _runner(request).job(table_id)
    stored = await hub.storage.aread(load_analysis(table_id))
    if stored is not None:
        return stored_status(stored)
    if job is not None:
        return job.status()
    return {"status": "none", "done": 0, "total": 0, "percent": 0, "error": None, "result": None}


@router.post(
    "/api/games/{table_id}/analysis",
    summary="Analyse a finished game",
    status_code=202,
    responses={
        200: {"description": "Analysed already: the stored result"},
        409: {"description": "Not finished, being analysed, or the requester has one running"},
        429: {"description": "Too many analyses from this account or address"},
        503: {"description": "The server's analyses are all busy"},
    },
)
async def start_analysis(
    table_id: str, hub: HubDep, request: Request, response: Response, account: AccountDep
) -> dict[str, Any]:
    """Start the analysis of a finished game (the module's text says who may and how
    often); its progress, or the stored result (200)."""
    row = await _finished_game(hub, table_id)
    runner = _runner(request)
    job = runner.job(table_id)  # before the stored result, as in analysis_status
    stored = await hub.storage.aread(load_analysis(table_id))
    if stored is not None:
        response.status_code = 200
        return stored_status(stored)
    if job is not None and job.running:
        percent = job.status()["percent"]
        raise _refuse(
            409,
            "analysis_running",
            f"this game is being analysed already: {percent}% done",
            {"percent": percent},
        )
    requester, signed_in = _requester(request, account)
    if not await runner.claim(requester):  # on any process, with Redis
        raise _refuse(
            409, "analysis_one_at_a_time", "you have an analysis running already: one at a time"
        )
    try:
        if len(runner.running()) >= hub.settings.analysis_waiting:  # this process's
            raise _refuse(
                503,
                "analysis_busy",
                "the server is analysing other games: try again in a minute",
                retry=60,
            )
        wait = await runner.take(requester, signed_in)
        if wait:
            minutes = max(1, -(-wait // 60))
            raise _refuse(
                429,
                "analysis_rate_limited",
                f"too many analyses: start the next one in {minutes} min",
                {"minutes": minutes},
                retry=wait,
            )
    except BaseException:
        await runner.release(requester)
        raise
    record = row["record"]
    job = runner.start(table_id, row["game"], record, requester, _moves(record))
    return job.status()
