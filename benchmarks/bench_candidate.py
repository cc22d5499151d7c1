"""Candidate engine speed, against OpenSpiel's ``crazy_eights(players=2)`` and
``gin_rummy``, with the do-nothing engine as the ceiling, in one run.

``python -m benchmarks candidate [GAMES]`` (or ``make bench``). Uniformly random
playouts of whole matches of one deal (options ``deals=1``) through the shared loop of
:mod:`benchmarks.harness`, in paired rounds; what is counted is said there (player
actions, whole games; OpenSpiel's chance actions are shown per game, not counted as
work). Loops:

* ``candidate compiled apply_action`` — the unchecked fast path on the compiled core
  (``games/candidate/_core.c``, the default engine when it is built);
* ``candidate pure apply_action`` — the same on the pure-Python reference engine
  (``CARDTABLE_PURE=1``). Each of these two loops switches the engine as it makes a
  game (:func:`~cardtable.games.candidate.engine.use`, timed with the game), so both run
  in the same paired rounds. OpenSpiel's
  ``State.apply_action`` is its fast path as well and, as shipped (open_spiel 2.0.2),
  does not validate legality either: applying an action that is not in
  ``legal_actions()`` to a ``crazy_eights`` player node raises nothing (see
  :func:`openspiel_checks_legality`, printed with the figures). Both loops still call
  ``legal_actions()`` once per move, to choose the move.
* ``candidate apply`` — our checked path (legality check, explanations ready, events
  built; pure Python on either engine).
* ``crazy_eights(players=2)`` — a shedding game of about the same length, in C++;
* ``gin_rummy`` — a heavier rummy (melds are searched for every hand), in C++;
* ``null`` — :class:`~benchmarks.harness.NullState`, the ceiling.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from benchmarks.harness import (
    Loop,
    NullState,
    engine_table,
    load_openspiel_game,
    paired_ratio,
    paired_rounds,
)
from cardtable.games.candidate import GAME, CandidateOptions, CandidateState
from cardtable.games.candidate import engine as engines

OPTIONS = CandidateOptions(deals=1)
#: Candidate games a round; each other loop plays about as many actions a round.
GAMES = 1000
ROUNDS = 11
BASELINES = ("crazy_eights(players=2)", "gin_rummy")


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


def on_engine(name: str) -> Callable[[int], CandidateState]:
    """A new one-deal game played on engine ``name`` (switched as the game is made)."""

    def new_state(seed: int) -> CandidateState:
        engines.use(name)
        return GAME.new_initial_state(seed, OPTIONS)

    return new_state


#: Our loops, the compiled core's first (left out when it was not built).
OURS = ("candidate compiled apply_action", "candidate pure apply_action", "candidate apply")


def loops(games: int = GAMES) -> list[Loop]:
    """The loops of one run; a baseline is left out when open_spiel is missing, the
    compiled core when it was not built."""
    found = []
    if engines.available():
        found.append(Loop(OURS[0], on_engine(engines.COMPILED), games))
    found += [
        Loop(OURS[1], on_engine(engines.PURE), games),
        Loop(OURS[2], lambda i: CheckedLoop(GAME.new_initial_state(i, OPTIONS)), games),
    ]
    # Games a round scaled so each loop takes about as long as ours (gin_rummy plays
    # about ten times fewer games a second).
    for name, share in zip(BASELINES, (1.0, 0.1), strict=True):
        game: Any = load_openspiel_game(name)
        if game is not None:
            found.append(Loop(name, lambda i, g=game: g.new_initial_state(), int(games * share)))
    found.append(Loop("null", NullState, games))
    return found


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args and args[0].isdigit() else GAMES
    with engines.using(engines.engine_in_use()):  # the loops switch it; put it back
        runs = paired_rounds(loops(games), ROUNDS)
    ours = [name for name in OURS if name in runs]
    print(
        engine_table(
            f"candidate: random one-deal playouts, {games} Candidate games a round",
            runs,
            ours,
            BASELINES,
        )
    )
    if OURS[0] in runs:
        print(
            f"  ratio compiled / pure apply_action: actions/s "
            f"{paired_ratio(runs[OURS[0]], runs[OURS[1]]):.2f}"
        )
    print(f"  load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
    checks = openspiel_checks_legality()
    if checks is not None:
        print(f"  OpenSpiel apply_action refuses an illegal action: {'yes' if checks else 'no'}")


if __name__ == "__main__":
    main()
