"""Table chat in the browser: markup in a line shows as text, players do not read the
spectators' chat, and the hide switch and muting a writer are remembered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_helpers import WebServer, create_table, join_as

MARKUP = '<script>window.chatPwned = 1</script><img src=x onerror="window.chatPwned = 2"><b>hi</b>'


def chat_texts(page: Any) -> list[str]:
    """The texts of the chat lines on the page, in order."""
    return list(page.locator(".chatlog .chatline:not(.none) .chattext").all_text_contents())


def say(page: Any, text: str) -> None:
    page.fill(".chatinput", text)
    page.press(".chatinput", "Enter")


def test_chat_shows_text_keeps_channels_apart_and_hides_and_mutes(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(base, "candidate", {}, [{"type": "open"}, {"type": "open"}])
    table_id = created["table"]["id"]
    links = [i["link"] for i in created["invites"]]
    ann = join_as(browser, base, links[0], "Ann", lang="en", phone=False)
    bob = join_as(browser, base, links[1], "Богдан", lang="uk", phone=True)
    watcher = browser.new_context(viewport={"width": 1100, "height": 900})
    eve = watcher.new_page()
    eve.goto(f"{base}/watch/{table_id}")
    eve.wait_for_selector("#main[data-status]")
    errors: list[str] = []
    for page in (ann, bob, eve):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # A line with markup is shown as the text it is, and runs nothing.
    say(ann, MARKUP)
    for page in (ann, bob, eve):
        page.wait_for_function(
            "text => [...document.querySelectorAll('.chatlog .chattext')]"
            ".some(e => e.textContent === text)",
            arg=MARKUP,
        )
        assert page.locator(".chatlog script, .chatlog img, .chatlog b").count() == 0
        assert page.evaluate("window.chatPwned") is None
    say(bob, "Привіт, Ann! Удачі.")
    ann.wait_for_function("document.querySelectorAll('.chatlog .chattext').length === 2")

    # A spectator's line reaches spectators only, tagged; the players never see it.
    assert eve.locator(".chattitle").text_content() == "Spectators' chat"
    say(eve, "Nice opening")
    eve.wait_for_function("document.querySelectorAll('.chatlog .chattext').length === 3")
    assert eve.locator(".chatline.spectators .chatname").text_content() == "spectator 1"
    assert eve.locator(".chatline.spectators .chattag").count() == 1
    say(ann, "thanks, Bob")
    bob.wait_for_function("document.querySelectorAll('.chatlog .chattext').length === 3")
    assert "Nice opening" not in chat_texts(ann) + chat_texts(bob)
    assert chat_texts(eve)[-1] == "thanks, Bob"

    # Too long: refused with the reason in the player's language.
    bob.evaluate("document.querySelector('.chatinput').removeAttribute('maxlength')")
    say(bob, "я" * 301)
    bob.wait_for_selector(".chatnote:not([hidden])")
    assert "300" in (bob.locator(".chatnote").text_content() or "")
    assert "символів" in (bob.locator(".chatnote").text_content() or "")

    ann.screenshot(path=str(shots / "chat-desktop.png"), full_page=True)
    bob.screenshot(path=str(shots / "chat-uk-phone.png"), full_page=True)
    eve.screenshot(path=str(shots / "chat-spectator.png"), full_page=True)

    # Bob mutes Ann: her lines go, also after a reload; unmuting brings them back.
    bob.locator(".chatline", has_text="thanks, Bob").locator(".chatmute").click()
    assert chat_texts(bob) == ["Привіт, Ann! Удачі."]
    bob.reload()
    bob.wait_for_function("document.querySelectorAll('.chatlog .chatline').length > 0")
    assert chat_texts(bob) == ["Привіт, Ann! Удачі."]
    assert "Ann" in (bob.locator(".chatmuted").text_content() or "")
    bob.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # above the phone's dock
    bob.screenshot(path=str(shots / "chat-muted-uk-phone.png"))
    bob.locator(".chatunmute").click()
    assert chat_texts(bob) == [MARKUP, "Привіт, Ann! Удачі.", "thanks, Bob"]

    # The switch hides the chat, and it stays hidden after a reload.
    ann.click(".chattoggle")
    assert ann.locator(".chatbody").is_hidden()
    assert ann.locator(".chattoggle").text_content() == "Show chat"
    ann.reload()
    ann.wait_for_selector(".chattoggle")
    assert ann.locator(".chatbody").is_hidden()
    ann.click(".chattoggle")
    assert ann.locator(".chatbody").is_visible()
    # The reloaded page asks for the chat's history: wait for its lines to arrive.
    ann.wait_for_function("document.querySelectorAll('.chatlog .chatline .chattext').length > 0")
    assert chat_texts(ann)[-1] == "thanks, Bob"
    assert errors == []
    for page in (ann, bob):
        page.context.close()
    watcher.close()
