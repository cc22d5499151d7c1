"""The lobby and the pages around a table in the browser: the host's invites on the
waiting page, the join field's links and codes, the seat choices, the open-table list,
pages that do not exist, and the next game with the same seats."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import GUARD, WebServer, create_table, join_by_invite

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}

#: Stands in for a phone's share sheet: remembers what the page asked to share.
FAKE_SHARE = """
window.shared = [];
navigator.share = (data) => { window.shared.push(data); return Promise.resolve(); };
"""


def new_page(browser: Any, lang: str = "en", phone: bool = False, share: bool = False) -> Any:
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        is_mobile=phone,
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    if share:
        context.add_init_script(FAKE_SHARE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.page_errors = errors
    console: list[str] = []  # what the browser logged as an error (a failed request, say)
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    page.console_errors = console
    return page


def create_in_lobby(page: Any, base: str, name: str, seats: list[str]) -> str:
    """Create a Candidate table in the lobby with the given seat roles; its id."""
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    for i, role in enumerate(seats):
        page.select_option(f"select[name=seat{i}]", role)
    page.click("form.create button[type=submit]")
    page.wait_for_selector("#created .invite")
    heading = page.inner_text("#created h3")
    return heading.split()[1].rstrip(":")


def test_the_host_keeps_every_open_seats_invite_on_the_waiting_page(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    host = new_page(browser, share=True)
    table_id = create_in_lobby(host, base, "Ann", ["open", "open"])
    host.locator("#created").screenshot(path=str(shots / "lobby-invites.png"))
    host.click("#created button[data-seat='0']")
    host.wait_for_selector("#main[data-status=waiting]")
    panel = host.wait_for_selector(".waitinvites:not([hidden])")
    assert panel is not None
    links = host.locator(".waitinvites .invite-link")
    assert links.count() == 1  # seat 1 is the host's own now
    link = links.input_value()
    assert f"/play/{table_id}?invite=" in link
    assert host.locator(".waitinvites li[data-invite-seat='1']").count() == 1
    # No "share the links" line anywhere without the links themselves.
    assert "share the invite links" not in host.inner_text("#main")
    assert "seats still open: 1" in host.inner_text("#turn-status")
    host.click(".waitinvites button[data-action=copy]")
    host.wait_for_function(
        "() => document.querySelector('.waitinvites [data-action=copy]').textContent === 'Copied'"
    )
    assert host.evaluate("navigator.clipboard.readText()") == link
    host.click(".waitinvites button[data-action=share]")
    shared = host.evaluate("window.shared")
    assert shared[0]["url"] == link
    assert "seat 2" in shared[0]["text"]
    host.screenshot(path=str(shots / "waiting-invites.png"))
    # A reload asks the server again with the host token: the link is still there.
    host.reload()
    host.wait_for_selector(".waitinvites:not([hidden]) .invite-link")
    assert host.locator(".waitinvites .invite-link").input_value() == link
    # Anyone else watching the table sees no invite, and a Ukrainian phone the same page.
    other = new_page(browser, lang="uk", phone=True)
    other.goto(f"{base}/watch/{table_id}")
    other.wait_for_selector("#main[data-status=waiting]")
    time.sleep(0.3)
    assert other.locator(".invite-link").count() == 0
    assert "Чекаємо на гравців" in other.inner_text("#turn-status")
    phone_host = new_page(browser, lang="uk", phone=True, share=True)
    phone_host.goto(base + "/")
    phone_host.evaluate(
        "([id, hosts, seats]) => { localStorage.setItem('cardtable.hosts', hosts);"
        " localStorage.setItem('cardtable.seats', seats); }",
        [
            table_id,
            host.evaluate("localStorage.getItem('cardtable.hosts')"),
            host.evaluate("localStorage.getItem('cardtable.seats')"),
        ],
    )
    phone_host.goto(f"{base}/play/{table_id}")
    phone_host.wait_for_selector(".waitinvites:not([hidden]) [data-action=share]")
    assert "Поділитися" in phone_host.inner_text(".waitinvites")
    phone_host.screenshot(path=str(shots / "waiting-invites-phone-uk.png"))
    # Back in the lobby, the host's table leads back to its waiting page.
    host.goto(base + "/")
    host.wait_for_selector(f"li[data-table='{table_id}'] [data-action=mine]")
    host.screenshot(path=str(shots / "lobby-your-table.png"))
    host.click(f"li[data-table='{table_id}'] [data-action=mine]")
    host.wait_for_selector(".waitinvites:not([hidden]) .invite-link")
    # The invited person takes the seat: the invite leaves the host's page, the game starts.
    guest = new_page(browser)
    join_by_invite(guest, base, link.removeprefix(base), "Bob")
    host.wait_for_selector("#main[data-status=playing]")
    assert host.locator(".waitinvites:not([hidden])").count() == 0
    for page in (host, other, phone_host, guest):
        assert page.page_errors == []


def test_the_join_field_takes_links_and_codes_and_says_what_is_wrong(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(base, "candidate", {}, [{"type": "open"}, {"type": "open"}])
    table_id = created["table"]["id"]
    page = new_page(browser)
    page.goto(base + "/")
    assert page.inner_text("label:has(#invite-input) span") == "Link or code"

    def join_with(text: str) -> None:
        page.goto(base + "/")
        page.fill("#invite-input", text)
        page.click("form.joinlink button[type=submit]")

    # A bare invite code: the seat's join form.
    join_with(created["invites"][1]["code"])
    page.wait_for_selector("#join-name")
    assert page.url.endswith(f"/play/{table_id}?invite={created['invites'][1]['code']}")
    # A table's id: watch it.
    join_with(table_id)
    page.wait_for_url(f"**/watch/{table_id}")
    # A full invite link.
    join_with(base + created["invites"][0]["link"])
    page.wait_for_selector("#join-name")
    # Bad input: said plainly, in the player's language, and nobody leaves the lobby.
    join_with("not a code!")
    assert (
        "neither a link nor a code" in page.wait_for_selector("#toast:not([hidden])").inner_text()
    )
    join_with("https://example.org/somewhere")
    assert "does not lead to a table" in page.inner_text("#toast")
    uk = new_page(browser, lang="uk")
    uk.goto(base + "/")
    uk.fill("#invite-input", "abcdefghijkl")
    uk.click("form.joinlink button[type=submit]")
    toast = uk.wait_for_selector("#toast:not([hidden])").inner_text()
    assert "жоден стіл і жодне вільне місце не має коду 'abcdefghijkl'" in toast
    assert uk.url == base + "/"
    uk.screenshot(path=str(shots / "lobby-bad-code-uk.png"))
    assert page.page_errors == []
    assert uk.page_errors == []


def test_seat_choices_survive_a_new_player_count_and_open_tables_leave_out_finished_ones(
    web_server: WebServer, browser: Any
) -> None:
    base = web_server.base
    finished = create_table(
        base,
        "candidate",
        {"deals": 1},
        [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}],
    )["table"]["id"]
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while httpx.get(f"{base}/api/tables/{finished}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page = new_page(browser)
    page.goto(base + "/")
    page.select_option("#game", "spy")
    page.fill("input[name=players]", "3")
    page.dispatch_event("input[name=players]", "change")
    page.select_option("select[name=seat1]", "open")
    page.select_option("select[name=seat2]", "bot")
    page.select_option("select[name=level2]", "hard")
    page.fill("input[name=players]", "4")
    page.dispatch_event("input[name=players]", "change")
    roles = [page.input_value(f"select[name=seat{i}]") for i in range(4)]
    assert roles == ["open", "open", "bot", "bot"]
    assert page.input_value("select[name=level2]") == "hard"
    page.fill("input[name=players]", "2")
    page.dispatch_event("input[name=players]", "change")
    page.fill("input[name=players]", "3")
    page.dispatch_event("input[name=players]", "change")
    assert page.input_value("select[name=level2]") == "hard"
    # The open tables: a finished game is under "Finished games" only.
    page.wait_for_selector(f"#history li[data-table='{finished}']")
    open_list = page.locator("section:has(#open-h) li.tablerow")
    assert finished not in [
        open_list.nth(i).get_attribute("data-table") for i in range(open_list.count())
    ]
    assert page.page_errors == []


def test_unknown_addresses_are_one_page_in_the_apps_style(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    html = httpx.get(base + "/no/such/page", headers={"accept": "text/html"})
    assert html.status_code == 404
    assert '<script type="module" src="/js/main.js">' in html.text
    api = httpx.get(base + "/api/no-such-thing", headers={"accept": "text/html"})
    assert api.status_code == 404
    assert api.json() == {"detail": "Not Found"}
    assert httpx.get(base + "/api/tables/nosuchtable1").json()["detail"]["code"] == "no_table"
    page = new_page(browser)
    page.goto(base + "/")  # a guest's lobby: who is signed in is an answer, not a 401
    page.wait_for_selector("form.create")
    time.sleep(0.3)
    assert page.console_errors == []
    page.goto(base + "/no/such/page")
    page.wait_for_selector("[data-missing]")
    assert page.inner_text("[data-missing] h1") == "Page not found"
    assert page.locator("header nav a").count() >= 1
    page.screenshot(path=str(shots / "not-found.png"))
    uk = new_page(browser, lang="uk", phone=True)
    for address in (
        "/play/nosuchtable1",
        "/play/nosuchtable1?invite=abcdabcdabcdabcd",
        "/watch/x",
        "/replay/nosuchtable1",
    ):
        uk.goto(base + address)
        uk.wait_for_selector("[data-missing]")
        time.sleep(0.5)  # the WebSocket's refusal has arrived by now
        assert uk.inner_text("[data-missing] h1") == "Такого столу немає"
        assert uk.locator("#toast:not([hidden])").count() == 0
        assert uk.locator(".banner:not([hidden])").count() == 0
        assert uk.locator("[data-missing]").count() == 1
    uk.screenshot(path=str(shots / "no-table-phone-uk.png"))
    assert page.page_errors == []
    assert uk.page_errors == []


def test_everyone_at_a_finished_table_is_offered_the_next_game_in_one_click(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    created = create_table(
        base,
        "spy",
        {"rounds": 1},
        [{"type": "open"}, {"type": "open"}],
        seed=3,
    )
    table_id = created["table"]["id"]
    ann = new_page(browser)
    bob = new_page(browser, lang="uk", phone=True)
    join_by_invite(ann, base, created["invites"][0]["link"], "Ann")
    join_by_invite(bob, base, created["invites"][1]["link"], "Bob")
    watcher = new_page(browser)
    watcher.goto(f"{base}/watch/{table_id}")
    for page in (ann, bob):
        page.wait_for_selector("button[data-key='resign']:not([disabled])")
        page.click("button[data-key='resign']")
    for page in (ann, bob, watcher):
        page.wait_for_selector("#main[data-status=finished] .result:not([hidden])")
    assert watcher.locator(".nextgame button").count() == 0  # a spectator has no seat to ask
    # Ann asks for a new game with other options.
    ann.click(".nextgame [data-action=newgame]")
    ann.select_option("select[name=nextgame]", "spy")
    ann.fill(".newgame input[name=rounds]", "2")
    ann.screenshot(path=str(shots / "next-game-form.png"))
    ann.click(".newgame button[type=submit]")
    ann.wait_for_function(f"() => !location.pathname.endsWith('/{table_id}')")
    ann.wait_for_selector("#main[data-status=waiting]")
    new_id = ann.url.rsplit("/", 1)[1]
    assert new_id != table_id
    # Bob hears of it on his page and takes his seat in one click.
    offer = bob.wait_for_selector(".nextoffer").inner_text()
    assert "Ann" in offer
    assert "Раунди 2" in offer
    bob.screenshot(path=str(shots / "next-game-offer-phone-uk.png"))
    watcher.wait_for_selector(".nextoffer")
    watcher.screenshot(path=str(shots / "next-game-offer.png"))
    assert "Ann" in watcher.wait_for_selector(".nextoffer").inner_text()
    bob.click(".nextgame [data-action=join-next]")
    bob.wait_for_url(f"{base}/play/{new_id}")
    bob.wait_for_selector("#main[data-status=playing]")
    info = httpx.get(f"{base}/api/tables/{new_id}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]
    assert (info["options"]["rounds"], info["rematch_of"]) == (2, table_id)
    watcher.click(".nextgame [data-action=watch-next]")
    watcher.wait_for_url(f"{base}/watch/{new_id}")
    for page in (ann, bob, watcher):
        assert page.page_errors == []


def widest(page: Any, selector: str) -> float:
    """The right edge, in CSS pixels, of the widest element matching ``selector``."""
    return float(
        page.evaluate(
            "s => Math.max(...[...document.querySelectorAll(s)]"
            ".map((e) => e.getBoundingClientRect().right))",
            selector,
        )
    )


def test_a_name_as_long_as_the_form_takes_is_a_name_the_server_takes(
    web_server: WebServer, browser: Any
) -> None:
    """The name fields stop at the server's limit (protocol.DisplayName: 32), so the
    longest name one can type takes the seat instead of a refusal in the server's words."""
    base = web_server.base
    created = create_table(base, "candidate", {}, [{"type": "open"}, {"type": "open"}])
    page = new_page(browser)
    page.goto(base + "/")
    assert page.get_attribute("section:has(#create-h) input[name=name]", "maxlength") == "32"
    page.goto(base + created["invites"][0]["link"])
    page.fill("#join-name", "W" * 50)  # the field keeps the first 32
    page.click("form.joinform button[type=submit]")
    page.wait_for_selector("#main[data-status]")
    assert "W" * 32 in page.inner_text("#main")
    assert page.page_errors == []
    # On a phone such a name (no space to wrap at) keeps the table within the screen.
    phone = new_page(browser, phone=True)
    join_by_invite(phone, base, created["invites"][1]["link"], "M" * 32)
    phone.wait_for_selector(".board.candidate .scoreline")
    assert widest(phone, ".seatchip, .scoreline, .side h2") <= PHONE["width"]
    phone.goto(base + "/")  # the lobby lists the table with both names
    phone.wait_for_selector(f"li.tablerow[data-table='{created['table']['id']}']")
    assert widest(phone, ".tablerow") <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_table_against_bots_seats_its_creator_and_starts_at_once(
    web_server: WebServer, browser: Any
) -> None:
    """Playing alone against the computer: a table made in the lobby with one open seat
    (the rest bots) seats its creator there under their name and starts, no "Take seat"
    to press; a table with two open seats still hands out the invites."""
    base = web_server.base
    page = new_page(browser)
    page.goto(base + "/")
    page.fill("input[name=name]", "Olena")
    page.select_option("select[name=seat0]", "open")
    page.select_option("select[name=seat1]", "bot")
    page.click("form.create button[type=submit]")
    page.wait_for_url(f"{base}/play/*")
    page.wait_for_selector("#main[data-status=playing]")
    table_id = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert info["status"] == "playing"
    assert (info["seats"][0]["role"], info["seats"][0]["name"]) == ("human", "Olena")
    assert info["seats"][0]["guest"] is True
    # The seat is marked as a guest's: no account stands behind the name.
    page.wait_for_selector(".seatchip .flags:has-text('guest')")
    assert info["seats"][1]["role"] == "bot"
    seat = page.evaluate(f"() => JSON.parse(localStorage.getItem('cardtable.seats'))['{table_id}']")
    assert seat["seat"] == 0
    assert seat["name"] == "Olena"
    assert page.locator("button[data-seat]").count() == 0
    assert page.page_errors == []
    # Two open seats: the invites as before, nobody seated yet.
    table_id = create_in_lobby(page, base, "Olena", ["open", "open"])
    info = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert [s["role"] for s in info["seats"]] == ["open", "open"]
    assert page.locator("#created button[data-seat]").count() == 2


def test_the_server_seats_the_creator_only_at_a_table_with_one_open_seat(
    web_server: WebServer,
) -> None:
    """``sit`` is a join through the seat's invite: the server decides the seat, a
    rated table still refuses a guest, and two open seats ignore it."""
    base = web_server.base
    bot = {"type": "bot", "level": "easy"}
    alone = httpx.post(
        f"{base}/api/tables",
        json={"game": "spy", "seats": [bot, {"type": "open"}, bot], "sit": " Olena "},
    ).json()
    assert alone["invites"] == []
    assert alone["seated"]["seat"] == 1
    assert alone["seated"]["table"]["status"] == "playing"
    assert alone["seated"]["table"]["seats"][1]["name"] == "Olena"
    two = httpx.post(
        f"{base}/api/tables",
        json={"game": "spy", "seats": [{"type": "open"}, {"type": "open"}], "sit": "Olena"},
    ).json()
    assert two["seated"] is None
    assert len(two["invites"]) == 2
    assert two["table"]["status"] == "waiting"
    rated = httpx.post(
        f"{base}/api/tables",
        json={"game": "spy", "seats": [{"type": "open"}, bot], "sit": "Olena", "rated": True},
    )
    assert rated.status_code == 403
    bad = httpx.post(
        f"{base}/api/tables",
        json={"game": "spy", "seats": [{"type": "open"}, bot], "sit": "\x07"},
    )
    assert bad.status_code == 422
