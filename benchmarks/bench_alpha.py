"""The ``alpha`` search's time per move beside ``ismcts``'s, and the network's share.

On the same mid-deal Candidate positions (``bench_bots.mid_deal``), the two searches
take turns (alpha, then ismcts, position by position), so a busy machine slows both
alike; the figures are each one's mean seconds per move and, for alpha, the share of its
time spent in the network (encoding the drawn state's view and the NumPy forward
pass). Use it to set alpha's simulations for an equal-time match:

    python -m benchmarks alpha --network runs/exit --simulations 200 --ismcts 1000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from benchmarks.bench_bots import mid_deal
from cardtable.bots.alpha_net import NetEvaluator
from cardtable.bots.candidate_alpha import AlphaBot
from cardtable.bots.candidate_ismcts import IsmctsBot
from cardtable.bots.learned import load_evaluator, shipped_network
from cardtable.games.candidate.info import CandidateInfo


class _Timed(NetEvaluator):
    """A network that adds up the time of its calls."""

    __slots__ = ("seconds",)

    def __init__(self, net: NetEvaluator) -> None:
        super().__init__(net.scale, net.layers, net.head, net.value)
        self.seconds = 0.0

    def __call__(self, obs: Sequence[float]) -> tuple[list[float], float]:
        start = time.perf_counter()
        out = super().__call__(obs)
        self.seconds += time.perf_counter() - start
        return out


def compare(path: str, simulations: int, ismcts: int, positions: int) -> dict[str, float]:
    """Mean seconds per move of ``alpha:simulations`` and ``ismcts:ismcts`` and the
    network's share of alpha's time (its forward passes; encoding is counted apart)."""
    net = _Timed(load_evaluator(path))
    alpha_seconds = ismcts_seconds = 0.0
    for seed in range(positions):
        state = mid_deal(1000 + seed)
        info = CandidateInfo.of(state, state.current_player)
        bot = AlphaBot(seed, iterations=simulations, evaluator=net)
        start = time.perf_counter()
        bot.choose(info)
        alpha_seconds += time.perf_counter() - start
        start = time.perf_counter()
        IsmctsBot(seed, iterations=ismcts).choose(CandidateInfo.of(state, state.current_player))
        ismcts_seconds += time.perf_counter() - start
    return {
        "alpha_ms": 1000 * alpha_seconds / positions,
        "ismcts_ms": 1000 * ismcts_seconds / positions,
        "network_share": net.seconds / alpha_seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks alpha", description=__doc__)
    parser.add_argument("--network", help="network file or training folder (default: shipped)")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--ismcts", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=30)
    args = parser.parse_args(argv)
    path = args.network or (str(shipped_network()) if shipped_network() else None)
    if path is None:
        print("no network: give --network PATH (no alpha network is shipped)")
        return 2
    figures = compare(path, args.simulations, args.ismcts, args.positions)
    print(
        f"alpha:{args.simulations} {figures['alpha_ms']:.1f} ms a move "
        f"(network forward passes {100 * figures['network_share']:.0f} % of it); "
        f"ismcts:{args.ismcts} {figures['ismcts_ms']:.1f} ms a move "
        f"({args.positions} mid-deal positions, taking turns)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
