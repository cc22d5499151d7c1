"""The Bot API: personal tokens (scopes, revocation, limits), bot accounts, the streams,
moves through the one table, and the fuzz of every new route."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
from botapi_helpers import OPEN, Bot, Connected, Lines, table_of
from community_helpers import Person, challenge, play_out, token_of
from server_helpers import (
    GUARD,
    ServerThread,
    StepClock,
    clients,
    fake_server_thread,
    fast_settings,
)
from test_server_leak import check_no_leak, fake_hidden

from cardtable.botclient.client import Revoked
from cardtable.record import read_record_file, replay
from cardtable.server.cluster.forward import Forwarding
from cardtable.server.limits import Buckets


def _server(tmp: pytest.TempPathFactory) -> ServerThread:
    return fake_server_thread(tmp.mktemp("db") / "bots.db", fast_settings())


@pytest.fixture
def server(fake_server: ServerThread) -> Iterator[ServerThread]:
    """The fake games' server of the module (conftest); the test's streams are closed
    after it."""
    yield fake_server
    for lines in list(OPEN):
        lines.close()


def test_token_made_listed_and_shown_once(server: ServerThread) -> None:
    bot = Bot(server.base, "Tokenmaker", upgrade=False)
    assert bot.token.startswith("ctp_")
    listed = bot.person.call("GET", "/api/account/tokens", 200)
    assert [t["id"] for t in listed] == [bot.token_id]
    assert "token" not in listed[0] or listed[0]["token"] is None
    assert bot.call("GET", "/api/bot/account", 200) == {
        "name": "Tokenmaker",
        "bot": False,
        "scopes": ["bot:play"],
    }


def test_scopes_are_checked(server: ServerThread) -> None:
    reader = Bot(server.base, "Reader", scopes=("games:read",), upgrade=False)
    reader.refused("POST", "/api/bot/account/upgrade", 403, "scope")
    assert reader.call("GET", "/api/bot/account/games", 200) == []
    player = Bot(server.base, "Player", upgrade=False)
    player.refused("GET", "/api/bot/account/games", 403, "scope")
    player.person.refused(
        "POST", "/api/account/tokens", 422, "bad_scopes", name="x", scopes=["admin"]
    )


def test_revoked_token_is_refused_at_once(server: ServerThread) -> None:
    bot = Bot(server.base, "Revoked")
    bot.call("GET", "/api/bot/account", 200)
    bot.person.call("DELETE", f"/api/account/tokens/{bot.token_id}", 204)
    bot.refused("GET", "/api/bot/account", 401, "bad_token")
    bot.person.refused("DELETE", f"/api/account/tokens/{bot.token_id}", 404, "no_token")


def test_a_session_cannot_use_the_bot_api_nor_a_token_person_routes(
    server: ServerThread,
) -> None:
    bot = Bot(server.base, "Twofaced", upgrade=False)
    answer = bot.person.http.get("/api/bot/account")  # the session's bearer
    assert answer.status_code == 401, answer.text
    cookie = httpx.get(
        f"{server.base}/api/bot/stream/event", cookies={"cardtable_session": bot.person.token}
    )
    assert cookie.status_code == 401
    assert cookie.json()["detail"]["code"] == "token_required"
    bot.refused("GET", "/api/account", 403, "api_token")
    bot.refused("POST", "/api/account/tokens", 403, "api_token", name="x", scopes=["bot:play"])


def test_upgrade_is_once_and_needs_a_bot(server: ServerThread) -> None:
    bot = Bot(server.base, "Upgraded", upgrade=False)
    bot.refused("GET", "/api/bot/stream/event", 403, "not_bot")
    bot.call("POST", "/api/bot/account/upgrade", 204)
    bot.refused("POST", "/api/bot/account/upgrade", 409, "already_bot")
    assert bot.call("GET", "/api/bot/account", 200)["bot"] is True
    assert bot.person.call("GET", "/api/players/Upgraded", 200)["bot"] is True
    assert Person(server.base, "Human").call("GET", "/api/players/Human", 200)["bot"] is False


def test_bad_tokens_are_throttled(tmp_path_factory: pytest.TempPathFactory) -> None:
    own = _server(tmp_path_factory)  # the address's allowance is its own here
    try:
        statuses = []
        for i in range(30):
            guess = "ctp_" + f"{i:043d}"
            answer = httpx.get(
                f"{own.base}/api/bot/account", headers={"Authorization": f"Bearer {guess}"}
            )
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                assert int(answer.headers["Retry-After"]) > 0
                break
        assert statuses[0] == 401, statuses
        assert statuses[-1] == 429, statuses
    finally:
        own.stop()


def _state(message: dict[str, Any]) -> dict[str, Any] | None:
    state = message.get("state")
    return state if isinstance(state, dict) else None


def test_a_person_challenges_a_bot_which_plays_through_the_table(server: ServerThread) -> None:
    bot = Bot(server.base, "Lone Engine")
    ann = Person(server.base, "Annchallenger")
    events = Lines(bot, "/api/bot/stream/event")
    made = challenge(ann, bot, options={"hand": 2})
    heard = events.next(lambda e: e["type"] == "challenge")
    assert heard["challenge"]["id"] == made["id"]
    assert heard["challenge"]["from"] == "Annchallenger"
    accepted = bot.call("POST", f"/api/bot/challenge/{made['id']}/accept", 200)
    table = accepted["table"]
    started = events.next(lambda e: e["type"] == "gameStart")
    assert started["game"]["id"] == table
    person_token = token_of(ann.call("GET", f"/api/challenges/{made['id']}", 200)["play_url"])
    game = play_out_with(server, bot, table, accepted["seat"], person_token)
    game.end()
    events.next(lambda e: e["type"] == "gameFinish" and e["game"]["id"] == table)
    record = httpx.get(f"{server.base}/api/tables/{table}/record").json()
    assert record["game"] == "fake"


def play_out_with(
    server: ServerThread, bot: Bot, table: str, seat: int, person_token: str, pick: int = 0
) -> Lines:
    """The bot (through the Bot API) and a person (a WebSocket) play ``table`` out, each
    its ``pick``-th legal move (modulo their number); the bot's game stream, ended."""
    game = Lines(bot, f"/api/bot/game/stream/{table}")
    welcome = game.next(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == seat
    with clients(server.base, table, [person_token]) as (person,):
        person.hello()
        state = _state(welcome)
        moved = 0  # the version the bot's last move made: older states are stale
        while state is None or state["status"] != "finished":
            if state is not None and state["legal_moves"] and state["version"] >= moved:
                legal = state["legal_moves"]
                answer = bot.call(
                    "POST",
                    f"/api/bot/game/{table}/move",
                    200,
                    move=legal[pick % len(legal)],
                    version=state["version"],
                )
                assert answer["type"] == "ack", answer
                moved = answer["move_version"]
            elif person.state is not None and person.state["legal_moves"]:
                legal = person.state["legal_moves"]
                person.move(legal[pick % len(legal)])
            message = game.next(lambda m: _state(m) is not None)
            state = _state(message)
            person.wait_state(lambda s, v=state["version"]: s["version"] >= v)
    game.end()
    return game


def test_a_bot_never_receives_a_card_hidden_from_its_seat(server: ServerThread) -> None:
    """The hostile client: a bot reads every line of its game and tries another's."""
    bot = Bot(server.base, "Peeker")
    other = Bot(server.base, "Other Peeker")
    ann = Person(server.base, "Hider")
    hub = server.app.state.hub
    checked = 0
    for pick in range(3):
        made = challenge(ann, bot, options={"hand": 5})
        accepted = bot.call("POST", f"/api/bot/challenge/{made['id']}/accept", 200)
        table_id, seat = accepted["table"], accepted["seat"]
        table = hub.tables[table_id].table  # kept: the finished table leaves the hub
        other.refused("GET", f"/api/bot/game/stream/{table_id}", 404, "no_game")
        other.refused("POST", f"/api/bot/game/{table_id}/move", 404, "no_game", move="x", version=1)
        token = token_of(ann.call("GET", f"/api/challenges/{made['id']}", 200)["play_url"])
        game = play_out_with(server, bot, table_id, seat, token, pick)
        reader = SimpleNamespace(received=[m for m in game.seen if "version" in m])
        checked += check_no_leak(table, reader, seat, fake_hidden)  # type: ignore[arg-type]
    assert checked > 3 * 10


def test_two_connect_clients_play_a_whole_candidate_game(
    real_server: ServerThread, tmp_path: Path
) -> None:
    """End to end: two bot accounts, each run by ``cardtable connect``'s client (ISMCTS
    and the learned policy), play a Candidate game on a live server; both records replay."""
    first = Bot(real_server.base, "Engine One")
    second = Bot(real_server.base, "Engine Two")
    one = Connected(first, ["ismcts:100"], tmp_path / "one", seed=1)
    two = Connected(second, ["learned"], tmp_path / "two", seed=2)
    try:
        made = first.call(
            "POST",
            "/api/bot/challenge",
            201,
            name="Engine Two",
            game="candidate",
            options={"deals": 1},
        )
        table = table_of(first, made["id"])
        result = one.wait_finished(table)
        assert two.wait_finished(table) == result
        assert result["ending"] == "played"
    finally:
        one.stop()
        two.stop()
    for folder in ("one", "two"):
        record = read_record_file(tmp_path / folder / f"{table}.json")
        replayed = replay(record).summary()
        assert replayed["complete"] is True, replayed


def test_a_token_revoked_mid_game_ends_its_streams(server: ServerThread) -> None:
    bot = Bot(server.base, "Revoked Midgame")
    ann = Person(server.base, "Patient")
    made = challenge(ann, bot, options={"hand": 3})
    table = bot.call("POST", f"/api/bot/challenge/{made['id']}/accept", 200)["table"]
    events = Lines(bot, "/api/bot/stream/event")
    events.next(lambda e: e["type"] == "gameStart")
    game = Lines(bot, f"/api/bot/game/stream/{table}")
    game.next(lambda m: m["type"] == "welcome")
    bot.person.call("DELETE", f"/api/account/tokens/{bot.token_id}", 204)
    game.end()  # the server ends both streams: the token is read again every second
    events.end()
    bot.refused("POST", f"/api/bot/game/{table}/resign", 401, "bad_token")


def test_a_rated_game_with_a_bot_goes_to_the_bots_pool(server: ServerThread) -> None:
    bot = Bot(server.base, "Rated Engine")
    ann = Person(server.base, "Rated Person")
    made = challenge(ann, bot, options={"hand": 1}, rated=True)
    accepted = bot.call("POST", f"/api/bot/challenge/{made['id']}/accept", 200)
    token = token_of(ann.call("GET", f"/api/challenges/{made['id']}", 200)["play_url"])
    play_out_with(server, bot, accepted["table"], accepted["seat"], token)
    for name in ("Rated Engine", "Rated Person"):
        pools = [r["game"] for r in ann.call("GET", f"/api/players/{name}", 200)["ratings"]]
        assert pools == ["fake@bots"], (name, pools)
    bot.refused(  # a bot asks a person for rated games only if that person chose it
        "POST",
        "/api/bot/challenge",
        403,
        "bot_rated_person",
        name="Rated Person",
        game="fake",
        rated=True,
    )
    other = Bot(server.base, "Rated Person Once", upgrade=False)
    made = challenge(ann, other, options={"hand": 1}, rated=True)
    accepted = other.person.call("POST", f"/api/challenges/{made['id']}/accept", 200)
    token = token_of(ann.call("GET", f"/api/challenges/{made['id']}", 200)["play_url"])
    with clients(server.base, accepted["table"], [token, token_of(accepted["play_url"])]) as two:
        play_out(list(two))
    other.refused("POST", "/api/bot/account/upgrade", 409, "played_rated")


def test_two_connect_clients_race_at_spy(real_server: ServerThread, tmp_path: Path) -> None:
    """Two bot accounts race a Spy round through ``connect``'s client; the record replays."""
    first = Bot(real_server.base, "Racer One")
    second = Bot(real_server.base, "Racer Two")
    one = Connected(first, ["spy=greedy"], tmp_path / "one", seed=3)
    two = Connected(second, ["spy=planner:2"], tmp_path / "two", seed=4)
    try:
        made = first.call(
            "POST", "/api/bot/challenge", 201, name="Racer Two", game="spy", options={"rounds": 1}
        )
        table = table_of(first, made["id"])
        result = one.wait_finished(table)
        assert two.wait_finished(table) == result
    finally:
        one.stop()
        two.stop()
    summary = replay(read_record_file(tmp_path / "one" / f"{table}.json")).summary()
    assert summary["complete"] is True, summary


def test_the_documented_example_bot_plays_a_game(real_server: ServerThread, tmp_path: Path) -> None:
    """The 30-line bot of docs/bot-api.md, run as written, plays a Candidate game."""
    text = (Path(__file__).parents[2] / "docs" / "bot-api.md").read_text()
    code = text.split("## A complete bot", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.splitlines()) <= 40
    script = tmp_path / "randombot.py"
    script.write_text(code)
    example = Bot(real_server.base, "Example Bot")
    host = Bot(real_server.base, "Example Host")
    process = subprocess.Popen([sys.executable, str(script), real_server.base, example.token])
    client = Connected(host, ["candidate=greedy"], tmp_path / "host", seed=5)
    try:
        made = host.call(
            "POST",
            "/api/bot/challenge",
            201,
            name="Example Bot",
            game="candidate",
            options={"deals": 1},
        )
        table = table_of(host, made["id"])
        assert client.wait_finished(table)["ending"] == "played"
    finally:
        client.stop()
        process.kill()
        process.wait()


def test_with_several_processes_a_bots_action_goes_to_the_tables_owner() -> None:
    def table_of(path: str) -> str | None:
        return Forwarding.table_of(cast(Any, None), path)

    assert table_of("/api/bot/game/t1234567/move") == "t1234567"
    assert table_of("/api/bot/game/t1234567/resign") == "t1234567"
    assert table_of("/api/bot/game/stream/t1234567") is None  # a stream is not relayed
    assert table_of("/api/bot/stream/event") is None


def test_a_seeking_bot_is_paired_with_a_person(real_server: ServerThread) -> None:
    bot = Bot(real_server.base, "Seeking Engine")
    events = Lines(bot, "/api/bot/stream/event")
    try:
        bot.refused("DELETE", "/api/bot/seek", 404, "no_seek")
        bot.call("POST", "/api/bot/seek", 201, game="candidate")
        waiting = httpx.get(f"{real_server.base}/api/seeks").json()
        assert [(s["name"], s["rated"]) for s in waiting] == [("Seeking Engine", False)]
        person = httpx.post(
            f"{real_server.base}/api/seeks", json={"game": "candidate", "name": "Seeker"}
        )
        assert person.json()["status"] == "seated", person.text
        table = person.json()["seated"]["table"]["id"]
        started = events.next(lambda e: e["type"] == "gameStart")
        assert started["game"]["id"] == table
        assert started["game"]["game"] == "candidate"
    finally:
        events.close()


def test_a_token_revoked_mid_game_stops_connect(real_server: ServerThread, tmp_path: Path) -> None:
    """``connect`` playing a game stops with :class:`Revoked` once its token is revoked."""
    bot = Bot(real_server.base, "Stopped Engine")
    ann = Person(real_server.base, "Slow Person")
    client = Connected(bot, ["candidate=greedy"], tmp_path, seed=6)
    try:
        made = challenge(ann, bot, game="candidate", options={"deals": 1})
        table = table_of(ann, made["id"])
        while table not in client.client.games:  # the client has the game
            assert client.thread.is_alive(), client.error
            client.thread.join(0.05)
        bot.person.call("DELETE", f"/api/account/tokens/{bot.token_id}", 204)
        client.thread.join(GUARD)
        assert not client.thread.is_alive()
        assert isinstance(client.error, Revoked), client.error
    finally:
        client.stop()


def test_each_token_has_its_own_rate_limit(tmp_path_factory: pytest.TempPathFactory) -> None:
    own = _server(tmp_path_factory)
    try:
        clock = StepClock()
        own.app.state.botapi.gate.per_token = Buckets(burst=3, seconds=10.0, clock=clock)
        busy = Bot(own.base, "Busy Engine")
        calm = Bot(own.base, "Calm Engine")
        for _ in range(2):  # the upgrade took the first of its three
            busy.call("GET", "/api/bot/account", 200)
        limited = busy.http.get("/api/bot/account")
        assert limited.status_code == 429, limited.text
        assert limited.json()["detail"]["code"] == "token_limited"
        assert limited.headers["Retry-After"] == "10"
        calm.call("GET", "/api/bot/account", 200)  # another token is not held up
        clock.advance(10.0)
        busy.call("GET", "/api/bot/account", 200)
    finally:
        own.stop()
