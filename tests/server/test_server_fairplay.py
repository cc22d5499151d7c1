"""Fair play: no help at rated tables or without everyone's consent, no rating from games
against bots, one rating number on an Elo-like scale, login limits nobody can turn
against another player."""

from __future__ import annotations

import uuid

import httpx
import pytest
from server_helpers import Api, ServerThread, clients, play_first_moves

from cardtable.messages import catalog_json
from cardtable.server.accounts import LoginLimiter
from cardtable.server.limits import LocalLoginLimits
from cardtable.server.ratings import PROVISIONAL_GAMES, Rating, rate
from cardtable.server.routes.accounts import CSRF_HEADER
from cardtable.server.seeks import Seeks

WEB = {CSRF_HEADER: "web"}
PASSWORD = "correct horse battery"


def account(base: str, prefix: str) -> tuple[str, dict[str, str]]:
    """A new account: its name and the Authorization header to send."""
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    answer = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=WEB,
    )
    assert answer.status_code == 201, answer.text
    return name, {"Authorization": f"Bearer {answer.json()['token']}"}


def rated_pair(api: Api, base: str, **extra: object) -> tuple[str, list[str], list[str]]:
    """A rated ``fake`` table of two new accounts: its id, their tokens and names."""
    people = [account(base, "Ada"), account(base, "Ben")]
    created = api.http.post(
        "/api/tables",
        json={
            "game": "fake",
            "seats": [{"type": "open"}] * 2,
            "rated": True,
            "options": {"hand": 1},
            **extra,
        },
        headers=people[0][1],
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    tokens = []
    for invite, (name, head) in zip(created.json()["invites"], people, strict=True):
        seated = api.http.post(
            f"/api/tables/{table_id}/join",
            json={"invite": invite["code"], "name": name},
            headers=head,
        )
        assert seated.status_code == 200, seated.text
        tokens.append(seated.json()["token"])
    return table_id, tokens, [name for name, _ in people]


def hint(api: Api, table_id: str, token: str) -> httpx.Response:
    return api.http.post(f"/api/tables/{table_id}/hint", json={"token": token})


def test_no_hint_reaches_a_seat_of_a_rated_game(fake_server: ServerThread, api: Api) -> None:
    table_id, tokens, _ = rated_pair(api, fake_server.base)
    info = api.table(table_id)
    assert (info["rated"], info["hints"]) == (True, False)
    for token in tokens:
        refused = hint(api, table_id, token)
        assert refused.status_code == 403, refused.text
        detail = refused.json()["detail"]
        assert detail["message_id"] == "server.hints_rated"
        assert "rated" in detail["message"]
    words = catalog_json("uk")["messages"]["server.hints_rated"]
    assert "рейтинговим" in words
    # A rated table cannot be made with hints at all.
    _, head = account(fake_server.base, "Cy")
    asked = api.http.post(
        "/api/tables",
        json={"game": "fake", "seats": [{"type": "open"}] * 2, "rated": True, "hints": True},
        headers=head,
    )
    assert asked.status_code == 422
    assert asked.json()["detail"]["message_id"] == "server.rated_hints"


def test_hints_only_where_the_creator_allowed_them(api: Api) -> None:
    off_id, off_tokens = api.seat_players("fake", ["Ann", "Bob"], hints=False)
    assert api.table(off_id)["hints"] is False
    refused = hint(api, off_id, off_tokens[0])
    assert refused.status_code == 403
    assert refused.json()["detail"]["message_id"] == "server.hints_off"
    # A casual table allows them unless the creator said no; its players agreed by
    # taking their seats (the invite page shows the choice).
    on_id, on_tokens = api.seat_players("fake", ["Ann", "Bob"])
    assert api.table(on_id)["hints"] is True
    assert hint(api, on_id, on_tokens[0]).status_code == 200


def test_a_rated_game_with_a_bot_changes_no_rating(fake_server: ServerThread, api: Api) -> None:
    # Two people first, so Ada has a rating a bot game could move.
    table_id, tokens, (ada, ben) = rated_pair(api, fake_server.base)
    with clients(fake_server.base, table_id, tokens) as players:
        play_first_moves(players)
    before = api.http.get(f"/api/players/{ada}").json()["ratings"]
    assert [r["games"] for r in before] == [1]
    login = api.http.post(
        "/api/account/login", json={"name": ada, "password": PASSWORD, "bearer": True}, headers=WEB
    )
    head = {"Authorization": f"Bearer {login.json()['token']}"}
    created = api.http.post(
        "/api/tables",
        json={
            "game": "fake",
            "seats": [{"type": "open"}, {"type": "bot", "level": "easy"}],
            "rated": True,
            "options": {"hand": 1},
            "sit": ada,
        },
        headers=head,
    )
    assert created.status_code == 201, created.text
    bot_table = created.json()["table"]["id"]
    with clients(fake_server.base, bot_table, [created.json()["seated"]["token"]]) as (me,):
        me.hello()
        assert me.state is not None
        me.move(me.state["legal_moves"][0])
        if me.state["status"] != "finished":
            me.wait_state(lambda s: s["status"] == "finished")
    assert api.table(bot_table)["status"] == "finished"
    assert api.http.get(f"/api/players/{ada}").json()["ratings"] == before
    board = api.http.get("/api/ratings", params={"game": "fake", "limit": 500}).json()["entries"]
    assert all(e["account"] for e in board)
    assert not any(e["name"].startswith("Bot") for e in board)
    assert {ada, ben} <= {e["name"] for e in board}


def test_one_rating_number_provisional_until_enough_games() -> None:
    new = Rating(25.0, 25 / 3)
    assert new.shown() == {"rating": 1500, "provisional": True, "label": "1500?"}
    # The example: ordinal 6.2 (mu 29.7, sigma 7.8) reads as one number.
    assert Rating(29.7, 7.8, 3).shown()["label"] == "1641?"
    assert Rating(29.7, 7.8, PROVISIONAL_GAMES).shown()["label"] == "1641"
    # About ten to one odds for 400 points between settled players.
    after = rate({"a": Rating(25.0, 1.0, 50), "b": Rating(25.0, 1.0, 50)}, ["a", "b"], [1, 2])
    assert after["a"].rating > 1500 > after["b"].rating


def test_the_leaderboard_and_profile_serve_the_shown_rating(
    fake_server: ServerThread, api: Api
) -> None:
    table_id, tokens, (ada, _) = rated_pair(api, fake_server.base)
    with clients(fake_server.base, table_id, tokens) as players:
        play_first_moves(players)
    board = api.http.get("/api/ratings", params={"game": "fake", "limit": 500}).json()["entries"]
    mine = next(e for e in board if e["name"] == ada)
    assert mine["label"] == f"{mine['rating']}?"
    assert mine["provisional"] is True
    assert {"mu", "sigma", "ordinal"} <= set(mine)
    (fake,) = api.http.get(f"/api/players/{ada}").json()["ratings"]
    assert (fake["rating"], fake["label"], fake["start"]) == (mine["rating"], mine["label"], 1500)
    assert fake["history"][0]["rating"] == mine["rating"]
    assert api.http.get("/api/ratings", params={"game": "nope"}).status_code == 422


def test_a_stranger_cannot_lock_a_player_out(fake_server: ServerThread, api: Api) -> None:
    now = [1000.0]
    limiter = LoginLimiter(clock=lambda: now[0])
    fake_server.app.state.login_limits = LocalLoginLimits(limiter)
    name, _ = account(fake_server.base, "Lena")
    # A stranger guesses from elsewhere until they must wait, longer each time ...
    for _ in range(5):
        limiter.failed(name, "203.0.113.9")
    assert limiter.retry_after(name, "203.0.113.9") == pytest.approx(60.0)
    now[0] += 60
    limiter.failed(name, "203.0.113.9")
    assert limiter.retry_after(name, "203.0.113.9") == pytest.approx(120.0)
    # ... and the player, from home, signs in all the same.
    login = {"name": name, "password": PASSWORD}
    assert api.http.post("/api/account/login", json=login, headers=WEB).status_code == 200
    # From one address the wait is said in minutes and grows with each failure.
    wrong = {"name": name, "password": "not it at all"}
    codes = [
        api.http.post("/api/account/login", json=wrong, headers=WEB).status_code for _ in "12345"
    ]
    assert codes == [401] * 5
    limited = api.http.post("/api/account/login", json=login, headers=WEB)
    assert limited.status_code == 429
    detail = limited.json()["detail"]
    assert (detail["params"]["minutes"], limited.headers["Retry-After"]) == (1, "60")
    assert detail["message"] == "too many failed logins: try again in 1 min"
    assert "{minutes} хв" in catalog_json("uk")["messages"]["server.login_limited"]
    now[0] += 61
    assert api.http.post("/api/account/login", json=wrong, headers=WEB).status_code == 401
    limited = api.http.post("/api/account/login", json=login, headers=WEB)
    assert limited.json()["detail"]["params"]["minutes"] == 2
    now[0] += 121
    assert api.http.post("/api/account/login", json=login, headers=WEB).status_code == 200


def test_a_rated_play_now_filled_with_bots_sits_at_a_casual_table(
    fake_server: ServerThread, api: Api
) -> None:
    assert api.http.get("/api/seeks").status_code == 200  # the queues are made on first use
    seeks: Seeks = fake_server.app.state.seeks
    bots_after = seeks.bots_after
    seeks.bots_after = 0.0
    try:
        _, head = account(fake_server.base, "Vira")
        made = api.http.post("/api/seeks", json={"game": "fakerace", "rated": True}, headers=head)
        assert made.status_code == 201, made.text
        seek = made.json()
        filled = api.http.post(
            f"/api/seeks/{seek['seek']['id']}/bots",
            json={"secret": seek["secret"], "seats": 2, "level": "easy"},
        )
        assert filled.status_code == 200, filled.text
        table = filled.json()["seated"]["table"]
        assert (table["rated"], table["hints"]) == (False, False)
    finally:
        seeks.bots_after = bots_after
