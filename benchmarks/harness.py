"""The shared measuring loop and the paired rounds every engine figure comes from.

One Python loop drives every engine, ours and OpenSpiel's alike, so that a ratio
compares engines and not loops. An engine state only needs OpenSpiel's method names:
``is_terminal()``, ``is_chance_node()``, ``chance_outcomes()``, ``legal_actions()`` and
``apply_action(action)``.

What is counted: a **player action** is a decision a player makes (``legal_actions()``
then ``apply_action``); a **chance action** is an outcome the loop draws at a chance
node (OpenSpiel deals card by card this way; our engines deal inside
``new_initial_state``, which is timed as well). ``actions/s`` counts player actions
only; ``games/s`` counts whole games, dealing included, which is the fairer figure
when the games differ in length. Chance actions are shown per game, not counted as
work.

Rounds are **paired**: every loop runs once per round, in an order that rotates, so
that a load which comes and goes on a shared machine weighs on all loops alike; a ratio
is the median over rounds of that round's ratio (ours / theirs), each pair measured
seconds apart.

:class:`NullState` is the ceiling: a do-nothing engine in the same loop, so each
figure also reads as a share of what this Python loop allows.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol


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
    #: Player actions (decisions), not counting chance.
    actions: int
    #: Chance outcomes the loop applied (dealing card by card).
    chance: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        """Player actions per second."""
        return self.actions / self.seconds

    @property
    def games_per_second(self) -> float:
        """Whole games per second, dealing included."""
        return self.games / self.seconds


def random_playouts(new_state: Callable[[int], PlayableState], games: int, seed: int = 0) -> Rate:
    """Play ``games`` uniformly random games to the end; count player and chance actions.

    ``new_state(i)`` makes the i-th game's initial state; making it is timed too, since
    dealing is part of playing a game.
    """
    rng = random.Random(seed)
    choice = rng.choice
    actions = chance = 0
    start = time.perf_counter()
    for i in range(games):
        state = new_state(i)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
    return Rate(games, actions, chance, time.perf_counter() - start)


class NullState:
    """The do-nothing engine: :data:`MOVES` player actions among :data:`CHOICES` legal
    ones, no rules, no chance. It measures the loop itself (the ceiling)."""

    __slots__ = ("left",)

    MOVES: ClassVar[int] = 100
    CHOICES: ClassVar[list[int]] = [0, 1, 2, 3, 4]

    def __init__(self, _seed: int = 0) -> None:
        self.left = self.MOVES

    def is_terminal(self) -> bool:
        return self.left == 0

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def legal_actions(self) -> list[int]:
        return self.CHOICES

    def apply_action(self, action: int) -> None:
        self.left -= 1


@dataclass(frozen=True)
class Loop:
    """One engine in the paired rounds: how to make a game, how many games a round."""

    name: str
    new_state: Callable[[int], PlayableState]
    games: int


def paired_rounds(loops: Sequence[Loop], rounds: int) -> dict[str, list[Rate]]:
    """Every loop once per round (after one short warm-up each), the order rotating."""
    for loop in loops:
        random_playouts(loop.new_state, max(1, loop.games // 10), seed=10**6)
    runs: dict[str, list[Rate]] = {loop.name: [] for loop in loops}
    for round_ in range(rounds):
        for k in range(len(loops)):
            loop = loops[(round_ + k) % len(loops)]
            runs[loop.name].append(random_playouts(loop.new_state, loop.games, seed=round_))
    return runs


def median_run(runs: Sequence[Rate]) -> Rate:
    """The run with the median player actions/s."""
    middle = statistics.median_low([r.actions_per_second for r in runs])
    return next(r for r in runs if r.actions_per_second == middle)


def paired_ratio(ours: Sequence[Rate], theirs: Sequence[Rate], games: bool = False) -> float:
    """Median over rounds of ours / theirs (player actions/s, or games/s)."""
    if games:
        return statistics.median(
            a.games_per_second / b.games_per_second for a, b in zip(ours, theirs, strict=True)
        )
    return statistics.median(
        a.actions_per_second / b.actions_per_second for a, b in zip(ours, theirs, strict=True)
    )


def load_openspiel_game(name: str) -> Any | None:
    """OpenSpiel's game ``name`` (e.g. ``"crazy_eights(players=2)"``), or None if the
    ``open_spiel`` package is not installed (``pip install cardtable[bench]``)."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(name)


def engine_table(
    title: str,
    runs: dict[str, list[Rate]],
    ours: Sequence[str],
    baselines: Sequence[str],
    ceiling: str = "null",
) -> str:
    """The engine table: for each loop its median player actions/s and games/s, the
    actions and chance outcomes per game and its share of the ceiling; then, for each
    of ``ours`` against each of ``baselines``, the paired-round median ratios."""
    rounds = len(next(iter(runs.values())))
    top = median_run(runs[ceiling]).actions_per_second if ceiling in runs else None
    lines = [
        f"{title} — {rounds} paired rounds, medians",
        f"  {'engine':<32} {'actions/s':>11} {'games/s':>9} {'actions/game':>13} "
        f"{'chance/game':>12} {'of ceiling':>11}",
    ]
    for name, rate_runs in runs.items():
        rate = median_run(rate_runs)
        share = f"{rate.actions_per_second / top:.2f}" if top else "-"
        lines.append(
            f"  {name:<32} {rate.actions_per_second:>11,.0f} {rate.games_per_second:>9,.1f} "
            f"{rate.actions / rate.games:>13.1f} {rate.chance / rate.games:>12.1f} {share:>11}"
        )
    for our in ours:
        for their in baselines:
            if their not in runs:
                lines.append(f"  {their}: open_spiel not installed; no baseline")
                continue
            lines.append(
                f"  ratio {our} / {their}: actions/s {paired_ratio(runs[our], runs[their]):.2f}, "
                f"games/s {paired_ratio(runs[our], runs[their], games=True):.2f}"
            )
    return "\n".join(lines)
