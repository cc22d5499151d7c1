"""What a newcomer meets at the terminal's Candidate table: the first frame, leaving,
the Ukrainian keyboard layout, the hint, long status lines and the deal's summary."""

from __future__ import annotations

import pytest
from tui_helpers import candidate_app, keys_for, screen_text, settle, sync

from cardtable.table import Pacing
from cardtable.tui.candidate_app import CandidateScreen, DealOverScreen, HandoffScreen
from cardtable.tui.common import LAYOUT_KEYS, QuitScreen
from cardtable.tui.i18n import LANGS, card_label, tr, yes_keys

SIZE = (80, 24)


@sync
async def test_tui_terminal_first_frame_shows_the_table_before_any_key() -> None:
    """You deal first (C3): the table and what to do are on the first frame."""
    app = candidate_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.driver.view(0)["decision"] == "deal"
        text = screen_text(app)
        assert "Piles" in text
        assert "deal the hands" in text


@sync
async def test_tui_terminal_q_asks_before_leaving_a_game() -> None:
    app = candidate_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        assert "Leave the game?" in screen_text(app)
        assert app.return_code is None
        await pilot.press("n")  # any other key: back to the game, nothing changed
        assert isinstance(app.screen, CandidateScreen)
        assert app.return_code is None
        assert app.driver.view(0)["decision"] == "deal"
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.return_code == 0


#: The letter each language answers yes with, besides y (its word for yes).
YES = {"en": "y", "uk": "т", "de": "j", "es": "s", "pl": "t"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("answer", ["own", "y", "q"])
@sync
async def test_tui_terminal_leaving_is_confirmed_with_the_languages_yes_key(
    lang: str, answer: str
) -> None:
    """«Leave the game?» names the language's yes key, which leaves, as do y and q in
    every language; the first letter of another word (n, н for ні) goes back."""
    own = YES.get(lang, "y")
    assert yes_keys(lang) == {own, "y"}
    assert tr(lang, "quit_keys").startswith(own)
    app = candidate_app(seed=3, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        assert tr(lang, "quit_keys") in " ".join(screen_text(app).split())
        await pilot.press("n" if own != "n" else "x")
        assert isinstance(app.screen, CandidateScreen)
        assert app.return_code is None
        await pilot.press("q", {"own": own, "y": "y", "q": "q"}[answer])
        await pilot.pause()
        assert app.return_code == 0


@sync
async def test_tui_terminal_letter_keys_work_with_the_ukrainian_layout() -> None:
    """і is on the s key: it deals from the spades pile; й (q) asks to leave. The answer
    is read as typed: н (ні, on the y key) goes back to the game, т (так) leaves."""
    assert (LAYOUT_KEYS["і"], LAYOUT_KEYS["з"], LAYOUT_KEYS["е"], LAYOUT_KEYS["Й"]) == (
        "s",
        "p",
        "t",
        "Q",
    )
    app = candidate_app(seed=3, lang="uk")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("і")
        await settle(pilot, app)
        assert app.driver.record()["deals"][0]["moves"][0] == "deal S"
        await pilot.press("й")
        assert isinstance(app.screen, QuitScreen)
        assert "Вийти з гри?" in screen_text(app)
        await pilot.press("н")
        assert isinstance(app.screen, CandidateScreen)
        assert app.return_code is None
        await pilot.press("й", "т")
        await pilot.pause()
        assert app.return_code == 0


@sync
async def test_tui_terminal_hint_is_said_just_below_the_hand() -> None:
    app = candidate_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        while app.driver.view(0)["decision"] != "play":
            await pilot.press(*keys_for(app, 0))
            await settle(pilot, app)
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        lines = screen_text(app).splitlines()
        hand = next(i for i, line in enumerate(lines) if "Your hand:" in line)
        assert "Hint:" not in lines[hand]
        assert "→ Hint:" in lines[hand + 1]
        # It starts under the cards, not at the far end of the line.
        assert lines[hand + 1].index("→") <= lines[hand].index("1") + 1


@sync
async def test_tui_terminal_long_status_lines_wrap_instead_of_being_cut() -> None:
    app = candidate_app(seed=3, lang="uk")
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        long = "довге пояснення відмови " * 6 + "КІНЕЦЬ"
        screen.status = long
        screen.redraw()
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "КІНЕЦЬ" in text
        assert text.count("довге пояснення") == 6


@sync
async def test_tui_terminal_deal_summary_stays_until_enter_c13() -> None:
    """C13: after a deal its captures, scores and totals stay on the screen, also once
    the pause's time is up (it holds for the person), until Enter starts the next deal."""
    app = candidate_app(seed=3, deals=2, pacing=Pacing(turn_delay=0, segment_pause=0.05))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        moves = 0
        while not app.driver.paused:
            await pilot.press(*keys_for(app, 0))
            await settle(pilot, app)
            moves += 1
            assert moves < 200
        assert isinstance(app.screen, DealOverScreen)
        text = screen_text(app)
        assert "Deal 1 of 2 is over" in text
        ended = [e for e in app.driver.log(0) if e["type"] == "deal_ended"][-1]
        for name, score, total in zip(
            ("You", "Bot (easy)"), ended["scores"], ended["totals"], strict=True
        ):
            assert f"{name}: {score} this deal, {total} in all" in text
        assert "start deal 2" in text
        await pilot.pause(0.3)  # the pause's time is up: it holds for the person (C13)
        app.pump()
        await pilot.pause()
        assert app.driver.paused
        assert app.driver.table.pause_holds
        assert isinstance(app.screen, DealOverScreen)
        await pilot.press("x")  # not Enter: the summary stays
        assert isinstance(app.screen, DealOverScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CandidateScreen)
        assert not app.driver.paused
        assert app.driver.view(0)["deal_number"] == 2


@sync
async def test_tui_terminal_two_people_the_dealer_sees_the_table_at_once() -> None:
    """Two people, the second deals (C3): before the deal there is no hand to hide, so
    the table shows at once (no blank pass-the-keyboard screen), and the deal key works
    straight away; once hands are dealt the keyboard is passed as before."""
    app = candidate_app(seed=5, vs_human=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.driver.view(1)["decision"] == "deal"
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        assert screen.viewer == 1
        assert "deal the hands" in screen_text(app)
        await pilot.press("h")
        await pilot.pause()
        assert app.driver.record()["deals"][0]["moves"][0] == "deal H"
        for _ in range(5):  # hands now: when the decision changes hands, pass the keyboard
            if isinstance(app.screen, HandoffScreen):
                break
            await pilot.press(*keys_for(app, screen.viewer))
            await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)


@sync
async def test_tui_terminal_speaks_german_and_switches_with_english() -> None:
    """Started in German (``--lang de`` or ``LANG=de_DE.UTF-8``): German words, card
    faces B D K A, and ``l`` goes to English and back to German."""
    assert [card_label(card, "de") for card in ("JS", "QH", "KD", "AC", "10S")] == [
        "B♠",
        "D♥",
        "K♦",
        "A♣",
        "10♠",
    ]
    app = candidate_app(seed=3, lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        text = screen_text(app)
        assert "Kandidat · Spiel 1 von" in text
        assert "l language: English" in text
        await pilot.press("l")
        await settle(pilot, app)
        assert app.lang == "en"
        assert "l Sprache: Deutsch" in screen_text(app)
        await pilot.press("l")
        await settle(pilot, app)
        assert app.lang == "de"
