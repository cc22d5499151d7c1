"""The Candidate app driven through its keys with Textual's pilot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tui_helpers import candidate_app, keys_for, reach_play, screen_text, settle, sync

from cardtable.bots.seat import SeatBot
from cardtable.cards import KIND_TEXT, Card
from cardtable.record import read_record_file, replay
from cardtable.tui.candidate_app import CandidateScreen, DealOverScreen, HandoffScreen
from cardtable.tui.common import HelpScreen, RulesScreen
from cardtable.tui.i18n import card_label

SIZE = (80, 24)


def hidden_labels(app, seat: int) -> list[str]:  # type: ignore[no-untyped-def]
    """Display forms of the cards in ``seat``'s hand (read from the true state: the
    test checks that none of them reaches the screen)."""
    state = app.driver.match.state
    return [card_label(KIND_TEXT[k], app.lang) for k in state.hand(seat)]


@sync
async def test_tui_candidate_whole_deal_against_a_bot_saves_a_record_that_replays(
    tmp_path: Path,
) -> None:
    """C1-C17 through the app: a person plays a whole deal against the hard bot by
    keys; the bot's hand never reaches the screen; the saved record replays to the
    same result."""
    save = tmp_path / "deal.json"
    app = candidate_app(seed=3, save=save)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        moves = 0
        while not app.driver.is_over:
            assert app.driver.to_move() == 0
            text = screen_text(app)
            for label in hidden_labels(app, 1):
                assert label not in text, f"the bot's {label} is on the screen"
            await pilot.press(*keys_for(app, 0))
            await settle(pilot, app)
            moves += 1
            assert moves < 200
        # C13, C17: the last deal's summary with the match's result, until Enter.
        assert isinstance(app.screen, DealOverScreen)
        assert "the match is over" in screen_text(app).lower()
        await pilot.press("enter")
        assert isinstance(app.screen, CandidateScreen)
        assert "match over" in screen_text(app).lower()
    assert app.saved_to == save
    summary = replay(read_record_file(save)).summary()
    assert summary["complete"] is True
    assert tuple(summary["totals"]) == app.driver.match.result().totals
    assert summary["deals"][0]["scores"] == list(app.driver.match.result().totals)


@sync
async def test_tui_candidate_two_people_pass_the_keyboard_and_never_see_the_other_hand() -> None:
    """Two people at one keyboard: a pass-the-keyboard screen hides every hand when the
    decision changes hands; each sees only their own hand."""
    app = candidate_app(seed=5, vs_human=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        handoffs = 0
        for _ in range(40):
            driver = app.driver
            if isinstance(app.screen, HandoffScreen):
                handoffs += 1
                # one pass-the-keyboard screen at a time: one Enter shows the hand
                assert sum(isinstance(s, HandoffScreen) for s in app.screen_stack) == 1
                text = screen_text(app)
                assert "Pass the keyboard" in text
                for seat in (0, 1):
                    for label in hidden_labels(app, seat):
                        assert label not in text
                await pilot.press("enter")
                await pilot.pause()
                continue
            seat = driver.to_move()
            assert seat is not None
            screen = app.screen
            assert isinstance(screen, CandidateScreen)
            assert screen.viewer == seat
            text = screen_text(app)
            for label in hidden_labels(app, 1 - seat):
                assert label not in text
            await pilot.press(*keys_for(app, seat))
            await pilot.pause()
        assert handoffs >= 3


@sync
async def test_tui_candidate_keys_that_mean_nothing_say_why() -> None:
    """A key with no meaning now explains itself in the status line."""
    app = candidate_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        assert app.driver.view(0)["decision"] == "deal"
        await pilot.press("1")
        assert "not the time to pick cards" in screen.status
        await pilot.press("p")
        assert "now is not the time for that" in screen.status  # the engine's reason
        await pilot.press("z")
        assert "z does nothing here" in screen.status
        await pilot.press("enter")
        assert "not the time to pick cards" in screen.status
        await pilot.press("s")
        await settle(pilot, app)
        assert app.driver.view(0)["decision"] == "play" or app.driver.to_move() == 0
        await reach_play(pilot, app)
        await pilot.press("s")
        assert "not the time to choose a pile" in screen.status
        await pilot.press("enter")
        assert "select cards" in screen.status
        await pilot.press("9")
        assert "9 does nothing here" in screen.status


@sync
async def test_tui_candidate_illegal_play_is_refused_by_the_engine() -> None:
    """Cards that do not continue the lobby are refused with the engine's reason and
    the position does not change (C7); the reason writes cards as the table draws
    them (``Q♠``), never as a record's code (``QS``)."""
    app = candidate_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await reach_play(pilot, app)
        view = app.driver.view(0)
        legal = set(view["legal_moves"])
        hand = view["hand"] or ()
        bad = next(
            i for i, card in enumerate(hand) if f"play {card}" not in legal
        )  # a card that does not fit the lobby
        before = app.driver.record()
        await pilot.press(str(bad + 1), "enter")
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        assert screen.status
        assert card_label(hand[bad], "en") in screen.status
        assert re.search(r"\b(10|[2-9JQKA])[SHDC]\b", screen.status) is None, screen.status
        assert app.driver.record() == before


@sync
async def test_tui_candidate_hint_help_rules_and_language() -> None:
    """Against the medium level (ISMCTS): t shows the bot's suggestion; ? and r open
    help and rules; l switches to Ukrainian, court cards in В Д К Т."""
    app = candidate_app(seed=3, level="medium")
    app.driver.hint_bots[0] = SeatBot.make("candidate", "medium", seed=9, seat=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        assert screen.hint_text in app.driver.view(0)["legal_moves"]
        assert "Hint:" in screen_text(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "pick a card of your hand" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert "C17" in screen_text(app) or "Candidate" in screen_text(app)
        await pilot.press("escape", "l")
        await pilot.pause()
        assert app.lang == "uk"
        text = screen_text(app)
        assert "Кандидат" in text
        assert "Стопки" in text


@pytest.mark.parametrize("lang", ["en", "uk"])
@sync
async def test_tui_candidate_court_cards_in_the_language(lang: str) -> None:
    """Ukrainian shows J Q K A as В Д К Т (docs/records.md, Cards)."""
    app = candidate_app(seed=3, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        assert screen.words.move_label("play JS QS KS AS") == (
            "play J♠ Q♠ K♠ A♠" if lang == "en" else "зіграти В♠ Д♠ К♠ Т♠"
        )
        # a pile is named by its suit, in words of the language (a hint says it so)
        assert screen.words.move_label("deal H") == (
            "deal from the ♥ pile" if lang == "en" else "роздати зі стопки ♥"
        )


@sync
async def test_tui_candidate_ukrainian_player_reads_the_refusal_in_ukrainian() -> None:
    """C7: cards that are no sequence are refused in the app's language: a Ukrainian
    player reads the engine's reason in Ukrainian, cards written Д♠, not QS."""
    app = candidate_app(seed=3, lang="uk")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await reach_play(pilot, app)
        hand = list(app.driver.view(0)["hand"] or ())
        ranks = [Card.parse(card).rank for card in hand]
        low, high = next(
            (i, j)
            for i in range(len(hand))
            for j in range(len(hand))
            if ranks[j] - ranks[i] >= 2  # no run, no set: not a sequence
        )
        before = app.driver.record()
        await pilot.press(str(low + 1), str(high + 1), "enter")
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        cards = f"{card_label(hand[low], 'uk')} {card_label(hand[high], 'uk')}"
        assert screen.status.startswith(f"{cards} — не послідовність: після ")
        assert "(сходинки) або" in screen.status or "(набір)" in screen.status
        assert "is not a sequence" not in screen.status
        assert app.driver.record() == before


@sync
async def test_tui_candidate_ukrainian_player_reads_the_rules_refusal_in_ukrainian() -> None:
    """C7: a card that does not continue the lobby is refused by the engine's rules in
    the app's language."""
    app = candidate_app(seed=3, lang="uk")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await reach_play(pilot, app)
        view = app.driver.view(0)
        legal = set(view["legal_moves"])
        hand = view["hand"] or ()
        bad = next(i for i, card in enumerate(hand) if f"play {card}" not in legal)
        await pilot.press(str(bad + 1), "enter")
        screen = app.screen
        assert isinstance(screen, CandidateScreen)
        assert screen.status.startswith(f"{card_label(hand[bad], 'uk')} не продовжує ")
        assert "does not continue" not in screen.status


@pytest.mark.parametrize(
    ("lang", "totals", "result"),
    [
        ("en", (206, 90), "you win 206:90"),
        ("uk", (206, 90), "ви перемагаєте 206:90"),
        ("en", (90, 206), "Bot (easy) wins 206:90"),
        ("en", (50, 50), "a draw 50:50"),
    ],
)
def test_tui_candidate_result_is_worded_for_the_person(
    lang: str, totals: tuple[int, int], result: str
) -> None:
    """C17: the match's result against a bot says "you win", not "You wins"."""
    from cardtable.tui.candidate_words import CandidateWords

    words = CandidateWords(lang, 0, ("You", "Bot (easy)"), (0,), (None, "easy"))
    assert words.result_text(totals) == result
