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

Every figure is the median of several timed runs after a warm-up.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.harness import load_openspiel_game, median_rate, report
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


def main() -> None:
    ours = median_rate(spy_state, GAMES, REPEATS)
    game = load_openspiel_game("solitaire")
    theirs = None
    if game is not None:
        theirs = median_rate(lambda _: game.new_initial_state(), SOLITAIRE_GAMES, REPEATS)
    print(
        report(
            "spy: random one-round playouts, 2 players (OpenSpiel baseline: solitaire)",
            ours,
            theirs,
            "open_spiel solitaire",
        )
    )
    for players in (2, 4):
        rate = race_rounds_per_second(players, RACES // players)
        print(f"  race runner, GreedyPolicy, {players} players: {rate:,.0f} rounds/s")


if __name__ == "__main__":
    main()
