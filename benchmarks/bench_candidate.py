"""Candidate engine speed, against OpenSpiel's ``crazy_eights(players=2)`` in one run.

``python -m benchmarks candidate`` (or ``make bench``). Uniformly random playouts of
whole matches of one deal (options ``deals=1``) through the shared loop of
:mod:`benchmarks.harness`; dealing a new game is timed too. Three loops:

* ``apply_action`` — our unchecked fast path (the headline figure). OpenSpiel's
  ``State.apply_action`` is its fast path as well and, as shipped (open_spiel 2.0.2),
  does not validate legality either: applying an action that is not in
  ``legal_actions()`` to a ``crazy_eights`` player node raises nothing (see
  :func:`openspiel_checks_legality`, printed with the figures). Both loops still call
  ``legal_actions()`` once per move, to choose the move.
* ``apply`` — our checked path (legality check, explanations ready, events built).
* ``crazy_eights`` — the baseline, in the same loop, on the same machine, at the same
  time.

The loops take turns, round by round, and each figure is the median of the rounds
(the run with the median actions/s, as ``harness.median_rate`` picks it); the ratio is
also given as the median of each round's paired ratio, which a machine whose load
changes from second to second distorts least.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from typing import Any

from benchmarks.harness import (
    PlayableState,
    Rate,
    load_openspiel_game,
    random_playouts,
    report,
)
from cardtable.games.candidate import GAME, CandidateOptions, CandidateState

OPTIONS = CandidateOptions(deals=1)
GAMES = 2000
REPEATS = 7


class CheckedLoop:
    """A state whose ``apply_action`` goes through the checked ``apply``."""

    __slots__ = ("state",)

    def __init__(self, state: CandidateState) -> None:
        self.state = state

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def legal_actions(self) -> list[int]:
        return self.state.legal_actions()

    def apply_action(self, action: int) -> None:
        self.state.apply(action)


def openspiel_checks_legality() -> bool | None:
    """Whether OpenSpiel's ``apply_action`` refuses an illegal action (None: no open_spiel)."""
    game: Any = load_openspiel_game("crazy_eights(players=2)")
    if game is None:
        return None
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    try:
        state.apply_action(illegal)
    except Exception:  # pyspiel raises its own SpielError
        return True
    return False


def measure(games: int = GAMES, repeats: int = REPEATS) -> dict[str, tuple[Rate, float | None]]:
    """Median rates of the three loops, with each loop's median ratio to the baseline.

    The loops take turns, round by round (the order rotating), so that a load which
    comes and goes on a shared machine affects all of them alike; each round's ratio
    pairs runs made seconds apart. Returns ``{loop: (median rate, median ratio)}``;
    without open_spiel the baseline is missing and the ratios are None.
    """
    baseline: Any = load_openspiel_game("crazy_eights(players=2)")
    loops: dict[str, Callable[[int], PlayableState]] = {
        "apply_action": lambda i: GAME.new_initial_state(i, OPTIONS),
        "apply": lambda i: CheckedLoop(GAME.new_initial_state(i, OPTIONS)),
    }
    if baseline is not None:
        loops["crazy_eights"] = lambda i: baseline.new_initial_state()
    names = list(loops)
    for name in names:  # warm up
        random_playouts(loops[name], max(1, games // 10))
    runs: dict[str, list[Rate]] = {name: [] for name in names}
    for round_ in range(repeats):
        for k in range(len(names)):
            name = names[(round_ + k) % len(names)]
            runs[name].append(random_playouts(loops[name], games, seed=round_))
    result: dict[str, tuple[Rate, float | None]] = {}
    for name in names:
        speeds = [r.actions_per_second for r in runs[name]]
        middle = statistics.median_low(speeds)
        rate = runs[name][speeds.index(middle)]
        ratio = None
        if baseline is not None:
            ratio = statistics.median(
                ours.actions_per_second / theirs.actions_per_second
                for ours, theirs in zip(runs[name], runs["crazy_eights"], strict=True)
            )
        result[name] = (rate, ratio)
    return result


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args and args[0].isdigit() else GAMES
    rates = measure(games)
    theirs = rates["crazy_eights"][0] if "crazy_eights" in rates else None
    for name, title in (
        ("apply_action", "unchecked apply_action (the fast path)"),
        ("apply", "checked apply"),
    ):
        rate, ratio = rates[name]
        print(
            report(
                f"candidate, {title}: random playouts of one deal, {games} games, "
                f"median of {REPEATS} rounds",
                rate,
                theirs,
                "crazy_eights(players=2)",
            )
        )
        if ratio is not None:
            print(f"  ratio, median of the {REPEATS} rounds' paired runs: {ratio:.2f}")
    checks = openspiel_checks_legality()
    if checks is not None:
        print(f"OpenSpiel apply_action refuses an illegal action: {'yes' if checks else 'no'}")


if __name__ == "__main__":
    main()
