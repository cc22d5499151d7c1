"""Routes about the server itself: health, the games it offers, the leaderboard, and the
games' words (the glossary) and the client's words (the catalogues) for the web client."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Annotated

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request
from fastapi.responses import Response

from cardtable.catalogue import languages
from cardtable.catalogue import words as catalogue_words
from cardtable.glossary import glossary_js
from cardtable.server.metrics import CONTENT_TYPE, Metrics
from cardtable.server.protocol import Health, Leaderboard, OfferedGame, RatingEntry
from cardtable.server.ratings import PROVISIONAL_GAMES
from cardtable.server.routes import current_hub
from cardtable.server.runtime import Hub
from cardtable.server.storage import Storage
from cardtable.server.timing import MoveTimes

__all__ = ["router"]

router = APIRouter()

HubDep = Annotated[Hub, Depends(current_hub)]


@router.get("/api/health", summary="Readiness", tags=["server"])
async def health(hub: HubDep, response: Response) -> Health:
    """Answers once storage is migrated and unfinished tables are resumed; 503 while a
    process of several is stopping (a proxy then sends nobody new to it)."""
    cluster = hub.cluster
    draining = cluster is not None and cluster.stopping
    if draining:
        response.status_code = 503
    return Health(
        status="draining" if draining else "ok",
        games=sorted(hub.games),
        tables=len(hub.tables),
        instance=cluster.me if cluster is not None else None,
        owned=len(hub.tables),
        moves=hub.moves_accepted,
        taken_over=cluster.taken_over if cluster is not None else 0,
        draining=draining,
    )


@router.get("/api/games", summary="Games offered", tags=["server"])
async def list_games(hub: HubDep) -> list[OfferedGame]:
    """The games this server can host, with their seat counts."""
    return [
        OfferedGame(
            name=game.info.name,
            title=game.title,
            titles=dict(game.info.titles),
            realtime=game.info.realtime,
            min_seats=game.info.min_players,
            max_seats=game.info.max_players,
        )
        for game in hub.games.values()
    ]


@router.get("/api/ratings", summary="Leaderboard", tags=["ratings"])
async def ratings(
    hub: HubDep,
    game: Annotated[str, Query(description="candidate or spy", max_length=32)],
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> Leaderboard:
    """The best-rated accounts of a game: settled ratings first, then provisional ones,
    each by the shown rating (docs/server.md); 422 for a game the server does not offer."""
    hub.game(game)
    rows = await hub.storage.aread(lambda s: Storage.leaderboard(s, game, limit))
    return Leaderboard(
        game=game,
        entries=[RatingEntry(**r) for r in rows],
        provisional_games=PROVISIONAL_GAMES,
    )


@router.get("/js/glossary.js", summary="The games' words", tags=["client"], include_in_schema=False)
async def glossary() -> Response:
    """The glossary (:mod:`cardtable.glossary`) as an ES module, so the web client names
    piles, suits and moves in the same words as the terminal and the messages."""
    return Response(
        glossary_js(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


@functools.cache
def words_js() -> tuple[str, str]:
    """The web client's words (the catalogues' ``web:`` ids) as an ES module, with its
    ETag: ``export const WORDS = {"en": {...}, "uk": {...}};``, a plural message as the
    list of its forms (in the order of the language's CLDR plural categories)."""
    by_lang = {
        lang: {
            key: list(text) if isinstance(text, tuple) else text
            for key, text in catalogue_words("web", lang).items()
        }
        for lang in languages()
    }
    text = json.dumps(by_lang, ensure_ascii=False, indent=1)
    module = (
        "// The web client's words, served from the catalogues (src/cardtable/locale,\n"
        "// docs/translating.md): do not edit, edit those.\n"
        f"export const WORDS = {text};\n"
    )
    return module, '"' + hashlib.sha256(module.encode()).hexdigest()[:32] + '"'


@router.get(
    "/js/words.js", summary="The web client's words", tags=["client"], include_in_schema=False
)
async def web_words(if_none_match: Annotated[str | None, Header()] = None) -> Response:
    """Every language's words of the web client (:func:`words_js`), revalidated by ETag
    so a browser downloads them again only when the catalogues changed."""
    module, etag = words_js()
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if if_none_match == etag:
        return Response(status_code=304, headers=headers)
    return Response(module, media_type="text/javascript; charset=utf-8", headers=headers)


@router.get("/api/timing", summary="Time per move inside the server", tags=["server"])
async def timing(request: Request) -> MoveTimes:
    """Milliseconds from a move read off its WebSocket to the last message it caused
    written out (only when the server times moves: ``CARDTABLE_TIME_MOVES=1``)."""
    move_timing = getattr(request.app.state, "move_timing", None)
    if move_timing is None:
        raise HTTPException(
            404,
            detail={"code": "no_timing", "message": "this server does not time moves"},
        )
    return move_timing.report()  # type: ignore[no-any-return]


@router.get("/metrics", summary="Metrics (Prometheus)", tags=["server"], include_in_schema=False)
async def metrics(request: Request) -> Response:
    """This process's counters, gauges and histograms in the Prometheus text format
    (:mod:`cardtable.server.metrics`; docs/deploy.md lists them, with an alert rule)."""
    found: Metrics | None = getattr(request.app.state, "metrics", None)
    if found is None:
        raise HTTPException(503, "the server is starting")
    return Response(found.render(), media_type=CONTENT_TYPE)
