"""The server hooks of the web client, over HTTP: pages, rules, hints, summaries, replays,
and the address ``cardtable serve`` prints. No browser needed."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import GUARD, WebServer, free_port

from cardtable.cards import parse_card_kind
from cardtable.games.candidate.scoring import capture_score


def wait_finished(base: str, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while time.monotonic() < deadline:
        info: dict[str, Any] = httpx.get(f"{base}/api/tables/{table_id}").json()
        if info["status"] == "finished":
            return info
        time.sleep(0.1)
    raise AssertionError(f"table {table_id} did not finish")


@pytest.fixture(scope="module")
def bot_game(web_server: WebServer) -> str:
    """A one-deal Candidate match between two bots, finished. What is checked is the
    summary and the replay, not the bots' strength: medium (ISMCTS, 200 iterations),
    not hard (2,000), keeps the deal to seconds, also on a busy machine."""
    created = httpx.post(
        web_server.base + "/api/tables",
        json={
            "game": "candidate",
            "options": {"deals": 1},
            "seats": [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "medium"}],
        },
    ).json()
    table_id = str(created["table"]["id"])
    wait_finished(web_server.base, table_id)
    return table_id


def test_client_pages_are_served_at_their_addresses(web_server: WebServer) -> None:
    for path in ("/", "/play/abc?invite=x", "/watch/abc", "/replay/abc", "/rules/spy"):
        page = httpx.get(web_server.base + path)
        assert page.status_code == 200
        assert '<script type="module" src="/js/main.js">' in page.text
    script = httpx.get(web_server.base + "/js/main.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]


@pytest.mark.parametrize(("lang", "title"), [("en", "# Candidate"), ("uk", "# Кандидат")])
def test_rules_page_in_both_languages(web_server: WebServer, lang: str, title: str) -> None:
    rules = httpx.get(f"{web_server.base}/api/rules/candidate?lang={lang}").json()
    assert rules["markdown"].startswith(title)
    assert "C17" in rules["markdown"]


def test_rules_of_an_unknown_game_or_language_are_refused(web_server: WebServer) -> None:
    assert httpx.get(f"{web_server.base}/api/rules/chess").status_code == 404
    assert httpx.get(f"{web_server.base}/api/rules/spy?lang=fr").status_code == 422


def test_summary_gives_each_capture_its_engine_score(web_server: WebServer, bot_game: str) -> None:
    summary = httpx.get(f"{web_server.base}/api/tables/{bot_game}/summary").json()
    assert summary["complete"]
    deal = summary["deals"][0]
    for side in (0, 1):
        scores = deal["capture_scores"][side]
        expected = [capture_score([parse_card_kind(c) for c in s]) for s in deal["captures"][side]]
        assert scores == expected  # C15, scored by the engine
        assert sum(scores) == deal["scores"][side]


def test_replay_steps_through_every_move_with_the_hands(
    web_server: WebServer, bot_game: str
) -> None:
    replay = httpx.get(f"{web_server.base}/api/tables/{bot_game}/replay").json()
    record = httpx.get(f"{web_server.base}/api/tables/{bot_game}/record").json()
    moves = [m for deal in record["deals"] for m in deal["moves"]]
    steps = replay["steps"]
    assert [s["move"] for s in steps[1:]] == moves
    assert steps[0]["move"] is None
    assert steps[-1]["view"]["is_over"]
    assert steps[-1]["view"]["totals"] == replay["result"]["totals"]
    # Each step's views are public (no hand) and the hands are listed beside them.
    assert all(s["view"]["hand"] is None for s in steps)
    dealt = next(s for s in steps if s["move"] and s["move"].startswith("deal"))
    assert [len(h) for h in dealt["hands"]] == [5, 5]


def test_replay_and_hint_refusals(web_server: WebServer) -> None:
    base = web_server.base
    created = httpx.post(
        base + "/api/tables",
        json={"game": "candidate", "seats": [{"type": "open"}, {"type": "bot", "level": "easy"}]},
    ).json()
    table_id = created["table"]["id"]
    assert httpx.get(f"{base}/api/tables/{table_id}/replay").status_code == 409
    assert httpx.get(f"{base}/api/tables/nope/replay").status_code == 404
    assert httpx.post(f"{base}/api/tables/nope/hint", json={"token": "x"}).status_code == 404
    refused = httpx.post(f"{base}/api/tables/{table_id}/hint", json={"token": "wrong"})
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "bad_token"


def test_hint_is_one_of_the_seats_legal_moves(web_server: WebServer) -> None:
    base = web_server.base
    created = httpx.post(
        base + "/api/tables",
        json={"game": "candidate", "seats": [{"type": "open"}, {"type": "open"}]},
    ).json()
    table_id = created["table"]["id"]
    tokens = []
    for invite, name in zip(created["invites"], ("Petro", "Olha"), strict=True):
        seated = httpx.post(
            f"{base}/api/tables/{table_id}/join", json={"invite": invite["code"], "name": name}
        ).json()
        tokens.append(seated["token"])
    live = web_server.app.state.hub.tables[table_id].table
    to_move = live.match.to_move()
    hint = httpx.post(f"{base}/api/tables/{table_id}/hint", json={"token": tokens[to_move]})
    assert hint.json()["move"] in live.legal_moves(to_move)
    idle = httpx.post(f"{base}/api/tables/{table_id}/hint", json={"token": tokens[1 - to_move]})
    assert idle.json()["move"] is None


def test_serve_prints_the_address_to_open(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "cardtable", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'serve.db'}", "--log-level", "warning"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
    finally:
        proc.terminate()
        proc.wait(timeout=20)
