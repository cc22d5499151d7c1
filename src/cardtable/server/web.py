"""What the browser client needs beyond the table protocol: pages, rules, hints, replays.

Kept apart from :mod:`.app` so the HTTP API stays the server's own; :func:`install`
adds these routes to an application (``create_app`` calls it). Nothing here decides a
rule: hints come from the bots, replays and summaries from the engines, so the browser
never re-implements a rule.

- ``GET /api/rules/{game}?lang=en|uk`` — the rules page (docs/rules) as Markdown;
- ``POST /api/tables/{id}/hint`` — the bot's suggestion for a seat (its token proves it);
- ``GET /api/tables/{id}/summary`` — the replay summary (``docs/records.md``) of the match so far:
  the captures and scores of every deal (public facts only);
- ``GET /api/tables/{id}/replay`` — a finished game, move by move: the public view after
  every move, with every hand (the game is over: the record shows them all anyway);
- ``GET /play/{id}``, ``/watch/{id}``, ``/replay/{id}``, ``/rules/{game}`` — the client's
  page, so its addresses (the invite links among them) can be opened and reloaded.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from cardtable.errors import CardtableError
from cardtable.rules_text import rules_text
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.server.table import Status

#: Bot level whose choice a hint shows.
HINT_LEVEL = "hard"


class HintRequest(BaseModel):
    """Ask for a hint as the seat the token belongs to."""

    token: str = Field(min_length=1, max_length=128)


class Hint(BaseModel):
    """The bot's suggestion for the seat, made against the table's ``version``."""

    move: str | None
    version: int


class Rules(BaseModel):
    """A game's rules page in one language, as Markdown."""

    game: str
    lang: str
    markdown: str


def _hub(request: Request) -> Hub:
    hub = getattr(request.app.state, "hub", None)
    if hub is None:
        raise HTTPException(503, detail={"code": "starting", "message": "not ready yet"})
    return hub  # type: ignore[no-any-return]


def _no_table() -> HTTPException:
    return HTTPException(404, detail={"code": "no_table", "message": "no such table"})


def replay_steps(
    hub: Hub, game: str, seed: int, options: dict[str, Any], players: list[str], moves: list[Any]
) -> list[dict[str, Any]]:
    """The public view (and every hand) before the first move and after each move.

    The match is rebuilt exactly as the server restores a table: from its seed and its
    stored moves, through the game's own adapter.
    """
    session = hub.kind(game).create(seed=seed, players=players, options=options)
    seats = range(session.seats)

    def step(seat: int | None, move: str | None) -> dict[str, Any]:
        hands = [session.view(s).get("hand") for s in seats]
        return {
            "seat": seat,
            "move": move,
            "view": session.view(None),
            "hands": hands if any(h is not None for h in hands) else None,
        }

    steps = [step(None, None)]
    for entry in moves:
        session.apply(entry.seat, entry.move)
        steps.append(step(entry.seat, entry.move))
    return steps


def install(app: FastAPI, static_dir: Path | None) -> None:
    """Add the client's routes to ``app``; pages only when ``static_dir`` holds a client."""

    @app.get("/api/rules/{game}", summary="Rules page", tags=["client"])
    async def rules(
        game: str,
        lang: Annotated[str, Query(pattern="^(en|uk)$", description="en or uk")] = "en",
    ) -> Rules:
        """The rules of ``game`` as the project implements them (docs/rules), as Markdown."""
        if game not in _hub_games(app):
            raise HTTPException(404, detail={"code": "no_game", "message": "no such game"})
        try:
            text = rules_text(game, lang)
        except CardtableError as exc:
            raise HTTPException(404, detail={"code": "no_rules", "message": str(exc)}) from None
        return Rules(game=game, lang=lang, markdown=text)

    @app.post("/api/tables/{table_id}/hint", summary="Hint", tags=["client"])
    async def hint(table_id: str, body: HintRequest, request: Request) -> Hint:
        """What the strongest bot would play now for the token's seat (``null``: no move)."""
        hub = _hub(request)
        live = hub.tables.get(table_id)
        if live is None:
            raise _no_table()
        table = live.table
        seat = table.seat_of_token(body.token)
        if seat is None:
            raise HTTPException(403, detail={"code": "bad_token", "message": "not a seat token"})
        if not table.legal_moves(seat) or table.session is None:
            return Hint(move=None, version=table.version)
        # A fresh bot of the strongest level thinks for the seat exactly as a bot seat
        # would: from the seat's information only, within the bots' time budget.
        seed = random.Random(f"{table_id}:{table.version}:{seat}").getrandbits(63)
        bot = hub.bots.make(table.kind.name, HINT_LEVEL, seed)
        chosen = await hub.choose(live, seat, bot)
        if chosen is None:
            return Hint(move=None, version=table.version)
        move, version = chosen
        return Hint(move=move, version=version)

    @app.get("/api/tables/{table_id}/summary", summary="Scores so far", tags=["client"])
    async def summary(table_id: str, request: Request) -> dict[str, Any]:
        """The replay summary (``docs/records.md``) of the match so far: every deal's or round's
        captures and scores, the totals. Only public facts: no hidden card is in it."""
        from cardtable.record import replay

        hub = _hub(request)
        live = hub.tables.get(table_id)
        record: dict[str, Any] | None = None
        if live is not None and live.table.session is not None:
            record = live.table.session.record()
        elif live is None:
            row = await hub.storage.aread(lambda s: Storage.finished_table(s, table_id))
            if row is None:
                raise _no_table()
            record = row["record"]
        if record is None:
            raise HTTPException(
                409, detail={"code": "not_started", "message": "the game has not started"}
            )
        return with_capture_scores(replay(record).summary())

    @app.get("/api/tables/{table_id}/replay", summary="Replay", tags=["client"])
    async def replay_table(table_id: str, request: Request) -> dict[str, Any]:
        """A finished game move by move: the public view after each move, every hand.

        Refused (409) while the game is on, like the record.
        """
        hub = _hub(request)
        stored = await hub.storage.aread(lambda s: Storage.load(s, table_id))
        if stored is None:
            raise _no_table()
        row = stored.row
        if row["status"] != Status.FINISHED.value:
            raise HTTPException(
                409, detail={"code": "not_finished", "message": "the game is not finished"}
            )
        players = [s.get("name") or f"Player {s['index'] + 1}" for s in row["meta"]["seats"]]
        steps = await asyncio.to_thread(
            replay_steps,
            hub,
            row["game"],
            row["seed"],
            row["options"],
            players,
            stored.moves,
        )
        return {
            "id": table_id,
            "game": row["game"],
            "options": row["options"],
            "players": players,
            "result": row["result"],
            "steps": steps,
        }

    if static_dir is None or not (static_dir / "index.html").is_file():
        return
    index = static_dir / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    for path in ("/play/{table_id}", "/watch/{table_id}", "/replay/{table_id}", "/rules/{game}"):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)


def with_capture_scores(summary: dict[str, Any]) -> dict[str, Any]:
    """A Candidate summary with each captured sequence's score (C15) beside it, scored by
    the engine, so a deal's end can show every capture with its score.

    >>> with_capture_scores({"game": "candidate", "deals": [
    ...     {"captures": [[["9C", "10D"]], [["10D", "10C", "10S"]]], "scores": [4, 9]}]}
    ... )["deals"][0]["capture_scores"]
    [[4], [9]]
    """
    if summary.get("game") != "candidate":
        return summary
    from cardtable.cards import parse_card_kind
    from cardtable.games.candidate.scoring import capture_score

    for deal in summary["deals"]:
        deal["capture_scores"] = [
            [capture_score([parse_card_kind(c) for c in seq]) for seq in side]
            for side in deal["captures"]
        ]
    return summary


def _hub_games(app: FastAPI) -> set[str]:
    hub = getattr(app.state, "hub", None)
    return set(hub.games) if hub is not None else set()


def address(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``.

    >>> address("0.0.0.0", 8000)
    'http://127.0.0.1:8000/'
    >>> address("::1", 8080)
    'http://[::1]:8080/'
    """
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"
