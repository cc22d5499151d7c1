"""What the browser client needs beyond the table protocol: pages, rules, hints, replays.

Nothing here decides a rule: hints come from the bots, replays and summaries from the
games, so the browser never re-implements a rule and the server never branches on a
game's name.

- ``GET /api/rules/{game}?lang=en|uk|…`` — the rules page (docs/rules) as Markdown;
- ``GET /api/messages?lang=en|uk|…`` — the engines' refusal messages in one language
  (:func:`cardtable.messages.catalog_json`), from which the client says a refused
  move's ``message_id`` and ``params`` in the player's language;
- ``POST /api/tables/{id}/hint`` — the bot's suggestion for a seat (its token proves it);
- ``GET /api/tables/{id}/summary`` — the replay summary (docs/records.md) of the match so
  far, as the game shows it on screen (public facts only);
- ``GET /api/tables/{id}/replay`` — a finished game, move by move: the public view after
  every move and the move's events, with every hand (the game is over: the record
  shows them all anyway);
- ``GET /play/{id}``, ``/watch/{id}``, ``/replay/{id}``, ``/rules/{game}``, ``/signup``,
  ``/signin``, ``/account``, ``/player/{name}``, ``/forgot``, ``/reset``,
  ``/verify-email``, ``/moderation``, ``/moderation/log``, ``/leaderboard``, ``/tutorial/{game}``
  (each game with a tutorial) — the client's page, so its addresses (the invite links
  among them) can be opened and reloaded.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from cardtable.catalogue import lang_pattern
from cardtable.errors import CardtableError
from cardtable.games.base import Game
from cardtable.messages import catalog_json
from cardtable.rules_text import markdown_html, rules_text
from cardtable.server.routes import current_hub, no_table
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.server.thinking import HintRunner, HintsBusy
from cardtable.server.tutorial import LESSONS
from cardtable.table import MoveEntry, Status

__all__ = ["HINT_LEVEL", "pages", "replay_steps", "router"]

#: Bot level whose choice a hint shows.
HINT_LEVEL = "hard"

router = APIRouter(tags=["client"])

HubDep = Annotated[Hub, Depends(current_hub)]


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
    html: str = Field(description="The same page as HTML (nested lists kept).")


@router.get("/api/rules/{game}", summary="Rules page")
async def rules(
    game: str,
    hub: HubDep,
    lang: Annotated[str, Query(pattern=lang_pattern(), description="a language code")] = "en",
) -> Rules:
    """The rules of ``game`` as the project implements them (docs/rules), as Markdown."""
    if game not in hub.games:
        raise HTTPException(404, detail={"code": "no_game", "message": "no such game"})
    try:
        text = rules_text(game, lang)
    except CardtableError as exc:
        raise HTTPException(404, detail={"code": "no_rules", "message": str(exc)}) from None
    return Rules(game=game, lang=lang, markdown=text, html=markdown_html(text))


@router.get("/api/messages", summary="Refusal messages")
async def messages(
    lang: Annotated[str, Query(pattern=lang_pattern(), description="a language code")] = "en",
) -> dict[str, Any]:
    """Every refusal message of the engines in ``lang``: templates by message id and
    how the language writes ranks and suits (see :mod:`cardtable.messages`)."""
    return catalog_json(lang)


def too_many_hints(wait: int) -> HTTPException:
    """The 429 of a seat or an address asking for hints too often."""
    return HTTPException(
        429,
        detail={
            "code": "hint_rate_limited",
            "message": f"too many hints: ask again in {wait} s",
            "message_id": "server.hint_rate_limited",
            "params": {"seconds": wait},
        },
        headers={"Retry-After": str(wait)},
    )


def hints_refused(*, rated: bool) -> HTTPException:
    """The 403 of a hint asked at a table that allows none (a rated one never does)."""
    code, message = (
        ("hints_rated", "no hints at a rated table: every move is the player's own")
        if rated
        else ("hints_off", "this table allows no hints: they were not chosen when it was created")
    )
    return HTTPException(
        403,
        detail={"code": code, "message": message, "message_id": f"server.{code}", "params": {}},
    )


@router.post(
    "/api/tables/{table_id}/hint",
    summary="Hint",
    responses={
        403: {"description": "Not a seat's token, or the table allows no hints"},
        429: {"description": "Too many hints from this seat or address"},
    },
)
async def hint(table_id: str, body: HintRequest, hub: HubDep, request: Request) -> Hint:
    """What the strongest bot would play now for the token's seat (``null``: no move).

    Only at a table whose creator allowed hints (never a rated one; 403 otherwise: no
    help reaches a seat unless everyone at the table agreed to it by sitting down).
    Limited per address and per seat (429 with ``Retry-After``); hints think on their
    own workers, never on the bots' executor, so no table's bots wait for a hint.
    """
    hints: HintRunner = request.app.state.hints
    address = request.client.host if request.client else "?"
    wait = await hints.per_address.acquire(address)
    if wait:
        raise too_many_hints(wait)
    live = hub.tables.get(table_id)
    if live is None:
        raise no_table()
    table = live.table
    if not table.hints:
        raise hints_refused(rated=table.rated)
    seat = table.seat_of_token(body.token)
    if seat is None:
        raise HTTPException(403, detail={"code": "bad_token", "message": "not a seat token"})
    wait = await hints.per_seat.acquire(f"{table_id}/{seat}")
    if wait:
        raise too_many_hints(wait)
    match = table.match
    version = table.version
    moves = table.legal_moves(seat)
    if match is None or not moves:
        return Hint(move=None, version=version)
    # The strongest level thinks for the seat exactly as a bot seat would: from what the
    # seat may know now, on the hints' own executor.
    actions = match.legal_actions(seat)
    try:
        action = await hints.think(
            game=table.game.info.name,
            bot=HINT_LEVEL,
            seed=secrets.randbits(63),  # never from the public table id: see runtime.py
            seat=seat,
            info=match.bot_info(seat),
            where=f"table {table_id} seat {seat} (hint)",
        )
    except HintsBusy:
        raise HTTPException(
            503,
            detail={
                "code": "hints_busy",
                "message": "the server is working out other hints: ask again in a moment",
                "message_id": "server.hints_busy",
                "params": {},
            },
            headers={"Retry-After": "2"},
        ) from None
    if action is None or action not in actions:
        return Hint(move=None, version=version)
    return Hint(move=moves[actions.index(action)], version=version)


@router.get("/api/tables/{table_id}/summary", summary="Scores so far")
async def summary(table_id: str, hub: HubDep) -> dict[str, Any]:
    """The replay summary (docs/records.md) of the match so far: every deal's or round's
    captures and scores, the totals. Only public facts: no hidden card is in it."""
    live = hub.tables.get(table_id)
    record: dict[str, Any] | None = None
    if live is not None and live.table.match is not None:
        game, record = live.table.game, live.table.record()
    elif live is None:
        row = await hub.storage.aread(lambda s: Storage.finished_table(s, table_id))
        if row is None:
            raise no_table()
        game, record = hub.game(row["game"]), row["record"]
    if record is None:
        raise HTTPException(
            409, detail={"code": "not_started", "message": "the game has not started"}
        )
    return game.display_summary(record)


@router.get("/api/tables/{table_id}/replay", summary="Replay")
async def replay_table(table_id: str, hub: HubDep) -> dict[str, Any]:
    """A finished game move by move: the public view after each move, every hand.

    Refused (409) while the game is on, like the record.
    """
    stored = await hub.storage.aread(lambda s: Storage.load(s, table_id))
    if stored is None:
        raise no_table()
    row = stored.row
    if row["status"] != Status.FINISHED.value:
        raise HTTPException(
            409, detail={"code": "not_finished", "message": "the game is not finished"}
        )
    players = [s.get("name") or f"Player {s['index'] + 1}" for s in row["meta"]["seats"]]
    steps = await asyncio.to_thread(
        replay_steps,
        hub.game(row["game"]),
        row["seed"],
        row["options"],
        players,
        stored.moves,
        stored.times,
    )
    return {
        "id": table_id,
        "game": row["game"],
        "options": row["options"],
        "players": players,
        "result": row["result"],
        "steps": steps,
    }


def replay_steps(
    game: Game,
    seed: int,
    options: Mapping[str, Any],
    players: list[str],
    moves: list[MoveEntry],
    times: Sequence[datetime] = (),
) -> list[dict[str, Any]]:
    """The public view (and every hand) before the first move and after each move.

    The match is rebuilt exactly as the server restores a table: from its seed and its
    stored moves, through the game's own match. In a race each move also carries
    ``time``: the seconds its round's race had run, as the table recorded it
    (``MoveEntry.time``). A move stored without one (before they were kept) counts from
    the moves' stored ``times`` instead: seconds since its round's first move.
    """
    match = game.new_match(seed=seed, players=players, options=options)
    seats = range(match.seats)

    def step(seat: int | None, move: str | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        hands = [match.view(s).get("hand") for s in seats]
        return {
            "seat": seat,
            "move": move,
            "events": events,
            "view": match.view(None),
            "hands": hands if any(h is not None for h in hands) else None,
        }

    stamped = game.info.realtime and len(times) == len(moves)
    round_start: datetime | None = None
    steps = [step(None, None, [])]
    for i, entry in enumerate(moves):
        applied = match.apply(entry.seat, entry.move)
        # The game is over and every hand is shown: each event as its mover saw it.
        events = [dict(e.seen_by(entry.seat)) for e in applied.events]
        steps.append(step(entry.seat, entry.move, events))
        if game.info.realtime and entry.time is not None:
            steps[-1]["time"] = entry.time
        elif stamped:
            round_start = round_start or times[i]
            steps[-1]["time"] = round((times[i] - round_start).total_seconds(), 1)
        if applied.segment_ended:
            round_start = None  # the next move starts the next round's race
    return steps


def pages(static_dir: Path | None) -> APIRouter:
    """The client's own pages (one HTML file for every address it routes by itself);
    none when ``static_dir`` holds no client."""
    router = APIRouter(include_in_schema=False)
    if static_dir is None or not (static_dir / "index.html").is_file():
        return router
    index = static_dir / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    for path in ("/play/{table_id}", "/watch/{table_id}", "/replay/{table_id}", "/rules/{game}"):
        router.add_api_route(path, page, methods=["GET"])
    # Accounts (static/js/account.js), recovery (recover.js) and moderation (moderation.js).
    for path in (
        "/signup",
        "/signin",
        "/account",
        "/player/{name}",
        "/forgot",
        "/reset",
        "/verify-email",
        "/moderation",
        "/moderation/log",
    ):
        router.add_api_route(path, page, methods=["GET"])
    router.add_api_route("/leaderboard", page, methods=["GET"])  # static/js/leaderboard.js
    for game in LESSONS:  # static/js/tutorial.js; another game's address is not found
        router.add_api_route(f"/tutorial/{game}", page, methods=["GET"])
    return router
