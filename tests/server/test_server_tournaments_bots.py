"""Bot accounts in tournaments: refused by a tournament that does not allow them, and
in one that does, joined through the Bot API and played by ``cardtable connect``'s
client to the end, the standings counting the game."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from botapi_helpers import OPEN, Bot, Connected
from community_helpers import Person, token_of
from server_helpers import GUARD, ServerThread, clients

from cardtable.messages import CATALOG
from cardtable.record import read_record_file, replay


@pytest.fixture
def server(real_server: ServerThread) -> Iterator[ServerThread]:
    """The real games' server (conftest); the test's streams are closed after it."""
    yield real_server
    for lines in list(OPEN):
        lines.close()


def _swiss(org: Person, **extra: Any) -> str:
    body = {
        "name": "Engines' evening",
        "game": "candidate",
        "format": "swiss",
        "rounds": 1,
        "options": {"deals": 1},
        "start_in": 3600,
        "checkin_seconds": 0,
        **extra,
    }
    return str(org.call("POST", "/api/tournaments", 201, **body)["id"])


def _until(check: Callable[[], Any], what: str, timeout: float = 300.0) -> Any:
    """Poll ``check`` until it gives something true (the server acts on its own tasks)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)  # polls the condition twenty times a second
    raise AssertionError(f"timed out waiting for {what}")


def test_a_bot_account_joins_only_where_bots_are_allowed(server: ServerThread) -> None:
    org = Person(server.base, "Engine Host")
    bot = Bot(server.base, "Uninvited Engine")
    closed = _swiss(org)
    assert org.call("GET", f"/api/tournaments/{closed}", 200)["bots"] is False
    answer = bot.http.post(f"/api/bot/tournament/{closed}/join")
    assert answer.status_code == 403, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == "bots_not_allowed"
    assert detail["message_id"] in CATALOG
    # Nor through the person's route with the bot account's session.
    bot.person.refused("POST", f"/api/tournaments/{closed}/register", 403, "bots_not_allowed")
    bot.refused("POST", "/api/bot/tournament/nosuchthing/join", 404, "no_tournament")
    person = Bot(server.base, "Not Yet An Engine", upgrade=False)
    person.refused("POST", f"/api/bot/tournament/{closed}/join", 403, "not_bot")

    open_ = _swiss(org, bots=True)
    assert bot.call("POST", f"/api/bot/tournament/{open_}/join", 200)["registered"] is True
    bot.refused("POST", f"/api/bot/tournament/{open_}/join", 409, "registered")
    page = org.call("GET", f"/api/tournaments/{open_}", 200)
    assert page["bots"] is True
    assert page["players"] == [
        {"name": "Uninvited Engine", "bot": True, "status": "registered", "joined": 1}
    ]
    listed = org.call("GET", "/api/tournaments?status=upcoming", 200)["tournaments"]
    assert {t["id"]: t["bots"] for t in listed if t["id"] in (closed, open_)} == {
        closed: False,
        open_: True,
    }


def test_an_entrant_of_a_tournament_without_bots_cannot_become_a_bot(
    server: ServerThread,
) -> None:
    """A person registered where bots are not allowed may not upgrade to a bot account
    (it would play there as one); once withdrawn, the upgrade goes through."""
    org = Person(server.base, "Strict Host")
    closed = _swiss(org)
    person = Bot(server.base, "Would Be Engine", upgrade=False)
    person.person.call("POST", f"/api/tournaments/{closed}/register", 200)
    refused = person.http.post("/api/bot/account/upgrade")
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"]["code"] == "bots_not_allowed"
    assert person.call("GET", "/api/bot/account", 200)["bot"] is False
    person.person.call("POST", f"/api/tournaments/{closed}/withdraw", 200)
    person.call("POST", "/api/bot/account/upgrade", 204)
    assert person.call("GET", "/api/bot/account", 200)["bot"] is True


def test_a_bot_account_withdraws_through_the_bot_api(server: ServerThread) -> None:
    """The bot's own withdraw route takes it off an upcoming tournament's list, as a
    person's withdraw does; withdrawing again, or from nothing, says why."""
    org = Person(server.base, "Withdrawal Host")
    tid = _swiss(org, bots=True)
    bot = Bot(server.base, "Leaving Engine")
    bot.call("POST", f"/api/bot/tournament/{tid}/join", 200)
    answer = bot.call("POST", f"/api/bot/tournament/{tid}/withdraw", 200)
    assert answer == {"tournament": tid, "registered": False}
    players = org.call("GET", f"/api/tournaments/{tid}", 200)["players"]
    assert [p["status"] for p in players if p["name"] == "Leaving Engine"] in ([], ["withdrawn"])
    bot.refused("POST", f"/api/bot/tournament/{tid}/withdraw", 409, "not_registered")
    bot.refused("POST", "/api/bot/tournament/nosuchthing/withdraw", 404, "no_tournament")
    # Joining again after a withdrawal is allowed before the start.
    assert bot.call("POST", f"/api/bot/tournament/{tid}/join", 200)["registered"] is True
    person = Bot(server.base, "Withdrawing Person", upgrade=False)
    person.refused("POST", f"/api/bot/tournament/{tid}/withdraw", 403, "not_bot")


def test_two_bot_accounts_play_their_round_through_connect(
    server: ServerThread, tmp_path: Path
) -> None:
    """Two bot accounts run by ``connect``'s client (one joins with its tournament
    option, one through the API) play the Swiss's round game; the standings count it."""
    org = Person(server.base, "Engine Organiser")
    tid = _swiss(org, bots=True)
    first = Bot(server.base, "Swiss Engine One")
    second = Bot(server.base, "Swiss Engine Two")
    second.call("POST", f"/api/bot/tournament/{tid}/join", 200)
    one = Connected(first, ["ismcts:30"], tmp_path / "one", seed=5, tournaments=(tid,))
    two = Connected(second, ["greedy"], tmp_path / "two", seed=6)
    try:
        page = lambda: org.call("GET", f"/api/tournaments/{tid}", 200)  # noqa: E731
        _until(lambda: len(page()["players"]) == 2, "the first engine's join", GUARD)
        org.call("POST", f"/api/tournaments/{tid}/start", 200)
        tables = _until(lambda: page()["rounds"], "round 1")[0]["tables"]
        assert len(tables) == 1
        table = tables[0]["table_id"]
        result = one.wait_finished(table)
        assert two.wait_finished(table) == result
        assert result["ending"] == "played"
        final = _until(lambda: (p := page())["status"] == "finished" and p, "the end")
    finally:
        one.stop()
        two.stop()
    lines = {s["player"]: s for s in final["standings"]}
    assert set(lines) == {"Swiss Engine One", "Swiss Engine Two"}
    assert all(line["games"] == 1 for line in lines.values())
    assert sum(line["points"] for line in lines.values()) == 1
    assert final["rounds"][0]["tables"][0]["replay_url"] == f"/replay/{table}"
    record = read_record_file(tmp_path / "one" / f"{table}.json")
    assert replay(record).summary()["complete"] is True


def test_a_person_plays_a_bot_account_in_a_rated_tournament(
    server: ServerThread, tmp_path: Path
) -> None:
    """A person meets a bot account (``connect``'s client) in a rated Swiss that allows
    bots: the person's seat from ``/api/tournaments/me``, the bot's by its event
    stream; the game counts in the standings and in both players' bots' pool."""
    org = Person(server.base, "Rated Host")
    tid = _swiss(org, bots=True, rated=True)
    bot = Bot(server.base, "Tournament Engine")
    person = Person(server.base, "Tournament Person")
    engine = Connected(bot, ["greedy"], tmp_path / "engine", seed=7, tournaments=(tid,))
    try:
        person.call("POST", f"/api/tournaments/{tid}/register", 200)
        page = lambda: org.call("GET", f"/api/tournaments/{tid}", 200)  # noqa: E731
        _until(lambda: len(page()["players"]) == 2, "the engine's join", GUARD)
        org.call("POST", f"/api/tournaments/{tid}/start", 200)
        seat = _until(lambda: person.call("GET", "/api/tournaments/me", 200)["next"], "a seat")
        table = seat["table_id"]
        with clients(server.base, table, [token_of(seat["play_url"])]) as (me,):
            me.hello()
            state = me.wait_state(lambda s: True)
            while state["status"] != "finished":
                if state["legal_moves"]:
                    answer = me.move(state["legal_moves"][0])
                    assert answer["type"] in ("ack", "resync"), answer
                state = me.wait_state(lambda s, v=state["version"]: s["version"] > v)
        assert engine.wait_finished(table)["ending"] == "played"
        final = _until(lambda: (p := page())["status"] == "finished" and p, "the end")
    finally:
        engine.stop()
    lines = {s["player"]: s for s in final["standings"]}
    assert {name: line["games"] for name, line in lines.items()} == {
        "Tournament Engine": 1,
        "Tournament Person": 1,
    }
    assert {p["name"]: p["bot"] for p in final["players"]} == {
        "Tournament Engine": True,
        "Tournament Person": False,
    }
    for name in lines:
        pools = [r["game"] for r in org.call("GET", f"/api/players/{name}", 200)["ratings"]]
        assert pools == ["candidate@bots"], (name, pools)
