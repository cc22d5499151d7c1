"""The terminal app (``cardtable play``): Candidate and Spy vs Spy in a terminal.

Built on Textual; an optional extra (``pip install 'cardtable[tui]'``). Modules:

* :mod:`.candidate_table`, :mod:`.spy_table` — the tables: they own the engine's state,
  make every move through its checked ``apply`` and hand the screens views only.
* :mod:`.candidate_app`, :mod:`.spy_app` — the screens and their keys.
* :mod:`.common` — help, rules, language switch, record saving.
* :mod:`.players` — the bots the app seats (levels, speeds).
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
    from cardtable.tui.candidate_app import CandidateApp
    from cardtable.tui.candidate_table import CandidateTable
    from cardtable.tui.players import CandidateBot, make_candidate_bot

    if "rounds" in options:
        raise BadOptions("--rounds is for Spy; Candidate has --deals")
    if vs == "human":
        people = list(names) or ["Player 1", "Player 2"]
        if len(people) != 2:
            raise BadOptions(f"two people play at one keyboard: --names gives {len(people)}")
        bots: list[CandidateBot | None] = [None, None]
        hint = make_candidate_bot("medium", seed + 1)
    else:
        if len(names) > 1:
            raise BadOptions("against a bot, --names gives one name (yours)")
        people = [names[0] if names else "You", f"Bot ({vs})"]
        bots = [None, make_candidate_bot(vs, seed)]
        hint = make_candidate_bot(vs, seed + 1)
    table = CandidateTable.new(seed=seed, options=options, names=people, bots=bots, hint_bot=hint)
    return CandidateApp(table, lang=lang, save=save)


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

    from cardtable.games.spy.options import check_player_count
    from cardtable.tui.players import make_spy_racers
    from cardtable.tui.spy_app import SpyApp
    from cardtable.tui.spy_table import SpyTable

    if "deals" in options or "decks" in options:
        raise BadOptions("--deals and --decks are for Candidate; Spy has --rounds")
    try:
        check_player_count(players)
    except ValueError as exc:
        raise BadOptions(str(exc)) from None
    if len(names) > 1:
        raise BadOptions("one person races the bots: --names gives one name (yours)")
    racers = make_spy_racers(players - 1, bots, speeds, seed)
    seat_names = [names[0] if names else "You"]
    seat_names += [f"{r.label} {i}" for i, r in enumerate(racers, start=1)]
    # Searching bots may think for a while: in their own threads, the screen stays live.
    threads = ThreadPoolExecutor(max_workers=len(racers), thread_name_prefix="spy-bot")
    table = SpyTable.new(
        seed=seed, names=seat_names, racers=[None, *racers], options=options, executor=threads
    )
    return SpyApp(table, lang=lang, save=save)
