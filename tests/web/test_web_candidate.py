"""Two browsers play a whole Candidate deal against each other, then replay it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import GUARD, WebServer, create_table, join_by_invite


def legal_moves(page: Any) -> list[str]:
    raw = page.get_attribute(".board.candidate", "data-legal")
    return list(json.loads(raw or "[]"))


def make_move(page: Any, move: str) -> None:
    """Make ``move`` through the interface, as a person would: piles, cards, buttons."""
    words = move.split()
    if words[0] in ("deal", "lobby", "draw"):
        page.click(f"button.pile[data-pile='{words[1]}']")
    elif words[0] == "pass":
        page.click("#pass-button")
    else:
        for card in words[1:]:
            page.click(f".hand.mine button[data-card='{card}'].playable:not(.chosen)")
        page.click("#play-button")


def choose(moves: list[str], turn: int) -> str:
    """A varied but deterministic choice: plays most of the time, passes sometimes."""
    plays = [m for m in moves if m.startswith("play")]
    if plays and turn % 4:
        return max(plays, key=len) if turn % 3 else plays[0]
    return moves[turn % len(moves)]


def version(page: Any) -> int:
    return int(page.get_attribute("#main", "data-version") or -1)


def test_two_browsers_play_a_whole_candidate_deal_and_replay_it(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(
        base, "candidate", {"deals": 1, "decks": 1}, [{"type": "open"}, {"type": "open"}]
    )
    table_id = created["table"]["id"]
    ann_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    join_by_invite(ann, base, created["invites"][0]["link"], "Ann")
    join_by_invite(bob, base, created["invites"][1]["link"], "Bob")

    played = 0
    took_shot = False
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while ann.get_attribute("#main", "data-status") != "finished":
        assert time.monotonic() < deadline, f"the deal did not finish in time ({played} moves)"
        mover = next((p for p in (ann, bob) if legal_moves(p)), None)
        if mover is None:
            ann.wait_for_timeout(30)
            continue
        moves = legal_moves(mover)
        before = version(mover)
        move = choose(moves, played)
        if not took_shot and move.startswith("play") and len(move.split()) > 2:
            # A multi-card play chosen card by card, before it is sent.
            for card in move.split()[1:]:
                mover.click(f".hand.mine button[data-card='{card}'].playable:not(.chosen)")
            mover.screenshot(path=str(shots / "candidate-choosing.png"), full_page=True)
            mover.click("#play-button")
            took_shot = True
        else:
            make_move(mover, move)
        mover.wait_for_function(
            f"Number(document.querySelector('#main').dataset.version) > {before}"
        )
        played += 1
        if played == 12:
            ann.screenshot(path=str(shots / "candidate-table.png"), full_page=True)
            bob.screenshot(path=str(shots / "candidate-phone.png"))  # the dock is fixed

    assert played > 20
    for page in (ann, bob):
        page.wait_for_selector(".result:not([hidden])")
        page.wait_for_selector(".dealsummary")
        assert "The match is over" in page.inner_text(".result")
        assert page.locator(".dock").count() == 0  # nothing left to play: no dock
    summary = ann.inner_text(".dealsummary")
    assert "Deal 1 is over" in summary
    totals = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert totals["status"] == "finished"
    ann.screenshot(path=str(shots / "candidate-deal-over.png"), full_page=True)

    # The replay viewer steps through the same game, move by move.
    ann.goto(f"{base}/replay/{table_id}")
    ann.wait_for_selector(".replaybar")
    assert ann.get_attribute("#main", "data-step") == "0"
    for _ in range(8):
        ann.click("button[data-step='next']")
    assert ann.get_attribute("#main", "data-step") == "8"
    assert "Move 8 of" in ann.inner_text(".replaymove")
    assert ann.locator(".hand.shown .card").count() > 0  # a finished game shows the hands
    ann.screenshot(path=str(shots / "replay.png"), full_page=True)
    ann.keyboard.press("End")
    steps = int(ann.get_attribute("#main", "data-step") or 0)
    assert steps == played
    ann.click("button[data-step='prev']")
    assert int(ann.get_attribute("#main", "data-step") or 0) == played - 1

    # The lobby lists the finished game with its replay and record.
    ann.goto(base + "/")
    ann.wait_for_selector(f"#history li[data-table='{table_id}']")
    ann.screenshot(path=str(shots / "lobby.png"), full_page=True)
    assert errors == []
    ann_ctx.close()
    bob_ctx.close()
