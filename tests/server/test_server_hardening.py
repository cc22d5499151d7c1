"""A hardened HTTP API: malformed bodies, bounds of rule options, hint limits."""

from __future__ import annotations

import re

import pytest
from server_helpers import Api, ServerThread

from cardtable.messages import render


def post_routes(api: Api) -> list[str]:
    """Every POST route of the OpenAPI document, path parameters filled in."""
    paths = api.http.get("/openapi.json").json()["paths"]
    return [re.sub(r"\{[^}]+\}", "abcd1234", path) for path, ops in paths.items() if "post" in ops]


@pytest.mark.parametrize("content_type", ["text/plain", "application/octet-stream", None])
def test_a_body_that_is_not_json_gets_415_on_every_post_route(
    fake_server: ServerThread, api: Api, content_type: str | None
) -> None:
    routes = post_routes(api)
    assert "/api/tables" in routes
    assert len(routes) >= 4
    headers = {"content-type": content_type} if content_type else {}
    for path in routes:
        for body in (b"\xff", b"\xfe\xff{}", b'{"game": "fake"}'):
            answer = api.http.post(path, content=body, headers=headers)
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


@pytest.mark.parametrize(
    "value", ["10" + "0" * 400, "1e400", "-1e400", "[1, 2]", "null", '{"a": 1}']
)
def test_the_api_refuses_huge_or_nested_option_values_before_the_game_sees_them(
    api: Api, value: str
) -> None:
    body = '{"game": "fake", "seats": [{"type": "open"}], "options": {"hand": ' + value + "}}"
    answer = api.http.post(
        "/api/tables", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"][:3] == ["body", "options", "hand"]
