"""A fuzz of the Bot API's routes and the token routes: no request ever gets a 500.

The requests come from the server's own OpenAPI document, as in ``test_server_fuzz``
(whose strategies these are): schema-following bodies, random JSON, bytes that are not
UTF-8, wrong content types. The bot routes are sent with a bot account's token (the
event stream, which never ends for a bot, with a person's token: it is refused before
it starts), the token routes with a session; a real table the bot sits at, a real
challenge and a real token id are mixed in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from botapi_helpers import Bot
from community_helpers import Person, challenge
from server_helpers import ServerThread, fake_server_thread, fast_settings
from test_server_fuzz import fuzz_operation, openapi_operations

#: Examples per operation.
EXAMPLES = 60
#: The routes fuzzed here.
PREFIXES = ("/api/bot/", "/api/account/tokens")
#: The routes fuzzed here, as the OpenAPI document lists them.
ROUTES = {
    ("GET", "/api/account/tokens"),
    ("POST", "/api/account/tokens"),
    ("DELETE", "/api/account/tokens/{token_id}"),
    ("GET", "/api/bot/account"),
    ("POST", "/api/bot/account/upgrade"),
    ("GET", "/api/bot/account/games"),
    ("GET", "/api/bot/stream/event"),
    ("GET", "/api/bot/game/stream/{table_id}"),
    ("POST", "/api/bot/game/{table_id}/move"),
    ("POST", "/api/bot/game/{table_id}/resign"),
    ("POST", "/api/bot/game/{table_id}/chat"),
    ("POST", "/api/bot/challenge"),
    ("POST", "/api/bot/challenge/{challenge_id}/accept"),
    ("POST", "/api/bot/challenge/{challenge_id}/decline"),
    ("POST", "/api/bot/seek"),
    ("DELETE", "/api/bot/seek"),
    ("POST", "/api/bot/tournament/{tournament_id}/join"),
    ("POST", "/api/bot/tournament/{tournament_id}/withdraw"),
}


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Any]]:
    server = fake_server_thread(tmp_path_factory.mktemp("db") / "fuzz.db", fast_settings())
    bot = Bot(server.base, "Fuzzed", scopes=("bot:play", "games:read"))
    person = Person(server.base, "Fuzzer")
    played = challenge(person, bot)
    table = bot.call("POST", f"/api/bot/challenge/{played['id']}/accept", 200)["table"]
    waiting = challenge(person, bot)
    spare = person.call("POST", "/api/account/tokens", 201, name="spare", scopes=["bot:play"])
    known = {
        "table_id": [table, "nosuchtable"],
        "challenge_id": [waiting["id"], played["id"]],
        "token_id": [spare["id"], "abcdefgh"],  # the bot's own token stays live
        "name": ["Fuzzer", "Fuzzed", "nobody"],
        "game": ["fake", "fakerace"],
        "move": ["play 2C", "pass"],
        "tournament_id": ["nosuchcup"],  # the fake games have no tournaments
    }
    yield server, {"known": known, "bot": bot, "person": person}
    server.stop()


@pytest.fixture(scope="module")
def operations(fuzzed: tuple[ServerThread, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    document = httpx.get(fuzzed[0].base + "/openapi.json").json()
    return sorted(op for op in openapi_operations(document) if op[1].startswith(PREFIXES))


def test_every_new_route_is_in_the_openapi_document(
    operations: list[tuple[str, str, dict[str, Any]]],
) -> None:
    assert {(method, path) for method, path, _ in operations} == ROUTES


@pytest.mark.parametrize("index", range(len(ROUTES)))
def test_no_request_to_a_new_route_gets_a_500(
    fuzzed: tuple[ServerThread, Any],
    operations: list[tuple[str, str, dict[str, Any]]],
    index: int,
) -> None:
    server, values = fuzzed
    method, path, operation = operations[index]
    bot, person = values["bot"], values["person"]
    if path.startswith("/api/account/") or path == "/api/bot/stream/event":
        headers = {"Authorization": f"Bearer {person.token}", "X-Cardtable-Client": "fuzz"}
    else:
        headers = {"Authorization": f"Bearer {bot.token}"}
    known = dict(values["known"])
    if path == "/api/bot/game/stream/{table_id}":
        known["table_id"] = ["nosuchtable"]  # a live game's stream lasts as long as it
    fuzz_operation(server.base, method, path, operation, known, headers=headers, examples=EXAMPLES)
    assert httpx.get(server.base + "/api/health").status_code == 200
