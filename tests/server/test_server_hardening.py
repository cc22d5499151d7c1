"""A hardened HTTP API: malformed bodies, bounds of rule options, hint limits."""

from __future__ import annotations

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from botapi_helpers import Bot
from server_helpers import GUARD, Api, ServerThread

from cardtable.messages import render
from cardtable.server.limits import Buckets
from cardtable.server.thinking import HintRunner


def post_routes(api: Api) -> list[str]:
    """Every POST route of the OpenAPI document that reads a body, path parameters
    filled in (a route without a body, such as log-out, never decodes one)."""
    paths = api.http.get("/openapi.json").json()["paths"]
    return [
        re.sub(r"\{[^}]+\}", "abcd1234", path)
        for path, ops in paths.items()
        if "requestBody" in ops.get("post", {})
    ]


@pytest.mark.parametrize("content_type", ["text/plain", "application/octet-stream", None])
def test_a_body_that_is_not_json_gets_415_on_every_post_route(
    fake_server: ServerThread, api: Api, content_type: str | None
) -> None:
    routes = post_routes(api)
    assert "/api/tables" in routes
    assert len(routes) >= 4
    # Signed in (a bearer token) and with the CSRF header as the web client sends it, so
    # the body itself is what each route refuses.
    name = f"Bytes {['text/plain', 'application/octet-stream', None].index(content_type)}"
    signed_in = api.http.post(
        "/api/account/register",
        json={"name": name, "password": "x" * 12, "bearer": True},
        headers={"X-Cardtable-Client": "test"},
    )
    assert signed_in.status_code == 201, signed_in.text
    headers = {"X-Cardtable-Client": "test", "Authorization": f"Bearer {signed_in.json()['token']}"}
    # The Bot API's routes answer only a bot account's API token (docs/bot-api.md).
    bot = Bot(fake_server.base, f"Bytes bot {name[-1]}")
    bot_headers = {**headers, "Authorization": f"Bearer {bot.token}"}
    if content_type:
        headers["content-type"] = bot_headers["content-type"] = content_type
    for path in routes:
        sent = bot_headers if path.startswith("/api/bot/") else headers
        for body in (b"\xff", b"\xfe\xff{}", b'{"game": "fake"}'):
            answer = api.http.post(path, content=body, headers=sent)
            assert answer.status_code == 415, (path, body, answer.text)
            detail = answer.json()["detail"]
            assert detail["message_id"] == "server.not_json"
            assert "application/json" in detail["message"]


def test_json_that_is_not_utf8_or_not_finite_is_refused_without_a_500(api: Api) -> None:
    headers = {"content-type": "application/json"}
    bad_bytes = api.http.post("/api/tables", content=b'{"game": "\xff"}', headers=headers)
    assert bad_bytes.status_code in (400, 422)
    infinite = api.http.post(
        "/api/tables", content=b'{"game": "fake", "seats": [{"type": 1e400}]}', headers=headers
    )
    assert infinite.status_code == 422
    assert infinite.json()["detail"][0]["input"] == "inf"


@pytest.mark.parametrize(
    ("game", "options", "option"),
    [
        ("spy", {"rounds": 1000}, "options.rounds"),
        ("spy", {"bonus": 5000}, "options.bonus"),
        ("candidate", {"deals": 10**6}, "options.deals"),
    ],
)
def test_rule_options_out_of_their_bounds_are_refused_with_a_message_id(
    real_server: ServerThread, game: str, options: dict[str, int], option: str
) -> None:
    """C17, S14, S16: the game's bounds (docs/rules) refuse the option by its id."""
    api = Api(real_server.base)
    seats = [{"type": "open"}, {"type": "open"}]
    answer = api.http.post("/api/tables", json={"game": game, "seats": seats, "options": options})
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert (detail["code"], detail["message_id"]) == ("bad_options", "value.int_range")
    assert detail["params"]["option"] == option
    # The id renders in both languages with the option's bounds.
    high = str(detail["params"]["high"])
    assert high in render("value.int_range", detail["params"], "uk")
    assert high in render("value.int_range", detail["params"], "en")


@pytest.mark.parametrize("value", ["1e400", "-1e400", "[1, 2]", "null", '{"a": 1}'])
def test_the_api_refuses_huge_or_nested_option_values_before_the_game_sees_them(
    api: Api, value: str
) -> None:
    body = '{"game": "fake", "seats": [{"type": "open"}], "options": {"hand": ' + value + "}}"
    answer = api.http.post(
        "/api/tables", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"][:3] == ["body", "options", "hand"]


def test_a_number_too_long_to_be_an_option_is_refused_before_any_model_reads_it(
    api: Api,
) -> None:
    body = '{"game": "fake", "seats": [{"type": "open"}], "options": {"hand": 1' + "0" * 400 + "}}"
    answer = api.http.post(
        "/api/tables", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"]["message_id"] == "server.number_too_long"
    assert answer.json()["detail"]["params"] == {"limit": 64}
    assert render("server.number_too_long", {"limit": 64}, "en") in answer.text


def hint(api: Api, table_id: str, token: str) -> httpx.Response:
    return api.http.post(f"/api/tables/{table_id}/hint", json={"token": token})


@pytest.fixture
def hints(fake_server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> HintRunner:
    """The server's hints with fresh buckets (this test's address starts full)."""
    runner: HintRunner = fake_server.app.state.hints
    settings = fake_server.app.state.hub.settings
    monkeypatch.setattr(runner, "per_seat", Buckets(burst=3, seconds=settings.hint_seat_seconds))
    monkeypatch.setattr(runner, "per_address", Buckets(burst=12, seconds=60.0))
    return runner


def test_hints_are_limited_per_seat_and_per_address(api: Api, hints: HintRunner) -> None:
    table_id, tokens = api.seat_players("fakerace", ["Ann", "Bob"], options={"hand": 5})
    for _ in range(3):
        assert hint(api, table_id, tokens[0]).json()["move"] is not None
    limited = hint(api, table_id, tokens[0])
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["Retry-After"]) <= 10
    detail = limited.json()["detail"]
    assert (detail["code"], detail["message_id"]) == (
        "hint_rate_limited",
        "server.hint_rate_limited",
    )
    assert render(detail["message_id"], detail["params"], "uk").startswith("забагато підказок")
    # Bob's seat has its own bucket; the address's (12) counts every request (5 so far).
    assert hint(api, table_id, tokens[1]).status_code == 200
    statuses = [hint(api, table_id, "not-a-token").status_code for _ in range(9)]
    assert statuses == [403] * 7 + [429, 429]
    assert hint(api, table_id, tokens[1]).status_code == 429


class WaitingBot:
    """A hint's bot that thinks until the test lets it go."""

    def __init__(self, release: threading.Event, started: threading.Semaphore) -> None:
        self.release = release
        self.started = started

    def think(self, info: Any) -> int:
        self.started.release()
        self.release.wait(20)
        return int(info.legal_actions[0])


def test_hints_never_hold_up_the_bots_of_other_tables(
    fake_server: ServerThread, api: Api, hints: HintRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = fake_server.app.state.hub
    assert hints.runner.executor is not hub.bots.executor
    release, started = threading.Event(), threading.Semaphore(0)
    monkeypatch.setattr(hints.runner, "make", lambda *_: WaitingBot(release, started))
    table_id, tokens = api.seat_players("fakerace", ["Ann", "Bob"], options={"hand": 5})
    waiting = hub.settings.hint_waiting
    with ThreadPoolExecutor(waiting) as pool:
        asked = [pool.submit(hint, api, table_id, tokens[i % 2]) for i in range(waiting)]
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        while hints.in_progress < waiting and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hints.in_progress == waiting
        busy = hint(api, table_id, tokens[0])
        assert busy.status_code == 503
        assert busy.json()["detail"]["message_id"] == "server.hints_busy"
        assert busy.headers["Retry-After"] == "2"
        # While every hint is held (on the bots' executor they would take all its
        # threads, bot_threads=4), a table of bots plays to its end.
        bots_only = api.create("fake", [{"type": "bot"}] * 2, options={"hand": 3})["table"]["id"]
        deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
        while api.table(bots_only)["status"] != "finished":
            assert time.monotonic() < deadline, "the bots waited for the hints"
            time.sleep(0.02)
        assert hints.in_progress == waiting
        release.set()
        assert all(f.result().status_code == 200 for f in asked)
