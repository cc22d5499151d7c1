"""The page an invite link opens says what the invite is for before the form — the
game and its options, who is at the table, the seat, the clock, rated or casual — and
a used or unknown invite says so instead of the form, in the player's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from web_helpers import WebServer, join_by_invite


def test_an_invite_says_what_it_is_for_and_a_used_one_says_so(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "candidate",
            "options": {"deals": 2},
            "seats": [{"type": "open"}, {"type": "open"}],
            "time_control": {"initial": 300, "increment": 3},
        },
    ).json()
    links = [invite["link"] for invite in created["invites"]]
    host = browser.new_page()
    join_by_invite(host, base, links[0], "Ann")

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_init_script("localStorage.setItem('cardtable.lang', 'uk')")
    guest = context.new_page()
    errors: list[str] = []
    guest.on("pageerror", lambda exc: errors.append(str(exc)))
    guest.goto(base + links[1])
    about = guest.wait_for_selector("#join-context .invitegame")
    assert about.get_attribute("data-game") == "candidate"
    text = guest.inner_text("#join-context")
    assert "Кандидат" in text
    assert "За столом: Ann." in text
    assert "Ваше місце: 2 з 2." in text
    assert "5+3" in text
    assert "Без рейтингу" in guest.inner_text("#join-terms")
    guest.screenshot(path=str(shots / "invite-page-uk-phone.png"))
    guest.fill("#join-name", "Oksana")
    guest.click("form.joinform button[type=submit]")
    guest.wait_for_selector("#main[data-status]")

    # The same link again, in another browser (this one would come back to its seat):
    # used, said before any form.
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    other.add_init_script("localStorage.setItem('cardtable.lang', 'uk')")
    late = other.new_page()
    late.on("pageerror", lambda exc: errors.append(str(exc)))
    late.goto(base + links[1])
    late.wait_for_selector("[data-missing]")
    assert "вже використано" in late.inner_text("#main")
    assert late.query_selector("form.joinform") is None
    # An invite code nobody made: no such invite.
    table_id = created["table"]["id"]
    late.goto(f"{base}/play/{table_id}?invite=nosuchinvite")
    late.wait_for_selector("[data-missing]")
    assert "Такого запрошення немає" in late.inner_text("#main")
    assert errors == []
    other.close()
    context.close()
    host.context.close()
