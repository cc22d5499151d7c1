"""Accounts over HTTP: register, log in and out, passwords, names, rated tables, profiles."""

from __future__ import annotations

import random
import uuid

import httpx
import pytest
from server_helpers import Api, ServerThread, clients, play_first_moves

from cardtable.messages import render
from cardtable.server.accounts import (
    LoginLimiter,
    NameError_,
    check_name,
    hash_password,
    skeleton,
    verify_password,
)
from cardtable.server.limits import LocalLoginLimits
from cardtable.server.routes.accounts import COOKIE, CSRF_HEADER

WEB = {CSRF_HEADER: "web"}
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _fresh_limits(fake_server: ServerThread) -> None:
    """Every test starts with no failed logins counted (all come from 127.0.0.1)."""
    fake_server.app.state.login_limits = LocalLoginLimits()


def fresh_name(prefix: str = "Pat") -> str:
    """A name no other test registers (the module's server is shared)."""
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def browser(base: str) -> httpx.Client:
    """A client that keeps cookies and sends the CSRF header, as the web client does."""
    return httpx.Client(base_url=base, timeout=10, headers=WEB)


def register(http: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return http.post("/api/account/register", json={"name": name, "password": password})


def bearer(base: str, name: str) -> dict[str, str]:
    """Register ``name`` as a non-browser client: the Authorization header to send."""
    answer = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": PASSWORD, "bearer": True},
        headers=WEB,
    )
    assert answer.status_code == 201, answer.text
    assert COOKIE not in answer.cookies
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def test_register_login_logout(fake_server: ServerThread) -> None:
    name = fresh_name()
    with browser(fake_server.base) as http:
        made = register(http, name)
        assert made.status_code == 201, made.text
        assert made.json() == {"name": name, "token": None, "moderator": False, "lang": "en"}
        cookie = made.headers["set-cookie"].lower()
        assert "httponly" in cookie
        assert "samesite=lax" in cookie
        assert "secure" not in cookie  # plain http on loopback; https adds it
        assert http.get("/api/account").json()["name"] == name
        assert http.get("/api/session").json()["account"]["name"] == name
        assert http.post("/api/account/logout").status_code == 204
        assert http.get("/api/account").status_code == 401
        # The web client asks /api/session on every page: a guest is an answer, not a 401.
        guest = http.get("/api/session")
        assert guest.status_code == 200
        assert guest.json() == {"account": None}
        # The old cookie's session is gone on the server too.
        old = made.cookies[COOKIE]
        again = httpx.get(f"{fake_server.base}/api/account", cookies={COOKIE: old})
        assert again.status_code == 401
        login = http.post("/api/account/login", json={"name": name.upper(), "password": PASSWORD})
        assert login.status_code == 200, login.text
        assert http.get("/api/account").json()["name"] == name


def test_a_cookie_change_without_the_csrf_header_is_refused(fake_server: ServerThread) -> None:
    name = fresh_name()
    with browser(fake_server.base) as http:
        assert register(http, name).status_code == 201
        token = http.cookies[COOKIE]
    plain = httpx.Client(base_url=fake_server.base, cookies={COOKIE: token})
    refused = plain.post("/api/account/logout")
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "csrf"
    assert (
        plain.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code
        == 403
    )
    assert plain.get("/api/account").json()["name"] == name  # reading needs no header


def test_wrong_passwords_are_rate_limited_and_unknown_names_answer_alike(
    fake_server: ServerThread,
) -> None:
    name = fresh_name()
    with browser(fake_server.base) as http:
        assert register(http, name).status_code == 201
        wrong = http.post("/api/account/login", json={"name": name, "password": "x" * 9})
        unknown = http.post(
            "/api/account/login", json={"name": fresh_name("Nobody"), "password": "x" * 9}
        )
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()
        for _ in range(4):
            http.post("/api/account/login", json={"name": name, "password": "y" * 9})
        # 5 failures: even the right password must wait now.
        for password in ("z" * 9, PASSWORD):
            limited = http.post("/api/account/login", json={"name": name, "password": password})
            assert limited.status_code == 429
            assert int(limited.headers["retry-after"]) > 0
            assert limited.json()["detail"]["code"] == "login_limited"


def test_the_address_limit_spans_names(fake_server: ServerThread) -> None:
    with browser(fake_server.base) as http:
        codes = [
            http.post(
                "/api/account/login", json={"name": fresh_name("Ghost"), "password": "p" * 9}
            ).status_code
            for _ in range(25)
        ]
    assert codes[0] == 401
    assert 429 in codes


def test_duplicate_and_confusable_names_are_refused(fake_server: ServerThread) -> None:
    base = fresh_name("Vera")
    with browser(fake_server.base) as http:
        assert register(http, base).status_code == 201
        for other in (
            base.upper(),
            base.lower(),
            "Ｖ" + base[1:],
            "V" + base[1:].replace("e", "е"),
        ):
            answer = register(http, other)
            assert answer.status_code in (409, 422), other
        # A Latin name and the same letters in Cyrillic (a whole-script lookalike).
        latin = "".join(random.choice("aceopxy") for _ in range(10))
        assert register(http, latin).status_code == 201
        cyrillic = latin.translate(str.maketrans("aceopxy", "асеорху"))
        assert check_name(cyrillic) == cyrillic  # a fine name on its own
        taken = register(http, cyrillic)
        assert taken.status_code == 409
        assert taken.json()["detail"]["code"] == "name_taken"
        for bad, code in (
            (base + "\u200b", "name_invisible"),
            ("Bot (hard)", "name_reserved"),
            ("bot_maker", "name_reserved"),
            ("Бот (складний)", "name_reserved"),
            ("Вот", "name_reserved"),  # Cyrillic letters that read "Bot"
            ("Вob", "name_scripts"),
            ("a", "name_length"),
            ("<script>", "name_character"),
        ):
            answer = register(http, bad)
            assert answer.status_code == 422, bad
            assert answer.json()["detail"]["code"] == code, bad
        short = register(http, fresh_name(), password="short")
        assert short.json()["detail"]["code"] == "password_short"


def test_an_unknown_name_still_costs_a_password_check() -> None:
    stored = hash_password(PASSWORD)
    assert verify_password(stored, PASSWORD)
    assert not verify_password(stored, "x" * 9)
    assert not verify_password(None, PASSWORD)  # verified against the dummy hash: False
    assert not verify_password("not a hash", PASSWORD)


def test_name_rules() -> None:
    assert check_name("Олена") == "Олена"
    assert check_name("Mary-Jane O'Neil") == "Mary-Jane O'Neil"
    assert skeleton("Olena") == skeleton("Оlеnа")
    assert skeleton("Paul") != skeleton("Pauline")
    with pytest.raises(NameError_):
        check_name("Ann\u2060")  # word joiner
    with pytest.raises(NameError_):
        check_name("An\u0301n")  # a combining accent


def test_change_password_and_delete(fake_server: ServerThread) -> None:
    name = fresh_name()
    with browser(fake_server.base) as http, browser(fake_server.base) as other:
        assert register(http, name).status_code == 201
        assert (
            other.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code
            == 200
        )
        wrong = http.post(
            "/api/account/password", json={"password": "nope" * 3, "new_password": "n" * 10}
        )
        assert wrong.status_code == 403
        changed = http.post(
            "/api/account/password", json={"password": PASSWORD, "new_password": "new pass 123"}
        )
        assert changed.status_code == 204
        assert http.get("/api/account").status_code == 200  # this session stays
        assert other.get("/api/account").status_code == 401  # the others end
        assert (
            other.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code
            == 401
        )
        assert http.post("/api/account/delete", json={"password": "x" * 9}).status_code == 403
        assert (
            http.post("/api/account/delete", json={"password": "new pass 123"}).status_code == 204
        )
        assert http.get("/api/account").status_code == 401
        assert http.get(f"/api/players/{name}").status_code == 404
        assert register(http, name).status_code == 201  # the name is free again


def test_a_guest_cannot_join_or_create_a_rated_table(fake_server: ServerThread, api: Api) -> None:
    refused = api.http.post(
        "/api/tables", json={"game": "fake", "seats": [{"type": "open"}] * 2, "rated": True}
    )
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "rated_needs_account"
    owner = bearer(fake_server.base, fresh_name())
    created = api.http.post(
        "/api/tables",
        json={"game": "fake", "seats": [{"type": "open"}] * 2, "rated": True},
        headers=owner,
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    invite = created.json()["invites"][0]["code"]
    guest = api.http.post(f"/api/tables/{table_id}/join", json={"invite": invite, "name": "Ann"})
    assert guest.status_code == 403
    assert "sign in" in guest.json()["detail"]["message"]
    assert api.table(table_id)["seats"][0]["role"] == "open"


def test_a_rated_game_rates_the_accounts_that_played(fake_server: ServerThread, api: Api) -> None:
    names = [fresh_name("Ada"), fresh_name("Ben")]
    heads = [bearer(fake_server.base, n) for n in names]
    created = api.http.post(
        "/api/tables",
        json={
            "game": "fake",
            "seats": [{"type": "open"}] * 2,
            "rated": True,
            "options": {"hand": 1},
        },
        headers=heads[0],
    ).json()
    table_id = created["table"]["id"]
    tokens = []
    for invite, head in zip(created["invites"], heads, strict=True):
        seated = api.http.post(
            f"/api/tables/{table_id}/join",
            json={"invite": invite["code"], "name": "Bot (hard)"},  # the account's name wins
            headers=head,
        )
        assert seated.status_code == 200, seated.text
        tokens.append(seated.json()["token"])
    again = api.http.post(
        f"/api/tables/{table_id}/join",
        json={"invite": created["invites"][0]["code"], "name": "x"},
        headers=heads[0],
    )
    assert again.status_code == 409
    seats = api.table(table_id)["seats"]
    assert [s["name"] for s in seats] == names
    assert all(s["signed_in"] for s in seats)
    assert "account" not in seats[0]  # the account's id stays private
    with clients(fake_server.base, table_id, tokens) as players:
        play_first_moves(players)
    board = api.http.get("/api/ratings", params={"game": "fake", "limit": 500}).json()["entries"]
    rated = {e["name"]: e for e in board}
    assert set(names) <= set(rated)
    assert all(rated[n]["games"] == 1 and rated[n]["account"] for n in names)
    assert "Bot (hard)" not in rated
    for name in names:
        page = api.http.get(f"/api/players/{name.lower()}").json()
        (fake,) = page["ratings"]
        assert fake["games"] == 1
        assert fake["wins"] + fake["losses"] in (0, 1)  # 0: a draw
        assert len(fake["history"]) == 1
        assert page["finished"][0]["table"] == table_id
    # The rematch seats the same accounts (the old seat's token proves the seat, and
    # the seat was the account's), rated again.
    first = api.http.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
    assert first.status_code == 200, first.text
    assert first.json()["table"]["rated"] is True
    assert first.json()["table"]["seats"][0] == {
        **first.json()["table"]["seats"][0],
        "name": names[0],
        "signed_in": True,
    }
    # An unrated table of the same people changes nothing.
    table2, tokens2 = api.seat_players("fake", ["Ann", "Bob"], options={"hand": 1})
    with clients(fake_server.base, table2, tokens2) as players:
        play_first_moves(players)
    after = api.http.get("/api/ratings", params={"game": "fake", "limit": 500}).json()["entries"]
    assert {e["name"]: e["games"] for e in after if e["name"] in names} == dict.fromkeys(names, 1)
    assert api.http.get("/api/players/Nobody-here").status_code == 404


def test_the_login_limits_forget_after_their_window() -> None:
    now = [0.0]
    limiter = LoginLimiter(
        per_pair=2, per_address=3, step=10.0, pair_cap=40.0, window=60.0, clock=lambda: now[0]
    )
    limiter.failed("Ann", "10.0.0.1")
    assert limiter.retry_after("ann", "10.0.0.1") == 0
    now[0] = 10.0
    limiter.failed("ANN", "10.0.0.1")  # the name counts by its key
    assert limiter.retry_after("Ann", "10.0.0.1") == pytest.approx(10.0)
    assert limiter.retry_after("Ann", "10.0.0.2") == 0  # never the name alone
    limiter.failed("Bob", "10.0.0.1")  # third failure from the address, another name
    assert limiter.retry_after("Cid", "10.0.0.1") == pytest.approx(10.0)
    assert limiter.retry_after("Cid", "10.0.0.9") == 0
    now[0] = 71.0
    assert limiter.retry_after("Ann", "10.0.0.1") == 0
    limiter.failed("Dan", "10.0.0.5")
    limiter.failed("Dan", "10.0.0.5")
    limiter.succeeded("dan", "10.0.0.5")
    assert limiter.retry_after("Dan", "10.0.0.5") == 0


def test_a_guest_cannot_sit_or_wait_under_a_name_that_passes_for_someone_else(
    fake_server: ServerThread,
) -> None:
    """A guest's name passes an account name's checks and may be no account's: at an
    unrated table a guest once sat and chatted as an account (``Alice``), as a bot,
    with a Cyrillic look-alike letter, an invisible or a right-to-left character, or
    as ``spectator 1``. Each refusal has its message in both languages."""
    base = fake_server.base
    api = Api(base)
    account = fresh_name("Alice")
    register(browser(base), account)
    created = api.create("fake", [{"type": "open"}, {"type": "open"}], options={"hand": 3})
    table_id, invite = created["table"]["id"], created["invites"][0]["code"]
    impostors = [
        (account, 409, "name_of_account"),
        (account.upper(), 409, "name_of_account"),
        (account.replace("l", "1"), 409, "name_of_account"),  # a look-alike digit
        ("А" + account[1:], 422, "name_scripts"),  # a Cyrillic А
        (account + "\u200b", 422, "name_invisible"),
        ("\u202e" + account, 422, "name_invisible"),  # right-to-left override
        ("Bot (hard)", 422, "name_reserved"),
        ("spectator 1", 422, "name_label"),
        ("Глядач 2", 422, "name_label"),
    ]
    for name, status, code in impostors:
        for path, body in (
            (f"/api/tables/{table_id}/join", {"invite": invite, "name": name}),
            ("/api/seeks", {"game": "fake", "name": name}),
        ):
            answer = api.http.post(path, json=body)
            assert answer.status_code == status, (name, path, answer.text)
            detail = answer.json()["detail"]
            assert detail["code"] == code, (name, path)
            assert detail["message"] == render(detail["message_id"], detail["params"], "en")
            assert render(detail["message_id"], detail["params"], "uk") != detail["message"]
    # Sitting down alone against bots refuses the name before any table is made.
    before = set(fake_server.app.state.hub.tables)
    alone = api.http.post(
        "/api/tables",
        json={"game": "fake", "seats": [{"type": "open"}, {"type": "bot"}], "sit": account},
    )
    assert alone.status_code == 409, alone.text
    # No table was made (a finished table of another test may leave memory meanwhile).
    assert set(fake_server.app.state.hub.tables) <= before
    # A name of its own sits, marked as a guest's; another guest cannot take it too.
    seated = api.join(table_id, invite, "Olena")
    seat = api.table(table_id)["seats"][seated["seat"]]
    assert (seat["name"], seat["guest"], seat["signed_in"]) == ("Olena", True, False)
    twin = api.http.post(
        f"/api/tables/{table_id}/join",
        json={"invite": created["invites"][1]["code"], "name": "0lena"},
    )
    assert twin.status_code == 409
    assert twin.json()["detail"]["code"] == "name_at_table"


def test_no_account_may_be_named_like_a_spectator(fake_server: ServerThread) -> None:
    http = browser(fake_server.base)
    for name in ("spectator 1", "Spectator", "Sресtator 7", "глядач 3"):
        answer = register(http, name)
        assert answer.status_code == 422, name
        assert answer.json()["detail"]["code"] == "name_label"
    assert register(http, fresh_name("Spectra")).status_code == 201


def test_the_account_keeps_its_language_for_a_device_that_chose_none(
    fake_server: ServerThread,
) -> None:
    """The language sent at sign-up becomes the account's; a device that sends none at
    sign-in gets it back; the menu's choice changes it; a language not shipped is 422."""
    name = fresh_name()
    with browser(fake_server.base) as http:
        created = http.post(
            "/api/account/register", json={"name": name, "password": PASSWORD, "lang": "de"}
        )
        assert created.status_code == 201, created.text
        assert created.json()["lang"] == "de"
        assert http.post("/api/account/lang", json={"lang": "uk"}).status_code == 204
        assert http.get("/api/account").json()["lang"] == "uk"
        assert http.get("/api/session").json()["account"]["lang"] == "uk"
        refused = http.post("/api/account/lang", json={"lang": "xx"})
        assert refused.status_code == 422, refused.text
    with browser(fake_server.base) as other:
        signed = other.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert signed.json()["lang"] == "uk"
    with httpx.Client(base_url=fake_server.base) as guest:
        assert guest.post("/api/account/lang", json={"lang": "en"}).status_code == 401
