"""``cardtable connect`` across a server's restart: the client, left running, connects
again to the server started anew on the same address and database, then accepts a
challenge and plays the game through (docs/bot-api.md: a dropped connection or a
restarted server is met by connecting again)."""

from __future__ import annotations

from pathlib import Path

import pytest
from botapi_helpers import Bot, Connected, answered, play_seat, table_of
from community_helpers import Person, challenge, token_of
from server_helpers import GUARD, ServerProcess, ServerThread, clients, fast_settings

from cardtable.record import read_record_file, replay
from cardtable.server.app import create_app

#: How the server goes down: ``stopped`` as ``cardtable serve`` stops (its open streams
#: cut after 5 s, the tables written), ``killed`` by SIGKILL (the connections dropped
#: mid-stream, nothing written at the end).
HOW = ("stopped", "killed")


def _serve(how: str, db: str, port: int | None = None) -> ServerThread | ServerProcess:
    """A server of the real games on ``db`` (at ``port``, or a free one). No stand-in
    plays an absent seat before :data:`GUARD`: the client plays its seat's every move."""
    if how == "killed":
        return ServerProcess(db, "real", f"grace={GUARD}", port=port).start(GUARD)
    settings = fast_settings()
    settings.grace_seconds = GUARD
    settings.rate_per_second, settings.rate_burst = 1000.0, 1000.0  # a scripted person
    app = create_app(db, settings=settings, static_dir=None)
    return ServerThread(app, port=port, graceful=5).start()


def _down(server: ServerThread | ServerProcess) -> None:
    """Stop the server as ``cardtable serve`` stops, or kill its process."""
    if isinstance(server, ServerProcess):
        server.kill()
    else:
        server.stop()


@pytest.mark.parametrize("how", HOW)
def test_connect_reconnects_after_a_restart_and_plays(how: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    server = _serve(how, db)
    bot = Bot(server.base, "Phoenix Engine")
    ann = Person(server.base, "Ann Restarts")
    client = Connected(bot, ["candidate=greedy"], tmp_path / "log", seed=8)
    try:
        # The client listens to the first server: it declines a game it has no bot for.
        before = challenge(ann, bot, game="spy", options={"rounds": 1})
        assert answered(ann, before["id"])["status"] == "declined"
        _down(server)
        server = _serve(how, db, server.port)
        ann.at(server.base)  # the same session, on fresh connections
        made = challenge(ann, bot, game="candidate", options={"deals": 1})
        table = table_of(ann, made["id"])  # the client is back: it accepted
        token = token_of(ann.call("GET", f"/api/challenges/{made['id']}", 200)["play_url"])
        with clients(server.base, table, [token]) as (person,):
            last = play_seat(person)
        result = client.wait_finished(table)
        assert result == last["result"]
        assert result["ending"] == "played"
        assert client.thread.is_alive(), client.error  # the same run throughout
    finally:
        client.stop()
        server.stop()
    replayed = replay(read_record_file(tmp_path / "log" / f"{table}.json")).summary()
    assert replayed["complete"] is True, replayed
