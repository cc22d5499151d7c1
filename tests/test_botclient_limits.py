"""``cardtable connect`` waits out the Bot API's rate limit: a ``429`` is asked again
after its ``Retry-After`` seconds, for plain requests and streams alike, so a bot that
moves faster than its token allows (a run of forced passes) loses no move."""

from __future__ import annotations

import asyncio

import httpx

from cardtable.botclient.client import Patient, retry_after


def _limited_then_ok(limited: int, header: str | None = "2") -> httpx.MockTransport:
    calls = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] <= limited:
            headers = {} if header is None else {"Retry-After": header}
            return httpx.Response(429, headers=headers, json={"detail": {"code": "token_limited"}})
        return httpx.Response(200, json={"type": "ack", "body": request.content.decode()})

    return httpx.MockTransport(answer)


def test_a_limited_move_is_sent_again_after_the_servers_wait() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def main() -> httpx.Response:
        transport = Patient(_limited_then_ok(2), sleep=sleep)
        async with httpx.AsyncClient(base_url="http://bots", transport=transport) as http:
            return await http.post("/api/bot/game/t/move", json={"move": "pass"})

    answer = asyncio.run(main())
    assert answer.status_code == 200
    assert answer.json() == {"type": "ack", "body": '{"move":"pass"}'}
    assert waits == [2.0, 2.0]


def test_a_limited_stream_opens_once_the_wait_is_over() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def main() -> int:
        transport = Patient(_limited_then_ok(1, header=None), sleep=sleep)
        async with (
            httpx.AsyncClient(base_url="http://bots", transport=transport) as http,
            http.stream("GET", "/api/bot/stream/event") as answer,
        ):
            await answer.aread()
            return answer.status_code

    assert asyncio.run(main()) == 200
    assert waits == [1.0]


def test_retry_after_reads_seconds_and_falls_back_to_one() -> None:
    assert retry_after("3") == 3.0
    assert retry_after("0") == 0.1
    assert retry_after(None) == 1.0
    assert retry_after("Wed, 21 Oct 2026 07:28:00 GMT") == 1.0
