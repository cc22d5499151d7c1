"""The shared measuring loop.

One Python loop drives every engine, ours and OpenSpiel's alike, so that a ratio
compares engines and not loops. An engine state only needs OpenSpiel's method names:
``is_terminal()``, ``is_chance_node()``, ``chance_outcomes()``, ``legal_actions()`` and
``apply_action(action)``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class PlayableState(Protocol):
    """The OpenSpiel-shaped surface the loop uses."""

    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def chance_outcomes(self) -> Any: ...
    def legal_actions(self) -> Any: ...
    def apply_action(self, action: int) -> None: ...


@dataclass(frozen=True)
class Rate:
    """What one timed batch of random playouts did."""

    games: int
    actions: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def random_playouts(new_state: Callable[[int], PlayableState], games: int, seed: int = 0) -> Rate:
    """Play ``games`` uniformly random games to the end; count actions (chance included).

    ``new_state(i)`` makes the i-th game's initial state; making it is timed too, since
    dealing is part of playing a game.
    """
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        state = new_state(i)
        while not state.is_terminal():
            if state.is_chance_node():
                action = choice(state.chance_outcomes())[0]
            else:
                action = choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
    return Rate(games, actions, time.perf_counter() - start)


def median_rate(
    new_state: Callable[[int], PlayableState], games: int, repeats: int = 5, seed: int = 0
) -> Rate:
    """The run with the median actions/s out of ``repeats`` runs (after one warm-up)."""
    random_playouts(new_state, max(1, games // 10), seed)
    runs = [random_playouts(new_state, games, seed + r) for r in range(repeats)]
    middle = statistics.median_low([r.actions_per_second for r in runs])
    return next(r for r in runs if r.actions_per_second == middle)


def load_openspiel_game(name: str) -> Any | None:
    """OpenSpiel's game ``name`` (e.g. ``"crazy_eights(players=2)"``), or None if the
    ``open_spiel`` package is not installed (``pip install cardtable[bench]``)."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(name)


def report(title: str, ours: Rate, theirs: Rate | None, their_name: str) -> str:
    """A few aligned lines: both rates and our/their ratio of actions/s."""
    lines = [title, _line("cardtable", ours)]
    if theirs is None:
        lines.append(f"  {their_name}: open_spiel not installed; no baseline")
    else:
        lines.append(_line(their_name, theirs))
        ratio = ours.actions_per_second / theirs.actions_per_second
        lines.append(f"  ratio (ours / theirs, actions/s): {ratio:.2f}")
    return "\n".join(lines)


def _line(name: str, rate: Rate) -> str:
    return (
        f"  {name:<24} {rate.actions_per_second:>12,.0f} actions/s  "
        f"{rate.games_per_second:>9,.1f} games/s  ({rate.actions / rate.games:.1f} actions/game)"
    )
