"""``cardtable play candidate``: Candidate in the terminal, against a bot or two people
at one keyboard.

The screen shows what a browser table would: the piles with suit and size, the lobby
and its shape, the discards, both players' captures with running scores, the deal
number, whose decision it is and which, and the hand of the person at the
keyboard — drawn from that seat's view of the match only (the panels of
:mod:`.candidate_panels`, the words of :mod:`.candidate_words`). With two people a
"pass the keyboard" screen hides the hand between turns.

The match is the shared table's (:class:`~cardtable.tui.driver.TableDriver`): a bot
moves when the table says (a short turn delay, so a person can follow), and after
each deal the table pauses: the deal's summary (captures, scores, totals) stays on the
screen until the people press Enter (C13), or the pause's time is up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.widgets import Static

from cardtable.cards import parse_card_kind
from cardtable.tui.candidate_panels import HandPanel, LobbyPanel, PilesPanel, SeatPanel
from cardtable.tui.candidate_words import CandidateWords
from cardtable.tui.common import (
    DialogScreen,
    HelpScreen,
    TableApp,
    TableScreen,
    TailLog,
    fit_title,
    key_name,
)
from cardtable.tui.driver import TableDriver
from cardtable.tui.i18n import card_label, refusal_text, switch_label, tr

__all__ = ["CandidateApp", "CandidateScreen", "DealOverScreen", "HandoffScreen"]

_LOG_LINES = 40


class CandidateApp(TableApp):
    """The Candidate app around a :class:`~cardtable.tui.driver.TableDriver` (see
    :class:`~cardtable.tui.common.TableApp` for ``clock`` and ``auto``)."""

    game = "candidate"

    def on_mount(self) -> None:
        self.push_screen(CandidateScreen())
        self.pump()

    def table_changed(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, CandidateScreen) and screen.composed:  # else: on mount
                screen.after_change()


class CandidateScreen(TableScreen):
    """The table as the person at the keyboard sees it: the flow of the game and the
    keys; the panels draw."""

    HELP = "help_candidate"

    def __init__(self) -> None:
        super().__init__()
        #: The seat whose view is shown: the person at the keyboard (set on mount).
        self.viewer = 0
        self.selected: list[int] = []
        self.status = ""
        self.hint_text: str | None = None
        self.finished_note: str | None = None
        #: The table's version last drawn: a move since clears the picked cards.
        self.seen_version = -1
        #: The table was pausing when last drawn: its end clears the status line.
        self.was_paused = False
        #: The number of deals whose summary was shown.
        self.summaries_shown = 0
        #: x was pressed once: a second x resigns the match.
        self.confirm_resign = False

    @property
    def driver(self) -> TableDriver:
        """The table's driver."""
        app = self.app
        assert isinstance(app, CandidateApp)
        return app.driver

    @property
    def words(self) -> CandidateWords:
        """The screen's words, for the person at the keyboard."""
        driver = self.driver
        levels = tuple(seat.bot_level for seat in driver.table.seats)
        return CandidateWords(self.lang, self.viewer, driver.names, driver.people, levels)

    def view(self) -> Mapping[str, Any]:
        """What the person at the keyboard may see."""
        return self.driver.view(self.viewer)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield PilesPanel(id="piles", classes="panel")
        yield LobbyPanel(id="lobby", classes="panel")
        yield SeatPanel(id="opponent", classes="panel")
        yield SeatPanel(id="me", classes="panel")
        yield HandPanel(id="hand", classes="panel")
        yield TailLog(id="log")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        people = self.driver.people
        self.viewer = people[0] if people else 0
        self.composed = True
        self.after_change()

    # -- the flow of the game -----------------------------------------------------------

    def after_change(self) -> None:
        """Redraw; after a move, hand the decision to whoever has it: a person gets it
        after the pass-the-keyboard screen when the other person has the keyboard."""
        driver = self.driver
        if driver.table.version != self.seen_version:
            self.seen_version = driver.table.version
            self.selected = []
            self.hint_text = None
        if self.was_paused and not driver.paused:
            self.status = ""  # a new deal: what was said during the pause is old
        self.was_paused = driver.paused
        if driver.is_over and self.finished_note is None:
            self.finished_note = self.table_app.save_record() or ""
        ended = sum(1 for e in driver.log(self.viewer) if e["type"] == "deal_ended")
        if ended > self.summaries_shown and (driver.paused or driver.is_over):
            self.summaries_shown = ended
            self.app.push_screen(DealOverScreen())
        elif not driver.is_over and not driver.paused:
            player = driver.to_move()
            if player is not None and not driver.is_bot(player) and player != self.viewer:
                self.viewer = player
                # No hand to hide before the hands are dealt: the dealer deals at once.
                if any(self.view()["hand_sizes"]):
                    names = driver.names
                    self.app.push_screen(HandoffScreen(names[player], names[1 - player]))
        self.redraw()

    # -- keys ---------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if self.table_app.common_key(event):
            return
        event.stop()
        key = event.key
        resign_pending, self.confirm_resign = self.confirm_resign, False
        if key == "escape":
            self.selected = []
            self.status = ""
        elif key in ("s", "h", "d", "c"):
            self.pile_key(key.upper())
        elif key in ("1", "2", "3", "4", "5"):
            self.card_key(int(key))
        elif key == "enter":
            if self.driver.paused:
                self.go_on()
            else:
                self.play_selected()
        elif key == "p":
            self.make_move("pass")
        elif key == "t":
            self.ask_hint()
        elif key == "x" and not resign_pending:
            self.confirm_resign = True
            self.status = tr(self.lang, "cand_confirm_resign")
        elif key in ("x", "a", "u"):
            self.end_or_rewind({"x": "resign", "a": "abort", "u": "takeback"}[key])
        else:
            self.refuse(key_name(event), tr(self.lang, "unknown_key_why"))
        self.redraw()

    def refuse(self, key: str, why: str) -> None:
        """Say in the status line why a key did nothing."""
        self.status = tr(self.lang, "unknown_key", pressed=key, why=why)

    def my_decision(self) -> str | None:
        """The decision of the person at the keyboard, or ``None`` when they have none
        (the match is over, the table pauses, it is the other player's)."""
        driver = self.driver
        if driver.is_over or driver.paused:
            return None
        view = self.view()
        if view["current_player"] != self.viewer:
            return None
        decision: str | None = view["decision"]
        return decision

    def pile_key(self, letter: str) -> None:
        decision = self.my_decision()
        if decision is None:
            self.refuse(letter.lower(), self.why_not_mine())
        elif decision == "play":
            self.refuse(letter.lower(), tr(self.lang, "no_pile_now", what=self.prompt()))
        else:
            self.make_move(f"{decision} {letter}")

    def card_key(self, number: int) -> None:
        decision = self.my_decision()
        if decision is None:
            self.refuse(str(number), self.why_not_mine())
            return
        if decision != "play":
            self.refuse(str(number), tr(self.lang, "no_card_now", what=self.prompt()))
            return
        hand = self.view()["hand"] or ()
        if number > len(hand):
            self.refuse(str(number), tr(self.lang, "no_such_card", n=number, count=len(hand)))
            return
        index = number - 1
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected.append(index)
        self.status = ""

    def play_selected(self) -> None:
        decision = self.my_decision()
        if decision is None:
            self.refuse("Enter", self.why_not_mine())
            return
        if decision != "play":
            self.refuse("Enter", tr(self.lang, "no_card_now", what=self.prompt()))
            return
        if not self.selected:
            self.refuse("Enter", tr(self.lang, "nothing_selected"))
            return
        hand = self.view()["hand"] or ()
        # Played in rank order (a run climbs; a set's order does not matter), then by
        # the order picked; the engine says why when they are neither (C7).
        cards = sorted((hand[i] for i in self.selected), key=lambda c: parse_card_kind(c) % 13)
        self.make_move("play " + " ".join(cards))

    def make_move(self, move: str) -> None:
        """A person's move (record text), judged by the table; a refusal goes to the
        status line."""
        if self.my_decision() is None:
            self.status = self.why_not_mine()
            return
        app = self.table_app
        refusal = self.driver.play(self.viewer, move, app.now())
        if refusal is not None:
            self.status = refusal_text(refusal, self.lang)
            return
        self.status = ""
        app.moved()

    def end_or_rewind(self, kind: str) -> None:
        """Resign, abort or take back for the person at the keyboard; the table says
        why not in the status line."""
        app = self.table_app
        refusal = self.driver.end_or_rewind(kind, self.viewer, app.now())
        if refusal is not None:
            self.status = refusal_text(refusal, self.lang)
            return
        self.status = ""
        app.moved()

    def go_on(self) -> None:
        """Enter during the pause after a deal: the people are ready, the next deal
        starts now."""
        app = self.table_app
        if self.driver.paused and self.driver.ready(app.now()):
            self.status = ""
            app.moved()

    def why_not_mine(self) -> str:
        driver = self.driver
        if driver.is_over:
            return self.prompt()
        if driver.paused:
            return tr(self.lang, "cand_paused_why")
        return tr(self.lang, "not_your_turn") + " — " + self.prompt()

    def prompt(self) -> str:
        """What the table waits for, for the status line."""
        driver = self.driver
        view = self.view()
        table = driver.table
        if table.ending is not None and table.ended_by is not None:
            return self.words.ended_text(table.ending, table.ended_by)
        if driver.paused and not driver.is_over:
            left = driver.pause_left(self.table_app.now())
            return self.words.pause_text(view, left, holds=driver.table.pause_holds)
        player = view["current_player"]
        thinking = player is not None and driver.is_bot(player)
        return self.words.decision_text(view, thinking=thinking)

    def ask_hint(self) -> None:
        task = self.driver.hint_task(self.viewer) if self.my_decision() else None
        if task is None:
            self.status = tr(self.lang, "hint_none")
            return
        self.status = tr(self.lang, "hint_wait")
        self.hint_worker(task, self.driver.table.version)

    @work(thread=True, exclusive=True, group="hint")
    def hint_worker(self, task: Callable[[], str], version: int) -> None:
        """The hint bot thinks in a worker thread."""
        text = task()
        self.app.call_from_thread(self.show_hint, text, version)

    def show_hint(self, text: str | None, version: int) -> None:
        if version != self.driver.table.version:
            return  # a move was made meanwhile: the hint is for an old position
        self.hint_text = text
        self.status = "" if text else tr(self.lang, "hint_none")
        self.redraw()

    # -- drawing ------------------------------------------------------------------------

    def redraw(self) -> None:
        if not self.composed:
            return
        lang = self.lang
        view = self.view()
        words = self.words
        title = self.query_one("#title", Static)
        # A match resigned or aborted is over though its cards are not played out.
        heading = words.over_title() if self.driver.is_over else words.title_text(view)
        title.update(fit_title(heading, title.size.width))
        self.query_one(PilesPanel).show(view, words)
        self.query_one(LobbyPanel).show(view, words)
        self.query_one("#opponent", SeatPanel).show(view, words, 1 - self.viewer)
        self.query_one("#me", SeatPanel).show(view, words, self.viewer)
        self.query_one(HandPanel).show(view, words, self.selected, self.hint_text)
        self.query_one("#log", TailLog).show(self.log_lines(words))
        status = Text(self.prompt(), style="bold")
        note = self.status or self.finished_note
        if note:
            status.append("\n" + note, style="")
        elif self.selected:
            hand = view["hand"] or ()
            chosen = [card_label(hand[i], lang) for i in self.selected if i < len(hand)]
            status.append("\n" + tr(lang, "selected", cards=" ".join(chosen)), style="")
        self.query_one("#status", Static).update(status)
        switch = switch_label(lang, self.table_app.home_lang)
        keys = tr(lang, "keys_candidate") + "\n" + tr(lang, "keys_common", switch=switch)
        self.query_one("#keys", Static).update(keys)

    def log_lines(self, words: CandidateWords) -> list[str]:
        """The newest moves, as the person at the keyboard may see them."""
        lines = [words.event_line(e) for e in self.driver.log(self.viewer)[-_LOG_LINES:]]
        return [line for line in lines if line]


class DealOverScreen(DialogScreen):
    """A deal's summary while the table waits for the people: each player's captures,
    deal score and total (C13); Enter starts the next deal. After the last deal it
    also gives the match's result (C17)."""

    HELP: ClassVar[str] = "help_deal_over"
    PART = "deal"

    def on_mount(self) -> None:
        self.redraw()

    @property
    def board(self) -> CandidateScreen:
        """The table screen under this one."""
        return next(s for s in self.app.screen_stack if isinstance(s, CandidateScreen))

    def redraw(self) -> None:
        board = self.board
        words = board.words
        lang = words.lang
        driver = board.driver
        view = board.view()
        done = len([e for e in driver.log(board.viewer) if e["type"] == "deal_ended"])
        self.query_one("#deal-title", Static).update(
            Text(tr(lang, "deal_over_title", deal=done, deals=view["deals"]), style="bold")
        )
        body = Text("\n")
        for head, captures in words.deal_over_lines(driver.log(board.viewer)):
            body.append(head + "\n", style="bold")
            body.append("  " + captures + "\n\n")
        self.query_one("#deal-body", Static).update(body)
        if driver.is_over:
            result = words.result_text(view["totals"])
            status = tr(lang, "deal_over_last", result=result)
        else:
            status = tr(lang, "deal_over_next", next=done + 1)
        self.query_one("#deal-status", Static).update(status)

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, TableApp)
        event.stop()
        if event.key == "enter":
            self.dismiss()
            self.board.go_on()
            self.board.redraw()
        elif event.key == "question_mark":
            app.push_screen(HelpScreen(self.HELP))
        elif app.common_key(event):
            self.redraw()


class HandoffScreen(DialogScreen):
    """Between two people's turns: the hand stays hidden until the right one is ready."""

    HELP: ClassVar[str] = "help_handoff"
    PART = "handoff"

    def __init__(self, name: str, other: str) -> None:
        super().__init__()
        self.to_name = name
        self.other = other

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        app = self.app
        lang = app.lang if isinstance(app, TableApp) else "en"
        self.query_one("#handoff-title", Static).update(
            Text(tr(lang, "handoff_title"), style="bold")
        )
        self.query_one("#handoff-body", Static).update(
            tr(lang, "handoff_body", name=self.to_name, other=self.other)
        )

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, TableApp)
        if event.key == "enter":
            event.stop()
            self.dismiss()
            return
        if event.key == "question_mark":
            event.stop()
            app.push_screen(HelpScreen(self.HELP))
            return
        if app.common_key(event):
            self.redraw()
            return
        event.stop()
        self.query_one("#handoff-status", Static).update(
            tr(
                app.lang,
                "unknown_key",
                pressed=key_name(event),
                why=tr(app.lang, "handoff_why", name=self.to_name),
            )
        )
