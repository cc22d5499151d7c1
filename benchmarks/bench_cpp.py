"""Our compiled cores with the loop in C against OpenSpiel played wholly in C++:
``python -m benchmarks cpp [--quick] [--no-instructions]``.

The other engine benchmarks (``candidate``, ``spy``) drive every engine from one Python
loop, so the loop's own cost is in every figure. Here no Python runs between two moves
on either side:

* **OpenSpiel** — ``pyspiel.evaluate_bots`` plays a whole game in C++ with C++ uniform
  random bots (``pyspiel.make_uniform_random_bot``, one a player), dealing included (its
  chance nodes, sampled in C++): ``crazy_eights(players=2)`` against Candidate,
  ``solitaire`` (Klondike, one player) against Spy. ``evaluate_bots`` plays on the state
  it is given, so the player actions are counted afterwards from each game's
  ``full_history()`` (chance actions are not counted as work), outside the timing.
* **Ours** — the engine's recorded random playout (``engine.random_playout``: the
  compiled core's loop in C when it is the engine in use, the pure-Python loop of
  ``playout.py`` on the pure engine). A move is ``legal[int(uniform() * n)]`` with
  ``uniform`` the bound ``random.Random().random`` (a C function called from C); a
  forced move draws nothing.

  Candidate has no whole-game random playout in C from the start of a deal: a new
  match is dealt in Python (``new_initial_state``: the piles shuffled from the seed),
  and its first move, the dealer's choice of pile (C4), is one ``apply_action`` that the
  core hands to the pure engine (the core covers a one-deck deal once dealt, not the
  deal move). So a Candidate game here is ``new_initial_state`` (one-deal match), the
  deal move by ``apply_action`` (a random pile) and the playout in C to the end of the
  match; every move of the match is counted, the deal move included (about 135).
  A Spy game is one round between two players with the race runner's move cap, dealt
  by ``SpyState.deal`` (on the compiled core the seeded cards and the positions are
  made in C, ``games/spy/_deal.h``) and played out. A uniformly random Spy player
  resigns early (resigning is always legal), after about 7 moves, so Spy's whole-game
  figure is mostly dealing.

No side keeps its games while it is timed: a whole-game loop makes, plays and drops
each game, and the same games are played again from the same seeds after the timing to
count their actions; before each timed loop the heap is collected and frozen
(:func:`settled_heap`). Kept games would make Python's cyclic collector walk a growing
heap of our games (Python objects) inside the timing, a cost OpenSpiel's states (C++
objects, not tracked by it) never pay.

Two figures a side, each in its own loop:

* ``whole games`` — making and dealing the game, and playing it out; the player actions
  of the whole game counted;
* ``play only`` — the game made and dealt outside the timing, only the playout timed:
  ours from the first decision after the deal (Candidate: after the deal move; its
  moves counted without it), OpenSpiel's ``evaluate_bots`` from its first player
  decision (the chance nodes before it applied outside the timing; its later chance
  nodes, e.g. crazy_eights' draws and solitaire's turned cards, stay in the timing).

Rounds are paired as in :mod:`benchmarks.harness`: every loop runs once a round in an
order that rotates, and a ratio (ours / OpenSpiel's player actions a second) is the
median of the rounds' own ratios. The pure engine's ratio is printed too.

**Instructions** (``valgrind --tool=cachegrind``, ``PYTHONHASHSEED=0``): for each side a
fresh process plays a warm-up of :data:`WARM` games and then ``N`` whole games (the
same kind as ``whole games``, the actions not counted in it); the same process with
``N = 0`` is subtracted, and the difference is divided by the player actions of the
``N`` games, counted by playing the same seeded games again without valgrind. Instructions do not
move with the machine's load. Skipped with ``--no-instructions`` or when valgrind is
missing; ``--no-timing`` runs the instruction counts alone.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from benchmarks.harness import Rate, median_run, paired_ratio

CRAZY_EIGHTS = "crazy_eights(players=2)"
SOLITAIRE = "solitaire"
#: Warm-up games of an instruction count (a fresh process each count).
WARM = 20
#: Whether the sides count the player actions of the games they played (after the
#: timing). Off in a process counted by cachegrind: the count (OpenSpiel's
#: ``full_history()`` makes a Python object a step) would be counted as play.
COUNTING = True
#: Whether the ``play only`` loops play (off: they only deal, the base an instruction
#: count of the play alone subtracts).
PLAYING = True


# ------------------------------------------------------------------------ the sides


@contextmanager
def settled_heap() -> Iterator[None]:
    """Time a loop with only its own garbage to collect: the objects made before it (the
    dealt games of ``play only``, the modules) are collected once and then set aside
    from the cyclic collector (:func:`gc.freeze`), so a collection in the loop walks
    what the loop made, as it would in a program that plays and drops its games."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def openspiel_games(name: str, games: int, seed: int, play_only: bool) -> Rate:
    """``games`` games of OpenSpiel's ``name`` by ``evaluate_bots`` with uniform random
    C++ bots; with ``play_only`` the chance nodes before the first decision are applied
    before the timing (from a Python generator) and only ``evaluate_bots`` is timed.
    Whole games are timed without being kept, then played again (the same bots' seeds,
    the same games) to be counted."""
    import pyspiel

    game = pyspiel.load_game(name)
    players = game.num_players()
    evaluate = pyspiel.evaluate_bots
    new = game.new_initial_state

    def bots() -> list[Any]:
        return [pyspiel.make_uniform_random_bot(p, seed * 10 + p) for p in range(players)]

    if play_only:
        rng = random.Random(seed)
        starts = []
        for _ in range(games):
            state = new()
            while state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            starts.append(state)
        first = [len(s.history()) for s in starts]
        players_bots = bots()
        with settled_heap():
            begin = time.perf_counter()
            for i, state in enumerate(starts if PLAYING else ()):
                evaluate(state, players_bots, seed + i)
            seconds = time.perf_counter() - begin
        played = starts
    else:
        players_bots = bots()
        with settled_heap():
            begin = time.perf_counter()
            for i in range(games):
                evaluate(new(), players_bots, seed + i)
            seconds = time.perf_counter() - begin
        played = []
        if COUNTING:
            players_bots = bots()
            for i in range(games):
                state = new()
                evaluate(state, players_bots, seed + i)
                played.append(state)
        first = [0] * len(played)
    actions = chance = 0
    for state, skip in zip(played, first, strict=True):
        if not COUNTING:
            break
        for step in state.full_history()[skip:]:
            if step.player >= 0:
                actions += 1
            else:
                chance += 1
    return Rate(games, actions, chance, seconds)


def candidate_games(engine: str, games: int, seed: int, play_only: bool) -> Rate:
    """``games`` one-deal Candidate matches on ``engine``: made, the deal move by
    ``apply_action``, then the engine's random playout (module docstring). Whole games
    are timed without being kept, then played again from the same seeds to be counted."""
    from cardtable.games.candidate import GAME, CandidateOptions
    from cardtable.games.candidate import engine as engines

    options = CandidateOptions(deals=1)
    new = GAME.new_initial_state
    playout = engines.random_playout

    def whole(keep: list[Any] | None) -> float:
        uniform = random.Random(seed).random
        begin = time.perf_counter()
        for i in range(games):
            state = new(seed + i, options)
            legal = state.legal_actions()
            state.apply_action(legal[int(uniform() * len(legal))])
            playout(state, uniform)
            if keep is not None:
                keep.append(state)
        return time.perf_counter() - begin

    with engines.using(engine):
        if play_only:
            uniform = random.Random(seed).random
            starts = []
            for i in range(games):
                state = new(seed + i, options)
                legal = state.legal_actions()
                state.apply_action(legal[int(uniform() * len(legal))])
                starts.append(state)
            with settled_heap():
                begin = time.perf_counter()
                for state in starts if PLAYING else ():
                    playout(state, uniform)
                seconds = time.perf_counter() - begin
            played = starts
        else:
            with settled_heap():
                seconds = whole(None)
            played = []
            if COUNTING:
                whole(played)
    actions = 0
    for state in played if COUNTING and (PLAYING or not play_only) else ():
        if not state.is_terminal():
            raise RuntimeError("a Candidate playout stopped before the end of the match")
        actions += len(state.history[-1].moves) - play_only  # the deal move: not timed
    return Rate(games, actions, 0, seconds)


def spy_games(engine: str, games: int, seed: int, play_only: bool) -> Rate:
    """``games`` one-round Spy matches of two players on ``engine``: dealt, then the
    engine's random playout (module docstring). Whole games are timed without being
    kept, then played again from the same seeds to be counted."""
    from cardtable.games.spy import SpyOptions, SpyState
    from cardtable.games.spy import engine as engines
    from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT

    options = SpyOptions(rounds=1)
    deal = SpyState.deal
    playout = engines.random_playout

    def whole(keep: list[Any] | None) -> float:
        uniform = random.Random(seed).random
        begin = time.perf_counter()
        for i in range(games):
            state = deal(2, seed=seed + i, options=options, move_limit=DEFAULT_MOVE_LIMIT)
            playout(state, uniform)
            if keep is not None:
                keep.append(state)
        return time.perf_counter() - begin

    with engines.using(engine):
        if play_only:
            uniform = random.Random(seed).random
            starts = [
                deal(2, seed=seed + i, options=options, move_limit=DEFAULT_MOVE_LIMIT)
                for i in range(games)
            ]
            with settled_heap():
                begin = time.perf_counter()
                for state in starts if PLAYING else ():
                    playout(state, uniform)
                seconds = time.perf_counter() - begin
            played = starts
        else:
            with settled_heap():
                seconds = whole(None)
            played = []
            if COUNTING:
                whole(played)
    actions = sum(len(state.played_rounds()[-1][1]) for state in played) if COUNTING else 0
    return Rate(games, actions, 0, seconds)


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a name and how to play ``games`` games."""

    name: str
    run: Callable[[int, int, bool], Rate]
    games: int


def sides(quick: bool) -> dict[str, list[Side]]:
    """The sides of each comparison, OpenSpiel's first; the compiled side is left out
    when the core was not built."""
    from cardtable.games.candidate import engine as candidate_engines
    from cardtable.games.spy import engine as spy_engines

    scale = 5 if quick else 1
    found: dict[str, list[Side]] = {}
    for title, openspiel, ours, engines, counts in (
        ("candidate", CRAZY_EIGHTS, candidate_games, candidate_engines, (2000, 2000, 500)),
        ("spy", SOLITAIRE, spy_games, spy_engines, (600, 6000, 3000)),
    ):
        group = [
            Side(
                f"OpenSpiel {openspiel}",
                partial(openspiel_games, openspiel),
                counts[0] // scale,
            )
        ]
        names = [engines.COMPILED] if engines.available() else []
        for engine, games in zip([*names, engines.PURE], counts[2 - len(names) :], strict=True):
            group.append(
                Side(
                    f"{title} {engine}",
                    partial(ours, engine),
                    games // scale,
                )
            )
        found[title] = group
    return found


# ----------------------------------------------------------------------- the timing


def paired(group: list[Side], rounds: int, play_only: bool) -> dict[str, list[Rate]]:
    """Every side once a round (after a short warm-up each), the order rotating."""
    for side in group:
        side.run(max(1, side.games // 10), 10**6, play_only)
    runs: dict[str, list[Rate]] = {side.name: [] for side in group}
    for round_ in range(rounds):
        for k in range(len(group)):
            side = group[(round_ + k) % len(group)]
            runs[side.name].append(side.run(side.games, round_ * 100_000, play_only))
    return runs


def table(title: str, runs: dict[str, list[Rate]], baseline: str) -> list[str]:
    """Each side's median player actions/s and games/s, then each of ours against
    OpenSpiel's (paired-round medians)."""
    lines = [
        f"{title} — {len(runs[baseline])} paired rounds, medians",
        f"  {'side':<36} {'actions/s':>12} {'games/s':>10} {'actions/game':>13} "
        f"{'chance/game':>12}",
    ]
    for name, rates in runs.items():
        rate = median_run(rates)
        lines.append(
            f"  {name:<36} {rate.actions_per_second:>12,.0f} {rate.games_per_second:>10,.1f} "
            f"{rate.actions / rate.games:>13.1f} {rate.chance / rate.games:>12.1f}"
        )
    for name in runs:
        if name != baseline:
            lines.append(
                f"  ratio {name} / {baseline}: player actions/s "
                f"{paired_ratio(runs[name], runs[baseline]):.2f}, games/s "
                f"{paired_ratio(runs[name], runs[baseline], games=True):.2f}"
            )
    return lines


# ----------------------------------------------------------------- the instructions

#: Whole games of each instruction count (the quick mode plays a fifth).
COUNTS = {
    "crazy_eights": 1000,
    "candidate compiled": 1000,
    "candidate pure": 300,
    "solitaire": 300,
    "spy compiled": 3000,
    "spy pure": 3000,
}


#: What a counted process plays after the warm-up: whole games, dealt games played
#: out with the dealing outside the timing (``play only``), or those games dealt only.
MODES = ("whole", "play", "deal")


def count_games(side: str, games: int, mode: str = "whole") -> int:
    """Play :data:`WARM` whole games, then ``games`` games of ``side`` as ``mode`` (one
    of :data:`MODES`) says; the player actions of those games (what an instruction
    count divides by)."""
    global PLAYING
    kind, _, engine = side.partition(" ")
    run: Callable[[int, int, bool], Rate]
    if kind == "crazy_eights":
        run = partial(openspiel_games, CRAZY_EIGHTS)
    elif kind == "solitaire":
        run = partial(openspiel_games, SOLITAIRE)
    elif kind == "candidate":
        run = partial(candidate_games, engine)
    else:
        run = partial(spy_games, engine)
    run(WARM, 10**6, False)
    PLAYING = mode != "deal"
    return run(games, 0, mode != "whole").actions if games else 0


def instructions(command: list[str]) -> int:
    """The instructions ``command`` ran under cachegrind (``I refs``)."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            *command,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


@dataclass(frozen=True)
class Count:
    """One side's instruction counts: whole games, and the play alone."""

    games: int
    actions: int
    per_action: float
    play_actions: int
    per_play_action: float


def instruction_counts(quick: bool) -> dict[str, Count]:
    """Per side: the games counted, their player actions and the instructions a player
    action, of whole games and of the play alone (module docstring)."""
    from cardtable.games.candidate import engine as candidate_engines

    results = {}
    for side, games in COUNTS.items():
        if side.endswith("compiled") and not candidate_engines.available():
            continue
        games //= 5 if quick else 1
        base = [sys.executable, "-m", "benchmarks.bench_cpp", "--count", side]
        whole = instructions([*base, str(games), "whole"]) - instructions([*base, "0", "whole"])
        play = instructions([*base, str(games), "play"]) - instructions([*base, str(games), "deal"])
        # The same games (the same seeds) counted here, not under valgrind.
        actions = count_games(side, games)
        play_actions = count_games(side, games, "play")
        results[side] = Count(games, actions, whole / actions, play_actions, play / play_actions)
    return results


def instruction_lines(counts: dict[str, Count]) -> list[str]:
    """The instruction table and the ratios (OpenSpiel's instructions / ours)."""
    lines = [
        "cpp: instructions a player action (valgrind --tool=cachegrind, PYTHONHASHSEED=0, "
        f"after {WARM} warm-up games): whole games less the warm-up alone; play only less "
        "the same games dealt only",
        f"  {'side':<22} {'games':>6} {'actions':>9} {'a whole-game action':>20} "
        f"{'play actions':>13} {'a play action':>14}",
    ]
    for side, c in counts.items():
        lines.append(
            f"  {side:<22} {c.games:>6,} {c.actions:>9,} {c.per_action:>20,.0f} "
            f"{c.play_actions:>13,} {c.per_play_action:>14,.0f}"
        )
    for ours, theirs in (
        ("candidate compiled", "crazy_eights"),
        ("candidate pure", "crazy_eights"),
        ("spy compiled", "solitaire"),
        ("spy pure", "solitaire"),
    ):
        if ours in counts and theirs in counts:
            lines.append(
                f"  {theirs} / {ours}, instructions a player action (above 1: ours fewer): "
                f"whole games {counts[theirs].per_action / counts[ours].per_action:.2f}, "
                f"play only {counts[theirs].per_play_action / counts[ours].per_play_action:.2f}"
            )
    return lines


# ---------------------------------------------------------------------------- main


def loadavg() -> str:
    """The 1-, 5- and 15-minute load averages."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    parser.add_argument("--rounds", type=int, default=None, help="paired rounds (11; quick 3)")
    parser.add_argument("--no-instructions", action="store_true", help="skip cachegrind")
    parser.add_argument("--no-timing", action="store_true", help="only the instructions")
    parser.add_argument(
        "--count", nargs=3, metavar=("SIDE", "GAMES", "MODE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.count:  # one instruction count's process (run under valgrind)
        global COUNTING
        COUNTING = False
        count_games(args.count[0], int(args.count[1]), args.count[2])
        return
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("cpp: open_spiel is not installed (pip install cardtable[bench]); no baseline")
        return
    rounds = args.rounds or (3 if args.quick else 11)
    for title, group in [] if args.no_timing else sides(args.quick).items():
        baseline = group[0].name
        for play_only in (False, True):
            start = loadavg()
            runs = paired(group, rounds, play_only)
            what = "play only (dealt outside the timing)" if play_only else "whole games"
            counts = ", ".join(f"{s.games:,}" for s in group)
            for line in table(
                f"cpp {title}: random games, no Python between moves, {what}; "
                f"{counts} games a round",
                runs,
                baseline,
            ):
                print(line)
            print(f"  load average at the start {start}, at the end {loadavg()}", flush=True)
    if args.no_instructions:
        return
    if shutil.which("valgrind") is None:
        print("cpp: valgrind is not installed; no instruction counts")
        return
    start = loadavg()
    for line in instruction_lines(instruction_counts(args.quick)):
        print(line)
    print(f"  load average at the start {start}, at the end {loadavg()}")


if __name__ == "__main__":
    main(sys.argv[1:])
