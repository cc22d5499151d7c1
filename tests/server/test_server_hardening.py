"""A hardened HTTP API: malformed bodies, bounds of rule options, hint limits."""

from __future__ import annotations

import re

import pytest
from server_helpers import Api, ServerThread


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
