"""Which Spy engine runs: the compiled core, or the pure-Python reference.

The pure-Python engine (:mod:`.position`, :mod:`.state`, :mod:`.playout`, :mod:`.race`,
and the searches of ``bots/spy_search.py``) is the reference and the readable rules.
Beside it, ``_core`` (``_core.c``, built by the ordinary install when a C compiler is
there) does the hot paths in C: a position's ``play``, the match's unchecked
``apply_action`` and ``legal_actions`` (on the very same objects, changed in place as the
pure methods change them), the recorded random playout, the race runner's greedy race,
the greedy race to the call, the two exact searches (the planner's ``race_moves``,
the oracle's ``shortest_race``), and a round's deal (the seeded cards and the positions
laid out). It is proven equal by tests, never trusted.

The choice is made when the package is imported: the compiled core when it was built
and ``CARDTABLE_PURE`` is not ``1``, else the pure engine. :func:`engine_in_use` tells which
runs; :func:`use` and :func:`using` switch (for tests and benchmarks, which compare the
two in one process). With the core, :class:`~.position.Position`'s ``play`` and
:class:`~.state.SpyState`'s ``apply_action`` and ``legal_actions`` are the core's, and
:func:`core` gives the race runner and the searches the core's functions.

>>> engine_in_use() in ENGINES
True
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from cardtable.games.engines import COMPILED, ENGINES, PURE, EngineSwitch
from cardtable.games.spy import playout
from cardtable.games.spy.position import Position
from cardtable.games.spy.state import SpyState

__all__ = [
    "COMPILED",
    "ENGINES",
    "PURE",
    "available",
    "core",
    "engine_in_use",
    "random_playout",
    "use",
    "using",
]


def _load_core() -> ModuleType | None:
    """The compiled core, bound to the engine's classes, or None when it was not built."""
    try:
        import cardtable.games.spy._core as compiled
    except ImportError:
        return None
    compiled.bind(Position, SpyState, playout.random_playout)
    return compiled


_CORE = _load_core()
#: The pure methods the core replaces, by class.
_SWITCH = EngineSwitch(
    {
        Position: {"play": Position.play},
        SpyState: {
            "apply_action": SpyState.apply_action,
            "legal_actions": SpyState.legal_actions,
            "_seeded_cards": SpyState._seeded_cards,
            "_lay_out": SpyState._lay_out,
        },
    },
    _CORE,
)
available = _SWITCH.available
use = _SWITCH.use
using = _SWITCH.using


def engine_in_use() -> str:
    """The engine in use: ``"compiled"`` or ``"pure"``."""
    return _SWITCH.in_use


def core() -> ModuleType | None:
    """The compiled core when it is the engine in use, else None (run the pure code)."""
    return _CORE if _SWITCH.in_use == COMPILED else None


def random_playout(state: SpyState, uniform: Callable[[], float], moves: int | None = None) -> None:
    """The engine in use's recorded random playout (:func:`.playout.random_playout`)."""
    compiled = core()
    if compiled is not None:
        compiled.random_playout(state, uniform, moves)
    else:
        playout.random_playout(state, uniform, moves)


_SWITCH.start()
