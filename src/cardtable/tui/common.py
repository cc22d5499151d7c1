"""What both games' apps share: the table's clock, the help and rules screens, the
language switch, saving the record, and the keys that work everywhere (``?``, ``r``,
``l``, ``q`` — which asks first while a game is on).

Letter keys work by their place on the keyboard: with a Ukrainian layout on, the key
that types ``ф`` is the ``a`` key, ``і`` is ``s``, and so on (:data:`LAYOUT_KEYS`), so a
player never has to switch the layout to play.

The app's clock runs from 0 when the app starts (the table's match started at 0); the
app sleeps until the table's next wakeup (:meth:`TableApp.pump`), polling only while a
bot thinks in another thread or a pause counts down.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Markdown, Static

from cardtable.errors import CardtableError
from cardtable.record import dump_record
from cardtable.rules_text import rules_text
from cardtable.tui.driver import TableDriver
from cardtable.tui.i18n import game_title, other_lang, switch_label, tr, yes_keys

__all__ = [
    "LAYOUT_KEYS",
    "DialogScreen",
    "HelpScreen",
    "QuitScreen",
    "RulesScreen",
    "TableApp",
    "TableScreen",
    "TailLog",
    "fit_title",
    "key_name",
    "latin_key",
]

CSS = """
Screen { background: $background; }
#title { background: $primary; color: $text; text-style: bold; padding: 0 1; height: 1; }
#status { height: auto; min-height: 2; max-height: 5; padding: 0 1; color: $warning; }
#keys { height: 2; padding: 0 1; color: $text-muted; dock: bottom; }
#log { height: 1fr; padding: 0 1; color: $text-muted; }
.panel { padding: 0 1; height: auto; }
HelpScreen, HandoffScreen, RoundOverScreen, DealOverScreen, QuitScreen { align: center middle; }
HandoffScreen { background: $background; }  /* opaque: no hand shows through */
#dialog { width: 76; height: auto; max-height: 22; border: thick $primary;
          background: $surface; padding: 0 1; }
#rules { padding: 0 1; }
"""


#: The Ukrainian (ЙЦУКЕН) letters by the Latin letter on the same key of a QWERTY
#: keyboard, lower and upper case (the Russian ы shares the key of і). Only keys that
#: are letters in both layouts: the app's keys are letters and digits.
LAYOUT_KEYS: Final[dict[str, str]] = {
    cyrillic: latin
    for row_cyrillic, row_latin in (
        ("йцукенгшщз", "qwertyuiop"),
        ("фівапролд", "asdfghjkl"),
        ("ячсмить", "zxcvbnm"),
        ("ы", "s"),
    )
    for lower, latin_char in zip(row_cyrillic, row_latin, strict=True)
    for cyrillic, latin in ((lower, latin_char), (lower.upper(), latin_char.upper()))
}


def latin_key(event: events.Key) -> events.Key:
    """``event`` as the Latin letter on the same physical key (``і`` → ``s``), or
    ``event`` itself when it is not a letter of the Ukrainian layout."""
    latin = LAYOUT_KEYS.get(event.character) if event.character else None
    return event if latin is None else events.Key(latin, latin)


def key_name(event: events.Key) -> str:
    """A key as a person reads it (``p``, ``Enter``)."""
    if event.character and event.character.isprintable() and event.character != " ":
        return event.character
    return event.key.replace("_", " ").capitalize()


def fit_title(text: str, width: int) -> str:
    """A title line (parts joined by `` · ``) for ``width`` columns: while it is too
    wide its first part (the game's name) goes, so the deal or round, the race time
    and the score stay whole on a narrow terminal. ``width`` 0 (not laid out yet)
    leaves it as it is.

    >>> fit_title("Spy vs Spy · round 1 of 2 · score 0", 30)
    'round 1 of 2 · score 0'
    """
    parts = text.split(" · ")
    if width > 0 and len(text) > width and len(parts) > 2:
        return " · ".join(parts[1:])
    return text


class TailLog(Widget):
    """The newest lines of a log, as many as fit: the height is known only when the
    widget is drawn, after the panels above it have taken their room."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []

    def show(self, lines: list[str]) -> None:
        """Replace the lines (oldest first) and draw again."""
        self.lines = lines
        self.refresh()

    def render(self) -> Text:
        height = max(1, self.size.height)
        return Text("\n".join(self.lines[-height:]))


#: While a bot thinks in another thread, how often the app looks for its answer (s).
THINK_POLL: Final = 0.05
#: The shortest sleep between two looks at the table (s).
MIN_SLEEP: Final = 0.005


class TableApp(App[None]):
    """The base of both games' apps: the table's clock, language, record saving, help
    and rules.

    ``clock`` gives the table's time in seconds (by default the seconds since the app
    started); with ``auto`` false the app never looks at the table by itself (tests
    move their clock and call :meth:`pump`).
    """

    CSS = CSS
    #: The game's name, for the rules (``candidate`` or ``spy``).
    game: ClassVar[str] = ""

    def __init__(
        self,
        driver: TableDriver,
        *,
        lang: str = "en",
        save: str | Path | None = None,
        clock: Callable[[], float] | None = None,
        auto: bool = True,
    ) -> None:
        super().__init__()
        self.driver = driver
        self.lang = lang
        #: The language the app started in: the switch goes between it and English.
        self.home_lang = lang
        self.save_path = Path(save) if save is not None else None
        self.saved_to: Path | None = None
        self.auto = auto
        self._clock = clock
        self._started = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self.title = self.app_title()

    def app_title(self) -> str:
        """The app's title (a terminal may show it in its window's title bar): the
        game's title in the app's language."""
        return f"cardtable · {game_title(self.game, self.lang)}"

    def on_load(self) -> None:
        self._started = time.monotonic()

    async def on_event(self, event: events.Event) -> None:
        """Keys typed with the Ukrainian layout reach the screens as the Latin keys in
        the same places (:func:`latin_key`); a question (:class:`QuitScreen`) gets the
        letter as typed, since its yes key is a letter of the language («т», так)."""
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and not isinstance(self.screen, QuitScreen)
        ):
            event = latin_key(event)
        await super().on_event(event)

    def now(self) -> float:
        """The table's time now (seconds)."""
        if self._clock is not None:
            return self._clock()
        return time.monotonic() - self._started

    def pump(self) -> None:
        """Let the table's time pass to now (bots move, a pause ends), show what
        changed, and sleep until the table next needs a look."""
        now = self.now()
        self.driver.step(now)
        self.table_changed()
        self.sleep(now)

    def moved(self) -> None:
        """A person's move was accepted (or a pause ended at their key)."""
        self.table_changed()
        self.sleep(self.now())

    def sleep(self, now: float) -> None:
        """Wake up at the table's next wakeup; sooner while a bot thinks in another
        thread, or at the next whole second of a pause's or a start count's countdown."""
        if not self.auto:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        driver = self.driver
        waits = []
        wake = driver.next_wakeup()
        thinking = driver.thinking
        # A move already due waits for its bot's thought: look again when it may be done.
        if wake is not None and (wake > now or not thinking):
            waits.append(wake - now)
        if thinking:
            waits.append(THINK_POLL)
        hold = driver.hold_left(now)
        if hold:  # a pause's or a start count's countdown shows whole seconds
            waits.append(hold % 1.0 or 1.0)
        if waits:
            # The event loop's timer, not Textual's set_timer: a one-shot Textual timer
            # whose task starts later than its delay (a busy machine) drops its only
            # tick, and the table would never be looked at again.
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(max(MIN_SLEEP, min(waits)), self.call_next, self.pump)

    def table_changed(self) -> None:
        """Show the table as it is now (each game's app draws its screens)."""

    def record(self) -> dict[str, Any]:
        """The game so far as a record (``docs/records.md``)."""
        return self.driver.record()

    def on_unmount(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.driver.close()

    def save_record(self) -> str | None:
        """Write the record to ``--save`` (if given); return a line for the status."""
        if self.save_path is None:
            return None
        try:
            self.save_path.write_text(dump_record(self.record()), encoding="utf-8")
        except (OSError, CardtableError, TypeError, json.JSONDecodeError) as exc:
            return tr(self.lang, "save_failed", path=self.save_path, why=exc)
        self.saved_to = self.save_path
        return tr(self.lang, "saved", path=self.save_path)

    def toggle_lang(self) -> None:
        """Switch between English and the starting language (Ukrainian when that was
        English) and redraw every open screen."""
        self.lang = other_lang(self.lang, self.home_lang)
        self.title = self.app_title()
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.redraw()

    def common_key(self, event: events.Key) -> bool:
        """The keys every screen shares; True when ``event`` was one of them."""
        key = event.key
        if key == "question_mark":
            screen = self.screen
            help_key = screen.HELP if isinstance(screen, TableScreen) else "help_help"
            self.push_screen(HelpScreen(help_key))
        elif key == "r":
            self.push_screen(RulesScreen(self.game))
        elif key == "l":
            self.toggle_lang()
        elif key == "q":
            self.ask_to_quit()
        else:
            return False
        event.stop()
        return True

    def ask_to_quit(self) -> None:
        """``q``: leave at once when the match is over; during a game, ask first (one
        stray key must not end it)."""
        if self.driver.is_over:
            self.quit_game()
        elif not isinstance(self.screen, QuitScreen):
            self.push_screen(QuitScreen())

    def quit_game(self) -> None:
        """Save the record (a game stopped anywhere replays) and leave."""
        self.save_record()
        self.exit()


class TableScreen(Screen[None]):
    """A screen with its own help text and a :meth:`redraw` for the language switch."""

    #: The :func:`~cardtable.tui.i18n.tr` key of this screen's help.
    HELP: ClassVar[str] = "help_help"
    #: Its widgets are there to draw on (set when it mounts; Textual's ``is_mounted``
    #: turns true only after the mount handlers have run).
    composed: bool = False

    @property
    def table_app(self) -> TableApp:
        """The app, typed."""
        app = self.app
        assert isinstance(app, TableApp)
        return app

    @property
    def lang(self) -> str:
        """The language in use."""
        return self.table_app.lang

    def redraw(self) -> None:
        """Draw everything again (after the language or the game changed)."""


class HelpScreen(ModalScreen[None]):
    """The keys of the screen below, in the language in use."""

    HELP = "help_help"

    def __init__(self, help_key: str) -> None:
        super().__init__()
        self.help_key = help_key

    def compose(self) -> ComposeResult:
        app = self.app
        lang = app.lang if isinstance(app, TableApp) else "en"
        with Vertical(id="dialog"):
            yield Static(tr(lang, self.help_key), markup=False)
            yield Static(tr(lang, "close_hint"), classes="panel")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("escape", "question_mark", "enter", "q"):
            self.dismiss()


class DialogScreen(ModalScreen[None]):
    """A dialog over the table: a title, a body and a status line, with the ids
    ``PART-title``, ``PART-body`` and ``PART-status``."""

    #: The prefix of the parts' ids.
    PART: ClassVar[str] = "dialog"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(id=f"{self.PART}-title")
            yield Static(id=f"{self.PART}-body")
            yield Static(id=f"{self.PART}-status", classes="panel")


class QuitScreen(ModalScreen[None]):
    """ "Leave the game?": the language's yes key (:func:`~cardtable.tui.i18n.yes_keys`:
    «т» in Ukrainian, «j» in German, ``y`` in every language) or ``q`` again leaves
    (saving the record when ``--save`` was given), any other key goes back to the game.

    The yes letters are read as typed, not by their place on the keyboard: with the
    Ukrainian layout «т» (так) leaves and «н» (ні) goes back, though «н» sits on the
    ``y`` key. ``q`` is the quit key by its place, as everywhere in the app (``й``)."""

    def compose(self) -> ComposeResult:
        app = self.app
        assert isinstance(app, TableApp)
        lang = app.lang
        saved = app.save_path is not None
        with Vertical(id="dialog"):
            yield Static(Text(tr(lang, "quit_title"), style="bold"))
            yield Static(
                tr(lang, "quit_saves", path=app.save_path) if saved else tr(lang, "quit_lost")
            )
            yield Static(tr(lang, "quit_keys"), classes="panel")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        app = self.app
        assert isinstance(app, TableApp)
        self.dismiss()
        typed = (event.character or "").lower()
        if typed in yes_keys(app.lang) or latin_key(event).key.lower() == "q":
            app.quit_game()


class RulesScreen(TableScreen):
    """The rules of the game, as ``cardtable rules`` prints them, in the app."""

    HELP = "help_rules"

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with VerticalScroll(id="rules"):
            yield Markdown(id="rules-text")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#rules", VerticalScroll).focus()

    def redraw(self) -> None:
        try:
            text = rules_text(self.game, self.lang)
        except CardtableError as exc:
            text = str(exc)
        self.query_one("#title", Static).update(tr(self.lang, "rules_title"))
        self.query_one("#rules-text", Markdown).update(text)
        switch = switch_label(self.lang, self.table_app.home_lang)
        self.query_one("#keys", Static).update(tr(self.lang, "keys_rules", switch=switch))

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "r"):
            event.stop()
            self.dismiss()
        elif event.key in ("question_mark", "l", "q"):
            self.table_app.common_key(event)
