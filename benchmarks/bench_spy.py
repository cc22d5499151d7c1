"""Spy vs Spy engine speed: ``python -m benchmarks spy``.

1. Random playouts through the shared loop (:mod:`benchmarks.harness`, paired rounds;
   what is counted is said there): each game is one round (``rounds=1``) between two
   players sharing a deck, dealt from its own seed; ``legal_actions()`` with no
   argument lists every player's moves, so the loop needs nothing Spy-specific. A
   uniformly random player can turn for ever, so the rounds run with the race
   runner's per-round move cap (:data:`~cardtable.games.spy.race.DEFAULT_MOVE_LIMIT`
   moves per player, then the player may only resign, S13). Loops, taking turns round
   by round:

   * ``spy`` — as above. A uniformly random player resigns early (resign is always
     legal), after about seven moves, so this figure is dominated by dealing;
   * ``spy, no resigning`` — the random player never resigns while it has another
     move, until the move cap (:data:`LONG_MOVE_LIMIT`) leaves it nothing else, so a
     round lasts until someone calls and the figure weighs the move engine more than
     the deal. Filtering resign out costs our side a list comprehension per decision;
     it is counted in our time;
   * ``solitaire`` — OpenSpiel's Klondike, the baseline, dealt by chance;
   * ``null`` — the do-nothing engine, the ceiling.
2. The fast race runner (S17) with :class:`~cardtable.games.spy.race.GreedyPolicy`
   for every player: whole rounds per second (dealing, racing, merging by time and
   applying the merged record to the match state included), median of runs.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.harness import Loop, NullState, engine_table, load_openspiel_game, paired_rounds
from cardtable.games.spy import SpyOptions, SpyState
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, RESIGN
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


def loops() -> list[Loop]:
    """The paired loops; solitaire is left out when open_spiel is missing."""
    found = [
        Loop("spy", spy_state, GAMES),
        Loop("spy, no resigning", long_spy_state, LONG_GAMES),
    ]
    game: Any = load_openspiel_game("solitaire")
    if game is not None:
        found.append(Loop("solitaire", lambda _: game.new_initial_state(), SOLITAIRE_GAMES))
    found.append(Loop("null", NullState, GAMES))
    return found


def main() -> None:
    runs = paired_rounds(loops(), ROUNDS)
    print(
        engine_table(
            "spy: random one-round playouts, 2 players",
            runs,
            ("spy", "spy, no resigning"),
            ("solitaire",),
        )
    )
    for players in (2, 4):
        rate = race_rounds_per_second(players, RACES // players)
        print(f"  race runner, GreedyPolicy, {players} players: {rate:,.0f} rounds/s")


if __name__ == "__main__":
    main()
