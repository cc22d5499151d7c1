"""The opponents the terminal app seats: Candidate bots by level, Spy racers by speed.

This module is the app's only link to the bots. A Candidate bot is anything with
``choose(info) -> action`` and ``analyse(info)`` (whose ``best`` move has ``action`` and
``text``): the interface of :mod:`cardtable.bots`. It is given one seat's information set,
built by :func:`candidate_info` from the engine's per-seat view, never the true state.

A Spy racer is a :class:`cardtable.games.spy.race.Policy` (it sees its seat only through
a public :class:`~cardtable.games.spy.views.SeatWindow`) and a speed in moves per second.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardtable.cards import parse_card_kind
from cardtable.errors import BadOptions
from cardtable.games.candidate import (
    CandidateState,
    CandidateView,
    action_to_text,
    capture_score,
    card_points,
)
from cardtable.games.candidate.actions import PASS
from cardtable.games.spy.race import GreedyPolicy, Policy, RandomPolicy

__all__ = [
    "CANDIDATE_LEVELS",
    "SPY_BOTS",
    "SPY_SPEEDS",
    "CandidateBot",
    "SeatInfo",
    "SpyRacer",
    "candidate_info",
    "make_candidate_bot",
    "make_spy_racers",
    "parse_speed",
]

#: Levels offered to people at the Candidate table.
CANDIDATE_LEVELS = ("easy", "medium", "hard")
#: Spy bots a person may race against.
SPY_BOTS = ("random", "greedy")
#: Speed profiles for real-time Spy: a bot's moves per second (a person who knows the
#: game makes one or two a second).
SPY_SPEEDS: dict[str, float] = {"slow": 0.7, "steady": 1.2, "quick": 2.0, "fast": 3.5}


class Choice(Protocol):
    """One analysed move: its id and its text."""

    @property
    def action(self) -> int: ...

    @property
    def text(self) -> str: ...


class Analysis(Protocol):
    """A bot's answer to "how good is each move": the best one first."""

    @property
    def best(self) -> Choice: ...


class CandidateBot(Protocol):
    """A Candidate player for one seat."""

    def choose(self, info: Any) -> int:
        """The move (action id) to make; one of the seat's legal moves."""
        ...

    def analyse(self, info: Any) -> Analysis:
        """Every legal move with its value, best first (the hint)."""
        ...


class SeatInfo:
    """One Candidate seat's information set: its view, legal moves and the engine's
    perfect-recall key. It holds nothing hidden from the seat."""

    __slots__ = ("key", "player", "view")

    def __init__(self, player: int, view: CandidateView, key: str) -> None:
        self.player = player
        self.view = view
        self.key = key

    @property
    def legal(self) -> tuple[int, ...]:
        """The seat's legal action ids (empty when it is not its decision)."""
        return self.view.legal_actions

    def text(self, action: int) -> str:
        """A move's record text."""
        return action_to_text(action)


def candidate_info(state: CandidateState, player: int) -> SeatInfo:
    """The information set of ``player``: built from their view only."""
    return SeatInfo(player, state.view(player), state.information_state_string(player))


@dataclass(frozen=True, slots=True)
class _Move:
    action: int
    text: str
    value: float


@dataclass(frozen=True, slots=True)
class _Analysis:
    moves: tuple[_Move, ...]

    @property
    def best(self) -> _Move:
        return self.moves[0]


#: What spending one card point from hand costs, in capture points.
_SPEND = 0.5


class CandidateHeuristic:
    """A one-move heuristic player, seeded for its ties.

    Plays: the capture score (C15) the lobby would be worth with the play added, less
    half the card points it spends from hand; a pass is worth 0 (the seat cannot tell
    who owns the lobby from its view, so it assumes the worst). Piles: the largest
    pile first (most choice later). ``noise`` > 0 blurs the values (an easier player).
    """

    def __init__(self, seed: int = 0, noise: float = 0.0) -> None:
        self.seed = seed
        self.noise = noise

    def analyse(self, info: SeatInfo) -> _Analysis:
        """Every legal move with its value, best first."""
        view = info.view
        rng = random.Random(f"{self.seed}/{info.key}")
        values: list[_Move] = []
        lobby = [parse_card_kind(t) for t in view.lobby]
        sizes = dict(view.piles)
        for action in info.legal:
            text = info.text(action)
            if action == PASS:
                value = 0.0
            elif text.startswith("play "):
                cards = [parse_card_kind(t) for t in text.split()[1:]]
                spent = sum(card_points(k) for k in cards)
                value = capture_score(lobby + cards) - _SPEND * spent + 1e-3
            else:
                value = float(sizes.get(text[-1], 0))
            if self.noise:
                value += rng.uniform(0.0, self.noise)
            values.append(_Move(action, text, value))
        values.sort(key=lambda m: (-m.value, m.action))
        return _Analysis(tuple(values))

    def choose(self, info: SeatInfo) -> int:
        """The best move of :meth:`analyse`."""
        return self.analyse(info).best.action


def make_candidate_bot(level: str, seed: int) -> CandidateBot:
    """The Candidate bot of a level (``easy``, ``medium``, ``hard``)."""
    if level not in CANDIDATE_LEVELS:
        raise BadOptions(f"unknown level {level!r}: expected one of {', '.join(CANDIDATE_LEVELS)}")
    noise = {"easy": 12.0, "medium": 3.0, "hard": 0.0}[level]
    return CandidateHeuristic(seed, noise)


@dataclass(frozen=True, slots=True)
class SpyRacer:
    """A Spy bot at the table: its policy, its speed and its label."""

    label: str
    policy: Policy
    speed: float


def parse_speed(text: str) -> float:
    """A speed: a profile name (``slow``, ``steady``, ``quick``, ``fast``) or moves a second.

    >>> parse_speed("quick"), parse_speed("2.5")
    (2.0, 2.5)
    """
    name = text.strip().lower()
    if name in SPY_SPEEDS:
        return SPY_SPEEDS[name]
    try:
        speed = float(name)
    except ValueError:
        speed = 0.0
    if not 0.05 <= speed <= 100:
        raise BadOptions(
            f"bad speed {text!r}: expected one of {', '.join(SPY_SPEEDS)} "
            "or moves per second from 0.05 to 100"
        )
    return speed


def make_spy_racers(count: int, bots: Sequence[str], speeds: Sequence[str]) -> list[SpyRacer]:
    """``count`` racers: bot names and speeds are given per racer, the last one repeated
    for the rest (``["greedy"]`` and ``["steady"]`` seat greedy bots at steady speed)."""
    if not bots or not speeds:
        raise BadOptions("name at least one bot and one speed")
    racers = []
    for i in range(count):
        name = bots[min(i, len(bots) - 1)].strip().lower()
        speed = parse_speed(speeds[min(i, len(speeds) - 1)])
        policy: Policy
        if name == "greedy":
            policy = GreedyPolicy()
        elif name == "random":
            policy = RandomPolicy()
        else:
            raise BadOptions(f"unknown spy bot {name!r}: expected one of {', '.join(SPY_BOTS)}")
        racers.append(SpyRacer(name, policy, speed))
    return racers
