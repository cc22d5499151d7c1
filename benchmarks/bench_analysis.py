"""Analysis speed: the time to analyse a whole Candidate deal and a two-player Spy
round (both players' races) at the default settings (docs/analysis.md).

Each is set beside a baseline measured in the same run: the same deal played out by
the greedy bots (Candidate), the same races run by the planner (Spy), so the ratio says
how the analysis costs against plain play on this machine. The analysis is run through
:func:`cardtable.bots.review.analyse_record` at :class:`~cardtable.bots.review.ReviewBudget`'s
defaults: exactly what the server's analysis board runs in its worker (which adds only
the process hand-over and a lower CPU priority). The load average is printed with the
figures: on a shared machine it says how far to trust them.
"""

from __future__ import annotations

import os
import time

from cardtable.bots.candidate_greedy import GreedyBot
from cardtable.bots.review import ReviewBudget, analyse_record
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_planner import PlannerBot
from cardtable.cards import KIND_TEXT
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.spy.actions import action_to_text
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position


def greedy_deal(seed: int) -> tuple[dict[str, object], float, int]:
    """A one-deal Candidate record played by the greedy bots, the seconds it took and
    its decisions."""
    greedy = GreedyBot()
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    start = time.perf_counter()
    moves = 0
    while not state.is_terminal():
        state.apply_action(greedy.choose(CandidateInfo.of(state, state.current_player)))
        moves += 1
    return state.to_record(("Ann", "Bob")), time.perf_counter() - start, moves


def planner_round(seed: int) -> tuple[dict[str, object], float, int]:
    """A Spy record of both players' races on deal ``seed``, each raced alone by the
    planner (player 0's race, then player 1's up to one move short of its call, so the
    round is still open for it), the seconds it took and the moves."""
    cards = deal_cards(seed=seed, round_number=1, players=2, full_decks=False)
    start = time.perf_counter()
    races = [
        solo_race(PlannerBot(seed=0, iterations=16), Position.deal(p, cards[p])) for p in (0, 1)
    ]
    seconds = time.perf_counter() - start
    second = [action_to_text(a) for a in races[1].actions[:-1]]
    first = [action_to_text(a) for a in races[0].actions]
    record = {
        "game": "spy",
        "players": ["Ann", "Bob"],
        "options": {"rounds": 1},
        "rounds": [
            {"cards": [[KIND_TEXT[k] for k in hand] for hand in cards], "moves": second + first}
        ],
    }
    return record, seconds, len(second) + len(first)


def main() -> None:
    budget = ReviewBudget()
    print(f"analysis at the defaults {budget.to_dict()}; load average {_load()}")
    for seed in (1, 2):
        record, base, moves = greedy_deal(seed)
        start = time.perf_counter()
        analyse_record("candidate", record, budget)
        spent = time.perf_counter() - start
        print(
            f"analysis candidate deal seed {seed}: {moves} decisions in {spent:.1f} s "
            f"({1000 * spent / moves:.0f} ms a decision; "
            f"{spent / base:.0f}x the greedy play of the deal)"
        )
    for seed in (1, 2, 3):
        record, base, moves = planner_round(seed)
        start = time.perf_counter()
        analyse_record("spy", record, budget)
        spent = time.perf_counter() - start
        print(
            f"analysis spy round seed {seed}: {moves} moves in {spent:.2f} s "
            f"({1000 * spent / moves:.0f} ms a move; {spent / base:.1f}x the planner's races)"
        )

    print(f"analysis: load average after {_load()}")


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
