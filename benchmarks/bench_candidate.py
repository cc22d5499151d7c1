"""Candidate engine speed, against OpenSpiel's ``crazy_eights(players=2)`` and
``gin_rummy``, with the do-nothing engine as the ceiling, in one run.

``python -m benchmarks candidate [GAMES]`` (or ``make bench``). Uniformly random
playouts of whole matches of one deal (options ``deals=1``) through the shared loop of
:mod:`benchmarks.harness`, in paired rounds; what is counted is said there (player
actions, whole games; OpenSpiel's chance actions are shown per game, not counted as
work). Loops:

* ``candidate apply_action`` — our unchecked fast path (the headline figure). OpenSpiel's
  ``State.apply_action`` is its fast path as well and, as shipped (open_spiel 2.0.2),
  does not validate legality either: applying an action that is not in
  ``legal_actions()`` to a ``crazy_eights`` player node raises nothing (see
  :func:`openspiel_checks_legality`, printed with the figures). Both loops still call
  ``legal_actions()`` once per move, to choose the move.
* ``candidate apply`` — our checked path (legality check, explanations ready, events
  built).
* ``crazy_eights(players=2)`` — a shedding game of about the same length, in C++;
* ``gin_rummy`` — a heavier rummy (melds are searched for every hand), in C++;
* ``null`` — :class:`~benchmarks.harness.NullState`, the ceiling.
"""

from __future__ import annotations

import sys
from typing import Any

from benchmarks.harness import (
    Loop,
    NullState,
    engine_table,
    load_openspiel_game,
    paired_rounds,
)
from cardtable.games.candidate import GAME, CandidateOptions, CandidateState

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


def loops(games: int = GAMES) -> list[Loop]:
    """The loops of one run; a baseline is left out when open_spiel is missing."""
    found = [
        Loop("candidate apply_action", lambda i: GAME.new_initial_state(i, OPTIONS), games),
        Loop("candidate apply", lambda i: CheckedLoop(GAME.new_initial_state(i, OPTIONS)), games),
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
    runs = paired_rounds(loops(games), ROUNDS)
    print(
        engine_table(
            f"candidate: random one-deal playouts, {games} Candidate games a round",
            runs,
            ("candidate apply_action", "candidate apply"),
            BASELINES,
        )
    )
    checks = openspiel_checks_legality()
    if checks is not None:
        print(f"  OpenSpiel apply_action refuses an illegal action: {'yes' if checks else 'no'}")


if __name__ == "__main__":
    main()
