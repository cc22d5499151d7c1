"""``cardtable play candidate``: Candidate in the terminal, against a bot or two people
at one keyboard.

The screen shows what a browser table would: the piles with suit and size, the lobby
and its kind, the discards, both players' captures with running scores, the deal
number, whose decision it is and what kind, and the hand of the person at the
keyboard — drawn from that seat's :class:`~cardtable.games.candidate.CandidateView`
only. With two people a "pass the keyboard" screen hides the hand between turns.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtable.cards import parse_card_kind
from cardtable.errors import IllegalMove
from cardtable.games.candidate import CandidateView, Event
from cardtable.games.candidate.actions import PASS, encode_play
from cardtable.tui.candidate_table import CandidateTable
from cardtable.tui.common import HelpScreen, TableApp, TableScreen, TailLog, key_name
from cardtable.tui.i18n import card_label, card_text, cards_text, refusal_text, tr

__all__ = ["CandidateApp", "CandidateScreen", "HandoffScreen"]

_SUITS = "♠♥♦♣"
#: Characters of captures shown per player (the newest first; older ones elided).
_CAPTURE_WIDTH = 140
_LOG_LINES = 40


class CandidateApp(TableApp):
    """The Candidate app around a :class:`CandidateTable`.

    ``bot_delay`` is the pause before a bot's move is made, so a person can follow it.
    """

    game = "candidate"
    TITLE = "cardtable · Candidate"

    def __init__(
        self,
        table: CandidateTable,
        *,
        lang: str = "en",
        save: str | Path | None = None,
        bot_delay: float = 0.6,
    ) -> None:
        super().__init__(lang=lang, save=save)
        self.table = table
        self.bot_delay = bot_delay

    def record(self) -> dict[str, Any]:
        return self.table.record()

    def on_mount(self) -> None:
        self.push_screen(CandidateScreen())


class CandidateScreen(TableScreen):
    """The table as the person at the keyboard sees it."""

    HELP = "help_candidate"

    def __init__(self) -> None:
        super().__init__()
        #: The seat whose view is shown: the person at the keyboard (set on mount).
        self.viewer = 0
        self.selected: list[int] = []
        self.status = ""
        self.thinking = False
        self.hint_text: str | None = None
        self.finished_note: str | None = None

    # -- plumbing -----------------------------------------------------------------------

    @property
    def table(self) -> CandidateTable:
        """The table being played."""
        app = self.app
        assert isinstance(app, CandidateApp)
        return app.table

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="piles", classes="panel")
        yield Static(id="lobby", classes="panel")
        yield Static(id="opponent", classes="panel")
        yield Static(id="me", classes="panel")
        yield Static(id="hand", classes="panel")
        yield TailLog(id="log")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        people = self.table.people
        self.viewer = people[0] if people else 0
        self.after_move()

    # -- the flow of the game -----------------------------------------------------------

    def after_move(self) -> None:
        """Redraw, then hand the decision to whoever has it: a bot, or a person (after
        the pass-the-keyboard screen when the other person has the keyboard)."""
        table = self.table
        self.selected = []
        self.hint_text = None
        if table.is_over:
            if self.finished_note is None:
                self.finished_note = self.table_app.save_record() or ""
        elif table.bot_to_move:
            self.thinking = True
            delay = self.candidate_app.bot_delay
            if delay > 0:
                self.set_timer(delay, self.start_thinking)
            else:
                self.call_later(self.start_thinking)
        else:
            player = table.current_player
            assert player is not None
            if player != self.viewer:
                self.viewer = player
                self.app.push_screen(HandoffScreen(table.names[player], table.names[1 - player]))
        self.redraw()

    @property
    def candidate_app(self) -> CandidateApp:
        """The app, typed."""
        app = self.app
        assert isinstance(app, CandidateApp)
        return app

    def start_thinking(self) -> None:
        """Hand the bot its information set; it decides in a worker thread."""
        if self.table.bot_to_move:
            self.think(self.table.bot_task(), self.table.version)

    @work(thread=True, exclusive=True, group="bot")
    def think(self, task: Callable[[], int], version: int) -> None:
        """The bot decides in a worker thread (a searching bot may take a while)."""
        action = task()
        self.app.call_from_thread(self.bot_moved, action, version)

    def bot_moved(self, action: int, version: int) -> None:
        """Make the bot's move (checked like anyone's)."""
        if version != self.table.version:
            return  # the position moved on meanwhile
        self.thinking = False
        self.table.apply(action)
        self.after_move()

    # -- keys ---------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if self.table_app.common_key(event):
            return
        event.stop()
        key = event.key
        if key == "escape":
            self.selected = []
            self.status = ""
        elif key in ("s", "h", "d", "c"):
            self.pile_key(key.upper())
        elif key in ("1", "2", "3", "4", "5"):
            self.card_key(int(key))
        elif key == "enter":
            self.play_selected()
        elif key == "p":
            self.make_move(PASS)
        elif key == "t":
            self.ask_hint()
        else:
            self.refuse(key_name(event), tr(self.lang, "unknown_key_why"))
        self.redraw()

    def refuse(self, key: str, why: str) -> None:
        """Say in the status line why a key did nothing."""
        self.status = tr(self.lang, "unknown_key", pressed=key, why=why)

    def my_decision(self) -> str | None:
        """The decision of the person at the keyboard, or a reason they have none."""
        table = self.table
        if table.is_over:
            return None
        if table.current_player != self.viewer or self.thinking:
            return None
        return table.decision

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
        hand = self.table.view(self.viewer).hand or ()
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
        hand = self.table.view(self.viewer).hand or ()
        # Played in rank order (a run climbs; a set's order does not matter), then by
        # the order picked.
        kinds = sorted((parse_card_kind(hand[i]) for i in self.selected), key=lambda k: (k % 13, 0))
        try:
            action = encode_play(kinds)
        except IllegalMove as exc:
            self.status = refusal_text(exc, self.lang)
            return
        self.make_move(action)

    def make_move(self, move: int | str) -> None:
        """A person's move, checked by the engine; a refusal goes to the status line."""
        if self.my_decision() is None:
            self.status = self.why_not_mine()
            return
        try:
            self.table.apply(move)
        except IllegalMove as exc:
            self.status = refusal_text(exc, self.lang)
            return
        self.status = ""
        self.after_move()

    def why_not_mine(self) -> str:
        table = self.table
        if table.is_over:
            return tr(self.lang, "match_over_status", result=self.result_text())
        player = table.current_player
        assert player is not None
        return tr(self.lang, "not_your_turn") + " — " + self.prompt()

    def ask_hint(self) -> None:
        if self.my_decision() is None:
            self.status = tr(self.lang, "hint_none")
            return
        task = self.table.hint_task(self.viewer)
        if task is None:
            self.status = tr(self.lang, "hint_none")
            return
        self.status = tr(self.lang, "hint_wait")
        self.hint_worker(task, self.table.version)

    @work(thread=True, exclusive=True, group="hint")
    def hint_worker(self, task: Callable[[], str], version: int) -> None:
        """The hint bot thinks in a worker thread."""
        text = task()
        self.app.call_from_thread(self.show_hint, text, version)

    def show_hint(self, text: str | None, version: int) -> None:
        if version != self.table.version:
            return  # a move was made meanwhile: the hint is for an old position
        self.hint_text = text
        self.status = "" if text else tr(self.lang, "hint_none")
        self.redraw()

    # -- drawing ------------------------------------------------------------------------

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        table = self.table
        if len(table.people) == 1 and seat == table.people[0]:
            return tr(self.lang, "you")
        return table.names[seat]

    def move_label(self, text: str) -> str:
        """A move's text with cards in display form (``play 9♠ 10♥``)."""
        words = text.split()
        if words[0] == "play":
            return "play " + " ".join(card_label(w, self.lang) for w in words[1:])
        if words[0] == "pass":
            return tr(self.lang, "pass")
        return f"{words[0]} {words[1]} {_SUITS['SHDC'.index(words[1])]}"

    def prompt(self) -> str:
        """What the current decision is, for the status line."""
        table = self.table
        view = table.view(self.viewer)
        player = view.current_player
        if player is None:
            return tr(self.lang, "match_over_status", result=self.result_text())
        if self.thinking or table.is_bot(player):
            return tr(self.lang, "thinking", name=self.seat_name(player))
        decision = view.decision or ""
        key = f"decision_{decision}"
        if decision == "play" and "pass" not in view.legal_moves and player == self.viewer:
            key = "decision_play_from_hand"
        return tr(self.lang, key, name=self.seat_name(player))

    def result_text(self) -> str:
        a, b = self.table.totals()
        if a == b:
            return tr(self.lang, "draw_result", a=a, b=b)
        best = 0 if a > b else 1
        return tr(self.lang, "winner", name=self.seat_name(best), a=max(a, b), b=min(a, b))

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        lang = self.lang
        view = self.table.view(self.viewer)
        me, them = self.viewer, 1 - self.viewer
        self.query_one("#title", Static).update(self.title_text(view))
        self.query_one("#piles", Static).update(self.piles_text(view))
        self.query_one("#lobby", Static).update(self.lobby_text(view))
        self.query_one("#opponent", Static).update(self.seat_text(view, them))
        self.query_one("#me", Static).update(self.seat_text(view, me))
        self.query_one("#hand", Static).update(self.hand_text(view))
        self.query_one("#log", TailLog).show(self.log_lines())
        status = Text(self.prompt(), style="bold")
        note = self.status or self.finished_note
        if note:
            status.append("\n" + note, style="")
        elif self.selected:
            hand = view.hand or ()
            chosen = [card_label(hand[i], lang) for i in self.selected if i < len(hand)]
            status.append("\n" + tr(lang, "selected", cards=" ".join(chosen)), style="")
        self.query_one("#status", Static).update(status)
        keys = tr(lang, "keys_candidate") + "\n" + tr(lang, "keys_common")
        self.query_one("#keys", Static).update(keys)

    def title_text(self, view: CandidateView) -> str:
        if view.is_over:
            return tr(self.lang, "cand_title_over")
        return tr(
            self.lang,
            "cand_title",
            deal=view.deal_number,
            deals=view.deals,
            dealer=self.seat_name(view.dealer),
            leader=self.seat_name(view.leader),
        )

    def piles_text(self, view: CandidateView) -> Text:
        out = Text(f"{tr(self.lang, 'piles'):<8}", style="bold")
        for letter, size in view.piles:
            suit = "SHDC".index(letter)
            style = "red" if suit in (1, 2) else ""
            out.append(f"[{letter.lower()}] ", style="dim")
            out.append(_SUITS[suit], style=style)
            out.append(f" {size:<3}  ", style="" if size else "dim")
        return out

    def lobby_text(self, view: CandidateView) -> Text:
        out = Text(f"{tr(self.lang, 'lobby'):<8}", style="bold")
        if view.lobby:
            out.append_text(cards_text(view.lobby, self.lang))
            if view.lobby_kind:
                out.append(f"  ({tr(self.lang, view.lobby_kind)})")
        else:
            out.append(tr(self.lang, "lobby_empty"), style="dim")
        if view.discards:
            out.append(f"   {tr(self.lang, 'discards')}: ", style="dim")
            out.append_text(cards_text(view.discards, self.lang))
        return out

    def seat_text(self, view: CandidateView, seat: int) -> Text:
        lang = self.lang
        name = self.seat_name(seat)
        out = Text(f"{name:<{max(8, len(name) + 1)}}", style="bold")
        if seat != self.viewer:
            suits = view.hand_suits[seat]
            out.append(tr(lang, "cards_count", n=view.hand_sizes[seat]))
            if view.hand_sizes[seat]:
                out.append(
                    " (" + " ".join(f"{_SUITS[s]}{n}" for s, n in enumerate(suits) if n) + ")"
                )
            out.append(" · ")
        out.append(tr(lang, "deal_score", score=view.deal_scores[seat]))
        out.append(" · " + tr(lang, "total", total=view.totals[seat]), style="bold")
        marker = view.current_player == seat
        if marker:
            out.append("  ◀", style="bold")
        out.append("\n  ")
        captures = list(zip(view.captures[seat], view.capture_scores[seat], strict=True))
        if not captures:
            out.append(tr(lang, "no_captures"), style="dim")
            return out
        out.append(f"{tr(lang, 'captures')} ({len(captures)}): ", style="dim")
        shown: list[Text] = []
        width = 0
        for cards, score in reversed(captures):
            piece = cards_text(cards, lang)
            piece.append(f" ={score}", style="bold")
            width += len(piece.plain) + 3
            if shown and width > _CAPTURE_WIDTH:
                shown.append(Text("…", style="dim"))
                break
            shown.append(piece)
        out.append_text(Text(" · ").join(shown))
        return out

    def hand_text(self, view: CandidateView) -> Text:
        lang = self.lang
        title = (
            tr(lang, "your_hand")
            if len(self.table.people) == 1
            else tr(lang, "hand_of", name=self.seat_name(self.viewer))
        )
        out = Text(f"{title}: ", style="bold")
        hand = view.hand or ()
        if not hand:
            out.append("—", style="dim")
        for i, card in enumerate(hand):
            picked = i in self.selected
            out.append(f" {i + 1}", style="dim")
            label = card_text(card, lang)
            if picked:
                label = Text("›", style="bold") + label + Text("‹", style="bold")
                label.stylize("reverse")
            else:
                label = Text(" ") + label + Text(" ")
            out.append_text(label)
        if self.hint_text:
            out.append(
                "   " + tr(lang, "hint", move=self.move_label(self.hint_text)), style="italic"
            )
        return out

    def log_lines(self) -> list[str]:
        """The newest moves, as the person at the keyboard may see them."""
        lines = [self.event_line(e) for e in self.table.log(self.viewer)[-_LOG_LINES:]]
        return [line for line in lines if line]

    def event_line(self, event: Event) -> str:
        lang = self.lang
        name = self.seat_name(event.player)
        cards = " ".join(card_label(t, lang) for t in event.texts)
        kind = event.kind
        if kind == "received":
            return "" if not cards else tr(lang, "ev_received", name=name, cards=cards)
        if kind == "drew" and not cards:
            return tr(lang, "ev_drew_hidden", name=name, pile=event.pile)
        if kind in ("deal_ended", "match_ended"):
            scores = ", ".join(
                f"{self.seat_name(p)} {s}" for p, s in enumerate(event.scores or (0, 0))
            )
            totals = ", ".join(
                f"{self.seat_name(p)} {s}" for p, s in enumerate(event.totals or (0, 0))
            )
            return tr(lang, f"ev_{kind}", scores=scores, totals=totals)
        return tr(lang, f"ev_{kind}", name=name, cards=cards, pile=event.pile, score=event.score)


class HandoffScreen(ModalScreen[None]):
    """Between two people's turns: the hand stays hidden until the right one is ready."""

    HELP: ClassVar[str] = "help_handoff"

    def __init__(self, name: str, other: str) -> None:
        super().__init__()
        self.to_name = name
        self.other = other

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(id="handoff-title")
            yield Static(id="handoff-body")
            yield Static(id="handoff-status", classes="panel")

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
