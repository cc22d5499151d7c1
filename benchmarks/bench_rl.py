"""Our ``ismcts`` bot against OpenSpiel's Python ``ISMCTSBot`` playing Candidate through
the OpenSpiel adapter (``python_cardtable_candidate``, one-deal matches).

1. Speed at equal simulations: simulations per second of each search on the same
   mid-deal positions, the searches taking turns at each position (paired rounds),
   with the median of each search's ratio to OpenSpiel's (goal: ours ≥ 50× at equal
   playout length, on the compiled core; it was 10× on the pure engine). OpenSpiel's
   ``ISMCTSBot`` evaluates a leaf by one random rollout to the end of the match (here
   one deal) and backs up the match's win/loss; ours is timed with playouts to the end
   of the deal and win/loss (like for like), with the margin reward, and with its
   default cut at ``ROLLOUT_DEPTH`` moves. OpenSpiel's bot
   runs with the adapter's numpy-free :class:`~cardtable.rl.openspiel_shared.RolloutEvaluator`
   (the faster baseline, the one the ratios use) and with its own
   ``RandomRolloutEvaluator`` (numpy), shown for reference.
2. Strength at equal wall time per move: duplicate deal pairs (each seeded deal played
   twice, the bots swapping seats), both bots given the same seconds per decision
   (OpenSpiel's bot searches until the same deadline). Reports our win rate with its
   Wilson 95 % interval, over all games (a draw counts one half) and over decided games.

``python -m benchmarks rl`` runs a short version; the full run is
``python -m benchmarks.bench_rl --pairs 400 --seconds 0.02`` (long: run it in the
background with a log). Progress lines go to standard output as pairs finish.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import cardtable.rl.openspiel  # noqa: F401 - registers the games
    from cardtable.rl.openspiel_shared import RolloutEvaluator
except ImportError:  # the rl extra is not installed
    pyspiel = None

from benchmarks.bench_bots import mid_deal
from cardtable.bots.candidate_ismcts import ROLLOUT_DEPTH, IsmctsBot
from cardtable.games.candidate import CandidateOptions, CandidateState
from cardtable.games.candidate.info import CandidateInfo

#: OpenSpiel's exploration constant for its ISMCTS examples.
UCT_C = 2.0


def openspiel_bot(game: Any, seed: int, simulations: int, numpy_rollouts: bool = False) -> Any:
    """OpenSpiel's ISMCTS with one random rollout per leaf, to the end of the match.

    ``numpy_rollouts`` takes OpenSpiel's stock ``RandomRolloutEvaluator`` (numpy's
    ``RandomState.choice`` per move); else the adapter's numpy-free
    :class:`~cardtable.rl.openspiel_shared.RolloutEvaluator`, the faster baseline.
    """
    evaluator: Any
    if numpy_rollouts:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    else:
        evaluator = RolloutEvaluator(seed)
    return ismcts.ISMCTSBot(
        game, evaluator, UCT_C, simulations, random_state=np.random.RandomState(seed)
    )


#: The like-for-like search: playouts as long as OpenSpiel's, the same reward.
EQUAL = "ours, to the deal's end, win/loss"
#: The goal for :data:`EQUAL` against the baseline, with the compiled core (the goal on
#: the pure engine was 10×).
GOAL = 50.0


#: The searches timed at each position: name -> how to run one (game, engine, seed, n).
SEARCHES: dict[str, Callable[[Any, CandidateState, int, int], None]] = {
    EQUAL: lambda game, engine, seed, n: _ours(engine, seed, n, None, "win"),
    "ours, to the deal's end, margin": lambda game, engine, seed, n: _ours(
        engine, seed, n, None, "margin"
    ),
    f"ours, cut at {ROLLOUT_DEPTH} moves, margin": lambda game, engine, seed, n: _ours(
        engine, seed, n, ROLLOUT_DEPTH, "margin"
    ),
    "OpenSpiel ISMCTSBot": lambda game, engine, seed, n: openspiel_bot(game, seed, n).run_search(
        game.state_from(engine)
    ),
    "OpenSpiel ISMCTSBot, numpy rollouts": lambda game, engine, seed, n: openspiel_bot(
        game, seed, n, numpy_rollouts=True
    ).run_search(game.state_from(engine)),
}
BASELINE = "OpenSpiel ISMCTSBot"


def _ours(engine: CandidateState, seed: int, n: int, depth: int | None, reward: str) -> None:
    info = CandidateInfo.of(engine, engine.current_player)
    IsmctsBot(seed, iterations=n, rollout_depth=depth, reward=reward).search(info)


def speed(positions: int, simulations: int) -> dict[str, list[float]]:
    """Simulations per second of every search in :data:`SEARCHES` at each position.

    Equal simulations (``simulations`` each), equal positions; the searches take turns
    at each position (the order rotating), so each position is one paired round.
    Building OpenSpiel's state from ours is not timed.
    """
    game = pyspiel.load_game("python_cardtable_candidate", {"deals": 1})
    names = list(SEARCHES)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for seed in range(positions):
        engine = mid_deal(seed)
        for k in range(len(names)):
            name = names[(seed + k) % len(names)]
            search = SEARCHES[name]
            if name.startswith("OpenSpiel"):
                state = game.state_from(engine)
                bot = openspiel_bot(game, seed, simulations, numpy_rollouts="numpy" in name)
                start = time.perf_counter()
                bot.run_search(state)
            else:
                start = time.perf_counter()
                search(game, engine, seed, simulations)
            rates[name].append(simulations / (time.perf_counter() - start))
    return rates


def speed_table(rates: dict[str, list[float]], simulations: int) -> str:
    """Each search's median simulations/s and its paired median ratio to the baseline,
    then the like-for-like ratio against the goal, with the load average of the run."""
    rounds = len(rates[BASELINE])
    lines = [
        f"rl: ISMCTS at {simulations} simulations a move (equal simulations), {rounds} "
        "mid-deal positions (paired rounds, medians); OpenSpiel's rollouts play to the "
        "match's end, here the deal's end, and back up win/loss",
        f"  {'search':<40} {'simulations/s':>14} {'vs OpenSpiel':>13}",
    ]
    ratios = {}
    for name, values in rates.items():
        ratio = statistics.median(a / b for a, b in zip(values, rates[BASELINE], strict=True))
        ratios[name] = ratio
        lines.append(f"  {name:<40} {statistics.median(values):>14,.0f} {ratio:>12.1f}x")
    load = os.getloadavg()
    lines.append(
        f"  at equal playout length, reward and simulations ({EQUAL}): "
        f"{ratios[EQUAL]:.1f}x OpenSpiel's ISMCTSBot (goal {GOAL:.0f}x: "
        f"{'met' if ratios[EQUAL] >= GOAL else 'not met'}); load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
    )
    return "\n".join(lines)


class TimedISMCTSBot(ismcts.ISMCTSBot if pyspiel is not None else object):  # type: ignore[misc]
    """OpenSpiel's ISMCTS searching until a wall-clock deadline instead of for a fixed
    number of simulations (the rest of the search is OpenSpiel's own code)."""

    def __init__(self, game: Any, seed: int, seconds: float) -> None:
        super().__init__(
            game, RolloutEvaluator(seed), UCT_C, 1, random_state=np.random.RandomState(seed)
        )
        self.seconds = seconds
        self.simulations = 0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done < 2 or time.perf_counter() < deadline:  # the root needs 2 to expand
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations += done
        return self.get_final_policy(state, self._root_node)


def play(game: Any, seed: int, our_seat: int, seconds: float) -> float:
    """One one-deal match of seed ``seed``; our return (+1 win, 0 draw, −1 loss)."""
    engine = CandidateState.new(seed, CandidateOptions(deals=1))
    state = game.state_from(engine)
    ours = IsmctsBot(seed, iterations=10**9, seconds=seconds)
    theirs = TimedISMCTSBot(game, seed, seconds)
    while not state.is_terminal():
        player = state.current_player()
        if player == our_seat:
            action = ours.choose(CandidateInfo.of(state.engine, player))
        else:
            action = int(theirs.step(state))
        state.apply_action(action)
    return float(state.returns()[our_seat])


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The Wilson 95 % interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    z = 1.96
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    half = z * spread / (1 + z * z / trials)
    return centre - half, centre + half


def strength(pairs: int, seconds: float, first_seed: int = 1000) -> dict[str, Any]:
    """Duplicate deal pairs at equal time per move; prints progress every 10 pairs."""
    game = pyspiel.load_game("python_cardtable_candidate", {"deals": 1})
    wins = draws = losses = 0
    start = time.perf_counter()
    for pair in range(pairs):
        seed = first_seed + pair
        for seat in (0, 1):
            result = play(game, seed, seat, seconds)
            wins += result > 0
            draws += result == 0
            losses += result < 0
        if (pair + 1) % 10 == 0 or pair + 1 == pairs:
            games = wins + draws + losses
            print(
                f"  {pair + 1} pairs: ours {wins} wins, {draws} draws, {losses} losses "
                f"({(wins + draws / 2) / games:.3f}); {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    games = wins + draws + losses
    decided = wins + losses
    return {
        "pairs": pairs,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": (wins + draws / 2) / games,
        "score_ci95": wilson(wins + draws / 2, games),
        "decided_win_rate": wins / decided if decided else math.nan,
        "decided_ci95": wilson(wins, decided),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=9)
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument(
        "--pairs",
        type=int,
        default=5,
        help="duplicate deal pairs of the strength part (0: skip it)",
    )
    parser.add_argument("--seconds", type=float, default=0.02)
    args = parser.parse_args(argv if argv is not None else [])
    if pyspiel is None:
        print("rl: open_spiel is not installed (pip install cardtable[rl])")
        return
    if min(args.positions, args.simulations) < 1 or args.pairs < 0:
        parser.error("--positions and --simulations take 1 or more, --pairs 0 or more")
    print(speed_table(speed(args.positions, args.simulations), args.simulations))
    if args.pairs == 0:
        return
    print(
        f"rl: strength at {args.seconds} s a move, {args.pairs} duplicate deal pairs "
        "(ours vs OpenSpiel's ISMCTS):"
    )
    result = strength(args.pairs, args.seconds)
    low, high = result["score_ci95"]
    dlow, dhigh = result["decided_ci95"]
    print(
        f"rl: ours scored {result['score']:.3f} [{low:.3f}, {high:.3f}] over "
        f"{result['games']} games ({result['wins']} W, {result['draws']} D, "
        f"{result['losses']} L); decided games won {result['decided_win_rate']:.3f} "
        f"[{dlow:.3f}, {dhigh:.3f}]"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
