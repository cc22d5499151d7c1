"""``cardtable play spy``: a Spy vs Spy race in real time against bots, all by keys.

One key per pile (``1``-``6``), one to turn (space), one to call (``c``); the others'
positions update live as the bots race at their speeds. The race is the shared table's
(:class:`~cardtable.tui.driver.TableDriver` around :class:`cardtable.table.Table`): the
bots' move times, the 3-2-1 count before each round, the race time and the pause between
rounds (with the engine's account of how the round ended) are the server's. The screen is drawn
from the person's view of the match only: pile tops, the points-pile top, the waste top
and the sizes of the face-down stacks — never a hidden card (S4-S5 in
``docs/rules/spy.en.md``). Keys become moves in the record's notation
(``docs/records.md``: ``turn``, ``place points 3``, ``open waste``, ``call``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtable.games.spy.actions import MAX_PILES
from cardtable.glossary import term
from cardtable.messages import plural, render
from cardtable.tui.common import (
    HelpScreen,
    TableApp,
    TableScreen,
    TailLog,
    fit_title,
    key_name,
)
from cardtable.tui.driver import TableDriver
from cardtable.tui.i18n import card_label, card_text, game_title, refusal_text, switch_label, tr

__all__ = ["RoundOverScreen", "SpyApp", "SpyScreen", "pile_moves"]

_LOG_LINES = 30
#: The keys that make a move at once (a pile, turn, call): during a pause the table
#: refuses them and the result screen says why.
MOVE_KEYS: Final = frozenset({"1", "2", "3", "4", "5", "6", "space", "t", "c"})

#: One player's public position as the match's view gives it (S4-S5).
PublicSeat = Mapping[str, Any]


def race_clock(seconds: float) -> str:
    """A race time as m:ss.

    >>> race_clock(75.4)
    '1:15'
    """
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def pile_moves(number: int, piles: int, from_waste: bool) -> list[str] | None:
    """The moves a pile key may mean, the preferred first: the points-pile top onto
    pile ``number`` when it fits (S6-S7), else the waste top; the number after the
    last of ``piles`` piles opens a new one (S8). ``None``: there is no such pile.

    >>> pile_moves(2, 4, False), pile_moves(5, 4, True), pile_moves(6, 4, False)
    (['place points 2', 'place waste 2'], ['open waste'], None)
    """
    if number > piles + 1 or number > MAX_PILES:
        return None
    if number == piles + 1:
        return ["open waste"] if from_waste else ["open points", "open waste"]
    waste = f"place waste {number}"
    return [waste] if from_waste else [f"place points {number}", waste]


class SpyApp(TableApp):
    """The Spy app around a :class:`~cardtable.tui.driver.TableDriver` (see
    :class:`~cardtable.tui.common.TableApp` for ``clock`` and ``auto``)."""

    game = "spy"

    def __init__(
        self,
        driver: TableDriver,
        *,
        lang: str = "en",
        save: str | Path | None = None,
        clock: Callable[[], float] | None = None,
        auto: bool = True,
    ) -> None:
        super().__init__(driver, lang=lang, save=save, clock=clock, auto=auto)
        #: The person racing the bots.
        self.me = driver.people[0]
        #: Rounds whose result the person has been shown.
        self.results_seen = 0
        #: The note shown once the match is over (where the record was saved).
        self.finished_note = ""
        #: Whether the table was counting down to a race at the last look.
        self.was_counting = False

    def on_mount(self) -> None:
        self.push_screen(SpyScreen())
        self.pump()
        if self.auto:
            self.set_interval(1.0, self.show_race_time)

    def show_race_time(self) -> None:
        """Redraw the title, so the race time goes on by the second."""
        self.spy_screen.redraw_title()

    def table_changed(self) -> None:
        """Show a round's result when one has just ended; take it away when the pause
        is over; redraw."""
        finished = len(self.driver.view(self.me)["finishers"])
        over_screen = next((s for s in self.screen_stack if isinstance(s, RoundOverScreen)), None)
        if finished > self.results_seen:
            self.results_seen = finished
            if self.driver.is_over:
                self.finished_note = self.save_record() or ""
            if over_screen is None:
                self.push_screen(RoundOverScreen())
        elif over_screen is not None and not self.driver.paused and not self.driver.is_over:
            over_screen.dismiss()  # the next round is on: what was said in the pause is old
            self.spy_screen.status = ""
        counting = self.driver.counting
        if self.was_counting and not counting:
            self.spy_screen.status = render("race.go", {}, self.lang)  # S17: the race is on
        self.was_counting = counting
        for screen in self.screen_stack:
            if isinstance(screen, SpyScreen | RoundOverScreen):
                screen.redraw()

    def seat_name(self, seat: int | None) -> str:
        """A player's name as the person reads it: "You" for themselves, a bot by its
        seat in the language («Бот 1»: short, to fit the live rows of a race), with its
        kind when the bots at the table differ («Бот 2 (planner)»)."""
        if seat is None:
            return "-"
        if seat == self.me:
            return tr(self.lang, "you")
        seats = self.driver.table.seats
        level = seats[seat].bot_level
        if level is None:
            return self.driver.names[seat]
        name = f"{term('bot', self.lang)} {seat}"
        if len({s.bot_level for s in seats if s.bot_level is not None}) == 1:
            return name
        try:
            kind = term(f"level.{level}", self.lang)
        except KeyError:  # a bot spec that is not a level (greedy, planner:16) stays as it is
            kind = level
        return f"{name} ({kind})"

    @property
    def spy_screen(self) -> SpyScreen:
        """The race screen (under any dialog)."""
        return next(s for s in self.screen_stack if isinstance(s, SpyScreen))


def card_box(card: str | None, lang: str, caption: str, count: int) -> list[Text]:
    """Five rows, seven columns: a caption, a three-row card, and the stack's size. An
    empty place is drawn dashed; a face-down stack (``card`` None, ``count`` > 0) shows
    its size inside. A caption longer than the box is cut with a dot (Polish «odrzutki»:
    «odrz.»), not in the middle of the word."""
    if len(caption) > 6:
        caption = caption[:4].rstrip() + "."
    head = Text(f"{caption:^6} ", style="bold")
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
    def spy_app(self) -> SpyApp:
        """The app, typed."""
        app = self.app
        assert isinstance(app, SpyApp)
        return app

    @property
    def driver(self) -> TableDriver:
        """The table's driver."""
        return self.spy_app.driver

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="mine", classes="panel")
        yield Static(id="others", classes="panel")
        yield TailLog(id="log")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.composed = True
        self.redraw()

    # -- keys ---------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if self.table_app.common_key(event):
            return
        event.stop()
        self.press(event.key, key_name(event))
        self.redraw()

    def press(self, key: str, pressed: str) -> None:
        """What a key does; the status line says why when it does nothing."""
        resign_pending, self.confirm_resign = self.confirm_resign, False
        prefix, self.waste_prefix = self.waste_prefix, False
        if self.driver.is_over:
            self.status = tr(self.lang, "unknown_key", pressed=pressed, why=self.over_text())
        elif key in ("1", "2", "3", "4", "5", "6"):
            self.pile_key(int(key), prefix)
        elif key == "w":
            self.waste_prefix = True
            self.status = tr(self.lang, "spy_waste_prefix")
        elif key in ("space", "t"):
            self.move(["turn"])
        elif key == "c":
            self.move(["call"])
        elif key == "x":
            if resign_pending:
                self.move(["resign"])
            else:
                self.confirm_resign = True
                self.status = tr(self.lang, "spy_confirm_resign")
        else:
            why = tr(self.lang, "unknown_key_why")
            self.status = tr(self.lang, "unknown_key", pressed=pressed, why=why)

    def over_text(self) -> str:
        return tr(self.lang, "spy_title_over", game=game_title("spy", self.lang))

    def pile_key(self, number: int, from_waste: bool) -> None:
        """A pile key: the first of its moves that is legal, or the first one (refused
        with the engine's reason)."""
        seats = self.driver.view(self.spy_app.me)["seats"]
        count = len(seats[self.spy_app.me]["piles"]) if seats else 0
        moves = pile_moves(number, count, from_waste)
        if moves is None:
            key = "spy_no_more_piles" if count >= MAX_PILES else "spy_no_pile"
            self.status = tr(self.lang, key, n=number, count=count, next=count + 1)
            return
        self.move(moves)

    def move(self, moves: list[str]) -> None:
        """The person's move: the first of ``moves`` that is legal now, else the first
        (the table says why not). A refusal goes to the status line."""
        me = self.spy_app.me
        legal = set(self.driver.legal_moves(me))
        move = next((m for m in moves if f"{me} {m}" in legal), moves[0])
        refusal = self.driver.play(me, move, self.spy_app.now())
        self.status = "" if refusal is None else refusal_text(refusal, self.lang)
        if refusal is None:
            self.spy_app.moved()

    # -- drawing ------------------------------------------------------------------------

    def redraw(self) -> None:
        if not self.composed:
            return
        lang = self.lang
        me = self.spy_app.me
        view = self.driver.view(me)
        self.redraw_title(view)
        seats = view["seats"]
        mine = seats[me] if seats else None
        self.query_one("#mine", Static).update(self.mine_text(mine))
        self.query_one("#others", Static).update(self.others_text(seats, view["totals"]))
        self.query_one("#log", TailLog).show(self.log_lines())
        status = Text(self.prompt(mine), style="bold")
        if self.status:
            status.append("\n" + self.status, style="")
        self.query_one("#status", Static).update(status)
        switch = switch_label(lang, self.table_app.home_lang)
        keys = tr(lang, "keys_spy") + "\n" + tr(lang, "keys_common", switch=switch)
        self.query_one("#keys", Static).update(keys)

    def redraw_title(self, view: Mapping[str, Any] | None = None) -> None:
        """The title line (the race time in it runs by the second)."""
        if not self.composed:
            return
        view = view if view is not None else self.driver.view(self.spy_app.me)
        title = self.query_one("#title", Static)
        title.update(fit_title(self.title_text(view), title.size.width))

    def title_text(self, view: Mapping[str, Any]) -> str:
        lang = self.lang
        if self.driver.is_over:
            head = self.over_text()
        else:
            game = game_title("spy", lang)
            head = tr(lang, "spy_title", game=game, round=view["round"], rounds=view["rounds"])
        total = view["totals"][self.spy_app.me]
        clock = race_clock(self.driver.race_time(self.spy_app.now()))
        race = render("race.time", {"time": clock}, lang)
        return f"{head} · {race} · {tr(lang, 'spy_your_total', total=total)}"

    def prompt(self, mine: PublicSeat | None) -> str:
        lang = self.lang
        if self.driver.is_over or mine is None:
            return self.over_text()
        if self.driver.paused:
            seconds = round(self.driver.pause_left(self.spy_app.now()))
            return tr(lang, "spy_pause", round=self.spy_app.results_seen + 1, seconds=seconds)
        if self.driver.counting:  # S17: everyone starts together
            seconds = math.ceil(self.driver.count_left(self.spy_app.now()))
            return render("race.count", {"seconds": seconds}, lang)
        if mine["resigned"]:
            return tr(lang, "spy_status_resigned")
        if mine["blocked"]:
            return tr(lang, "spy_status_blocked")
        if mine["points_count"] == 0:
            return tr(lang, "spy_status_call")
        return tr(lang, "spy_status")

    def mine_text(self, mine: PublicSeat | None) -> Text:
        lang = self.lang
        if mine is None:
            return Text(self.over_text())
        boxes = [
            card_box(mine["points_top"], lang, tr(lang, "points"), mine["points_count"]),
            card_box(mine["waste_top"], lang, tr(lang, "waste"), mine["waste_count"]),
            card_box(None, lang, tr(lang, "deck"), mine["deck_count"]),
            [Text("  ")] * 5,
        ]
        piles = mine["piles"]
        for i, pile in enumerate(piles):
            boxes.append(card_box(pile["top"], lang, str(i + 1), pile["size"]))
        if len(piles) < MAX_PILES:
            boxes.append(card_box(None, lang, f"{len(piles) + 1} {tr(lang, 'new_pile')}", 0))
        rows = [Text("").join(box[row] for box in boxes) for row in range(5)]
        moves = plural(mine["moves"], tr(lang, "moves"), lang)
        head = Text(f"{tr(lang, 'your_table')} · {moves} · ", "bold")
        return Text("\n").join([head + self.seat_state(mine), *rows])

    def seat_state(self, seat: PublicSeat) -> Text:
        lang = self.lang
        if seat["called"]:
            return Text(tr(lang, "called"), style="bold reverse")
        if seat["resigned"]:
            return Text(tr(lang, "resigned"), style="dim")
        if seat["blocked"]:
            return Text(tr(lang, "blocked"), style="italic")
        return Text(tr(lang, "racing"))

    def others_text(self, seats: list[PublicSeat], totals: list[int]) -> Text:
        """One live line per other player under a header of the columns."""
        lines = [Text(f"{'':<11}" + tr(self.lang, "spy_others_head"), style="dim")]
        me = self.spy_app.me
        lines += [self.other_line(s, totals[s["player"]]) for s in seats if s["player"] != me]
        return Text("\n").join(lines)

    def other_line(self, seat: PublicSeat, total: int) -> Text:
        lang = self.lang
        out = Text(f"{self.spy_app.seat_name(seat['player'])[:10]:<10} ", style="bold")
        out.append(f"{seat['points_count']:>3} ")
        out.append_text(_padded(seat["points_top"], lang, 3))
        out.append(" │ ")
        piles = Text(" ").join(card_text(pile["top"], lang) for pile in seat["piles"])
        piles.pad_right(23 - len(piles.plain))
        out.append_text(piles)
        out.append(" │ ")
        out.append_text(_padded(seat["waste_top"], lang, 5))
        out.append(f" {seat['deck_count']:>4} {seat['moves']:>5} {total:>5}  ")
        out.append_text(self.seat_state(seat))
        return out

    def log_lines(self) -> list[str]:
        """The newest moves at the table (every Spy event is public)."""
        log = self.driver.log(self.spy_app.me)
        shown = [e for e in log[-_LOG_LINES:] if e["type"] not in ("deal", "reveal")]
        return [self.event_line(e) for e in shown]

    def event_line(self, event: Mapping[str, Any]) -> str:
        lang = self.lang
        event_type = event["type"]
        name = self.spy_app.seat_name(event.get("player"))
        card = card_label(event["card"], lang) if "card" in event else ""
        if event_type in ("turn", "place", "open", "call", "resign", "blocked"):
            return f"{name}: " + tr(lang, f"ev_{event_type}", card=card, pile=event.get("pile"))
        if event_type == "round_end":
            if event.get("player") is None:
                return tr(lang, "spy_round_nobody")
            return tr(lang, "spy_round_winner", name=name)
        if event_type == "match_end":
            return tr(lang, "spy_totals", totals=self.scores_text(event.get("scores", ())))
        return ""

    def scores_text(self, scores: list[int]) -> str:
        return ", ".join(f"{self.spy_app.seat_name(p)} {s:+d}" for p, s in enumerate(scores))


def _padded(card: str | None, lang: str, width: int) -> Text:
    """A card (or a dash for none), right-aligned in ``width`` columns."""
    text = Text("-", style="dim") if card is None else card_text(card, lang)
    return Text(" " * (width - len(text.plain))) + text


class RoundOverScreen(ModalScreen[None]):
    """A round's result while the table pauses: the countdown to the next round, and
    Enter to go on now (the person is ready). After the last round, the match's result."""

    HELP: ClassVar[str] = "help_round_over"
    #: Its widgets are there to draw on (see :attr:`TableScreen.composed`).
    composed: bool = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(id="round-title")
            yield Static(id="round-body")
            yield Static(id="round-status", classes="panel")

    def on_mount(self) -> None:
        self.composed = True
        self.redraw()

    @property
    def spy_app(self) -> SpyApp:
        """The app, typed."""
        app = self.app
        assert isinstance(app, SpyApp)
        return app

    def redraw(self) -> None:
        if not self.composed:
            return
        app = self.spy_app
        lang = app.lang
        driver = app.driver
        names = app.seat_name
        # The engine's account of the round: who called «finished» (S10), or that it was
        # blocked (S12) or left by everyone (S13); its scores (S14) and the totals.
        segment = driver.match.segment_results()[-1]
        number = segment.number
        self.query_one("#round-title", Static).update(
            Text(tr(lang, "spy_round_over_title", round=number), style="bold")
        )
        ending = render(f"race.{segment.ending}", {"name": names(segment.ended_by)}, lang)
        clock = race_clock(driver.race_time(app.now()))
        lines = [
            f"{ending}. {render('race.time', {'time': clock}, lang)}",
            "",
            tr(
                lang,
                "spy_round_scores",
                scores=", ".join(f"{names(p)} {s:+d}" for p, s in enumerate(segment.scores)),
            ),
            tr(
                lang,
                "spy_totals",
                totals=", ".join(f"{names(p)} {s}" for p, s in enumerate(segment.totals)),
            ),
            "",
        ]
        if driver.is_over:
            winners = driver.match.result().winners
            lines.append(tr(lang, "spy_match_over", names=", ".join(names(p) for p in winners)))
            if app.finished_note:
                lines.append(app.finished_note)
        else:
            seconds = round(driver.pause_left(app.now()))
            lines.append(tr(lang, "spy_next_round", round=number + 1, seconds=seconds))
        self.query_one("#round-body", Static).update("\n".join(lines))

    def on_key(self, event: events.Key) -> None:
        app = self.spy_app
        event.stop()
        status = self.query_one("#round-status", Static)
        if event.key == "enter":
            if app.driver.is_over:
                self.dismiss()
            elif app.driver.ready(app.now()):
                app.moved()
        elif event.key == "question_mark":
            app.push_screen(HelpScreen(self.HELP))
        elif event.key in ("r", "q"):
            app.common_key(event)
        elif event.key == "l":
            app.toggle_lang()
            self.redraw()
        elif event.key in MOVE_KEYS and not app.driver.is_over:
            # A move now is the table's to refuse: the round is over, the next not begun.
            screen = app.spy_screen
            screen.press(event.key, key_name(event))
            status.update(screen.status)
        else:
            status.update(tr(app.lang, "unknown_key", pressed=key_name(event), why="Enter"))
