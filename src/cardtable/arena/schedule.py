"""Which games an arena plays: duplicate deals with fair seat rotation.

*Duplicate deals*: every deal (a seed) is played once per seat arrangement, so each
bot plays every seat of the same cards and the luck of the deal cancels out of the
comparison. Two-seat games (Candidate) play every pair of bots on every deal, seats
swapped (the dealer seat comes from the deal's seed, C2, so each bot deals the same
cards once and answers them once). Races for all (Spy) seat every bot in every round,
rotating the seats cyclically through all bots, so each bot races every hand once.

All seeds derive from one arena seed with :func:`~cardtable.bots.base.stable_seed`,
so a schedule, and therefore every result, is the same on any backend and machine.
How many bots a game seats comes from the game's declared facts
(:class:`~cardtable.games.base.GameInfo`: its fewest and most players).

>>> jobs = schedule("candidate", 2, deals=2, seed=7)
>>> [(j.deal, j.seats) for j in jobs]
[(0, (0, 1)), (0, (1, 0)), (1, (0, 1)), (1, (1, 0))]
>>> jobs[0].deal_seed == jobs[1].deal_seed != jobs[2].deal_seed
True
>>> [j.seats for j in schedule("spy", 3, deals=1, seed=7)]
[(0, 1, 2), (1, 2, 0), (2, 0, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from cardtable.bots.base import stable_seed
from cardtable.errors import BadOptions, CardtableError
from cardtable.games.registry import find_game

__all__ = ["Job", "schedule", "seats_of"]


def seats_of(game: str) -> tuple[int, int]:
    """The fewest and most bots a game of ``game`` seats (Candidate two, C1; a Spy race
    two to eight, S1).

    >>> seats_of("candidate"), seats_of("spy")
    ((2, 2), (2, 8))
    """
    try:
        info = find_game(game).info
    except CardtableError as exc:
        raise BadOptions(str(exc)) from None
    return info.min_players, info.max_players


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: which deal, and which bot (index into the arena's bot list)
    sits in each seat. ``group`` identifies the duplicate set the game belongs to."""

    index: int
    deal: int
    deal_seed: int
    seats: tuple[int, ...]
    group: int

    def bot_seed(self, arena_seed: int, seat: int) -> int:
        """The seed of the bot in ``seat`` for this game."""
        return stable_seed(arena_seed, "bot", self.deal, self.seats[seat], seat)


def schedule(game: str, bots: int, deals: int, seed: int) -> list[Job]:
    """Every game of an arena of ``bots`` bots over ``deals`` duplicate deals."""
    low, high = seats_of(game)
    if deals < 1:
        raise BadOptions(f"an arena needs at least 1 deal, got {deals}")
    if bots < 2:
        raise BadOptions(f"an arena needs at least 2 bots, got {bots}")
    arrangements: list[tuple[tuple[int, ...], ...]]
    if low == high == 2:
        arrangements = [((a, b), (b, a)) for a, b in combinations(range(bots), 2)]
    else:
        if bots > high:
            raise BadOptions(f"a {game} race seats {low}-{high} players, got {bots} bots")
        arrangements = [tuple(tuple((s + r) % bots for s in range(bots)) for r in range(bots))]
    jobs: list[Job] = []
    group = 0
    for deal in range(deals):
        deal_seed = stable_seed(seed, game, "deal", deal)
        for arrangement in arrangements:
            for seats in arrangement:
                jobs.append(Job(len(jobs), deal, deal_seed, seats, group))
            group += 1
    return jobs
