"""Spy vs Spy engine speed: ``python -m benchmarks spy``.

Each of our figures is taken on both engines — the compiled core (``games/spy/_core.c``,
the default where it was built) and the pure-Python reference (``CARDTABLE_PURE=1``) —
switched with :func:`~cardtable.games.spy.engine.use` as each game is made (timed with
the game), in the same paired rounds.

1. Random playouts through the shared loop (:mod:`benchmarks.harness`, paired rounds;
   what is counted is said there): each game is one round (``rounds=1``) between two
   players sharing a deck, dealt from its own seed; ``legal_actions()`` with no
   argument lists every player's moves, so the loop needs nothing Spy-specific. A
   uniformly random player can turn for ever, so the rounds run with the race
   runner's per-round move cap (:data:`~cardtable.games.spy.race.DEFAULT_MOVE_LIMIT`
   moves per player, then the player may only resign, S13). Loops, taking turns round
   by round:

   * ``spy compiled`` / ``spy pure`` — as above. A uniformly random player resigns
     early (resign is always legal), after about seven moves, so this figure is
     dominated by dealing;
   * ``spy compiled, no resigning`` / ``spy pure, no resigning`` — the random player
     never resigns while it has another
     move, until the move cap (:data:`LONG_MOVE_LIMIT`) leaves it nothing else, so a
     round lasts until someone calls and the figure weighs the move engine more than
     the deal. Filtering resign out costs our side a list comprehension per decision;
     it is counted in our time;
   * ``solitaire`` — OpenSpiel's Klondike, the baseline, dealt by chance;
   * ``null`` — the do-nothing engine, the ceiling.
2. The compiled core against the pure engine on whole pieces of work, in paired rounds
   (each round runs both engines, in alternating order, on the same work; the ratio is
   the median over rounds of pure time / compiled time):

   * ``random rounds`` — :func:`~cardtable.games.spy.engine.random_playout` of whole
     one-round matches of two players (dealing included), the loop itself in C;
   * ``exact search (planner)`` — :func:`~cardtable.bots.spy_search.race_moves` at the
     planner's node limit (300) from positions at random moments of dealt rounds;
   * ``exact search (oracle)`` — :func:`~cardtable.bots.spy_search.shortest_race` at
     20,000 expansions from the same positions;
   * ``planner whole race`` — the ``planner`` bot races a dealt position alone to its
     call (:func:`~cardtable.bots.spy_common.solo_race`): sampling worlds, its tree and
     the exact search below it;
   * ``greedy race runner`` — :func:`~cardtable.games.spy.race.run_race` with
     :class:`~cardtable.games.spy.race.GreedyPolicy` for 2 and 4 players: whole rounds
     (dealing, racing, merging by time and applying the merged record to the match).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.harness import (
    Loop,
    NullState,
    engine_table,
    load_openspiel_game,
    paired_ratio,
    paired_rounds,
)
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_planner import PlannerBot
from cardtable.bots.spy_search import race_moves, race_state, shortest_race
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy import engine as engines
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, RESIGN
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position
from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT, GreedyPolicy, run_race

GAMES = 5_000
SOLITAIRE_GAMES = 300
RACES = 2_000
REPEATS = 5
ROUNDS = 11


def spy_state(seed: int) -> SpyState:
    """One round between two players, dealt from ``seed``, with the move cap."""
    return SpyState.deal(2, seed=seed, options=_ONE_ROUND, move_limit=DEFAULT_MOVE_LIMIT)


_ONE_ROUND = SpyOptions(rounds=1)
#: Move cap of the rounds without resigning.
LONG_MOVE_LIMIT = 400
LONG_GAMES = 1000


class StubbornSpyState(SpyState):
    """A round whose random players never resign while they have another move."""

    __slots__ = ()

    def legal_actions(self, player: int | None = None) -> list[int]:
        moves = super().legal_actions(player)
        keep = [a for a in moves if a % ACTIONS_PER_PLAYER != RESIGN]
        return keep or moves


def long_spy_state(seed: int) -> SpyState:
    """One round without resigning, two players (part 2 of the module docstring)."""
    return StubbornSpyState.deal(2, seed=seed, options=_ONE_ROUND, move_limit=LONG_MOVE_LIMIT)


def race_rounds_per_second(players: int, rounds: int, repeats: int = REPEATS) -> float:
    """Median rounds/s of the fast race runner with greedy policies."""

    def once(offset: int) -> float:
        start = time.perf_counter()
        for seed in range(offset, offset + rounds):
            run_race(players, [GreedyPolicy()] * players, seed=seed, options=_ONE_ROUND)
        return rounds / (time.perf_counter() - start)

    once(10**6)  # warm-up
    return statistics.median(once(r * rounds) for r in range(repeats))


def on_engine(name: str, make: Callable[[int], SpyState]) -> Callable[[int], SpyState]:
    """A new game played on engine ``name`` (switched as the game is made)."""

    def new_state(seed: int) -> SpyState:
        engines.use(name)
        return make(seed)

    return new_state


def loops() -> list[Loop]:
    """The paired loops; solitaire is left out when open_spiel is missing, the compiled
    core when it was not built."""
    names = [engines.COMPILED, engines.PURE] if engines.available() else [engines.PURE]
    found = [Loop(f"spy {name}", on_engine(name, spy_state), GAMES) for name in names]
    found += [
        Loop(f"spy {name}, no resigning", on_engine(name, long_spy_state), LONG_GAMES)
        for name in names
    ]
    game: Any = load_openspiel_game("solitaire")
    if game is not None:
        found.append(Loop("solitaire", lambda _: game.new_initial_state(), SOLITAIRE_GAMES))
    found.append(Loop("null", NullState, GAMES))
    return found


# ----------------------------------------------------------------- compiled against pure

#: Paired rounds of the compiled-against-pure comparisons.
PAIRS = 5


def moments(count: int, seed: int = 0) -> list[Position]:
    """Positions at random moments of dealt rounds (a third with full decks), made by
    random moves other than resigning, on the pure engine."""
    rng = random.Random(seed)
    found = []
    with engines.using(engines.PURE):
        for i in range(count):
            cards = deal_cards(seed=seed + i, round_number=1, players=2, full_decks=i % 3 == 0)
            pos = Position.deal(0, cards[0])
            for _ in range(rng.randrange(40)):
                legal = [a for a in pos.legal if a - pos.base != RESIGN]
                if not legal or pos.blocked:
                    break
                pos.play(rng.choice(legal) - pos.base)
            if pos.legal:
                found.append(pos)
    return found


def random_rounds(games: int) -> Callable[[], int]:
    """Whole one-round matches by the engine's random playout; counts the moves."""

    def run() -> int:
        moves = 0
        rng = random.Random(1)
        for seed in range(games):
            state = SpyState.deal(2, seed=seed, options=_ONE_ROUND, move_limit=DEFAULT_MOVE_LIMIT)
            engines.random_playout(state, rng.random)
            moves += len(state.played_rounds()[-1][1])
        return moves

    return run


def planner_searches(positions: list[Position]) -> Callable[[], int]:
    """The planner's exact search from every position; counts the searches."""
    states = [race_state(p) for p in positions]

    def run() -> int:
        for state in states:
            race_moves(state, 300)
        return len(states)

    return run


def oracle_searches(positions: list[Position]) -> Callable[[], int]:
    """The oracle's exact search from every position; counts the searches."""

    def run() -> int:
        for pos in positions:
            shortest_race(pos, 20_000)
        return len(positions)

    return run


def planner_races(deals: int) -> Callable[[], int]:
    """The planner races dealt positions alone; counts its moves."""
    starts = [
        Position.deal(0, deal_cards(seed=s, round_number=1, players=2, full_decks=False)[0])
        for s in range(deals)
    ]

    def run() -> int:
        return sum(solo_race(PlannerBot(seed=0), start).moves for start in starts)

    return run


def greedy_races(players: int, rounds: int) -> Callable[[], int]:
    """One-round greedy races; counts the rounds."""

    def run() -> int:
        for seed in range(rounds):
            run_race(players, [GreedyPolicy()] * players, seed=seed, options=_ONE_ROUND)
        return rounds

    return run


def compare(work: Callable[[], int], pairs: int = PAIRS) -> tuple[float, float, float, int]:
    """``work`` on both engines in ``pairs`` paired rounds (the order alternating; one
    warm-up each): median seconds compiled, median pure, the median ratio pure /
    compiled, and the work counted (the same on both: the decisions are equal)."""
    times: dict[str, list[float]] = {engines.COMPILED: [], engines.PURE: []}
    counts = set()
    for name in times:
        with engines.using(name):
            work()
    for round_ in range(pairs):
        order = list(times) if round_ % 2 == 0 else list(times)[::-1]
        for name in order:
            with engines.using(name):
                start = time.perf_counter()
                counts.add(work())
                times[name].append(time.perf_counter() - start)
    if len(counts) != 1:
        raise RuntimeError(f"the engines did different work: {sorted(counts)}")
    ratios = [p / c for p, c in zip(times[engines.PURE], times[engines.COMPILED], strict=True)]
    return (
        statistics.median(times[engines.COMPILED]),
        statistics.median(times[engines.PURE]),
        statistics.median(ratios),
        counts.pop(),
    )


def compiled_against_pure() -> list[str]:
    """The lines of part 2 (module docstring)."""
    positions = moments(60)
    tasks: list[tuple[str, str, Callable[[], int]]] = [
        ("random rounds", "moves", random_rounds(2_000)),
        ("exact search (planner)", "searches", planner_searches(positions)),
        ("exact search (oracle)", "searches", oracle_searches(positions[:20])),
        ("planner whole race", "moves", planner_races(4)),
        ("greedy race runner, 2 players", "rounds", greedy_races(2, 400)),
        ("greedy race runner, 4 players", "rounds", greedy_races(4, 200)),
    ]
    lines = [
        f"spy: compiled core against the pure engine — {PAIRS} paired rounds, medians",
        f"  {'work':<32} {'counted':>16} {'compiled/s':>12} {'pure/s':>10} {'ratio':>7}",
    ]
    for title, unit, work in tasks:
        compiled, pure, ratio, count = compare(work)
        lines.append(
            f"  {title:<32} {count:>7,} {unit:<8} {count / compiled:>12,.0f} "
            f"{count / pure:>10,.0f} {ratio:>6.2f}x"
        )
    return lines


def main() -> None:
    with engines.using(engines.engine_in_use()):  # the loops switch it; put it back
        runs = paired_rounds(loops(), ROUNDS)
    ours = [n for n in runs if n.startswith("spy ")]
    print(engine_table("spy: random one-round playouts, 2 players", runs, ours, ("solitaire",)))
    if "spy compiled" in runs:
        for suffix in ("", ", no resigning"):
            ratio = paired_ratio(runs[f"spy compiled{suffix}"], runs[f"spy pure{suffix}"])
            print(f"  ratio compiled / pure{suffix}: actions/s {ratio:.2f}")
        for line in compiled_against_pure():
            print(line)
    for players in (2, 4):
        rate = race_rounds_per_second(players, RACES // players)
        print(
            f"  race runner, GreedyPolicy, {players} players "
            f"({engines.engine_in_use()} engine): {rate:,.0f} rounds/s"
        )
    print(f"  load average (1 min) at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
