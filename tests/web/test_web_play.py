"""Playing Candidate in the browser: the phone's dock, the move list, the refused card,
clocks, sounds, moving cards, and the deal summary that waits for people (C13)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import GUARD, StepClock, WebServer, create_table, join_by_invite

from cardtable.server.app import create_app
from cardtable.server.settings import Settings
from cardtable.table import Pacing

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
UK_FACES = {"В", "Д", "К", "Т"}


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """Quick bots and a short pause between deals: the pause is what people make it."""
    db = tmp_path_factory.mktemp("playweb") / "web.db"
    settings = Settings(
        pacing=Pacing(turn_delay=0.05, segment_pause=0.5),
        bot_processes=0,
        keep_finished_seconds=60.0,
        allow_client_seeds=True,  # known deals (unrated tables only)
    )
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings)).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stepped_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[WebServer, StepClock]]:
    """A server whose tables' clock moves only when the test moves it (no bots, no
    count): race times in its records are exact however busy the machine is."""
    db = tmp_path_factory.mktemp("steppedweb") / "web.db"
    settings = Settings(
        pacing=Pacing(turn_delay=0.05, segment_pause=0.0, start_count=0.0),
        bot_processes=0,
        keep_finished_seconds=60.0,
        allow_client_seeds=True,
    )
    clock = StepClock()
    server = WebServer(create_app(f"sqlite:///{db}", settings=settings, clock=clock)).start()
    yield server, clock
    server.stop()


def open_page(browser: Any, *, lang: str = "en", phone: bool = False, **options: Any) -> Any:
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone, **options
    )
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def against_bot(
    base: str,
    page: Any,
    *,
    deals: int = 1,
    seed: int = 11,
    clock: dict[str, float] | None = None,
    level: str = "easy",
) -> str:
    body: dict[str, Any] = {
        "game": "candidate",
        "options": {"deals": deals},
        "seats": [{"type": "open"}, {"type": "bot", "level": level}],
        "seed": seed,
        "rated": False,  # a known deal is never rated
    }
    if clock:
        body["time_control"] = clock
    created = httpx.post(base + "/api/tables", json=body).json()
    join_by_invite(page, base, created["invites"][0]["link"], "Ann")
    page.wait_for_selector(".board.candidate")
    return str(created["table"]["id"])


def legal(page: Any) -> list[str]:
    return list(json.loads(page.get_attribute(".board.candidate", "data-legal") or "[]"))


def my_turn(page: Any) -> list[str]:
    page.wait_for_function(
        "() => { const b = document.querySelector('.board.candidate');"
        " return (b && JSON.parse(b.dataset.legal || '[]').length > 0)"
        " || document.querySelector('#main').dataset.status === 'finished'"
        " || !document.querySelector('.pausepanel').hidden; }"
    )
    return legal(page)


def version(page: Any) -> int:
    return int(page.get_attribute("#main", "data-version") or -1)


def move_by_wire(page: Any, move: str) -> None:
    """A move sent on the page's own connection (the interface's clicks are tested
    elsewhere): the fast way to reach a position."""
    before = version(page)
    page.evaluate(f"window.cardtableConnection.move({json.dumps(move)})")
    page.wait_for_function(f"Number(document.querySelector('#main').dataset.version) > {before}")


def quick_choice(moves: list[str]) -> str:
    plays = [m for m in moves if m.startswith("play")]
    return max(plays, key=len) if plays else moves[0]


def play_until(page: Any, done: Any) -> None:
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while not done():
        assert time.monotonic() < deadline, "the position was not reached in time"
        moves = my_turn(page)
        if done():
            return
        if moves:
            move_by_wire(page, quick_choice(moves))


def inside_viewport(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on screen"
    view = page.viewport_size
    assert box["x"] >= 0, (selector, box)
    assert box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= view["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= view["height"] + 0.5, (selector, box)


def test_phone_keeps_hand_and_play_pass_in_view_on_your_turn(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    for lang in ("en", "uk"):
        page = open_page(browser, lang=lang, phone=True)
        against_bot(web_server.base, page, seed=21)
        play_until(page, lambda p=page: any(m.startswith(("play", "pass")) for m in legal(p)))
        page.evaluate("window.scrollTo(0, 0)")  # wherever the page is scrolled
        for selector in (".dock .hand.mine", "#play-button", "#pass-button"):
            inside_viewport(page, selector)
        for card in page.locator(".dock .hand.mine .card").all():
            box = card.bounding_box()
            assert box is not None
            assert box["y"] + box["height"] <= PHONE["height"]
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        inside_viewport(page, "#play-button")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)  # the cards have landed
        page.screenshot(path=str(shots / f"candidate-phone-turn-{lang}.png"))
        assert page.errors == []
        page.context.close()


def test_move_list_fills_live_in_words_and_the_replay_captions_moves(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    page = open_page(browser, lang="uk")
    table_id = against_bot(web_server.base, page, seed=5)
    log = page.locator(".movelist [role='log']")
    assert log.count() == 1
    counts = []
    last_seen = ""
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while page.get_attribute("#main", "data-status") != "finished":
        assert time.monotonic() < deadline
        moves = my_turn(page)
        counts.append(log.locator(".move").count())
        if moves:
            move_by_wire(page, quick_choice(moves))
            last_seen = log.locator(".move.last .movetext").inner_text()
            if len(counts) == 6:
                page.wait_for_timeout(300)
                page.screenshot(path=str(shots / "candidate-movelist-uk.png"), full_page=True)
    assert counts == sorted(counts), "the list only grows"
    assert counts[-1] > counts[0] > 0, "the list grows live"
    text = log.inner_text()
    assert "Роздача 1" in text
    assert "роздає зі стопки" in text
    assert "грає" in text or "пасує" in text
    assert any(face in text for face in UK_FACES), "Ukrainian ranks В Д К Т"
    assert " play " not in text, "words, not record text"
    assert "deal " not in text, "words, not record text"
    assert last_seen
    # One move is highlighted on the table as the last one.
    assert page.locator(".movelist .move.last").count() == 1
    assert page.locator(".lastmove").count() == 1

    # A reload rebuilds the list from the welcome's history.
    before = log.locator(".move").count()
    page.reload()
    page.wait_for_selector(".movelist [role='log'] .move")
    assert page.locator(".movelist [role='log'] .move").count() == before

    # The replay captions each move in words and marks it in the same list.
    page.goto(f"{web_server.base}/replay/{table_id}")
    page.wait_for_selector(".replaybar")
    page.click("button[data-step='next']")
    caption = page.inner_text(".replaymove")
    assert "роздає зі стопки" in caption, caption
    for _ in range(5):
        page.click("button[data-step='next']")
    assert page.locator(".movelist .move.current").count() == 1
    assert page.get_attribute(".movelist .move.current", "data-index") == "5"
    page.screenshot(path=str(shots / "replay-movelist-uk.png"), full_page=True)
    page.click("button[data-lang='en']")
    page.wait_for_selector(".replaybar")
    page.keyboard.press("End")
    assert page.locator(".movelist .move.current").count() == 1
    assert "Deal 1" in page.inner_text(".movelist")
    page.screenshot(path=str(shots / "replay-movelist.png"), full_page=True)
    assert page.errors == []
    page.context.close()


def test_a_refused_card_says_why_in_ukrainian(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    page = open_page(browser, lang="uk", phone=True)
    against_bot(web_server.base, page, seed=7)

    def has_refusable() -> bool:
        moves = legal(page)
        if not any(m.startswith("play") for m in moves):
            return False
        return page.locator(".hand.mine .card[aria-disabled='true']").count() > 0

    play_until(page, has_refusable)
    card = page.locator(".hand.mine .card[aria-disabled='true']").first
    name = card.get_attribute("aria-label") or ""
    card.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
    page.wait_for_selector(".dock .why")
    why = page.inner_text(".dock .why")
    assert "не можна зіграти" in why, why
    assert not any(ch in why for ch in "abcdefghijklmnopqrstuvwxyz"), f"all Ukrainian: {why}"
    inside_viewport(page, ".dock .why")  # said where the phone player is looking
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "candidate-refused-card-uk-phone.png"))
    assert name
    # The refusal changed nothing: the turn is still Ann's, with the same choices.
    assert legal(page)
    assert page.errors == []
    page.context.close()


def test_disabled_buttons_look_disabled_and_counts_have_plurals(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    page = open_page(browser, lang="en")
    against_bot(web_server.base, page, seed=3)
    my_turn(page)
    play = page.locator("#play-button")
    assert play.is_disabled()
    style = play.evaluate(
        "b => { const s = getComputedStyle(b); return [s.backgroundColor, s.borderStyle]; }"
    )
    enabled = page.evaluate(
        "() => { const b = document.createElement('button'); b.className = 'primary';"
        " document.body.append(b); const c = getComputedStyle(b).backgroundColor;"
        " b.remove(); return c; }"
    )
    assert style[0] != enabled
    assert style[1] == "dashed"
    # "1 card" / "2 cards"; Ukrainian "1 карта", "2 карти", "5 карт".
    forms = page.evaluate(
        """async () => {
            const { t, setLang } = await import('/js/i18n.js');
            const out = [1, 2, 5].map((n) => t('cards', { n }));
            setLang('uk');
            out.push(...[1, 2, 5, 11, 21, 22].map((n) => t('cards', { n })));
            out.push(t('mv_took', { name: 'Ann', cards: '9♣', n: 1 }));
            setLang('en');
            out.push(t('mv_took', { name: 'Ann', cards: '9♣', n: 1 }));
            return out;
        }"""
    )
    assert forms == [
        "1 card",
        "2 cards",
        "5 cards",
        "1 карта",
        "2 карти",
        "5 карт",
        "11 карт",
        "21 карта",
        "22 карти",
        "Ann забирає 9♣: 1 очко",
        "Ann takes 9♣: 1 point",
    ]
    page.context.close()


def test_run_out_clock_is_said_plainly_and_bot_clocks_stand_still(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    page = open_page(browser, lang="en")
    against_bot(web_server.base, page, seed=9, clock={"initial": 3, "increment": 2})
    page.wait_for_selector(".sideclock[data-seat='0']")
    # Below 10 s the clocks are red; the bot's clock never runs.
    assert "low" in (page.get_attribute(".sideclock[data-seat='0']", "class") or "")
    assert "running" not in (page.get_attribute(".sideclock[data-seat='1']", "class") or "")
    # Ann does nothing: her clock runs out and the computer moves for her.
    page.wait_for_selector(".clocknote:not([hidden])")
    note = page.inner_text(".clocknote")
    assert "Your time ran out" in note, note
    assert "computer" in note, note
    assert "2 s" in note, note
    assert "time ran out" in page.inner_text(".movelist")
    page.screenshot(path=str(shots / "candidate-clock-ran-out.png"), full_page=True)
    # Her own connection drops: her seat says so, and no clock ticks meanwhile.
    page.evaluate("window.cardtableConnection.drop()")
    page.wait_for_selector(".seatchip.me.offline")
    assert "offline" in page.inner_text(".seatchip.me")
    assert page.locator(".clock.running").count() == 0
    page.wait_for_selector(".seatchip.me:not(.offline)")
    assert page.errors == []
    page.context.close()


def test_sound_switch_is_remembered_and_cards_move_unless_reduced_motion(
    web_server: WebServer, browser: Any
) -> None:
    page = open_page(browser, lang="en")
    against_bot(web_server.base, page, seed=4)
    switch = page.locator("button[data-key='sound']")
    assert switch.get_attribute("aria-pressed") == "true"
    play_until(page, lambda: page.evaluate("window.cardtableSounds.length") > 0)
    assert "turn" in page.evaluate("window.cardtableSounds")
    for _ in range(4):
        moves = my_turn(page)
        if moves:
            move_by_wire(page, quick_choice(moves))
    assert page.evaluate("window.cardtableMotions || 0") > 0, "cards moved"
    longest = page.evaluate("window.cardtableLongestMotion")
    assert 0 < longest <= 250, longest
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector("button[data-key='sound'][aria-pressed='false']")
    heard = page.evaluate("window.cardtableSounds.length")
    for _ in range(3):
        moves = my_turn(page)
        if moves:
            move_by_wire(page, quick_choice(moves))
    assert page.evaluate("window.cardtableSounds.length") == heard, "muted stays muted"
    page.context.close()

    calm = open_page(browser, lang="en", reduced_motion="reduce")
    against_bot(web_server.base, calm, seed=4)
    for _ in range(4):
        moves = my_turn(calm)
        if moves:
            move_by_wire(calm, quick_choice(moves))
    assert calm.evaluate("window.cardtableMotions || 0") == 0
    calm.context.close()


def test_deal_summary_stays_until_the_person_continues_c13(
    web_server: WebServer, browser: Any, shots: Path
) -> None:
    page = open_page(browser, lang="en")
    table_id = against_bot(web_server.base, page, deals=2, seed=13)
    play_until(page, lambda: page.is_visible(".pausepanel"))
    page.wait_for_selector(".dealsummary")
    # The pause is 0.5 s, yet the summary waits for Ann, with no countdown to race.
    page.wait_for_timeout(1500)
    assert page.is_visible(".pausepanel")
    assert page.is_visible(".dealsummary")
    assert "waiting for Ann" in page.inner_text(".pausepanel .countdown")
    info = httpx.get(f"{web_server.base}/api/tables/{table_id}").json()
    assert info["status"] == "playing"
    page.screenshot(path=str(shots / "candidate-deal-summary-waits.png"), full_page=True)
    page.click(".pausepanel button[data-key='ready']")
    page.wait_for_selector(".pausepanel", state="hidden")
    page.wait_for_selector(".dealsummary", state="detached")
    assert "Deal 2" in page.inner_text(".dealnum")
    assert page.errors == []
    page.context.close()


def test_two_people_each_see_their_move_list_without_the_others_cards(
    web_server: WebServer, browser: Any
) -> None:
    created = create_table(
        web_server.base, "candidate", {"deals": 1}, [{"type": "open"}, {"type": "open"}], seed=8
    )
    ann, bob = open_page(browser), open_page(browser, phone=True)
    join_by_invite(ann, web_server.base, created["invites"][0]["link"], "Ann")
    join_by_invite(bob, web_server.base, created["invites"][1]["link"], "Bob")
    drawn = 0
    deadline = time.monotonic() + GUARD  # a guard against a hang, not a speed goal
    while ann.get_attribute("#main", "data-status") != "finished" and drawn < 2:
        assert time.monotonic() < deadline
        mover = next((p for p in (ann, bob) if legal(p)), None)
        if mover is None:
            ann.wait_for_timeout(30)
            continue
        moves = legal(mover)
        draws = [m for m in moves if m.startswith("draw")]
        move = draws[0] if draws else quick_choice(moves)
        move_by_wire(mover, move)
        if draws:
            drawn += 1
            other = bob if mover is ann else ann
            other.wait_for_function(
                f"document.querySelector('#main').dataset.version >= {version(mover)}"
            )
            mine = mover.locator(".movelist .move").last.inner_text()
            theirs = other.locator(".movelist .move").last.inner_text()
            # The drawer's list names the card; the other's only the pile (seen_by).
            assert "draws from the" not in mine, mine
            assert "draws from the" in theirs, theirs
    assert drawn or ann.get_attribute("#main", "data-status") == "finished"
    for page in (ann, bob):
        assert page.errors == []
        page.context.close()


def test_spy_replay_captions_moves_in_words_with_their_race_time(
    stepped_server: tuple[WebServer, StepClock], browser: Any, shots: Path
) -> None:
    """The captions' race times are the ones the table recorded: the server's clock
    stands still but for the 75 s the test moves it before the resigns (a time that the
    moves' storage times, seconds apart, could not give)."""
    server, clock = stepped_server
    created = create_table(
        server.base, "spy", {"rounds": 1}, [{"type": "open"}, {"type": "open"}], seed=5
    )
    table_id = created["table"]["id"]
    ann, bob = open_page(browser), open_page(browser, lang="uk")
    join_by_invite(ann, server.base, created["invites"][0]["link"], "Ann")
    join_by_invite(bob, server.base, created["invites"][1]["link"], "Bob")
    # The race on (after the table's start count, S17): an update that is not the
    # move's own (a seat connecting, the count's "go") would pass for its answer.
    for page in (ann, bob):
        page.wait_for_selector(".board.spy .spyseat")
    ann.wait_for_function("window.cardtableConnection.state.legal_moves.includes('0 turn')")
    for _ in range(2):
        move_by_wire(ann, "turn")
    clock.advance(75.0)  # the resigns come at 1:15 of the race
    for page in (ann, bob):
        move_by_wire(page, "resign")
    ann.wait_for_selector("#main[data-status='finished']")
    bob.goto(f"{server.base}/replay/{table_id}")
    bob.wait_for_selector(".replaybar, .error")
    assert not bob.is_visible(".error"), bob.inner_text("#main")
    bob.click("button[data-step='next']")
    caption = bob.inner_text(".replaymove")
    assert "Ann перевертає" in caption, caption
    assert "на 0:00" in caption, caption
    bob.keyboard.press("End")
    caption = bob.inner_text(".replaymove")
    assert "Bob здається в раунді" in caption, caption
    assert "на 1:15" in caption, caption
    log = bob.locator(".movelist [role='log']")
    assert log.locator(".move").count() == 4
    assert "1:15" in log.locator(".move").last.inner_text()
    bob.screenshot(path=str(shots / "replay-spy-uk.png"), full_page=True)
    for page in (ann, bob):
        assert page.errors == []
        page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_a_desktop_table_is_in_view_without_scrolling_and_its_result_first(
    web_server: WebServer, browser: Any, shots: Path, size: tuple[int, int]
) -> None:
    """On 1280×800 and 1920×1080 the hand, the actions, the opponent, the lobby and the
    move list are all in view during a deal, with the page at its top; when the match
    ends its result is what the window shows."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    against_bot(web_server.base, page, seed=21)
    play_until(page, lambda: any(m.startswith(("play", "pass")) for m in legal(page)))
    page.wait_for_selector(".lobby .card[data-card]")
    page.evaluate("window.scrollTo(0, 0)")
    for selector in (
        ".dock .hand.mine",
        "#play-button",
        "#pass-button",
        ".side.theirs",
        ".centre .piles",
        ".lobby",
        ".movelist",
    ):
        inside_viewport(page, selector)
    if width == 1280:
        # The cards have landed: no animation is still running.
        page.wait_for_function(
            "() => document.getAnimations().every((a) => a.playState !== 'running')"
        )
        page.screenshot(path=str(shots / "candidate-desktop-1280.png"))
    play_until(page, lambda: page.get_attribute("#main", "data-status") == "finished")
    page.wait_for_selector(".result:not([hidden]) .winners")
    for selector in (".result h2", ".result .winners", ".result .totals"):
        inside_viewport(page, selector)
    if width == 1280:
        page.screenshot(path=str(shots / "candidate-desktop-result-1280.png"))
    assert page.errors == []
    context.close()
