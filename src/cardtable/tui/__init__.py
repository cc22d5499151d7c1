"""The terminal app (``cardtable play``): Candidate and Spy vs Spy in a terminal.

Built on Textual; an optional extra (``pip install 'cardtable[tui]'``). Modules:

* :mod:`.driver` — the app's driver of the shared :class:`cardtable.table.Table` (the
  server's table authority): it seats the people and the bots, runs the bots when the
  table says their move is due and submits every move to the table.
* :mod:`.spy_app` — the Spy race screen, the round's result and the pause's countdown.
* :mod:`.candidate_app` — the Candidate screen's flow and keys; :mod:`.candidate_panels`
  draws its panels; :mod:`.candidate_words` words its moves and events.
* :mod:`.common` — the app's clock, help, rules, language switch, record saving.
* :mod:`.i18n` — every string in English and Ukrainian; cards for display.

:func:`build_app` makes the app the command line runs.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardtable.errors import BadOptions
from cardtable.tui.common import TableApp

__all__ = ["build_app"]


def build_app(
    game: str,
    *,
    vs: str = "medium",
    players: int = 2,
    bots: Sequence[str] = ("greedy",),
    speeds: Sequence[str] = ("steady",),
    lang: str = "en",
    save: str | Path | None = None,
    seed: int | None = None,
    names: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
) -> TableApp:
    """The app for ``game`` with the command line's choices.

    Raises :class:`~cardtable.errors.BadOptions` (or another ``ValueError``) for
    choices that do not fit: an unknown bot or level, a bad speed, a wrong count.
    """
    seed = secrets.randbelow(2**31) if seed is None else seed
    options = dict(options or {})
    if game == "candidate":
        return _candidate(vs, lang, save, seed, names, options)
    if game == "spy":
        return _spy(players, bots, speeds, lang, save, seed, names, options)
    raise BadOptions(f"unknown game {game!r}: expected candidate or spy")


def _candidate(
    vs: str,
    lang: str,
    save: str | Path | None,
    seed: int,
    names: Sequence[str],
    options: dict[str, Any],
) -> TableApp:
    from concurrent.futures import ThreadPoolExecutor

    from cardtable.tui.candidate_app import CandidateApp
    from cardtable.tui.driver import TableDriver

    if "rounds" in options:
        raise BadOptions("--rounds is for Spy; Candidate has --deals")
    if vs == "human":
        people = list(names) or ["Player 1", "Player 2"]
        if len(people) != 2:
            raise BadOptions(f"two people play at one keyboard: --names gives {len(people)}")
        seats: list[str | None] = [None, None]
        hint = "medium"
    else:
        if len(names) > 1:
            raise BadOptions("against a bot, --names gives one name (yours)")
        people = [names[0] if names else "You", f"Bot ({vs})"]
        seats = [None, vs]
        hint = vs
    # A searching bot may think for a while: in its own thread, the screen stays live.
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="candidate-bot")
    driver = TableDriver(
        "candidate",
        seed=seed,
        names=people,
        bots=seats,
        options=options,
        executor=thread,
        hint=hint,
    )
    return CandidateApp(driver, lang=lang, save=save)


def _spy(
    players: int,
    bots: Sequence[str],
    speeds: Sequence[str],
    lang: str,
    save: str | Path | None,
    seed: int,
    names: Sequence[str],
    options: dict[str, Any],
) -> TableApp:
    from concurrent.futures import ThreadPoolExecutor

    from cardtable.bots.registry import parse_bot_spec
    from cardtable.games.registry import find_game
    from cardtable.table import parse_speed
    from cardtable.tui.driver import TableDriver
    from cardtable.tui.spy_app import SpyApp

    if "deals" in options or "decks" in options:
        raise BadOptions("--deals and --decks are for Candidate; Spy has --rounds")
    info = find_game("spy").info
    if not info.min_players <= players <= info.max_players:
        raise BadOptions(
            f"Spy vs Spy is played by {info.min_players} to {info.max_players} players, "
            f"not {players}"
        )
    if len(names) > 1:
        raise BadOptions("one person races the bots: --names gives one name (yours)")
    if not bots or not speeds:
        raise BadOptions("name at least one bot and one speed")
    count = players - 1
    # Given per bot, the last one repeated for the rest.
    specs = [parse_bot_spec("spy", bots[min(i, len(bots) - 1)]) for i in range(count)]
    paces = [parse_speed(speeds[min(i, len(speeds) - 1)]) for i in range(count)]
    seat_names = [names[0] if names else "You"]
    seat_names += [f"{spec.label} {i}" for i, spec in enumerate(specs, start=1)]
    # Searching bots may think for a while: in their own threads, the screen stays live.
    threads = ThreadPoolExecutor(max_workers=count, thread_name_prefix="spy-bot")
    driver = TableDriver(
        "spy",
        seed=seed,
        names=seat_names,
        bots=[None, *(spec.label for spec in specs)],
        speeds=[None, *paces],
        options=options,
        executor=threads,
    )
    return SpyApp(driver, lang=lang, save=save)
