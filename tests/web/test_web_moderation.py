"""Recovery and moderation in the browser: a forgotten password reset through the link
a local SMTP server caught; a chat line reported from the table, a moderator muting its
writer, whose next line is refused, and told among his notices; the account's email
section; the moderators' pages, with a reported player's fair-play signals (a script
racing its Spy rounds past the pace's level) — in English and Ukrainian, on a desktop
and a 390×844 phone."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from web_helpers import WebServer, create_table

pytest.importorskip("aiosmtpd", reason="aiosmtpd (the test extra) runs the local SMTP server")

from server_mail import Inbox, link, link_token, smtp_server  # the server suite's helpers
from test_server_moderation_fairplay import finished, spy_game

from cardtable.cli import app as cli
from cardtable.server.app import create_app
from cardtable.server.settings import Settings

WEB = {"X-Cardtable-Client": "test"}
PASSWORD = "a long enough secret"
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('webdb') / 'moderation.db'}"


@pytest.fixture(scope="module")
def site(db_url: str, inbox: Inbox) -> Iterator[WebServer]:
    """The server with its client, mailing through the local SMTP server."""
    settings = Settings(grace_seconds=60.0, bot_processes=0, smtp_url=inbox.url)
    server = WebServer(create_app(db_url, settings=settings)).start()
    yield server
    server.stop()


def context(browser: Any, lang: str, phone: bool) -> Any:
    made = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone)
    made.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    return made


def register(base: str, prefix: str, lang: str = "en") -> str:
    name = f"{prefix}{uuid.uuid4().int % 10**6:06d}"  # digits: any alphabet
    made = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": PASSWORD, "lang": lang},
        headers=WEB,
    )
    assert made.status_code == 201, made.text
    return name


def signed_in(browser: Any, base: str, name: str, lang: str, phone: bool) -> Any:
    """A page of a new browser signed in as ``name`` (its session cookie from the API)."""
    ctx = context(browser, lang, phone)
    answer = ctx.request.post(
        f"{base}/api/account/login", data={"name": name, "password": PASSWORD}, headers=WEB
    )
    assert answer.ok, answer.text()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def shoot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def fits(page: Any) -> None:
    """Nothing sticks out sideways (a phone scrolls down, never across): the page is
    no wider than the viewport it was given (a phone's browser would widen its layout
    to the widest element, so the window's own width proves nothing)."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_forgotten_password_is_reset_through_the_emailed_link(
    site: WebServer, inbox: Inbox, browser: Any, shots: Path
) -> None:
    base = site.base
    name = register(base, "Olena", lang="uk")
    email = f"{name.lower()}@example.org"
    # The address is added and confirmed on the account page, through its link.
    page = signed_in(browser, base, name, "uk", phone=True)
    page.goto(f"{base}/account")
    page.fill("#email-address", email)
    page.fill("#email-password", PASSWORD)
    page.click("form[data-email] button[type=submit]")
    page.wait_for_selector(f"[data-email-state]:has-text('{email}')")
    verify = inbox.wait(email)
    assert verify["Subject"] == "Підтвердьте адресу електронної пошти для cardtable"
    page.goto(link(verify, "verify-email"))
    page.wait_for_selector(f"[data-verify] [data-verified='{email}']")
    assert page.url == f"{base}/verify-email"  # the token left the address bar
    page.goto(f"{base}/account")
    page.wait_for_selector(f"[data-email-state][data-email='{email}']")
    fits(page)
    shoot(page, shots, "account-email-uk-phone")
    page.context.close()

    # Signed out, in English on a desktop: "Forgot your password?" by the address.
    ctx = context(browser, "en", phone=False)
    page = ctx.new_page()
    page.goto(f"{base}/signin")
    page.click("[data-forgot-link]")
    page.wait_for_selector("form[data-forgot]")
    page.fill("#forgot-who", email.upper())
    page.click("form[data-forgot] button[type=submit]")
    page.wait_for_selector("form[data-forgot] .banner.info:not([hidden])")
    assert "a link to reset its password is on its way" in page.inner_text("form[data-forgot]")
    shoot(page, shots, "forgot-desktop")
    reset = inbox.wait(email, count=2)
    assert reset["Subject"] == "Скидання пароля cardtable"  # the account's language
    page.goto(link(reset, "reset"))
    page.wait_for_selector("form[data-reset]")
    shoot(page, shots, "reset-desktop")
    page.fill("#reset-password", "my new long secret")
    page.click("form[data-reset] button[type=submit]")
    page.wait_for_url(f"{base}/signin")
    page.fill("#account-name", name)
    page.fill("#account-password", "my new long secret")
    page.click("form[data-account=signin] button[type=submit]")
    page.wait_for_selector(f"header [data-who='{name}']")
    # The link worked once: opened again it is refused, with a way to ask for another.
    page.goto(link(reset, "reset"))
    page.fill("#reset-password", "yet another secret")
    page.click("form[data-reset] button[type=submit]")
    alert = page.wait_for_selector("form[data-reset] [role=alert]:not([hidden])")
    assert alert.text_content() == "this link has been used already: ask for a new one"
    assert page.is_visible("form[data-reset] a[href='/forgot']")
    ctx.close()

    # The Ukrainian phone's pages of the same flow.
    phone = context(browser, "uk", phone=True).new_page()
    phone.goto(f"{base}/forgot")
    phone.wait_for_selector("form[data-forgot]")
    assert "Скидання пароля" in phone.inner_text("form[data-forgot] h1")
    fits(phone)
    shoot(phone, shots, "forgot-uk-phone")
    phone.goto(f"{base}/reset#{link_token(reset, 'reset')}")
    phone.wait_for_selector("form[data-reset]")
    assert "Оберіть новий пароль" in phone.inner_text("form[data-reset] h1")
    fits(phone)
    shoot(phone, shots, "reset-uk-phone")
    phone.context.close()


def chat_line(page: Any, text: str) -> None:
    page.fill(".chatinput", text)
    page.press(".chatinput", "Enter")


def test_a_reported_line_is_judged_by_a_moderator_whose_mute_refuses_the_next_line(
    site: WebServer, db_url: str, browser: Any, shots: Path
) -> None:
    base = site.base
    ann, bob, mod = register(base, "Ann"), register(base, "Богдан", "uk"), register(base, "Mod")
    granted = CliRunner().invoke(cli, ["admin", "grant-moderator", mod, "--db", db_url])
    assert granted.exit_code == 0, granted.output
    created = create_table(base, "candidate", {}, [{"type": "open"}, {"type": "open"}])
    table_id = created["table"]["id"]
    pages = {}
    for who, invite, lang, phone in (
        (ann, created["invites"][0]["link"], "en", False),
        (bob, created["invites"][1]["link"], "uk", True),
    ):
        page = signed_in(browser, base, who, lang, phone)
        page.goto(base + invite)
        page.click("form.joinform button[type=submit]")  # signed in: the name is the account's
        page.wait_for_selector("#main[data-status]")
        pages[who] = page

    # Bob writes a rude line; Ann reports it from the chat.
    chat_line(pages[bob], "you play like a potato")
    line = pages[ann].locator(".chatline", has_text="you play like a potato")
    line.wait_for()
    line.locator(".chatreport").click()
    dialog = pages[ann].wait_for_selector("dialog.modal form[data-report]")
    assert "you play like a potato" in (dialog.text_content() or "")
    pages[ann].fill("#report-reason", "insults at the table")
    shoot(pages[ann], shots, "report-dialog-desktop")
    pages[ann].click("dialog.modal button[type=submit]")
    pages[ann].wait_for_selector("#toast.info:not([hidden])")
    assert pages[ann].locator("dialog.modal").count() == 0

    # The moderator sees it with the line marked and the table's game, and mutes Bob.
    moderator = signed_in(browser, base, mod, "en", phone=False)
    moderator.goto(f"{base}/")
    moderator.click("header a[href='/moderation']")
    card = moderator.wait_for_selector(f"article.report[data-target='{bob}']")
    assert "insults at the table" in (card.text_content() or "")
    reported = moderator.locator(f"article.report[data-target='{bob}'] .modchat li.reported")
    assert "you play like a potato" in (reported.text_content() or "")
    assert (
        moderator.locator(
            f"article.report[data-target='{bob}'] .modgames a[href='/watch/{table_id}']"
        ).count()
        == 1
    )
    shoot(moderator, shots, "moderation-desktop")
    mod_phone = signed_in(browser, base, mod, "uk", phone=True)
    mod_phone.goto(f"{base}/moderation")
    mod_phone.wait_for_selector(f"article.report[data-target='{bob}']")
    assert "Відкриті скарги" in mod_phone.inner_text("h1")
    fits(mod_phone)
    shoot(mod_phone, shots, "moderation-uk-phone")
    form = f"article.report[data-target='{bob}'] form.modactions"
    moderator.fill(f"{form} input[name=reason]", "insults")
    moderator.fill(f"{form} input[name=minutes]", "30")
    moderator.click(f"{form} button[data-act=mute]")
    moderator.wait_for_selector("[data-moderation] [data-none]")  # the report is closed

    # Bob's next line is refused, said in Ukrainian; Ann still chats.
    chat_line(pages[bob], "sorry")
    note = pages[bob].wait_for_selector(".chatnote:not([hidden])")
    assert "Модератор вимкнув вам чат" in (note.text_content() or "")
    chat_line(pages[ann], "no worries")
    pages[bob].locator(".chatline", has_text="no worries").wait_for()
    assert "sorry" not in pages[ann].locator(".chatlog").inner_text()
    fits(pages[bob])
    shoot(pages[bob], shots, "chat-muted-uk-phone")

    # The log says who did what to whom and why; Bob's notices say it too.
    moderator.click("a[href='/moderation/log']")
    row = moderator.wait_for_selector("[data-modlog] tr[data-action=mute]")
    cells = [cell.text_content() or "" for cell in row.query_selector_all("td")]
    assert (cells[1], cells[2], cells[4]) == (mod, bob, "insults")
    assert cells[3].startswith("Mute in chat (30")
    shoot(moderator, shots, "moderation-log-desktop")
    mod_phone.goto(f"{base}/moderation/log")
    mod_phone.wait_for_selector("[data-modlog] tr[data-action=mute]")
    fits(mod_phone)
    shoot(mod_phone, shots, "moderation-log-uk-phone")
    pages[bob].goto(f"{base}/notices")  # the one list of notices, under the bell
    notice = pages[bob].wait_for_selector("[data-page=notices] li[data-kind=moderation] a")
    assert "Чат вимкнено до" in (notice.text_content() or "")
    assert (notice.text_content() or "").endswith(": insults")
    shoot(pages[bob], shots, "account-notices-uk-phone")
    # A player who is not a moderator is told the page is not theirs.
    pages[ann].goto(f"{base}/moderation")
    pages[ann].wait_for_selector("[data-missing]")
    assert "Only moderators see this page." in pages[ann].inner_text("[data-missing]")
    for page in (*pages.values(), moderator, mod_phone):
        assert not page.errors, page.errors
        page.context.close()


def test_the_moderator_reads_a_racing_scripts_fair_play_signals(
    site: WebServer, db_url: str, browser: Any, shots: Path
) -> None:
    base = site.base
    script, ann, mod = register(base, "Quick"), register(base, "Ann"), register(base, "Mod")
    granted = CliRunner().invoke(cli, ["admin", "grant-moderator", mod, "--db", db_url])
    assert granted.exit_code == 0, granted.output
    storage = site.app.state.hub.storage
    for seed in range(3):
        storage.write(finished(script, *spy_game(0.2, seed))).result()
    token = httpx.post(
        f"{base}/api/account/login",
        json={"name": ann, "password": PASSWORD, "bearer": True},
        headers=WEB,
    ).json()["token"]
    filed = httpx.post(
        f"{base}/api/reports",
        json={"name": script, "category": "play", "reason": "nobody turns cards that fast"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert filed.status_code == 201, filed.text

    for lang, phone, tail in (("en", False, "desktop"), ("uk", True, "uk-phone")):
        page = signed_in(browser, base, mod, lang, phone)
        page.goto(f"{base}/moderation")
        card = f"article.report[data-target='{script}']"
        page.click(f"{card} [data-fairplay] button[data-fairplay-game=spy]")
        figures = page.wait_for_selector(f"{card} [data-fairplay-figures=spy]")
        assert figures.get_attribute("data-attention") is not None
        assert "speed" in (figures.get_attribute("data-attention") or "").split(",")
        text = figures.inner_text()
        if lang == "en":
            assert "beyond 3.0 in 3 of 3 rounds" in text
            assert "Past its level: pace" in text
            assert "Agreement with the strongest bot" in text
        else:
            assert "понад 3.0 у 3 з 3 раундів" in text
            assert "Понад рівень: темп" in text
        page.locator(f"{card} [data-fairplay]").scroll_into_view_if_needed()
        if phone:
            fits(page)
        shoot(page, shots, f"moderation-fairplay-{tail}")
        assert page.errors == []
        page.context.close()
