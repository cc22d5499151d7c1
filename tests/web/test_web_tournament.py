"""A tournament in the browser, against the real server and its tournament routes: the
organiser creates a two-round Candidate Swiss in the form (a refused field is said
first), registers and checks in, watches the start countdown tick, starts it; each
round the page sends the player to their table by itself, the player plays the game
through the board and comes back; the standings count the game; at the end the
final standings and their downloads are there. Two other accounts play over HTTP and
WebSocket (random legal moves) and the server adds a bot for the odd player out.
A Ukrainian phone follows the same tournament. Screenshots go to ``shots``."""

from __future__ import annotations

import random
import re
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from server_helpers import Client
from test_web_accounts import PASSWORD, bearer_login, sign_up
from test_web_candidate import choose, legal_moves, make_move, version
from web_helpers import WebServer

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}
#: A guard against a hang (the test waits on page conditions, not on this).
GUARD_S = 240
#: The page's table is over, or it is the player's turn.
WAIT_FOR_TURN = """() => document.querySelector('#main').dataset.status === 'finished'
  || JSON.parse(document.querySelector('.board.candidate')?.dataset.legal || '[]').length > 0"""


def register_account(base: str, name: str) -> dict[str, str]:
    """A new account and the Authorization header of its session."""
    made = httpx.post(
        base + "/api/account/register",
        json={"name": name, "password": PASSWORD},
        headers={"X-Cardtable-Client": "test"},
    )
    assert made.status_code in (200, 201), made.text
    return bearer_login(base, name)


class HttpPlayer(threading.Thread):
    """An account that plays its tournament games over HTTP and the table WebSocket:
    it asks /api/tournaments/me for its table, takes the seat with the play address's
    token and plays random legal moves until the tournament is over."""

    def __init__(self, base: str, tournament_id: str, auth: dict[str, str], seed: int) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.tournament_id = tournament_id
        self.auth = auth
        self.rng = random.Random(seed)
        self.played: list[str] = []
        self.failure: BaseException | None = None
        self.done = threading.Event()

    def run(self) -> None:
        try:
            deadline = time.monotonic() + GUARD_S
            while time.monotonic() < deadline and not self.done.is_set():
                status = httpx.get(f"{self.base}/api/tournaments/{self.tournament_id}").json()
                if status["status"] == "finished":
                    return
                mine = httpx.get(f"{self.base}/api/tournaments/me", headers=self.auth).json()
                nxt = mine.get("next")
                if nxt and nxt["table_id"] not in self.played:
                    self.play(
                        nxt["table_id"], parse_qs(urlsplit(nxt["play_url"]).query)["token"][0]
                    )
                else:
                    self.done.wait(0.3)
        except BaseException as exc:  # reported by the test
            self.failure = exc

    def play(self, table_id: str, token: str) -> None:
        player = Client(self.base, table_id, token)
        try:
            player.hello()
            deadline = time.monotonic() + GUARD_S
            while time.monotonic() < deadline:
                player.drain(0.02)
                state = player.state
                assert state is not None
                if state["status"] == "finished":
                    self.played.append(table_id)
                    return
                if state["legal_moves"]:
                    player.move(self.rng.choice(state["legal_moves"]))
            raise AssertionError(f"table {table_id} did not finish")
        finally:
            player.close()


def new_page(browser: Any, lang: str, phone: bool) -> Any:
    context = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone)
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def play_out(page: Any) -> None:
    """Play the table on ``page`` to its end through the board, as a person would."""
    page.wait_for_selector("#main[data-status]")
    deadline = time.monotonic() + GUARD_S
    played = 0
    while page.get_attribute("#main", "data-status") != "finished":
        assert time.monotonic() < deadline, f"the game did not finish ({played} moves)"
        moves = legal_moves(page) if page.locator(".board.candidate").count() else []
        if not moves:
            page.wait_for_function(WAIT_FOR_TURN, timeout=GUARD_S * 1000)
            continue
        before = version(page)
        make_move(page, choose(moves, played))
        page.wait_for_function(
            f"Number(document.querySelector('#main').dataset.version) > {before}"
        )
        played += 1


def standings_games(page: Any, name: str) -> int:
    return int(page.inner_text(f"[data-standings] tr[data-player='{name}'] [data-games]"))


def test_a_two_round_swiss_in_the_browser(web_server: WebServer, browser: Any, shots: Path) -> None:
    base = web_server.base
    tag = uuid.uuid4().hex[:5]
    me = f"Olena{tag}"
    others = [f"Bohdan{tag}", f"Iryna{tag}"]
    page = new_page(browser, "en", phone=False)
    sign_up(page, base, me)
    auths = [register_account(base, name) for name in others]

    # The lobby lists tournaments and leads to the create form.
    page.goto(base + "/")
    page.click("[data-action=all-tournaments]")
    page.wait_for_selector("form.tournamentform")
    form = page.locator("form.tournamentform")
    form.locator("[name=name]").fill(f"Thursday Swiss {tag}")
    form.locator("[name=format]").select_option("swiss")
    form.locator("[name=rounds]").fill("0")
    form.locator("[name=deals]").fill("1")
    form.locator("[name=clock]").select_option("none")
    form.locator("[name=rated]").uncheck()
    form.locator("[name=bots_allowed]").check()
    form.locator("[name=start_in]").fill("5")
    page.click("[data-action=create-tournament]")
    # The server refuses 0 rounds; the page says which field and why, and marks it.
    error = page.locator("[data-create-error]")
    error.wait_for(state="visible")
    assert "Tournament rounds: at least 1" in error.inner_text()
    assert form.locator("[name=rounds]").get_attribute("aria-invalid") == "true"
    form.locator("[name=rounds]").fill("2")
    page.click("[data-action=create-tournament]")
    page.wait_for_url(re.compile(r"/tournament/[\w-]+$"))
    tournament_id = page.url.rsplit("/", 1)[1]

    # Register and check in; the countdown to the start ticks.
    page.click("[data-action=register]")
    page.wait_for_selector("[data-action=checkin]")
    page.click("[data-action=checkin]")
    page.wait_for_selector("[data-registered]:has-text('checked in')")
    countdown = page.locator("[data-part=countdown]")
    first = countdown.inner_text()
    assert re.fullmatch(r"Starts in \d+:\d\d", first), first
    page.wait_for_function(
        "(first) => document.querySelector('[data-part=countdown]').textContent !== first",
        arg=first,
    )
    for auth in auths:
        for action in ("register", "checkin"):
            done = httpx.post(
                f"{base}/api/tournaments/{tournament_id}/{action}", headers=auth, json={}
            )
            assert done.status_code == 200, done.text
    page.wait_for_selector("[data-part=players] li[data-player]:nth-child(3)")
    page.screenshot(path=str(shots / "tournament-upcoming-en.png"), full_page=True)

    # A Ukrainian phone follows the tournament (a signed-in spectator); after a reload
    # without its socket (every tournament socket it opens is closed at once) the page
    # keeps up by asking the server every few seconds.
    phone = new_page(browser, "uk", phone=True)
    sign_up(phone, base, f"Taras{tag}")
    phone.goto(f"{base}/tournament/{tournament_id}")
    phone.wait_for_selector("[data-live=socket]")
    phone.wait_for_selector("[data-part=countdown]:has-text('Початок через')")
    phone.screenshot(path=str(shots / "tournament-upcoming-uk-phone.png"), full_page=True)
    phone.route_web_socket(re.compile(r"/ws/tournament/"), lambda socket: socket.close())
    phone.reload()
    phone.wait_for_selector("[data-live=poll]")

    players = [HttpPlayer(base, tournament_id, auth, seed) for seed, auth in enumerate(auths)]
    for player in players:
        player.start()
    try:
        page.click("[data-action=start]")
        for round_number in (1, 2):
            # Sent to the table: the banner counts down, then the page moves by itself.
            page.wait_for_function(
                "() => document.getElementById('sendoff')?.hidden === false"
                " || location.pathname.startsWith('/play/')",
                timeout=GUARD_S * 1000,
            )
            if round_number == 1:
                assert re.search(r"going there in \d s", page.inner_text("#sendoff"))
                page.screenshot(path=str(shots / "tournament-sent-en.png"))
            elif page.url.endswith("/"):
                page.locator("#tournaments").screenshot(path=str(shots / "tournament-lobby-en.png"))
            page.wait_for_url(re.compile(r"/play/[\w-]+$"), timeout=GUARD_S * 1000)
            table_id = page.url.rsplit("/", 1)[1]
            assert "token" not in page.url
            play_out(page)
            # A tournament's table: back to the tournament, no rematch here.
            assert page.locator("[data-action=rematch]").count() == 0
            if round_number == 1:
                page.screenshot(path=str(shots / "tournament-table-done-en.png"), full_page=True)
            # The result leads back to the tournament, where the game counts.
            page.click("[data-action=to-tournament]")
            page.wait_for_url(f"**/tournament/{tournament_id}")
            page.wait_for_selector(
                f"[data-table='{table_id}'][data-status=finished]", state="attached"
            )
            page.wait_for_function(
                "([name, n]) => Number(document.querySelector("
                "`[data-standings] tr[data-player='${name}'] [data-games]`)?.textContent) === n",
                arg=[me, round_number],
                timeout=GUARD_S * 1000,
            )
            assert standings_games(page, me) == round_number
            if round_number == 1:
                page.screenshot(path=str(shots / "tournament-running-en.png"), full_page=True)
                # Any page of the client sends the player on: wait for round 2 in the
                # lobby, which lists the tournament as running.
                page.click("header nav a[href='/']")
                page.wait_for_selector(f"#tournaments [data-tournament='{tournament_id}']")
                assert (
                    page.locator(f"[data-list=running] [data-tournament='{tournament_id}']").count()
                    == 1
                )
                phone.screenshot(
                    path=str(shots / "tournament-running-uk-phone.png"), full_page=True
                )

        # Final standings: every player, every game, the downloads.
        page.wait_for_selector("#main[data-tournament-status=finished]", timeout=GUARD_S * 1000)
        page.wait_for_selector("h2:has-text('Final standings')")
        rows = page.locator("[data-standings] tbody tr")
        assert rows.count() == 4
        assert page.locator("[data-standings] .botmark").count() == 1
        assert page.locator("[data-export=json]").get_attribute("href") == (
            f"/api/tournaments/{tournament_id}/export.json"
        )
        exported = httpx.get(f"{base}/api/tournaments/{tournament_id}/export.json")
        assert exported.status_code == 200
        assert httpx.get(f"{base}/api/tournaments/{tournament_id}/export.csv").status_code == 200
        page.screenshot(path=str(shots / "tournament-final-en.png"), full_page=True)
        phone.wait_for_selector("h2:has-text('Підсумкова таблиця')", timeout=GUARD_S * 1000)
        assert phone.locator("[data-action=register]").count() == 0
        phone.screenshot(path=str(shots / "tournament-final-uk-phone.png"), full_page=True)
    finally:
        for player in players:
            player.done.set()
            player.join(timeout=30)
    for player in players:
        if player.failure is not None:
            raise player.failure
    assert not page.errors, page.errors
    assert not phone.errors, phone.errors


def test_an_invite_only_tournament_takes_its_code_in_ukrainian(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    """A wrong code is refused in the player's language; the organiser's invite link
    fills the code in, and registering with it works."""
    base = web_server.base
    tag = uuid.uuid4().hex[:5]
    organiser = register_account(base, f"Org{tag}")
    made = httpx.post(
        base + "/api/tournaments",
        headers=organiser,
        json={
            "name": f"Club night {tag}",
            "game": "spy",
            "format": "race",
            "rounds": 3,
            "table_size": 3,
            "options": {"rounds": 2},
            "duplicate": True,
            "access": "invite",
            "start_in": 3600,
        },
    )
    assert made.status_code == 201, made.text
    tournament = made.json()
    page = new_page(browser, "uk", phone=True)
    sign_up(page, base, f"Mariia{tag}")
    page.goto(f"{base}/tournament/{tournament['id']}")
    page.wait_for_selector("[data-part=head] .badge.duplicate:has-text('Дублікат')")
    page.fill("[data-part=actions] input[name=code]", "not-the-code")
    page.click("[data-action=register]")
    page.wait_for_selector("#toast:has-text('потрібен код запрошення')")
    page.goto(f"{base}/tournament/{tournament['id']}?code={tournament['invite_code']}")
    code = page.locator("[data-part=actions] input[name=code]")
    code.wait_for()
    assert code.input_value() == tournament["invite_code"]
    page.click("[data-action=register]")
    page.wait_for_selector("[data-registered]")
    page.wait_for_selector(f"[data-part=players] li[data-player='Mariia{tag}']")
    page.screenshot(path=str(shots / "tournament-invite-uk-phone.png"), full_page=True)
    assert not page.errors, page.errors


def test_the_organiser_removes_a_player_pauses_resumes_and_ends(
    web_server: WebServer, browser: Any
) -> None:
    """The organiser's controls on the page, each answered by the server: a removed
    player is marked, a paused tournament says so, an ended one shows final standings."""
    base = web_server.base
    tag = uuid.uuid4().hex[:5]
    page = new_page(browser, "en", phone=False)
    page.on("dialog", lambda dialog: dialog.accept())  # "Remove …?", "End …?"
    sign_up(page, base, f"Host{tag}")
    made = page.request.post(
        base + "/api/tournaments",
        data={
            "name": f"Early close {tag}",
            "game": "candidate",
            "format": "swiss",
            "rounds": 3,
            "start_in": 300,
        },
        headers={"X-Cardtable-Client": "web"},
    )
    assert made.status == 201, made.text()
    tournament_id = made.json()["id"]
    names = [f"Anna{tag}", f"Borys{tag}", f"Petro{tag}"]
    for name in names:
        auth = register_account(base, name)
        for action in ("register", "checkin"):
            done = httpx.post(
                f"{base}/api/tournaments/{tournament_id}/{action}", headers=auth, json={}
            )
            assert done.status_code == 200, done.text
    page.goto(f"{base}/tournament/{tournament_id}")
    page.wait_for_selector(f"[data-part=players] li[data-player='{names[2]}']")
    page.select_option("[data-part=organiser] select[name=remove]", names[2])
    page.click("[data-action=remove]")
    page.wait_for_selector(f"[data-part=players] li[data-player='{names[2]}'][data-status=removed]")
    page.click("[data-action=start]")
    page.wait_for_selector("#main[data-tournament-status=running]", timeout=GUARD_S * 1000)
    page.wait_for_selector("[data-round='1'] [data-table]")
    page.click("[data-action=pause]")
    page.wait_for_selector("[data-part=head] .badge.status:has-text('paused')")
    assert "Paused by the organiser" in page.inner_text("[data-part=countdown]")
    page.click("[data-action=resume]")
    page.wait_for_selector("[data-part=head] .badge.status:has-text('running')")
    page.click("[data-action=end]")
    page.wait_for_selector("#main[data-tournament-status=finished]")
    page.wait_for_selector("h2:has-text('Final standings')")
    assert page.locator("[data-part=organiser]").is_hidden()
    assert page.locator(f"[data-standings] tr[data-player='{names[2]}']").count() == 0
    assert not page.errors, page.errors


@pytest.mark.parametrize("phone", [False, True])
def test_the_tournaments_page_asks_a_guest_to_sign_in(
    web_server: WebServer, browser: Any, phone: bool
) -> None:
    page = new_page(browser, "uk" if phone else "en", phone=phone)
    page.goto(base_url := web_server.base + "/tournaments")
    page.wait_for_selector("[data-signin-hint]")
    assert page.locator("form.tournamentform").count() == 0
    assert page.url == base_url
    assert not page.errors, page.errors


def test_an_arena_in_the_browser(web_server: WebServer, browser: Any) -> None:
    """The create form's arena fields (Spy: minutes and players a table, no rounds, no
    duplicate), a refused length said in the player's words, and a running arena's
    page counting down to its end with its waves, in English and Ukrainian."""
    base = web_server.base
    tag = uuid.uuid4().hex[:5]
    page = new_page(browser, "en", phone=False)
    sign_up(page, base, f"Arena{tag}")
    auths = [register_account(base, f"{name}{tag}") for name in ("Petro", "Oksana")]
    page.goto(base + "/tournaments")
    form = page.locator("form.tournamentform")
    form.wait_for()
    form.locator("[name=name]").fill(f"Spy arena {tag}")
    form.locator("[name=game]").select_option("spy")
    form.locator("[name=format]").select_option("arena")
    assert form.locator("[name=minutes]").is_visible()
    assert form.locator("[name=table_size]").is_visible()
    # The tournament's rounds (the Spy game's own "rounds" option follows it).
    assert not form.locator("[name=rounds]").first.is_visible()
    assert not form.locator("[name=duplicate]").is_visible()
    form.locator("[name=minutes]").fill("0")
    form.locator("[name=table_size]").fill("3")
    form.locator("[name=start_in]").fill("5")
    page.click("[data-action=create-tournament]")
    error = page.locator("[data-create-error]")
    error.wait_for(state="visible")
    assert "an arena lasts 1 to 1440 minutes" in error.inner_text()
    form.locator("[name=minutes]").fill("20")
    form.locator("[name=bots]").check()  # bot accounts may join
    page.click("[data-action=create-tournament]")
    page.wait_for_url(re.compile(r"/tournament/[\w-]+$"))
    tournament_id = page.url.rsplit("/", 1)[1]
    made = httpx.get(f"{base}/api/tournaments/{tournament_id}").json()
    assert (made["format"], made["minutes"], made["spec"]["table_size"]) == ("arena", 20, 3)
    assert made["bots"] is True
    for auth in auths:
        for action in ("register", "checkin"):
            done = httpx.post(
                f"{base}/api/tournaments/{tournament_id}/{action}", headers=auth, json={}
            )
            assert done.status_code == 200, done.text
    page.wait_for_selector("[data-part=players] li[data-player]:nth-child(2)")
    page.click("[data-action=start]")
    # Running: the two players race in wave 1 at once; the page counts to the end.
    page.wait_for_selector("[data-part=countdown]:has-text('Ends in')")
    page.wait_for_selector("[data-part=rounds] [data-round='1']:has-text('Wave 1')")
    phone = new_page(browser, "uk", phone=True)
    phone.goto(f"{base}/tournament/{tournament_id}")
    phone.wait_for_selector("[data-part=countdown]:has-text('Кінець через')")
    phone.wait_for_selector("[data-part=rounds] [data-round='1']:has-text('Хвиля 1')")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-action=end]")
    page.wait_for_selector("[data-part=countdown]:has-text('The tournament is over')")
    assert page.errors == []
    assert phone.errors == []
