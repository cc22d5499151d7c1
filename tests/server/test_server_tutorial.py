"""The first-game tutorial's API: every lesson is the engine's position and asks for a
legal move; a wrong move gets the engine's refusal; bad requests are 4xx, never 500."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from server_helpers import ServerThread

from cardtable.errors import IllegalMove
from cardtable.games.registry import find_game
from cardtable.messages import say
from cardtable.server.tutorial import LESSONS, PLAYER_NAMES, lesson_position


@pytest.fixture(scope="module")
def http(real_server: ServerThread) -> httpx.Client:
    return httpx.Client(base_url=real_server.base, timeout=10)


def lessons(http: httpx.Client, game: str, lang: str = "en") -> list[dict[str, Any]]:
    response = http.get(f"/api/tutorial/{game}", params={"lang": lang})
    assert response.status_code == 200, response.text
    return response.json()["lessons"]  # type: ignore[no-any-return]


def bare(move: str) -> str:
    """A Spy move without its seat number (a Candidate move as it is)."""
    return move.split(" ", 1)[1] if move[:1].isdigit() else move


@pytest.mark.parametrize("game", ["candidate", "spy"])
def test_every_lesson_is_the_engines_position_and_asks_a_legal_move(
    http: httpx.Client, game: str
) -> None:
    got = lessons(http, game)
    assert 4 <= len(got) <= 5
    for number, (lesson, definition) in enumerate(zip(got, LESSONS[game], strict=True), 1):
        # The position is the engine's: a match from the seed with the moves applied.
        match = find_game(game).new_match(
            seed=definition.seed, players=list(PLAYER_NAMES["en"]), options={}
        )
        for seat, move in definition.before:
            match.apply(seat, move)
        state = lesson["state"]
        assert lesson["number"] == number
        assert lesson["text"] == f"tut_{game}_{definition.key}"
        assert state["view"] == json.loads(json.dumps(match.view(0)))
        assert state["seat"] == 0
        assert state["to_move"] in (0, "anyone")
        legal = [bare(m) for m in match.legal_moves(0)]
        assert [bare(m) for m in state["legal_moves"]] == [m for m in legal if m != "resign"]
        assert lesson["asked"]
        assert all(move in legal for move in lesson["asked"])
        assert all(tag[0] == game[0].upper() for tag in lesson["rules"])
        for move in lesson["asked"]:
            answer = http.post(f"/api/tutorial/{game}/{number}", json={"move": move}).json()
            assert (answer["legal"], answer["asked"]) == (True, True), answer


def test_the_lessons_are_named_in_the_players_language(http: httpx.Client) -> None:
    seats = lessons(http, "spy", "uk")[0]["state"]["view"]["seats"]
    assert [s["name"] for s in seats] == list(PLAYER_NAMES["uk"])
    assert lessons(http, "candidate", "uk")[0]["state"]["players"] == ["Гравець", "Суперник"]


def test_a_card_that_does_not_fit_gets_the_engines_refusal(http: httpx.Client) -> None:
    """C7: 9♦ neither goes up from the lobby's 4♦ nor matches it."""
    response = http.post(
        "/api/tutorial/candidate/3", params={"lang": "uk"}, json={"move": "play 9D"}
    )
    assert response.status_code == 200
    answer = response.json()
    assert not answer["legal"]
    assert not answer["asked"]
    assert answer["state"] is None
    match = lesson_position("candidate", LESSONS["candidate"][2])
    with pytest.raises(IllegalMove) as refused:
        match.apply(0, "play 9D")
    code = refused.value.code
    assert answer["message_id"] == code
    assert answer["reason"] == say(code, answer["params"], "uk")
    assert "9♦" in answer["reason"]


def test_a_spy_card_on_a_pile_it_does_not_fit(http: httpx.Client) -> None:
    """S6: the points card 9♣ does not go on 6♣."""
    answer = http.post("/api/tutorial/spy/1", json={"move": "place points 1"}).json()
    assert not answer["legal"]
    assert answer["message_id"] == "spy.no_fit"
    answer = http.post("/api/tutorial/spy/1", json={"move": "1 turn"}).json()
    assert not answer["legal"]
    assert answer["message_id"] == "spy.not_your_seat"


def test_a_legal_move_the_lesson_does_not_ask_for(http: httpx.Client) -> None:
    answer = http.post("/api/tutorial/candidate/3", json={"move": "play 5D"}).json()
    assert answer["legal"]
    assert not answer["asked"]
    assert answer["state"]["view"]["lobby"] == ["4D", "5D"]


def test_the_capture_scores_and_the_call_wins_the_round(http: httpx.Client) -> None:
    """C9, C15: the run 4♦ 5♦ 6♦ 7♦ taken scores (1+1+1+1)×4; S10, S14: the call
    scores −20 and the other player +20."""
    view = http.post("/api/tutorial/candidate/4", json={"move": "pass"}).json()["state"]["view"]
    assert view["captures"][0] == [["4D", "5D", "6D", "7D"]]
    assert view["capture_scores"][0] == [16]
    state = http.post("/api/tutorial/spy/5", json={"move": "call"}).json()["state"]
    assert state["view"]["round_scores"] == [[-20, 20]]
    assert state["segments"][0]["ending"] == "called"


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/api/tutorial/chess", None, 404),
        ("GET", "/api/tutorial/candidate?lang=fr", None, 422),
        ("POST", "/api/tutorial/chess/1", {"move": "pass"}, 404),
        ("POST", "/api/tutorial/candidate/0", {"move": "pass"}, 422),
        ("POST", "/api/tutorial/candidate/6", {"move": "pass"}, 404),
        ("POST", "/api/tutorial/candidate/x", {"move": "pass"}, 422),
        ("POST", "/api/tutorial/candidate/1", {}, 422),
        ("POST", "/api/tutorial/candidate/1", {"move": ""}, 422),
        ("POST", "/api/tutorial/candidate/1", {"move": 5}, 422),
        ("POST", "/api/tutorial/candidate/1", {"move": "x" * 201}, 422),
        ("POST", "/api/tutorial/candidate/1", [1, 2], 422),
    ],
)
def test_bad_requests_are_refused_clearly(
    http: httpx.Client, method: str, path: str, body: Any, status: int
) -> None:
    response = http.request(method, path, json=body)
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    if status == 404:
        assert detail["code"] == "no_lesson"
        assert detail["message"]


def test_an_unreadable_move_is_the_engines_refusal_not_an_error(http: httpx.Client) -> None:
    for game in ("candidate", "spy"):
        answer = http.post(f"/api/tutorial/{game}/1", json={"move": "zzz ☃"}).json()
        assert not answer["legal"]
        assert answer["reason"]
