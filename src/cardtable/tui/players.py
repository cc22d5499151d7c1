"""The opponents the terminal app seats: Candidate bots by level, Spy racers by speed.

This module is the app's only link to :mod:`cardtable.bots`. A Candidate bot is
anything with ``choose(info) -> action`` and ``analyse(info)`` (whose ``best`` move has
``action`` and ``text``), given one seat's information set
(:class:`~cardtable.games.candidate.info.CandidateInfo`, built from that seat's view),
never the true state. Levels map to bots and budgets by :data:`cardtable.bots.LEVELS`.

A Spy racer is a :class:`cardtable.games.spy.race.Policy` (a Spy bot wrapped in
:class:`~cardtable.bots.spy_common.BotPolicy`; it sees its seat only through a public
:class:`~cardtable.games.spy.views.SeatWindow`) and a speed in moves per second.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardtable.bots.registry import LEVELS, SPY_SPEEDS, make_bot, parse_bot_spec
from cardtable.bots.spy_common import BotPolicy
from cardtable.errors import BadOptions
from cardtable.games.candidate import CandidateState
from cardtable.games.candidate.info import CandidateInfo
from cardtable.games.spy.race import Policy

__all__ = [
    "CANDIDATE_LEVELS",
    "SPY_SPEEDS",
    "CandidateBot",
    "SpyRacer",
    "candidate_info",
    "make_candidate_bot",
    "make_spy_racers",
    "parse_speed",
]

#: Levels offered to people at the Candidate table (``easy``, ``medium``, ``hard``).
CANDIDATE_LEVELS: tuple[str, ...] = tuple(LEVELS["candidate"])


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


def candidate_info(state: CandidateState, player: int) -> CandidateInfo:
    """The information set of ``player`` (the bot reads its view and key; a copy of the
    state serves only to deal the unseen cards anew, ``resample_hidden``)."""
    return CandidateInfo.of(state, player)


def make_candidate_bot(level: str, seed: int) -> CandidateBot:
    """The Candidate bot of a level (``easy``, ``medium``, ``hard``) or a bot named as
    the arena names it (``greedy``, ``ismcts:500``)."""
    bot: CandidateBot = make_bot(parse_bot_spec("candidate", level), seed)
    return bot


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


def make_spy_racers(
    count: int, bots: Sequence[str], speeds: Sequence[str], seed: int = 0
) -> list[SpyRacer]:
    """``count`` racers: bot names (``random``, ``greedy``, ``planner``, ``planner:8``
    or a level) and speeds are given per racer, the last one repeated for the rest
    (``["greedy"]`` and ``["steady"]`` seat greedy bots at steady speed)."""
    if not bots or not speeds:
        raise BadOptions("name at least one bot and one speed")
    racers = []
    for i in range(count):
        spec = parse_bot_spec("spy", bots[min(i, len(bots) - 1)])
        speed = parse_speed(speeds[min(i, len(speeds) - 1)])
        policy: Policy = BotPolicy(make_bot(spec, seed + i))
        racers.append(SpyRacer(spec.label, policy, speed))
    return racers
