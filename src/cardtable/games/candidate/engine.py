"""Which Candidate engine runs: the compiled core, or the pure-Python reference.

The pure-Python engine (:mod:`.state`, :mod:`.plays`, :mod:`.playout`) is the
reference and the readable rules. Beside it, ``_core`` (``_core.c``, built by the
ordinary install when a C compiler is there) does the hot paths of a one-deck deal —
legal moves, the unchecked ``apply_action``, the search's tree step and both random
playouts — on the very same :class:`~.state.CandidateState` objects; anything it does
not cover (several decks, the deal move, the checked ``apply`` with its events) it hands
to the pure functions. It is proven equal by tests, never trusted.

The choice is made when the package is imported: the compiled core when it was built
and ``CARDTABLE_PURE`` is not ``1``, else the pure engine. :func:`engine_in_use` tells which
runs; :func:`use` switches (for tests and benchmarks, which compare the two in one
process). With the core, :class:`CandidateState`'s ``legal_actions`` and
``apply_action`` are the core's, and :func:`search_functions` gives a search the core's
``advance`` and ``playout_margin``; the decisions are the same for the same random
numbers (``tests/bots/test_bots_ismcts_pinned.py``).

>>> engine_in_use() in ENGINES
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType

from cardtable.games.candidate import playout
from cardtable.games.candidate.state import CandidateState
from cardtable.games.engines import COMPILED, ENGINES, PURE, EngineSwitch

__all__ = [
    "COMPILED",
    "ENGINES",
    "PURE",
    "available",
    "engine_in_use",
    "random_playout",
    "search_core",
    "search_functions",
    "use",
    "using",
]


#: A search's tree step and score-only playout (see :mod:`.playout`).
Advance = Callable[[CandidateState, int], Sequence[int]]
Margin = Callable[[CandidateState, Callable[[], float], int | None], int]


def _load_core() -> ModuleType | None:
    """The compiled core, bound to the state class, or None when it was not built."""
    try:
        import cardtable.games.candidate._core as core
    except ImportError:
        return None
    core.bind(
        CandidateState,
        CandidateState.apply_action,
        CandidateState.legal_actions,
        playout.advance,
        playout.random_playout,
        playout.playout_margin,
    )
    return core


_CORE = _load_core()
#: The pure methods of the state that the core replaces.
_SWITCH = EngineSwitch(
    {
        CandidateState: {
            "apply_action": CandidateState.apply_action,
            "legal_actions": CandidateState.legal_actions,
        }
    },
    _CORE,
)
available = _SWITCH.available
use = _SWITCH.use
using = _SWITCH.using


def engine_in_use() -> str:
    """The engine in use: ``"compiled"`` or ``"pure"``."""
    return _SWITCH.in_use


def search_functions() -> tuple[Advance, Margin]:
    """The engine in use's tree step and score-only playout, for a search."""
    if _SWITCH.in_use == COMPILED and _CORE is not None:
        return _CORE.advance, _CORE.playout_margin
    return playout.advance, playout.playout_margin


def search_core() -> ModuleType | None:
    """The compiled core when it is the engine in use (a search runs its iterations in
    it: ``ismcts_tree``, ``ismcts_iterate``, ``ismcts_nodes``), else None."""
    return _CORE if _SWITCH.in_use == COMPILED else None


def random_playout(
    state: CandidateState, uniform: Callable[[], float], moves: int | None = None
) -> None:
    """The engine in use's recorded random playout (:func:`.playout.random_playout`)."""
    if _SWITCH.in_use == COMPILED and _CORE is not None:
        _CORE.random_playout(state, uniform, moves)
    else:
        playout.random_playout(state, uniform, moves)


_SWITCH.start()
