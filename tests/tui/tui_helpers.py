"""Helpers of the terminal-app tests: the screen as plain text, and players that
drive the apps through their keys, as a person would."""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Awaitable, Callable
from typing import ParamSpec

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from cardtable.cards import KIND_TEXT
from cardtable.games.spy.actions import (
    CALL,
    OPEN_POINTS,
    OPEN_WASTE,
    PLACE_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
)
from cardtable.games.spy.race import GreedyPolicy
from cardtable.games.spy.views import SeatWindow
from cardtable.tui.candidate_app import CandidateApp
from cardtable.tui.candidate_table import CandidateTable
from cardtable.tui.players import make_candidate_bot
from cardtable.tui.spy_app import SpyApp
from cardtable.tui.spy_table import SpyTable

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
) -> CandidateApp:
    """A one-deal Candidate app (a person against a bot of ``level``, or two people)."""
    bots = (None, None) if vs_human else (None, make_candidate_bot(level, seed))
    names = ("Ann", "Bob") if vs_human else ("You", f"Bot ({level})")
    table = CandidateTable.new(
        seed=seed,
        options={"deals": deals},
        names=names,
        bots=bots,
        hint_bot=make_candidate_bot("easy", seed + 1),
    )
    return CandidateApp(table, lang=lang, save=save, bot_delay=0)  # type: ignore[arg-type]


async def settle(pilot: Pilot[None], app: CandidateApp) -> None:
    """Wait until the bot (if it has the move) has moved and the screen is quiet."""
    await pilot.pause()
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.table.bot_to_move:
            return
    raise AssertionError("the bot never moved")


def keys_for(app: CandidateApp, seat: int) -> list[str]:
    """The keys a person presses for a sensible move: the longest play, else pass,
    else the first pile the engine allows."""
    view = app.table.view(seat)
    moves = view.legal_moves
    plays = [m.split()[1:] for m in moves if m.startswith("play")]
    if plays:
        cards = max(plays, key=len)
        hand = list(view.hand or ())
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
    seed: int = 4, *, rounds: int = 1, save: object = None, players: int = 2
) -> tuple[SpyApp, list[float]]:
    """A Spy app against slow greedy bots, with a clock the test moves."""
    from cardtable.tui.players import make_spy_racers

    table = SpyTable.new(
        seed=seed,
        names=("You", *(f"greedy {i}" for i in range(1, players))),
        racers=[None, *make_spy_racers(players - 1, ["greedy"], ["slow"], seed)],
        options={"rounds": rounds},
    )
    now = [0.0]
    app = SpyApp(table, clock=lambda: now[0], tick=None, save=save)  # type: ignore[arg-type]
    return app, now


def spy_keys(local: int, pile_count: int) -> list[str]:
    """The keys of a local Spy move (the greedy policy's choice) for a person."""
    if local == TURN:
        return ["space"]
    if local == CALL:
        return ["c"]
    if local == RESIGN:
        return ["x", "x"]
    if PLACE_POINTS <= local < PLACE_WASTE:
        return [str(local - PLACE_POINTS + 1)]
    if PLACE_WASTE <= local < OPEN_POINTS:
        return ["w", str(local - PLACE_WASTE + 1)]
    if local in (OPEN_POINTS, OPEN_WASTE):
        keys = [str(pile_count + 1)]
        return keys if local == OPEN_POINTS else ["w", *keys]
    raise AssertionError(f"unknown move {local}")


def greedy_local(app: SpyApp) -> int:
    """What the greedy policy would do in the person's seat (a test's stand-in for a
    person's judgement; it reads the seat only through a public window)."""
    table = app.table
    state = table._state
    seat = state.seats[table.human]
    legal = state.legal_actions(table.human)
    return GreedyPolicy().choose(SeatWindow(seat), legal) - seat.base


def labels(kinds: list[int]) -> list[str]:
    """Card kinds as plain text."""
    return [KIND_TEXT[k] for k in kinds]
