"""Helpers of the terminal-app tests: the screen as plain text, and players that
drive the apps through their keys, as a person would."""

from __future__ import annotations

import asyncio
import functools
import io
import time
from collections.abc import Awaitable, Callable
from typing import ParamSpec

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from cardtable.bots.seat import SeatBot
from cardtable.table import Pacing
from cardtable.tui.candidate_app import CandidateApp
from cardtable.tui.driver import TableDriver
from cardtable.tui.spy_app import SpyApp, SpyScreen

P = ParamSpec("P")


def sync(test: Callable[P, Awaitable[None]]) -> Callable[P, None]:
    """Run an async test body in its own event loop (pilot tests are coroutines)."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        async def body() -> None:
            await test(*args, **kwargs)

        asyncio.run(body())

    return run


def screen_text(app: App[None]) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


def candidate_app(
    seed: int = 3,
    *,
    vs_human: bool = False,
    level: str = "easy",
    lang: str = "en",
    save: object = None,
    deals: int = 1,
    pacing: Pacing | None = None,
) -> CandidateApp:
    """A one-deal Candidate app (a person against a bot of ``level``, or two people);
    the bot moves at once (no turn delay) and thinks on the spot."""
    driver = TableDriver(
        "candidate",
        seed=seed,
        names=("Ann", "Bob") if vs_human else ("You", f"Bot ({level})"),
        bots=(None, None) if vs_human else (None, level),
        options={"deals": deals},
        pacing=pacing or Pacing(turn_delay=0),
        hint="easy",
    )
    return CandidateApp(driver, lang=lang, save=save)  # type: ignore[arg-type]


#: How long :func:`settle` waits for a bot's move at most: only a broken app takes this
#: long (the bot moves at once; a busy machine may only run the app's timer late).
SETTLE_GUARD = 120.0


async def settle(pilot: Pilot[None], app: CandidateApp) -> None:
    """Wait until the bot (if it has the move) has moved and the screen is quiet (or
    the table pauses after a deal: nobody moves until the people go on).

    The app moves the bot from a timer, so this waits for the condition, however many
    looks it takes, not for a count of looks that a busy machine may outrun."""
    await pilot.pause()
    deadline = time.monotonic() + SETTLE_GUARD
    while True:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.driver.bot_to_move or app.driver.paused:
            return
        if time.monotonic() > deadline:
            # What the app was waiting for, so a failure on a busy machine says where
            # the bot's move was held up.
            driver = app.driver
            now = app.now()
            raise AssertionError(
                f"the bot never moved in {SETTLE_GUARD:.0f} s: app time {now:.2f}, "
                f"table wakeup {driver.next_wakeup()}, due bots "
                f"{driver.table.due_bots(now)}, thinking {driver.thinking}, "
                f"timer {app._timer!r}, screen {type(app.screen).__name__}"
            )


async def reach_play(pilot: Pilot[None], app: CandidateApp) -> None:
    """Make seat 0's sensible moves until its decision is a play (C6)."""
    while app.driver.view(0)["decision"] != "play":
        await pilot.press(*keys_for(app, 0))
        await settle(pilot, app)


def keys_for(app: CandidateApp, seat: int) -> list[str]:
    """The keys a person presses for a sensible move: the longest play, else pass,
    else the first pile the engine allows."""
    view = app.driver.view(seat)
    moves = view["legal_moves"]
    plays = [m.split()[1:] for m in moves if m.startswith("play")]
    if plays:
        cards = max(plays, key=len)
        hand = list(view["hand"] or ())
        keys = []
        for card in cards:
            index = hand.index(card)
            hand[index] = ""  # a copy of the same card (several decks) is another key
            keys.append(str(index + 1))
        return [*keys, "enter"]
    if "pass" in moves:
        return ["p"]
    return [moves[0].split()[1].lower()]


def spy_app(
    seed: int = 4,
    *,
    rounds: int = 1,
    save: object = None,
    players: int = 2,
    pacing: Pacing | None = None,
) -> tuple[SpyApp, list[float]]:
    """A Spy app against slow greedy bots, with a clock the test moves (the app never
    looks at the table by itself: the test calls :func:`spy_run`). The clock starts as
    the table's 3-2-1 count ends: the race is on."""
    driver = TableDriver(
        "spy",
        seed=seed,
        names=("You", *(f"greedy {i}" for i in range(1, players))),
        bots=(None, *["greedy"] * (players - 1)),
        speeds=(None, *[0.7] * (players - 1)),
        options={"rounds": rounds},
        pacing=pacing,
    )
    now = [driver.count_left(0.0)]
    app = SpyApp(driver, clock=lambda: now[0], auto=False, save=save)  # type: ignore[arg-type]
    return app, now


def spy_run(app: SpyApp, now: list[float], until: float) -> None:
    """Move the app's clock to ``until``, letting the table act at each moment it
    wakes up on the way (the bots' moves, a pause's end), as the running app does."""
    driver = app.driver
    while True:
        wake = driver.next_wakeup()
        if wake is None or wake > until:
            break
        now[0] = max(now[0], wake)
        app.pump()
    now[0] = until
    app.pump()


def spy_screen(app: SpyApp) -> SpyScreen:
    """The race screen (under any dialog)."""
    return app.spy_screen


def spy_keys(move: str, pile_count: int) -> list[str]:
    """The keys a person presses for a Spy move (``place waste 3``) with
    ``pile_count`` piles on the table."""
    words = move.split()
    if words[0] == "turn":
        return ["space"]
    if words[0] == "call":
        return ["c"]
    if words[0] == "resign":
        return ["x", "x"]
    if words[0] == "place":
        keys = [words[2]]
    elif words[0] == "open":
        keys = [str(pile_count + 1)]
    else:
        raise AssertionError(f"unknown move {move}")
    return keys if words[1] == "points" else ["w", *keys]


def greedy_move(app: SpyApp) -> str:
    """What the greedy bot would do in the person's seat (a test's stand-in for a
    person's judgement; it decides from the seat's information only), without the
    seat number."""
    match = app.driver.match
    me = app.me
    action = SeatBot.make("spy", "greedy", seed=0, seat=me).choose(match)
    texts = dict(zip(match.legal_actions(me), match.legal_moves(me), strict=True))
    return texts[action].partition(" ")[2]


def pile_count(app: SpyApp) -> int:
    """How many piles the person has."""
    return len(app.driver.view(app.me)["seats"][app.me]["piles"])
