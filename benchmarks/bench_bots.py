"""Bot speed: ISMCTS simulations per second on mid-deal Candidate positions (goal
≥ 10,000 with the default cut of the playouts), with playouts cut and to the deal's
end, on the compiled core and on the pure-Python engine (the two searches take turns
at each position; the ratio is the median of the positions' ratios), and the Spy
oracle's and planner's speed on fresh deals. Median of runs."""

from __future__ import annotations

import random
import statistics
import time

from cardtable.bots.candidate_ismcts import ROLLOUT_DEPTH, IsmctsBot
from cardtable.bots.spy_common import solo_race
from cardtable.bots.spy_oracle import OracleBot
from cardtable.bots.spy_planner import PlannerBot
from cardtable.bots.spy_search import race_moves, race_state
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate import engine as engines
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.spy.deal import deal_cards
from cardtable.games.spy.position import Position


def mid_deal(seed: int) -> CandidateState:
    """A position some way into a deal where the player to move has a real choice."""
    state = CandidateState.new(seed, CandidateOptions(deals=1))
    rng = random.Random(seed)
    moves = 0
    while True:
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
        if moves > 20 and state.decision == "play" and len(state.legal_actions()) > 2:
            return state


def ismcts_rate(
    positions: int = 7,
    iterations: int = 2000,
    rollout_depth: int | None = ROLLOUT_DEPTH,
    engine: str | None = None,
) -> list[float]:
    """Simulations per second on each of ``positions`` mid-deal positions, on
    ``engine`` (None: the one in use)."""
    return [
        ismcts_rates(seed, iterations, rollout_depth, [engine or engines.engine_in_use()])[0]
        for seed in range(positions)
    ]


def ismcts_rates(
    seed: int, iterations: int, rollout_depth: int | None, names: list[str]
) -> list[float]:
    """Simulations per second of one search of mid-deal position ``seed`` on each
    engine of ``names``, one after the other."""
    state = mid_deal(seed)
    info = CandidateInfo.of(state, state.current_player)
    rates = []
    for name in names:
        with engines.using(name):
            bot = IsmctsBot(seed, iterations=iterations, rollout_depth=rollout_depth)
            start = time.perf_counter()
            bot.search(info)
            rates.append(iterations / (time.perf_counter() - start))
    return rates


def spy_rates(deals: int = 40) -> tuple[float, float, float]:
    """Oracle searches, planner step searches (``race_moves``) and planner races per
    second (two-player deals)."""
    positions = [
        Position.deal(0, deal_cards(seed=s, round_number=1, players=2, full_decks=False)[0])
        for s in range(deals)
    ]
    oracle = OracleBot()
    start = time.perf_counter()
    for pos in positions:
        oracle.race(pos)
    oracle_rate = deals / (time.perf_counter() - start)
    start = time.perf_counter()
    for pos in positions:
        race_moves(race_state(pos))
    step_rate = deals / (time.perf_counter() - start)
    planner = PlannerBot(0, iterations=8)
    start = time.perf_counter()
    for pos in positions:
        solo_race(planner, pos)
    return oracle_rate, step_rate, deals / (time.perf_counter() - start)


def main() -> None:
    print(f"bots (engine: {engines.engine_in_use()})")
    names = [engines.COMPILED, engines.PURE] if engines.available() else [engines.PURE]
    for depth, what in (
        (ROLLOUT_DEPTH, f"cut at {ROLLOUT_DEPTH} moves"),
        (None, "to the deal's end"),
    ):
        # The engines take turns at each position, the first one alternating.
        runs = [
            ismcts_rates(seed, 2000 if depth else 500, depth, names[:: 1 - 2 * (seed % 2)])
            for seed in range(7)
        ]
        for k, name in enumerate(names):
            rates = [run[k if seed % 2 == 0 else -1 - k] for seed, run in enumerate(runs)]
            print(
                f"  ismcts, {name}, playouts {what}: median {statistics.median(rates):,.0f} "
                f"simulations/s over {len(rates)} mid-deal positions "
                f"(min {min(rates):,.0f}, max {max(rates):,.0f})"
                + ("; goal 10,000" if depth else "")
            )
        if len(names) == 2:
            ratio = statistics.median(
                run[0] / run[1] if i % 2 == 0 else run[1] / run[0] for i, run in enumerate(runs)
            )
            print(f"  ismcts, playouts {what}: compiled / pure, paired by position: {ratio:.2f}")
    oracle, step, planner = spy_rates()
    print(
        f"  spy oracle: {oracle:,.0f} shortest races/s (A* by moves), {step:,.0f}/s (A* by "
        f"steps); planner:8 {planner:,.1f} races/s"
    )


if __name__ == "__main__":
    main()
