"""Fair deals: the server alone chooses the seed and never shows it while a game is on.

Whoever knows a table's seed can compute every hidden card with the open engine, so a
normal server refuses a client's seed, and every HTTP answer and WebSocket message about
a running table (views, table lists, codes, invites, the next game) is searched for the
seed's digits.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_fakegame import FakeBot, fake_bots
from server_helpers import Api, ServerThread, clients, fake_server_thread, fast_settings

from cardtable.server.settings import Settings


@pytest.fixture(scope="module")
def normal_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server started as for people: without ``--allow-client-seeds``."""
    server = fake_server_thread(
        tmp_path_factory.mktemp("db") / "normal.db", Settings(bot_processes=0)
    )
    yield server
    server.stop()


SEATS = [{"type": "open"}, {"type": "open"}]


@pytest.mark.parametrize("rated", [True, False])
def test_a_normal_server_refuses_a_client_seed(normal_server: ServerThread, rated: bool) -> None:
    api = Api(normal_server.base)
    before = set(normal_server.app.state.hub.tables)
    refused = api.http.post(
        "/api/tables", json={"game": "fake", "seats": SEATS, "seed": 987654321, "rated": rated}
    )
    assert refused.status_code == 403
    detail = refused.json()["detail"]
    assert (detail["code"], detail["message_id"]) == ("client_seed", "server.client_seed")
    assert "seed" in detail["message"]
    # No table was made (a finished table of another test may leave memory meanwhile).
    assert set(normal_server.app.state.hub.tables) <= before
    # Without a seed the same request makes a table, dealt from the server's own seed
    # (a rated one for a signed-in player only).
    if rated:
        signed_in = api.http.post(
            "/api/account/register",
            json={"name": "Seedless", "password": "a fair deal, please", "bearer": True},
            headers={"X-Cardtable-Client": "test"},
        )
        assert signed_in.status_code == 201, signed_in.text
        api.http.headers["Authorization"] = f"Bearer {signed_in.json()['token']}"
    made = api.create("fake", SEATS, rated=rated)
    other = api.create("fake", SEATS, rated=rated)
    hub = normal_server.app.state.hub
    seeds = {hub.tables[t["table"]["id"]].table.seed for t in (made, other)}
    assert len(seeds) == 2
    assert all(0 <= s < 2**62 for s in seeds)


def test_the_test_flag_still_refuses_a_rated_table_with_a_client_seed(
    fake_server: ServerThread, api: Api
) -> None:
    assert fake_server.app.state.hub.settings.allow_client_seeds
    refused = api.http.post(
        "/api/tables", json={"game": "fake", "seats": SEATS, "seed": 5, "rated": True}
    )
    assert refused.status_code == 422
    assert refused.json()["detail"]["code"] == "client_seed_rated"
    made = api.create("fake", SEATS, seed=5, rated=False)
    assert fake_server.app.state.hub.tables[made["table"]["id"]].table.seed == 5


def test_serve_help_says_the_flag_is_for_tests() -> None:
    from typer.testing import CliRunner

    from cardtable.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--allow-client-seeds" in text
    assert "For tests and benchmarks only" in text
    assert "rated tables with one are refused" in text


class Recorder:
    """Every HTTP answer's text, to search for the seed afterwards."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.texts: list[str] = []

    def get(self, path: str) -> Any:
        return self.keep(self.api.http.get(path))

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.keep(self.api.http.post(path, json=body))

    def keep(self, response: httpx.Response) -> Any:
        assert response.status_code < 300, response.text
        self.texts.append(response.text)
        return response.json()


def test_no_message_of_a_running_table_shows_its_seed(
    normal_server: ServerThread,
) -> None:
    hub = normal_server.app.state.hub
    http = Recorder(Api(normal_server.base))
    created = http.post(
        "/api/tables",
        {"game": "fake", "seats": [*SEATS, {"type": "bot"}], "options": {"hand": 3}},
    )
    table_id = created["table"]["id"]
    seed = str(hub.tables[table_id].table.seed)
    http.post(f"/api/tables/{table_id}/invites", {"token": created["host_token"]})
    tokens = []
    for invite, name in zip(created["invites"], ["Ann", "Bob"], strict=True):
        http.get(f"/api/codes/{invite['code']}")
        tokens.append(
            http.post(f"/api/tables/{table_id}/join", {"invite": invite["code"], "name": name})[
                "token"
            ]
        )
    with clients(normal_server.base, table_id, [*tokens, None]) as conns:
        for client in conns:
            client.hello()
        http.get("/api/tables")
        http.get(f"/api/tables/{table_id}")
        http.get(f"/api/codes/{table_id}")
        http.get(f"/api/tables/{table_id}/summary")
        watcher = conns[2]
        while watcher.state is None or watcher.state["status"] != "finished":
            for client in conns:
                client.drain(0.01)
            for client in conns[:2]:
                if (
                    client.state
                    and client.state["legal_moves"]
                    and client.state["status"] != "finished"
                ):
                    client.move(client.state["legal_moves"][0])
        # The next game: its answer and the old table's announcement hide the new seed.
        next_game = http.post(f"/api/tables/{table_id}/rematch", {"token": tokens[0]})
        new_id = next_game["table"]["id"]
        new_seed = str(hub.tables[new_id].table.seed)
        for client in conns:
            client.drain(0.05)
        during = [text for client in conns for text in client.raw]
    with clients(normal_server.base, new_id, [next_game["token"], None]) as conns:
        for client in conns:
            client.hello()
            client.drain(0.05)
        http.get("/api/tables")
        new_messages = [text for client in conns for text in client.raw]
    assert len(during) > 10
    assert len(http.texts) > 8
    # No view, list, code, invite or next-game answer shows either deal's seed, nor
    # does the finished game's record: it holds the dealt cards (docs/protocol.md).
    record = Api(normal_server.base).http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200
    assert "seed" not in record.json()
    for text in [*http.texts, *during, *new_messages, record.text]:
        assert seed not in text
        assert new_seed not in text


def test_bots_draw_their_random_numbers_from_a_secret_seed_not_the_table_id(
    tmp_path: Path,
) -> None:
    """A bot's move follows from its seed and what its seat knows: a seed made of the
    public table id let anyone compute the bot's next move. Each bot seat's seed comes
    from ``secrets`` (one per seat, the same for the seat's every move)."""
    seeds: dict[tuple[str, int], set[int]] = defaultdict(set)
    games: list[list[tuple[int, int]]] = []  # (seat, seed) of each game, in order

    def recording_bots(game: str, level: str, seed: int, seat: int) -> FakeBot:
        games[-1].append((seat, seed))
        return fake_bots(game, level, seed, seat)

    server = fake_server_thread(tmp_path / "bots.db", fast_settings(), recording_bots)
    try:
        api = Api(server.base)
        for _ in range(2):
            games.append([])
            created = api.create("fake", [{"type": "bot"}, {"type": "bot"}], options={"hand": 3})
            table_id = created["table"]["id"]
            with clients(server.base, table_id, [None]) as (watcher,):
                watcher.hello()
                if (watcher.state or {}).get("status") != "finished":
                    watcher.wait_state(lambda s: s["status"] == "finished")
            for seat, seed in games[-1]:
                seeds[(table_id, seat)].add(seed)
    finally:
        server.stop()
    assert len(seeds) == 4
    for (table_id, seat), used in seeds.items():
        assert len(used) == 1, "one seed per seat for the whole game"
        assert used != {random.Random(f"{table_id}/{seat}").getrandbits(63)}
    assert len({seed for used in seeds.values() for seed in used}) == 4
