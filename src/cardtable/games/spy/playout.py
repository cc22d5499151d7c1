"""The recorded random playout of a Spy match: the reference for the compiled core's.

Uniformly random moves among every racing player's legal moves (no clock: S17's race
order does not matter to a random player), made with the unchecked
:meth:`~cardtable.games.spy.state.SpyState.apply_action`, so the match's record holds
them. A move is ``legal[int(uniform() * n)]`` among the ``n`` legal ids in id order; a
forced move (``n == 1``) draws nothing. The engine in use runs it
(:func:`cardtable.games.spy.engine.random_playout`); both engines draw the same numbers
and reach the same state.

>>> import random
>>> from cardtable.games.spy.options import SpyOptions
>>> state = SpyState.deal(2, seed=5, options=SpyOptions(rounds=2), move_limit=50)
>>> random_playout(state, random.Random(1).random)
>>> state.is_terminal(), len(state.results)
(True, 2)
"""

from __future__ import annotations

from collections.abc import Callable

from cardtable.games.spy.state import SpyState

__all__ = ["random_playout"]


def random_playout(state: SpyState, uniform: Callable[[], float], moves: int | None = None) -> None:
    """Random moves until no round is in play (the match over, or a round of a match
    without a seed finished) or ``moves`` were made."""
    if moves is not None and moves < 0:
        raise ValueError("moves must not be negative")
    left = -1 if moves is None else moves
    while left:
        legal = state.legal_actions()
        count = len(legal)
        if not count:
            return
        state.apply_action(legal[int(uniform() * count)] if count > 1 else legal[0])
        left -= 1
