"""The race clock (S17): policies play a whole match against time, offline.

Every move of a player takes that player's *move time* (:class:`FixedTime` by default,
1 time unit; or a seeded random :class:`ExponentialTime` / :class:`LognormalTime`). A
player's finishing time is the sum of their move times up to their call; the first
call wins the round. Equal times are broken by a seeded coin — a random order of the
players drawn afresh each round — never by seat order. The record lists the moves in
time order.

Players never touch each other's cards, so the runner plays each player's race
**alone** on a copy of their position and then merges the moves by time (the fast way,
:func:`run_race`). A race stops at the player's call, resignation, or block (S12: a
blocked player's moves change nothing, so the runner stops asking and the player waits
for the round's end). Once someone has called at time T, later players' races are cut
off at T. :func:`run_race_naive` plays the same race with one global clock, move by
move, on the shared state; the tests prove both give the same match.

Endless turning (a policy that neither calls nor gets blocked) is cut short by the
move limit (:data:`DEFAULT_MOVE_LIMIT` moves per player per round): a player who
reaches it resigns (S13). The limit is generous: :class:`GreedyPolicy` never needs it
(every full pass through deck and waste either places a card or finds the player
blocked, so it makes at most about 2,200 moves a round).

>>> result = run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=4,
...                   options=SpyOptions(rounds=1))
>>> result.state.is_terminal(), result.state.to_record()["game"]
(True, 'spy')
>>> run_race(2, [GreedyPolicy(), GreedyPolicy()], seed=4, options=SpyOptions(rounds=1),
...          ).rounds == result.rounds
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from cardtable.games.spy import engine
from cardtable.games.spy.actions import (
    ACTIONS_PER_PLAYER,
    CALL,
    OPEN_POINTS,
    PLACE_WASTE,
    RESIGN,
    TURN,
)
from cardtable.games.spy.options import SpyOptions
from cardtable.games.spy.position import Position
from cardtable.games.spy.state import PLAYING, SpyState
from cardtable.games.spy.views import SeatWindow

__all__ = [
    "DEFAULT_MOVE_LIMIT",
    "ExponentialTime",
    "FixedTime",
    "GreedyPolicy",
    "LognormalTime",
    "MoveTime",
    "Policy",
    "RaceResult",
    "RaceRound",
    "RandomPolicy",
    "run_race",
    "run_race_naive",
]

#: Moves a player may make in one round before the runner makes them resign (S13).
DEFAULT_MOVE_LIMIT = 2500


# ----------------------------------------------------------------- policies


class Policy(Protocol):
    """Chooses one player's moves from what that player may see.

    A policy object plays for one seat. At each round's start the runner calls
    :meth:`start_round` with a live :class:`SeatWindow` on the player's public
    position (S4-S5: nothing hidden) and a seeded generator for the policy's own
    randomness; then :meth:`choose` for every move, with the player's legal action ids
    (sorted; do not modify the list). The choice must be one of them. A policy that
    decides only from its own window and generator makes every race reproducible.
    """

    def start_round(self, window: SeatWindow, rng: random.Random) -> None:
        """Get ready for a new round."""
        ...

    def choose(self, window: SeatWindow, legal: Sequence[int]) -> int:
        """One of ``legal``."""
        ...


class RandomPolicy:
    """A uniformly random player that never gives up of its own accord: each move is
    drawn uniformly from the legal moves other than resigning (resigning only when it
    is the only move)."""

    __slots__ = ("_rng",)

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def start_round(self, window: SeatWindow, rng: random.Random) -> None:
        """Take the round's generator."""
        self._rng = rng

    def choose(self, window: SeatWindow, legal: Sequence[int]) -> int:
        """Uniform over ``legal`` without the resign (always the last id)."""
        count = len(legal) - 1
        if count <= 0:
            return legal[0]
        return legal[int(self._rng.random() * count)]


class GreedyPolicy:
    """A simple, deterministic racer. In order of preference:

    1. call when the points pile is empty (S10);
    2. place the points-pile top on the lowest-numbered pile it fits (S6-S7);
    3. place the waste top on the lowest-numbered pile it fits;
    4. open a pile with the points-pile top (S8) — never with a waste card, which
       would spend a pile without emptying the points pile;
    5. turn (S9);
    6. resign (S13) when nothing else is possible, or at once when blocked (S12):
       a blocked player can never finish (see the note to S12).
    """

    __slots__ = ()

    def start_round(self, window: SeatWindow, rng: random.Random) -> None:
        """Nothing to prepare: the policy has no memory."""

    def choose(self, window: SeatWindow, legal: Sequence[int]) -> int:
        """The preferred legal move (see the class docstring)."""
        resign = legal[-1]  # resigning is always legal and has the highest local id
        if window.blocked:
            return resign
        base = resign - RESIGN
        if len(legal) > 1 and legal[-2] == base + CALL:
            return legal[-2]
        turn = None
        open_points = None
        waste_place = None
        for action in legal:
            local = action - base
            if local == TURN:
                turn = action
            elif local < PLACE_WASTE:
                return action  # the lowest pile the points-pile top fits
            elif local < OPEN_POINTS:
                if waste_place is None:
                    waste_place = action
            elif local == OPEN_POINTS:
                open_points = action
        for choice in (waste_place, open_points, turn):
            if choice is not None:
                return choice
        return resign


# ----------------------------------------------------------------- move times


class MoveTime(Protocol):
    """How long a player's moves take (S17)."""

    def duration(self, rng: random.Random) -> float:
        """The time of one move (> 0 expected; drawn from ``rng`` when random)."""
        ...


@dataclass(frozen=True, slots=True)
class FixedTime:
    """Every move takes ``seconds`` (S17's default: 1 time unit)."""

    seconds: float = 1.0

    def duration(self, rng: random.Random) -> float:
        """Always ``seconds``."""
        return self.seconds


@dataclass(frozen=True, slots=True)
class ExponentialTime:
    """Move times drawn from an exponential distribution with this ``mean``."""

    mean: float = 1.0

    def duration(self, rng: random.Random) -> float:
        """One draw."""
        return rng.expovariate(1.0 / self.mean)


@dataclass(frozen=True, slots=True)
class LognormalTime:
    """Move times drawn from a lognormal distribution with this ``mean`` and shape
    ``sigma`` (the standard deviation of the time's logarithm)."""

    mean: float = 1.0
    sigma: float = 0.5

    def duration(self, rng: random.Random) -> float:
        """One draw."""
        return rng.lognormvariate(math.log(self.mean) - self.sigma**2 / 2, self.sigma)


# ----------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class RaceRound:
    """How one round of a race went.

    ``outcomes[p]`` is ``"called"``, ``"blocked"``, ``"resigned"`` or ``"stopped"``
    (the round ended first); ``finish_times[p]`` is when p's race ended (their call,
    block or resignation), None for ``"stopped"``. ``order`` is the seeded tie-break
    order of the round (earlier wins a tie). ``times[i]`` is when the round's i-th
    recorded move happened.
    """

    number: int
    finisher: int | None
    end_time: float
    outcomes: tuple[str, ...]
    finish_times: tuple[float | None, ...]
    order: tuple[int, ...]
    times: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class RaceResult:
    """A finished race: the final state (its :meth:`~SpyState.to_record` is the
    race's record) and each round's timing."""

    state: SpyState
    rounds: tuple[RaceRound, ...]


# ----------------------------------------------------------------- runners


class _Setup:
    """What both runners share: seeded generators and the time models."""

    def __init__(
        self,
        players: int | Sequence[str],
        policies: Sequence[Policy],
        seed: int,
        options: SpyOptions | None,
        times: Sequence[MoveTime] | None,
        move_limit: int,
    ) -> None:
        self.state = SpyState.deal(players, seed=seed, options=options)
        count = self.state.num_players
        if len(policies) != count:
            raise ValueError(f"expected {count} policies, one per player, got {len(policies)}")
        if times is not None and len(times) != count:
            raise ValueError(f"expected {count} move times, one per player, got {len(times)}")
        if move_limit < 1:
            raise ValueError(f"move_limit must be at least 1, got {move_limit}")
        self.policies = list(policies)
        self.times: list[MoveTime] = list(times) if times is not None else [FixedTime()] * count
        self.seed = seed
        self.move_limit = move_limit

    def priorities(self, round_number: int) -> list[int]:
        """S17's seeded coin: each player's place in the round's tie-break order
        (0 wins a tie), from a random order of the players drawn for the round."""
        order = list(range(self.state.num_players))
        random.Random(f"cardtable/spy/race/{self.seed}/{round_number}/ties").shuffle(order)
        priority = [0] * len(order)
        for rank, player in enumerate(order):
            priority[player] = rank
        return priority

    def start_player(
        self, round_number: int, player: int, seat: Position
    ) -> tuple[SeatWindow, random.Random]:
        """Start a player's round: their window and their own generator, which the
        policy and the move-time model share. Each move draws its choice first, then
        its duration, in both runners, so a player's draws never depend on the others."""
        window = SeatWindow(seat)
        rng = random.Random(f"cardtable/spy/race/{self.seed}/{round_number}/{player}")
        self.policies[player].start_round(window, rng)
        return window, rng


def run_race(
    players: int | Sequence[str],
    policies: Sequence[Policy],
    *,
    seed: int,
    options: SpyOptions | None = None,
    times: Sequence[MoveTime] | None = None,
    move_limit: int = DEFAULT_MOVE_LIMIT,
) -> RaceResult:
    """Race a whole match dealt from ``seed``, one policy per player (the fast way).

    Each player's race is played alone on a copy of their position; the moves are then
    merged by (time, tie-break order) and applied to the match state, up to and
    including the first call.
    """
    setup = _Setup(players, policies, seed, options, times, move_limit)
    state = setup.state
    rounds = []
    while state.phase == PLAYING:
        number = state.round_number
        priority = setup.priorities(number)
        cutoff: tuple[float, int, int] | None = None
        timed: list[tuple[float, int, int, int]] = []  # (time, priority, sequence, action)
        ends: list[tuple[str, tuple[float, int, int] | None]] = []
        for player in range(state.num_players):
            policy = setup.policies[player]
            move_time = setup.times[player]
            compiled = engine.core()
            if (
                compiled is not None
                and type(policy) is GreedyPolicy
                and type(move_time) is FixedTime
            ):
                # The same race in C on the player's position, left unchanged: the
                # greedy rule needs no window and draws nothing, nor does a fixed time.
                outcome, moves = compiled.greedy_solo_race(
                    state.seats[player],
                    priority[player],
                    setup.move_limit,
                    cutoff,
                    move_time.seconds,
                )
            else:
                seat = state.seats[player].copy()
                window, rng = setup.start_player(number, player, seat)
                outcome, moves = _solo_race(
                    seat, window, policy, move_time, rng, priority[player], setup.move_limit, cutoff
                )
            timed.extend(moves)
            last = moves[-1][:3] if moves else None
            ends.append((outcome, last))
            if outcome == "called" and last is not None and (cutoff is None or last < cutoff):
                cutoff = last
        if cutoff is not None:
            timed = [m for m in timed if m[:3] <= cutoff]
        timed.sort()
        before = len(state.results)
        for move in timed:
            state.apply_action(move[3])
        if len(state.results) != before + 1:
            raise RuntimeError("the merged race did not end the round")  # engine invariant
        finisher = state.results[-1].finisher
        outcomes = tuple(
            "stopped" if cutoff is not None and end is not None and end > cutoff else outcome
            for outcome, end in ends
        )
        finish_times = tuple(
            end[0] if end is not None and outcome != "stopped" else None
            for (_, end), outcome in zip(ends, outcomes, strict=True)
        )
        end_time = timed[-1][0] if timed else 0.0
        rounds.append(
            RaceRound(
                number,
                finisher,
                end_time,
                outcomes,
                finish_times,
                tuple(sorted(range(len(priority)), key=priority.__getitem__)),
                tuple(m[0] for m in timed),
            )
        )
    return RaceResult(state, tuple(rounds))


def _solo_race(
    seat: Position,
    window: SeatWindow,
    policy: Policy,
    move_time: MoveTime,
    rng: random.Random,
    priority: int,
    move_limit: int,
    cutoff: tuple[float, int, int] | None,
) -> tuple[str, list[tuple[float, int, int, int]]]:
    """One player's race alone: moves as (time, priority, sequence, action)."""
    moves: list[tuple[float, int, int, int]] = []
    resign = seat.base + RESIGN
    choose = policy.choose
    duration = move_time.duration
    clock = 0.0
    sequence = 0
    while True:
        if seat.blocked:
            return "blocked", moves
        action = resign if seat.moves >= move_limit else choose(window, seat.legal)
        clock += duration(rng)
        if cutoff is not None and (clock, priority, sequence) > cutoff:
            return "stopped", moves
        moves.append((clock, priority, sequence, action))
        sequence += 1
        local = action - seat.base
        seat.play(local)
        if local == CALL:
            return "called", moves
        if local == RESIGN:
            return "resigned", moves


def run_race_naive(
    players: int | Sequence[str],
    policies: Sequence[Policy],
    *,
    seed: int,
    options: SpyOptions | None = None,
    times: Sequence[MoveTime] | None = None,
    move_limit: int = DEFAULT_MOVE_LIMIT,
) -> RaceResult:
    """The same race with one global clock: at every step the player whose next move
    completes first (ties: the round's seeded order) moves on the shared state.

    Slower than :func:`run_race`; it exists to prove the fast way right.
    """
    setup = _Setup(players, policies, seed, options, times, move_limit)
    state = setup.state
    rounds = []
    while state.phase == PLAYING:
        number = state.round_number
        count = state.num_players
        priority = setup.priorities(number)
        started = [setup.start_player(number, p, state.seats[p]) for p in range(count)]
        sequences = [0] * count
        outcomes = ["stopped"] * count
        finish_times: list[float | None] = [None] * count
        move_times: list[float] = []
        # Each racing player's next move and the time it completes. A player decides
        # a move when their previous one completes (their position cannot change in
        # between: players never interact), then the move takes its time.
        pending: dict[int, tuple[float, int]] = {}

        for player in range(count):
            _decide(setup, started, pending, player, 0.0)
        finished = len(state.results)
        while len(state.results) == finished:
            player = min(pending, key=lambda p: (pending[p][0], priority[p], sequences[p]))
            clock, action = pending.pop(player)
            seat = state.seats[player]
            sequences[player] += 1
            move_times.append(clock)
            local = action % ACTIONS_PER_PLAYER
            state.apply_action(action)
            ended = {CALL: "called", RESIGN: "resigned"}.get(local)
            if ended is None and seat.blocked:
                ended = "blocked"  # S12: nothing the player does can change anything
            if ended is not None:
                outcomes[player] = ended
                finish_times[player] = clock
            elif len(state.results) == finished:
                _decide(setup, started, pending, player, clock)
        result = state.results[-1]
        rounds.append(
            RaceRound(
                number,
                result.finisher,
                move_times[-1],
                tuple(outcomes),
                tuple(finish_times),
                tuple(sorted(range(count), key=priority.__getitem__)),
                tuple(move_times),
            )
        )
    return RaceResult(state, tuple(rounds))


def _decide(
    setup: _Setup,
    started: Sequence[tuple[SeatWindow, random.Random]],
    pending: dict[int, tuple[float, int]],
    player: int,
    clock: float,
) -> None:
    """Naive runner: ``player`` chooses their next move at ``clock``; it completes
    after the player's move time."""
    seat = setup.state.seats[player]
    window, rng = started[player]
    if seat.moves >= setup.move_limit:
        action = seat.base + RESIGN
    else:
        action = setup.policies[player].choose(window, seat.legal)
    pending[player] = (clock + setup.times[player].duration(rng), action)
