"""``cardtable play spy``: a Spy vs Spy race in real time against bots, all by keys.

One key per pile (``1``-``6``), one to turn (space), one to call (``c``); the others'
positions update live as the bots race at their speeds. The screen is drawn from the
person's :class:`~cardtable.games.spy.SpyView` only: pile tops, the points-pile top, the
waste top and the sizes of the face-down stacks — never a hidden card (S4-S5).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtable.cards import KIND_TEXT
from cardtable.errors import IllegalMove
from cardtable.games.spy import Event, SeatView, SpyView
from cardtable.games.spy.actions import CALL, MAX_PILES, RESIGN, TURN
from cardtable.tui.common import HelpScreen, TableApp, TableScreen, TailLog, key_name
from cardtable.tui.i18n import card_label, card_text, refusal_text, tr
from cardtable.tui.spy_table import NoSuchPile, SpyTable

__all__ = ["RoundOverScreen", "SpyApp", "SpyScreen"]

#: How often the bots' clock is looked at (seconds).
TICK = 0.05
_LOG_LINES = 30


class SpyApp(TableApp):
    """The Spy app around a :class:`SpyTable`. ``clock`` gives the time in seconds
    (``time.monotonic`` by default; tests pass their own)."""

    game = "spy"
    TITLE = "cardtable · Spy vs Spy"

    def __init__(
        self,
        table: SpyTable,
        *,
        lang: str = "en",
        save: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        tick: float | None = TICK,
    ) -> None:
        super().__init__(lang=lang, save=save)
        self.table = table
        self.clock = clock
        self.tick = tick

    def record(self) -> dict[str, Any]:
        return self.table.record()

    def on_mount(self) -> None:
        self.push_screen(SpyScreen())

    def on_unmount(self) -> None:
        self.table.close()


def card_box(card: str | None, lang: str, caption: str, count: int) -> list[Text]:
    """Five rows, seven columns: a caption, a three-row card, and the stack's size. An
    empty place is drawn dashed; a face-down stack (``card`` None, ``count`` > 0) shows
    its size inside."""
    head = Text(f"{caption[:6]:^6} ", style="bold")
    foot = Text(f"{'×' + str(count) if count else '':^6} ", style="dim")
    if card is None and not count:
        dim = "dim"
        return [head, Text("┌╌╌╌╌┐ ", dim), Text("╎    ╎ ", dim), Text("└╌╌╌╌┘ ", dim), foot]
    if card is None:
        return [head, Text("┌────┐ "), Text(f"│{count:^4}│ "), Text("└────┘ "), Text(" " * 7)]
    label = card_text(card, lang)
    pad = 4 - len(label.plain)
    middle = Text("│" + " " * (pad // 2)) + label + Text(" " * (pad - pad // 2) + "│ ")
    return [head, Text("┌────┐ "), middle, Text("└────┘ "), foot]


class SpyScreen(TableScreen):
    """The race as the person sees it: their own table large, the others compact."""

    HELP = "help_spy"

    def __init__(self) -> None:
        super().__init__()
        self.status = ""
        self.waste_prefix = False
        self.confirm_resign = False

    @property
    def table(self) -> SpyTable:
        """The race being played."""
        app = self.app
        assert isinstance(app, SpyApp)
        return app.table

    @property
    def spy_app(self) -> SpyApp:
        """The app, typed."""
        app = self.app
        assert isinstance(app, SpyApp)
        return app

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="mine", classes="panel")
        yield Static(id="others", classes="panel")
        yield TailLog(id="log")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.table.start(self.spy_app.clock())
        if self.spy_app.tick is not None:
            self.set_interval(self.spy_app.tick, self.step)
        self.redraw()

    def step(self) -> None:
        """Let the bots make the moves due by now."""
        table = self.table
        if table.paused:
            return
        events = table.advance(self.spy_app.clock())
        if events:
            self.after_events()

    def after_events(self) -> None:
        """Redraw, and show the result when a round has just ended."""
        table = self.table
        if table.paused and len(table.results) > table.results_seen:
            if table.is_over:
                self.status = self.table_app.save_record() or ""
            self.app.push_screen(RoundOverScreen(), self.round_closed)
        self.redraw()

    def round_closed(self, _result: None = None) -> None:
        """The person has read the result: the next round starts now."""
        self.table.resume(self.spy_app.clock())
        self.redraw()

    # -- keys ---------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if self.table_app.common_key(event):
            return
        event.stop()
        key = event.key
        table = self.table
        resign_pending, self.confirm_resign = self.confirm_resign, False
        prefix, self.waste_prefix = self.waste_prefix, False
        if table.paused:
            self.status = tr(
                self.lang, "unknown_key", pressed=key_name(event), why=self.paused_why()
            )
        elif key in ("1", "2", "3", "4", "5", "6"):
            self.pile_key(int(key), prefix)
        elif key == "w":
            self.waste_prefix = True
            self.status = tr(self.lang, "spy_waste_prefix")
        elif key in ("space", "t"):
            self.move(TURN)
        elif key == "c":
            self.move(CALL)
        elif key == "x":
            if resign_pending:
                self.move(RESIGN)
            else:
                self.confirm_resign = True
                self.status = tr(self.lang, "spy_confirm_resign")
        elif key == "enter":
            self.status = tr(
                self.lang, "unknown_key", pressed="Enter", why=tr(self.lang, "unknown_key_why")
            )
        else:
            self.status = tr(
                self.lang,
                "unknown_key",
                pressed=key_name(event),
                why=tr(self.lang, "unknown_key_why"),
            )
        self.redraw()

    def paused_why(self) -> str:
        if self.table.is_over:
            return tr(self.lang, "spy_title_over")
        return tr(self.lang, "spy_paused")

    def pile_key(self, number: int, from_waste: bool) -> None:
        try:
            events = self.table.pile_move(number, from_waste)
        except NoSuchPile as exc:
            key = "spy_no_more_piles" if exc.count >= MAX_PILES else "spy_no_pile"
            self.status = tr(self.lang, key, n=number, count=exc.count, next=exc.count + 1)
            return
        except IllegalMove as exc:
            self.status = refusal_text(exc, self.lang)
            return
        self.status = ""
        if events:
            self.after_events()

    def move(self, local: int) -> None:
        """The person's move, checked by the engine; a refusal goes to the status line."""
        try:
            self.table.move(local)
        except IllegalMove as exc:
            self.status = refusal_text(exc, self.lang)
            return
        self.status = ""
        self.after_events()

    # -- drawing ------------------------------------------------------------------------

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        if seat == self.table.human:
            return tr(self.lang, "you")
        return self.table.names[seat]

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        lang = self.lang
        table = self.table
        view = table.view()
        self.query_one("#title", Static).update(self.title_text(view))
        seats = view.seats
        mine = seats[table.human] if seats else None
        self.query_one("#mine", Static).update(self.mine_text(mine))
        self.query_one("#others", Static).update(self.others_text(seats, view.totals))
        self.query_one("#log", TailLog).show(self.log_lines())
        status = Text(self.prompt(mine), style="bold")
        if self.status:
            status.append("\n" + self.status, style="")
        self.query_one("#status", Static).update(status)
        keys = tr(lang, "keys_spy") + "\n" + tr(lang, "keys_common")
        self.query_one("#keys", Static).update(keys)

    def title_text(self, view: SpyView) -> str:
        lang = self.lang
        if view.phase == "over":
            head = tr(lang, "spy_title_over")
        else:
            head = tr(lang, "spy_title", round=view.round, rounds=view.rounds)
        total = view.totals[self.table.human]
        return f"{head} · {tr(lang, 'spy_your_total', total=total)}"

    def prompt(self, mine: SeatView | None) -> str:
        lang = self.lang
        if self.table.paused or mine is None:
            return self.paused_why()
        if mine.resigned:
            return tr(lang, "spy_status_resigned")
        if mine.blocked:
            return tr(lang, "spy_status_blocked")
        if mine.points_count == 0:
            return tr(lang, "spy_status_call")
        return tr(lang, "spy_status")

    def mine_text(self, mine: SeatView | None) -> Text:
        lang = self.lang
        if mine is None:
            return Text(tr(lang, "spy_title_over"))
        boxes = [
            card_box(_text(mine.points_top), lang, tr(lang, "points"), mine.points_count),
            card_box(_text(mine.waste_top), lang, tr(lang, "waste"), mine.waste_count),
            card_box(None, lang, tr(lang, "deck"), mine.deck_count),
            [Text("  ")] * 5,
        ]
        for i, top in enumerate(mine.pile_tops):
            boxes.append(card_box(KIND_TEXT[top], lang, str(i + 1), mine.pile_sizes[i]))
        if len(mine.pile_tops) < MAX_PILES:
            number = len(mine.pile_tops) + 1
            boxes.append(card_box(None, lang, f"{number} {tr(lang, 'new_pile')}", 0))
        rows = [Text("").join(box[row] for box in boxes) for row in range(5)]
        head = Text(f"{tr(lang, 'your_table')} · {mine.moves} {tr(lang, 'moves')} · ", "bold")
        return Text("\n").join([head + self.seat_state(mine), *rows])

    def seat_state(self, seat: SeatView) -> Text:
        lang = self.lang
        if seat.called:
            return Text(tr(lang, "called"), style="bold reverse")
        if seat.resigned:
            return Text(tr(lang, "resigned"), style="dim")
        if seat.blocked:
            return Text(tr(lang, "blocked"), style="italic")
        return Text(tr(lang, "racing"))

    def others_text(self, seats: tuple[SeatView, ...], totals: tuple[int, ...]) -> Text:
        """One live line per other player under a header of the columns."""
        lines = [Text(f"{'':<11}" + tr(self.lang, "spy_others_head"), style="dim")]
        lines += [
            self.other_line(s, totals[s.player]) for s in seats if s.player != self.table.human
        ]
        return Text("\n").join(lines)

    def other_line(self, seat: SeatView, total: int) -> Text:
        lang = self.lang
        out = Text(f"{self.seat_name(seat.player)[:10]:<10} ", style="bold")
        out.append(f"{seat.points_count:>3} ")
        out.append_text(_padded(seat.points_top, lang, 3))
        out.append(" │ ")
        piles = Text(" ").join(card_text(KIND_TEXT[top], lang) for top in seat.pile_tops)
        piles.pad_right(23 - len(piles.plain))
        out.append_text(piles)
        out.append(" │ ")
        out.append_text(_padded(seat.waste_top, lang, 5))
        out.append(f" {seat.deck_count:>4} {seat.moves:>5} {total:>5}  ")
        out.append_text(self.seat_state(seat))
        return out

    def log_lines(self) -> list[str]:
        """The newest moves at the table (every Spy event is public)."""
        events = [e for e in self.table.events[-_LOG_LINES:] if e.kind not in ("deal", "reveal")]
        return [self.event_line(e) for e in events]

    def event_line(self, event: Event) -> str:
        lang = self.lang
        name = self.seat_name(event.player)
        card = card_label(KIND_TEXT[event.card], lang) if event.card is not None else ""
        if event.kind in ("turn", "place", "open", "call", "resign", "blocked"):
            return f"{name}: " + tr(lang, f"ev_{event.kind}", card=card, pile=event.pile)
        if event.kind == "round_end":
            if event.player is None:
                return tr(lang, "spy_round_nobody")
            return tr(lang, "spy_round_winner", name=name)
        if event.kind == "match_end":
            return tr(lang, "spy_totals", totals=self.scores_text(event.scores or ()))
        return ""

    def scores_text(self, scores: tuple[int, ...]) -> str:
        return ", ".join(f"{self.seat_name(p)} {s:+d}" for p, s in enumerate(scores))


def _text(kind: int | None) -> str | None:
    return None if kind is None else KIND_TEXT[kind]


def _padded(kind: int | None, lang: str, width: int) -> Text:
    """A card (or a dash for none), right-aligned in ``width`` columns."""
    text = Text("-", style="dim") if kind is None else card_text(KIND_TEXT[kind], lang)
    return Text(" " * (width - len(text.plain))) + text


class RoundOverScreen(ModalScreen[None]):
    """A round's result; Enter goes on to the next round."""

    HELP: ClassVar[str] = "help_round_over"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(id="round-title")
            yield Static(id="round-body")
            yield Static(id="round-status", classes="panel")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        app = self.app
        assert isinstance(app, SpyApp)
        lang = app.lang
        table = app.table
        screen = app.screen_stack[-2] if len(app.screen_stack) > 1 else None
        names = screen.seat_name if isinstance(screen, SpyScreen) else table.names.__getitem__
        result = table.results[-1]
        self.query_one("#round-title", Static).update(
            Text(tr(lang, "spy_round_over_title", round=result.number), style="bold")
        )
        lines = [
            tr(lang, "spy_round_winner", name=names(result.finisher))
            if result.finisher is not None
            else tr(lang, "spy_round_nobody"),
            "",
            tr(
                lang,
                "spy_round_scores",
                scores=", ".join(f"{names(p)} {s:+d}" for p, s in enumerate(result.scores)),
            ),
            tr(
                lang,
                "spy_totals",
                totals=", ".join(f"{names(p)} {s}" for p, s in enumerate(table.totals)),
            ),
            "",
        ]
        if table.is_over:
            lines.append(
                tr(lang, "spy_match_over", names=", ".join(names(p) for p in table.winners()))
            )
        else:
            lines.append(tr(lang, "spy_next_round", round=result.number + 1))
        self.query_one("#round-body", Static).update("\n".join(lines))

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, TableApp)
        event.stop()
        if event.key == "enter":
            self.dismiss()
        elif event.key == "question_mark":
            app.push_screen(HelpScreen(self.HELP))
        elif event.key in ("r", "q"):
            app.common_key(event)
        elif event.key == "l":
            app.toggle_lang()
            self.redraw()
        else:
            self.query_one("#round-status", Static).update(
                tr(app.lang, "unknown_key", pressed=key_name(event), why="Enter")
            )
