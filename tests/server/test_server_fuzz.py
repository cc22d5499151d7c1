"""A fuzz of every route of the OpenAPI document: no request ever gets a 500.

Requests are generated with hypothesis from the server's own ``/openapi.json``: each
operation's path and query parameters and its JSON body come from their schemas
(valid-looking, so the fuzz reaches the handlers) or are hostile on purpose — random
JSON with huge and non-finite numbers, deep nesting, bytes that are not UTF-8, wrong
content types, path parameters of any text. Real table ids, invite codes and tokens
are mixed in so that the handlers past validation are reached too.

The counts of requests tried, by kind and by answer, are printed at the end of the
run (``fuzz: …`` in pytest's output). One run tried 2,720 requests, 170 for each of
the 16 operations: by kind schema-following 541, random JSON 475, raw bytes 590, wrong
content type 637, wrong path parameter 477; answered 2xx 627 times, 4xx 2,093 times,
5xx never. Its first run found a 500: a refused body holding a lone surrogate
(``"\\ud800"``) was echoed in the 422 and could not be encoded as UTF-8.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Api, Client, ServerThread

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

#: Examples per operation: keeps the whole fuzz well under a minute.
EXAMPLES = 170

#: Bots that almost never move: the fuzz creates tables with bot seats, and their play
#: is not what is tested here (nor should it take the machine's time).
IDLE_BOTS = Pacing(
    level_speeds={"easy": 0.001, "medium": 0.001, "hard": 0.001},
    turn_delay=3600.0,
    segment_pause=0.0,
)

KINDS = ("schema", "random JSON", "raw bytes", "wrong content type", "wrong path")

COUNTS: Counter[str] = Counter()


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The real games, as a public server runs them (no client seeds), idle bots."""
    db: Path = tmp_path_factory.mktemp("db") / "fuzz.db"
    settings = Settings(bot_processes=0, bot_threads=1, pacing=IDLE_BOTS)
    settings.rate_per_second, settings.rate_burst = 1000.0, 1000.0  # hostile messages in a row
    server = ServerThread(create_app(f"sqlite:///{db}", settings=settings, static_dir=None))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def known(fuzz_server: ServerThread) -> dict[str, list[str]]:
    """Real ids, codes and tokens for the fuzz to use alongside made-up ones."""
    api = Api(fuzz_server.base)
    values: dict[str, list[str]] = {"table_id": [], "code": [], "token": [], "game": []}
    for game in ("candidate", "spy"):
        created = api.create(game, [{"type": "open"}, {"type": "open"}], rated=False)
        table_id = created["table"]["id"]
        seated = api.join(table_id, created["invites"][0]["code"], "Fuzz")
        values["table_id"].append(table_id)
        values["code"] += [table_id, created["invites"][1]["code"]]
        values["token"] += [created["host_token"], seated["token"]]
        values["game"].append(game)
    return values


@pytest.fixture(scope="module")
def operations(fuzz_server: ServerThread) -> list[tuple[str, str, dict[str, Any]]]:
    return list(openapi_operations(httpx.get(fuzz_server.base + "/openapi.json").json()))


@pytest.fixture(scope="module", autouse=True)
def _report(request: pytest.FixtureRequest) -> Iterator[None]:
    """Print the counts of requests tried when the module is done."""
    yield
    line = "fuzz: " + ", ".join(f"{key} {count}" for key, count in sorted(COUNTS.items()))
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if capture is not None and reporter is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("\n" + line)


def openapi_operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (method, path template, operation) of an OpenAPI document."""
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path, {**operation, "components": document["components"]}


# --------------------------------------------------------------- strategies
HUGE = st.sampled_from([10**400, -(10**400), 2**63, 2**64 + 1, 10**18, -1, 0])
NUMBERS = st.one_of(st.integers(), HUGE, st.floats(allow_nan=False, allow_infinity=False))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=20,
)
#: Bodies no JSON parser takes as they are meant.
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"\xff",
            b"\xfe\xff{}",
            b'{"game": "\xff"}',
            b'{"options": {"deals": 1e400}}',
            b"[" * 5000 + b"]" * 5000,
            b'{"a": ' + b"9" * 5000 + b"}",
            b"NaN",
            b'"\\ud800"',
            b"",
        ]
    ),
)
CONTENT_TYPES = st.sampled_from(
    [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/octet-stream",
        "application/json; charset=latin-1",
        "application/xml",
        "",
    ]
)
PATH_TEXT = st.one_of(
    st.text(min_size=1, max_size=40),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=300),
    st.sampled_from(["..", "%00", "a/b", " ", "\u200b", "0" * 2000, "null", "-1"]),
)


def schema_strategy(schema: dict[str, Any], components: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that follow a JSON schema of the OpenAPI document (the subset pydantic
    writes: $ref, anyOf, enum/const, objects, arrays, strings, numbers, booleans)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: schema_strategy(components["schemas"][name], components))
    if "anyOf" in schema or "oneOf" in schema:
        return st.one_of(
            [schema_strategy(s, components) for s in schema.get("anyOf", schema.get("oneOf", []))]
        )
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        required = set(schema.get("required", []))
        fixed = {k: schema_strategy(v, components) for k, v in properties.items() if k in required}
        optional = {
            k: schema_strategy(v, components) for k, v in properties.items() if k not in required
        }
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return st.dictionaries(
                st.text(max_size=32), schema_strategy(extra, components), max_size=4
            )
        return st.fixed_dictionaries(fixed, optional=optional)
    if kind == "array":
        items = schema_strategy(schema.get("items", {}), components)
        return st.lists(
            items, min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 8), 8)
        )
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        return st.text(max_size=schema.get("maxLength", 40))
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum")) | HUGE
    if kind == "number":
        return st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False) | NUMBERS
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return JSON_VALUES


def with_known(
    strategy: st.SearchStrategy[Any], name: str, known: dict[str, list[str]]
) -> st.SearchStrategy[Any]:
    """``strategy``, or now and then a real value for a parameter or field of that name."""
    pool = [v for key, values in known.items() if key in name.lower() for v in values]
    if name in ("invite",):
        pool = known["code"]
    return st.one_of(st.sampled_from(pool), strategy) if pool else strategy


def body_strategy(
    operation: dict[str, Any], known: dict[str, list[str]]
) -> st.SearchStrategy[Any] | None:
    """Bodies following the operation's schema, real tokens and codes mixed in."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return None
    components = operation["components"]
    schema = content["schema"]
    if "$ref" in schema:
        schema = components["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    fields = {
        k: with_known(schema_strategy(v, components), k, known) for k, v in properties.items()
    }
    return st.fixed_dictionaries(
        {k: s for k, s in fields.items() if k in required},
        optional={k: s for k, s in fields.items() if k not in required},
    )


@st.composite
def requests(
    draw: st.DrawFn, method: str, path: str, operation: dict[str, Any], known: dict[str, list[str]]
) -> tuple[str, str, dict[str, Any], dict[str, str], bytes | None]:
    """One request: (kind, url, query, headers, body)."""
    kind = draw(st.sampled_from(KINDS))
    parameters = operation.get("parameters", [])
    components = operation["components"]
    values: dict[str, str] = {}
    for parameter in parameters:
        if parameter["in"] != "path":
            continue
        name = parameter["name"]
        good = with_known(schema_strategy(parameter["schema"], components), name, known)
        value = draw(PATH_TEXT if kind == "wrong path" else good)
        values[name] = quote(str(value), safe="") or "x"
    url = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)
    query: dict[str, Any] = {}
    for parameter in parameters:
        if parameter["in"] == "query" and draw(st.booleans()):
            schema_values = schema_strategy(parameter["schema"], components)
            value = draw(st.one_of(schema_values, PATH_TEXT, HUGE))
            query[parameter["name"]] = "" if value is None else str(value)
    headers = {"content-type": "application/json"}
    body: bytes | None = None
    schema_body = body_strategy(operation, known)
    if schema_body is not None or method == "POST":
        if kind in ("schema", "wrong path") and schema_body is not None:
            body = json.dumps(draw(schema_body)).encode()
        elif kind == "random JSON":
            body = json.dumps(draw(JSON_VALUES)).encode()
        elif kind == "raw bytes":
            body = draw(RAW_BODIES)
        else:
            body = json.dumps(
                draw(schema_body if schema_body is not None else JSON_VALUES)
            ).encode()
            headers["content-type"] = draw(CONTENT_TYPES)
    elif kind in ("raw bytes", "wrong content type"):
        body = draw(RAW_BODIES)  # a body where none is expected
        headers["content-type"] = draw(CONTENT_TYPES)
    if not headers["content-type"]:
        del headers["content-type"]
    return kind, url, query, headers, body


def fuzz_operation(
    base: str,
    method: str,
    path: str,
    operation: dict[str, Any],
    known: dict[str, list[str]],
    *,
    headers: dict[str, str] | None = None,
    examples: int = EXAMPLES,
) -> None:
    """Send ``examples`` generated requests to one operation (each with ``headers``
    besides its own), counting them in :data:`COUNTS`; fail on any 5xx."""
    client = httpx.Client(base_url=base, timeout=30)

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(requests(method, path, operation, known))
    def fuzz(request: tuple[str, str, dict[str, Any], dict[str, str], bytes | None]) -> None:
        kind, url, query, drawn, body = request
        sent = {**(headers or {}), **drawn}
        answer = client.request(method, url, params=query, headers=sent, content=body)
        COUNTS[f"kind {kind}"] += 1
        COUNTS[f"status {answer.status_code // 100}xx"] += 1
        COUNTS["requests"] += 1
        assert answer.status_code < 500, (method, url, query, sent, body, answer.text)

    try:
        fuzz()
    finally:
        client.close()


# -------------------------------------------------------------------- tests
def test_the_openapi_document_lists_every_route(
    operations: list[tuple[str, str, dict[str, Any]]],
) -> None:
    listed = {(method, path) for method, path, _ in operations}
    assert ("POST", "/api/tables") in listed
    assert ("POST", "/api/tables/{table_id}/hint") in listed
    assert len(listed) >= 16


@pytest.mark.parametrize("index", range(16))
def test_no_request_to_any_route_gets_a_500(
    fuzz_server: ServerThread,
    operations: list[tuple[str, str, dict[str, Any]]],
    known: dict[str, list[str]],
    index: int,
) -> None:
    if index >= len(operations):
        pytest.skip("fewer operations than slots")
    method, path, operation = operations[index]
    fuzz_operation(fuzz_server.base, method, path, operation, known)
    assert httpx.get(fuzz_server.base + "/api/health").status_code == 200


# ----------------------------------------------- hostile inputs on every route
def nested(depth: int) -> str:
    """A JSON value ``depth`` arrays deep."""
    return "[" * depth + "]" * depth


#: Hostile JSON values, as JSON text: a lone surrogate in a key and in a string, nesting
#: just past the limit and far past it, integers too long for Python to convert, and
#: wrong types. Each goes in every field of every body, and as the whole body.
HOSTILE_VALUES = {
    "surrogate key": '{"\\ud800": 1}',
    "surrogate value": '"\\ud800"',
    "surrogate key deep": '[{"a": {"\\udfff": [1]}}]',
    "nested 65": nested(65),
    "nested 600": nested(600),
    "nested 800": nested(800),
    "nested objects 700": '{"a": ' * 700 + "1" + "}" * 700,
    "100 digits": "9" * 100,
    "5000 digits": "9" * 5000,
    "long float": "0." + "1" * 5000,
    "wrong type list": "[[1, 2], {}]",
    "wrong type object": '{"a": null}',
    "wrong type bool": "true",
    "wrong type number": "-1e308",
}


def body_fields(operation: dict[str, Any]) -> list[str]:
    """The top-level fields of an operation's JSON body (none: it reads no body)."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return []
    schema = content["schema"]
    if "$ref" in schema:
        schema = operation["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return list(schema.get("properties", {}))


def filled_path(path: str, known: dict[str, list[str]]) -> str:
    """``path`` with each parameter a real value of its kind (so handlers are reached)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        pool = [v for key, values in known.items() if key in name.lower() for v in values]
        return quote(pool[0] if pool else "abcd1234", safe="")

    return re.sub(r"\{(\w+)\}", value, path)


def assert_json_refusal(answer: httpx.Response, where: Any) -> None:
    """A 4xx whose body is JSON with a ``detail``."""
    assert 400 <= answer.status_code < 500, (where, answer.status_code, answer.text[:300])
    assert "detail" in answer.json(), (where, answer.text[:300])


def test_hostile_json_in_every_body_field_of_every_route_gets_a_json_4xx(
    fuzz_server: ServerThread,
    operations: list[tuple[str, str, dict[str, Any]]],
    known: dict[str, list[str]],
) -> None:
    """Every route reading a body, every field of it (and the body as a whole) given
    each hostile value: a 4xx with a JSON error, and the connection kept open
    (one client, one connection, for the whole walk)."""
    tried = 0
    with httpx.Client(base_url=fuzz_server.base, timeout=30) as client:
        for method, path, operation in operations:
            fields = body_fields(operation)
            if not fields:
                continue
            url = filled_path(path, known)
            for name, value in HOSTILE_VALUES.items():
                bodies = [value] + [
                    "{" + json.dumps(field) + ": " + value + "}" for field in fields
                ]
                for body in bodies:
                    answer = client.request(
                        method,
                        url,
                        content=body.encode(),
                        headers={"content-type": "application/json", "X-Cardtable-Client": "t"},
                    )
                    assert_json_refusal(answer, (method, url, name, body[:80]))
                    tried += 1
    assert tried >= 100
    COUNTS["hostile bodies"] += tried


def test_hostile_query_and_path_values_on_every_route_never_get_a_500(
    fuzz_server: ServerThread,
    operations: list[tuple[str, str, dict[str, Any]]],
    known: dict[str, list[str]],
) -> None:
    """Every route's query and path parameters given text that is not UTF-8 once
    decoded (an encoded lone surrogate), a 5000-digit number and a wrong type."""
    hostile = ["%ED%A0%80", "9" * 5000, "[[[[]]]]", "-1", "true"]
    with httpx.Client(base_url=fuzz_server.base, timeout=30) as client:
        for method, path, operation in operations:
            body = json.dumps({"x": 1}).encode() if body_fields(operation) else None
            queries = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            for value in hostile:
                raw_path = re.sub(r"\{(\w+)\}", value, path)
                url = filled_path(path, known)
                for target in [raw_path] + [f"{url}?{q}={value}" for q in queries]:
                    answer = client.request(
                        method, target, content=body, headers={"content-type": "application/json"}
                    )
                    assert answer.status_code < 500, (method, target, answer.text[:300])
                    if answer.status_code >= 400:
                        assert "detail" in answer.json(), (method, target, answer.text[:300])


def test_hostile_websocket_messages_get_an_error_and_keep_the_connection(
    fuzz_server: ServerThread, known: dict[str, list[str]]
) -> None:
    """The table protocol's messages with each hostile value in each field: an
    ``error`` naming why, and the same socket answers a ping afterwards."""
    table_id, token = known["table_id"][0], known["token"][1]
    shapes = [
        '{"type": "hello", "token": %s}',
        '{"type": "move", "token": %s, "version": 0, "move_id": "m", "move": "x"}',
        '{"type": "move", "token": "' + token + '", "version": %s, "move_id": "m", "move": "x"}',
        '{"type": "move", "token": "' + token + '", "version": 0, "move_id": "m", "move": %s}',
        '{"type": "chat", "text": %s}',
        '{"type": %s}',
        "{%s: 1}",
        "%s",
    ]
    client = Client(fuzz_server.base, table_id, token)
    try:
        assert client.hello()["type"] == "welcome"
        client.drain()
        codes: Counter[str] = Counter()
        for name, value in HOSTILE_VALUES.items():
            for shape in shapes:
                message = shape.replace("%s", value) if "%s" in shape else shape
                if len(message.encode()) > 4096 and name.startswith("nested"):
                    message = message[:4000]  # stays under the size limit, still too deep
                client.send(message)
                answer = client.wait_for(lambda m: m["type"] in ("error", "resync", "ack"))
                codes[answer.get("code", answer["type"])] += 1
                assert answer["type"] == "error", (name, message[:80], answer)
                assert answer["message"], answer
        client.send({"type": "ping"})
        assert client.wait_for(lambda m: m["type"] == "pong")["type"] == "pong"
        assert codes["too_deep"] > 0
        assert codes["bad_text"] > 0
        assert codes["number_too_long"] > 0
    finally:
        client.close()
