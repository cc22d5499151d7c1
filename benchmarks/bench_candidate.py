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

Each figure is the median of several runs (``harness.median_rate``).
"""

from __future__ import annotations

import sys
from typing import Any

from benchmarks.harness import Rate, load_openspiel_game, median_rate, report
from cardtable.games.candidate import GAME, CandidateOptions, CandidateState

OPTIONS = CandidateOptions(deals=1)
GAMES = 2000
REPEATS = 5


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


def measure(games: int = GAMES, repeats: int = REPEATS) -> dict[str, Rate | None]:
    """The three median rates (``crazy_eights`` None without open_spiel)."""
    rates: dict[str, Rate | None] = {}
    rates["apply_action"] = median_rate(
        lambda i: GAME.new_initial_state(i, OPTIONS), games, repeats
    )
    rates["apply"] = median_rate(
        lambda i: CheckedLoop(GAME.new_initial_state(i, OPTIONS)), games, repeats
    )
    baseline: Any = load_openspiel_game("crazy_eights(players=2)")
    rates["crazy_eights"] = (
        None
        if baseline is None
        else median_rate(lambda i: baseline.new_initial_state(), games, repeats)
    )
    return rates


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args and args[0].isdigit() else GAMES
    rates = measure(games)
    fast, checked, theirs = rates["apply_action"], rates["apply"], rates["crazy_eights"]
    assert fast is not None
    assert checked is not None
    print(
        report(
            f"candidate: random playouts of one deal, {games} games, median of {REPEATS}",
            fast,
            theirs,
            "crazy_eights(players=2)",
        )
    )
    print(report("candidate, checked apply (same loop):", checked, theirs, "crazy_eights"))
    checks = openspiel_checks_legality()
    if checks is not None:
        print(f"  OpenSpiel apply_action refuses an illegal action: {'yes' if checks else 'no'}")


if __name__ == "__main__":
    main()
