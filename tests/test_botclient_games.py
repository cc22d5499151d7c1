"""``cardtable connect`` and a game whose stream the server refuses (404): a game that
ended while the bot was away (a stand-in or the clock finished it) is let go at once
instead of being asked for again every second — it held one of the client's
``--concurrency`` places for good — and a game the bot holds no seat at is dropped; a
game live elsewhere (another process, a takeover) is asked for again until it answers."""

from __future__ import annotations

import asyncio
import json

import httpx

from cardtable.botclient.client import BotClient
from cardtable.botclient.players import read_roster

GAME = {"id": "t1", "seat": 0, "game": "candidate"}


def refusal(code: str) -> httpx.Response:
    return httpx.Response(404, json={"detail": {"code": code}, "code": code})


def play(answers: dict[str, list[httpx.Response]]) -> tuple[BotClient, list[str]]:
    """Play :data:`GAME` against a server that answers each path with the next of its
    answers (the last one again once they run out); the paths asked, in order."""
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        asked.append(path)
        queue = answers[path]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    client = BotClient(
        "http://bots",
        "ctp_test",
        read_roster(["random"]),
        seed=1,
        transport=httpx.MockTransport(answer),
    )

    async def main() -> None:
        try:
            await asyncio.wait_for(client._play(GAME), timeout=120)
        finally:
            await client.http.aclose()

    asyncio.run(main())
    return client, asked


def test_a_game_that_ended_while_the_bot_was_away_is_let_go() -> None:
    client, asked = play(
        {
            "/api/bot/game/stream/t1": [refusal("no_live_table")],
            "/api/tables/t1": [httpx.Response(200, json={"id": "t1", "status": "finished"})],
        }
    )
    assert asked == ["/api/bot/game/stream/t1", "/api/tables/t1"]
    assert "t1" in client.finished  # a gameStart for it again starts nothing


def test_a_game_the_bot_holds_no_seat_at_is_dropped_without_asking_the_table() -> None:
    client, asked = play({"/api/bot/game/stream/t1": [refusal("no_game")]})
    assert asked == ["/api/bot/game/stream/t1"]
    assert "t1" not in client.finished


def test_a_game_live_elsewhere_is_asked_for_again_until_its_stream_answers() -> None:
    finished = {
        "type": "welcome",
        "history": [],
        "state": {"status": "finished", "version": 9, "result": {"ranks": [1, 2]}},
    }
    stream = [refusal("no_live_table"), httpx.Response(200, text=json.dumps(finished) + "\n")]
    client, asked = play(
        {
            "/api/bot/game/stream/t1": stream,
            "/api/tables/t1": [httpx.Response(200, json={"id": "t1", "status": "playing"})],
        }
    )
    assert asked == ["/api/bot/game/stream/t1", "/api/tables/t1", "/api/bot/game/stream/t1"]
    assert "t1" in client.finished
