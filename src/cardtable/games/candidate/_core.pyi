"""Types of the compiled core (``_core.c``); see :mod:`.engine`."""

from collections.abc import Callable, Sequence
from typing import Any

from cardtable.games.candidate.state import CandidateState

def bind(
    cls: type[CandidateState],
    apply_action: Callable[[CandidateState, int], None],
    legal_actions: Callable[[CandidateState], list[int]],
    advance: Callable[[CandidateState, int], Sequence[int]],
    random_playout: Callable[[CandidateState, Callable[[], float], int | None], None],
    playout_margin: Callable[[CandidateState, Callable[[], float], int | None], int],
    /,
) -> None: ...
def legal_actions(state: CandidateState, /) -> list[int]: ...
def apply_action(state: CandidateState, action: int, /) -> None: ...
def advance(state: CandidateState, action: int, /) -> Sequence[int]: ...
def random_playout(
    state: CandidateState, uniform: Callable[[], float], moves: int | None = None, /
) -> None: ...
def playout_margin(
    state: CandidateState, uniform: Callable[[], float], moves: int | None = None, /
) -> int: ...
def method(function: Callable[..., Any], /) -> Any: ...
def ismcts_tree(root_mover: int, /) -> object: ...
def ismcts_iterate(
    tree: object,
    state: CandidateState,
    legal: Sequence[int],
    choice: Callable[[list[int]], int],
    uniform: Callable[[], float],
    depth: int | None,
    win: bool,
    base: int,
    exploration: float,
    weight: float,
    /,
) -> bool: ...

#: A tree node: action, mover, visits, availability, total, children.
TreeData = tuple[int, int, int, int, float, list[Any]]

def ismcts_nodes(tree: object, /) -> TreeData: ...
