"""Fair play in the browser: a rated table says so, shows no Hint and the server refuses
one; a table against a bot offers it; signed-in players create tables without typing a
name; the leaderboard page per game, on a desktop and a Ukrainian phone; "Play now" for
Spy shows one countdown at a time."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.orm import Session
from test_web_accounts import context, sign_up
from test_web_seek import lobbies, play_now
from web_helpers import WebServer

from cardtable.server.models import AccountRow, RatingRow
from cardtable.server.ratings import Rating
from cardtable.server.seeks import Seeks

WEB = {"X-Cardtable-Client": "test"}

#: A hint asked for by the page itself, with its seat's saved token: the answer's
#: status and detail.
ASK_HINT = """async (tableId) => {
  const seat = JSON.parse(localStorage.getItem("cardtable.seats"))[tableId];
  const answer = await fetch(`/api/tables/${tableId}/hint`, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({token: seat.token}),
  });
  return [answer.status, (await answer.json()).detail];
}"""


def test_a_rated_table_says_rated_shows_no_hint_and_refuses_one(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    base = web_server.base
    names = [f"Oksana{uuid.uuid4().hex[:6]}", f"Petro{uuid.uuid4().hex[:6]}"]
    host_ctx, guest_ctx = context(browser), context(browser, "uk", phone=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for page, name in ((host, names[0]), (guest, names[1])):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, base, name)
    # Signed in, the create form asks no name: the table is the account's.
    assert host.query_selector("form.create input[name=name]") is None
    host.select_option("select[name=seat1]", "open")
    assert host.is_checked("input[name=rated]")
    assert not host.is_checked("input[name=hints]")
    host.click("form.create button[type=submit]")
    link = host.wait_for_selector("li[data-invite-seat='1'] input.invite-link").input_value()
    host.click("button[data-seat='0']")
    host.wait_for_selector("#main[data-status]")
    # The invite page says what taking the seat agrees to.
    guest.goto(link)
    terms = guest.wait_for_selector("#join-terms:has-text('Рейтингова')")
    assert "Без підказок" in (terms.text_content() or "")
    guest.click("form.joinform button[type=submit]")
    for page, rated in ((host, "Rated"), (guest, "Рейтингова")):
        page.wait_for_selector("#main[data-status=playing]")
        page.wait_for_selector("#hand, .board.candidate")
        tag = page.wait_for_selector("#table-tags [data-rated=true]")
        assert tag.text_content() == rated
        assert page.query_selector("#table-tags [data-hints=false]")
        assert page.query_selector("button[data-key=hint]") is None
    assert {s.text_content() for s in host.query_selector_all(".seatchip strong")} == set(names)
    host.screenshot(path=str(shots / "fairplay-rated-table.png"))
    table_id = host.url.rsplit("/", 1)[1]
    # Asked for all the same (a page of one's own), the server refuses it, and says why
    # in both languages.
    status, detail = guest.evaluate(ASK_HINT, table_id)
    assert status == 403
    assert detail["message_id"] == "server.hints_rated"
    assert "rated table" in detail["message"]
    uk = guest.evaluate("async () => (await (await fetch('/api/messages?lang=uk')).json())")
    assert "рейтинговим столом" in uk["messages"]["server.hints_rated"]
    # A casual table against a bot: the creator chose hints, the button is there.
    host.goto(base + "/")
    host.wait_for_selector("form.create")
    assert not host.is_enabled("input[name=rated]")  # a bot at the table: not rated
    assert host.is_checked("input[name=hints]")
    host.click("form.create button[type=submit]")
    host.wait_for_selector("#main[data-status=playing]")
    assert host.wait_for_selector("#table-tags [data-rated=false]").text_content() == "Casual"
    host.wait_for_selector("button[data-key=hint]")
    assert not errors
    host_ctx.close()
    guest_ctx.close()


def rate_accounts(web_server: WebServer, game: str, people: dict[str, tuple[float, int]]) -> None:
    """Accounts called by ``people``'s keys with a rating (mu, games) in ``game``,
    written straight into the server's storage (the board reads only the stored rows)."""
    storage = web_server.app.state.hub.storage
    now = datetime.now(UTC)

    def write(session: Session) -> None:
        for name, (mu, games) in people.items():
            row = session.query(AccountRow).filter_by(name=name).one()
            session.add(
                RatingRow(
                    game=game,
                    player=f"account:{row.id}",
                    account_id=row.id,
                    name=name,
                    mu=mu,
                    sigma=3.0,
                    games=games,
                    wins=games // 2,
                    losses=games - games // 2,
                    updated_at=now,
                )
            )

    storage.write(write).result(timeout=10)


def register(base: str, name: str) -> dict[str, str]:
    """A new account called ``name``: the Authorization header of its session."""
    made = httpx.post(
        base + "/api/account/register",
        json={"name": name, "password": "a long enough secret", "bearer": True},
        headers=WEB,
    )
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def test_the_leaderboard_page_per_game(web_server: WebServer, browser: Any, shots: Path) -> None:
    base = web_server.base
    tag = f"{uuid.uuid4().int % 10000:04d}"  # digits: a Cyrillic name may hold them
    people = {
        f"Ярина{tag}": (31.0, 24),
        f"Bohdan{tag}": (27.5, 40),
        f"Newcomer{tag}": (36.0, 2),  # highest, but provisional: listed after the settled
    }
    heads = {name: register(base, name) for name in people}
    rate_accounts(web_server, "spy", people)
    desktop = context(browser)
    page = desktop.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.click("#leaderboard-link")
    page.wait_for_selector("[data-leaderboard=candidate]")
    page.click(".lbtabs a[data-game=spy]")
    page.wait_for_selector("[data-leaderboard=spy] table.lbtable")
    rows = [
        (r.get_attribute("data-player"), r.query_selector(".lbrating").text_content())
        for r in page.query_selector_all("[data-leaderboard=spy] tbody tr")
    ]
    mine = [(n, label) for n, label in rows if n in people]
    shown = {n: Rating(mu, 3.0, g).shown()["label"] for n, (mu, g) in people.items()}
    assert mine == [(n, shown[n]) for n in (f"Ярина{tag}", f"Bohdan{tag}", f"Newcomer{tag}")]
    assert shown[f"Newcomer{tag}"].endswith("?")
    assert not shown[f"Ярина{tag}"].endswith("?")
    page.screenshot(path=str(shots / "leaderboard-desktop.png"), full_page=True)
    page.click(f"tr[data-player='Bohdan{tag}'] a")
    page.wait_for_selector(f"[data-profile='Bohdan{tag}'] [data-rating='{shown[f'Bohdan{tag}']}']")
    # The same board on a Ukrainian phone: nothing wider than the screen.
    phone = context(browser, "uk", phone=True).new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(base + "/leaderboard?game=spy")
    phone.wait_for_selector("[data-leaderboard=spy] table.lbtable")
    assert "Таблиця лідерів" in phone.inner_text("h1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(shots / "leaderboard-uk-phone.png"), full_page=True)
    phone.goto(base + "/leaderboard?game=candidate")
    phone.wait_for_selector("[data-leaderboard=candidate] .lbbody p")
    # The same label beside the player's name at a table and in the Play now list.
    bohdan = f"Bohdan{tag}"
    created = httpx.post(
        base + "/api/tables",
        json={"game": "spy", "seats": [{"type": "open"}] * 2},
        headers=heads[bohdan],
    ).json()
    table_id = created["table"]["id"]
    joined = httpx.post(
        f"{base}/api/tables/{table_id}/join",
        json={"invite": created["invites"][0]["code"], "name": "x"},
        headers=heads[bohdan],
    )
    assert joined.status_code == 200, joined.text
    phone.goto(f"{base}/watch/{table_id}")
    badge = phone.wait_for_selector(".seatchip .ratingbadge")
    assert badge.text_content() == shown[bohdan]
    seek = httpx.post(base + "/api/seeks", json={"game": "spy"}, headers={**heads[bohdan], **WEB})
    assert seek.status_code == 201, seek.text
    page.goto(base + "/")
    # The label comes once the player's profile is read: the list is drawn again then.
    listed = page.wait_for_selector(
        f".seeklist li[data-seek='{seek.json()['seek']['id']}'] .ratingbadge"
    )
    assert listed.text_content() == shown[bohdan]
    # Out of the queue again: the queues' clock moves only when a test moves it, so a
    # seek left behind would wait beside the next test's players.
    made = seek.json()
    cancelled = httpx.post(
        f"{base}/api/seeks/{made['seek']['id']}/cancel",
        json={"secret": made["secret"]},
        headers={**heads[bohdan], **WEB},
    )
    assert cancelled.status_code < 300, cancelled.text
    assert not errors
    phone.context.close()
    desktop.close()


def test_play_now_for_spy_shows_one_countdown(web_server: WebServer, browser: Any) -> None:
    _, ann, bob = lobbies(web_server, browser, bots_after=300.0)
    seeks: Seeks = web_server.app.state.seeks
    window = seeks.window
    seeks.window = 300.0  # nobody sits down during the test
    try:
        play_now(ann, "Ann", "spy")
        ann.wait_for_selector(".seekstatus .seekline")
        # Alone: the one countdown is the bots' offer.
        assert "play against bots in" in ann.inner_text(".seekstatus")
        play_now(bob, "Bob", "spy")
        bob.wait_for_selector(".seekstatus .seekline:has-text('гра почнеться за')")
        ann.wait_for_selector(".seekstatus .seekline:has-text('the game starts in')")
        # Two waiting: the game's start is the countdown; no second one beside it.
        assert "bots in" not in ann.inner_text(".seekstatus")
        assert "ботами" not in bob.inner_text(".seekstatus")
        for page in (ann, bob):
            page.click("button[data-action=seek-cancel]")
            assert not page.page_errors
    finally:
        seeks.window = window
        ann.context.close()
        bob.context.close()
