"""Types of the compiled core (``_core.c``); see :mod:`.engine`."""

from collections.abc import Callable
from typing import Any

from cardtable.games.spy.position import Position
from cardtable.games.spy.state import SpyState

def bind(
    position: type[Position],
    state: type[SpyState],
    random_playout: Callable[[SpyState, Callable[[], float], int | None], None],
    /,
) -> None: ...
def play(position: Position, local: int, /) -> bool: ...
def apply_action(state: SpyState, action: int, /) -> None: ...
def legal_actions(state: SpyState, player: int | None = None, /) -> list[int]: ...
def random_playout(
    state: SpyState, uniform: Callable[[], float], moves: int | None = None, /
) -> None: ...
def greedy_race(position: Position, cap: int, /) -> int | None: ...
def greedy_solo_race(
    seat: Position,
    priority: int,
    move_limit: int,
    cutoff: tuple[float, int, int] | None,
    seconds: float,
    /,
) -> tuple[str, list[tuple[float, int, int, int]]]: ...
def race_moves(
    points: tuple[int, ...],
    tops: tuple[int, ...],
    stock: tuple[int, ...],
    waste_count: int,
    node_limit: int,
    /,
) -> tuple[int | None, bool, int]: ...
def shortest_race(
    position: Position, node_limit: int, /
) -> tuple[int | None, tuple[int, ...], bool, int]: ...
def method(function: Callable[..., Any], /) -> Any: ...
def _seeded_cards(state: SpyState, number: int, /) -> tuple[tuple[int, ...], ...]: ...
def _lay_out(
    state: SpyState, kinds: tuple[tuple[int, ...], ...], limit: int, /
) -> list[Position]: ...
def deal_cards(
    seed: int, round_number: int, players: int, full_decks: bool, same_deal: bool, /
) -> tuple[tuple[int, ...], ...]: ...
def shuffle_number(number: bytes, /) -> list[int] | None: ...
def blake2b_256(data: bytes, /) -> bytes: ...
