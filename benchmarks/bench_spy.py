"""Spy vs Spy engine speed: ``python -m benchmarks spy``.

1. Random playouts through the shared loop (:mod:`benchmarks.harness`): each game is
   one round (``rounds=1``) between two players sharing a deck, dealt from its own
   seed; ``legal_actions()`` with no argument lists every player's moves, so the loop
   needs nothing Spy-specific. A uniformly random player can turn for ever, so the
   rounds run with the race runner's per-round move cap
   (:data:`~cardtable.games.spy.race.DEFAULT_MOVE_LIMIT` moves per player, then the
   player may only resign, S13). The same loop then drives OpenSpiel's ``solitaire``
   (Klondike) for the ratio of actions per second.
2. The same loop over rounds without resigning: a uniformly random player resigns
   early (resign is always legal), so part 1 is dominated by dealing. Here the random
   player never resigns until the move cap leaves it nothing else, so a round lasts
   until someone calls (about five times as many moves) and the figure weighs the
   move engine more than the deal. Filtering resign out costs our
   side a list comprehension per decision; it is counted in our time.
3. The fast race runner (S17) with :class:`~cardtable.games.spy.race.GreedyPolicy`
   for every player: whole rounds per second (dealing, racing, merging by time and
   applying the merged record to the match state included).

Every figure is the median of several timed runs after a warm-up. The two engines'
runs alternate (ours, theirs, ours, …) so that a change in the machine's load during
the benchmark weighs on both alike.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.harness import Rate, load_openspiel_game, random_playouts, report
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, RESIGN
from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT, GreedyPolicy, run_race

GAMES = 20_000
SOLITAIRE_GAMES = 1_000
RACES = 2_000
REPEATS = 5


def spy_state(seed: int) -> SpyState:
    """One round between two players, dealt from ``seed``, with the move cap."""
    return SpyState.deal(2, seed=seed, options=_ONE_ROUND, move_limit=DEFAULT_MOVE_LIMIT)


_ONE_ROUND = SpyOptions(rounds=1)
#: Move cap of the rounds without resigning.
LONG_MOVE_LIMIT = 400
LONG_GAMES = 200


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


def _median(runs: list[Rate]) -> Rate:
    """The run with the median actions/s."""
    middle = statistics.median_low([r.actions_per_second for r in runs])
    return next(r for r in runs if r.actions_per_second == middle)


def main() -> None:
    game = load_openspiel_game("solitaire")

    def solitaire(_: int) -> Any:
        return game.new_initial_state()

    random_playouts(spy_state, GAMES // 10)  # warm-up
    if game is not None:
        random_playouts(solitaire, SOLITAIRE_GAMES // 10)
    ours: list[Rate] = []
    theirs: list[Rate] = []
    for repeat in range(REPEATS):
        ours.append(random_playouts(spy_state, GAMES, seed=repeat))
        if game is not None:
            theirs.append(random_playouts(solitaire, SOLITAIRE_GAMES, seed=repeat))
    print(
        report(
            "spy: random one-round playouts, 2 players (OpenSpiel baseline: solitaire)",
            _median(ours),
            _median(theirs) if theirs else None,
            "open_spiel solitaire",
        )
    )
    random_playouts(long_spy_state, LONG_GAMES // 10)  # warm-up
    long_runs = [random_playouts(long_spy_state, LONG_GAMES, seed=r) for r in range(REPEATS)]
    print(
        report(
            "spy: random rounds without resigning (until the move cap), 2 players",
            _median(long_runs),
            _median(theirs) if theirs else None,
            "open_spiel solitaire",
        )
    )
    for players in (2, 4):
        rate = race_rounds_per_second(players, RACES // players)
        print(f"  race runner, GreedyPolicy, {players} players: {rate:,.0f} rounds/s")


if __name__ == "__main__":
    main()
