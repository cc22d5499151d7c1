"""Spy vs Spy engine speed: ``python -m benchmarks spy``.

1. Random playouts through the shared loop (:mod:`benchmarks.harness`): each game is
   one round (``rounds=1``) between two players sharing a deck, dealt from its own
   seed; ``legal_actions()`` with no argument lists every player's moves, so the loop
   needs nothing Spy-specific. A uniformly random player can turn for ever, so the
   rounds run with the race runner's per-round move cap
   (:data:`~cardtable.games.spy.race.DEFAULT_MOVE_LIMIT` moves per player, then the
   player may only resign, S13). The same loop then drives OpenSpiel's ``solitaire``
   (Klondike) for the ratio of actions per second.
2. The fast race runner (S17) with :class:`~cardtable.games.spy.race.GreedyPolicy`
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
from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT, GreedyPolicy, run_race

GAMES = 20_000
SOLITAIRE_GAMES = 1_000
RACES = 2_000
REPEATS = 5


def spy_state(seed: int) -> SpyState:
    """One round between two players, dealt from ``seed``, with the move cap."""
    return SpyState.deal(2, seed=seed, options=_ONE_ROUND, move_limit=DEFAULT_MOVE_LIMIT)


_ONE_ROUND = SpyOptions(rounds=1)


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
    for players in (2, 4):
        rate = race_rounds_per_second(players, RACES // players)
        print(f"  race runner, GreedyPolicy, {players} players: {rate:,.0f} rounds/s")


if __name__ == "__main__":
    main()
