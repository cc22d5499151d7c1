"""Spy vs Spy («Шпигун проти шпигуна») for learning agents: ``spy_v0``.

Two environments share one observation encoding (:mod:`cardtable.games.spy.encoding`,
version 1, built from the engine's public views only — S4-S5: nobody sees a racing
deck's order, not even its owner):

**A one-player race** — Gymnasium, ``gymnasium.make("cardtable/Spy-v0")`` after
``import cardtable.rl`` (class :class:`SpyRaceEnv`). The agent plays seat 0's patience
alone, racing to empty the points pile and call (S10). A move costs −1; the episode
ends (``terminated``) at the call, or when the agent is blocked (S12) or resigns (S13);
it is ``truncated`` after ``max_moves`` moves. Blocked or resigned, the agent is also
charged the moves left up to ``max_moves``, so giving up never beats racing: every
failed race returns −``max_moves``, every successful one −(its moves).

>>> import gymnasium
>>> import cardtable.rl
>>> race = gymnasium.make("cardtable/Spy-v0", max_moves=100)
>>> observation, info = race.reset(seed=3)
>>> observation["observation"].shape, observation["action_mask"].tolist()[:2]
((117,), [1, 0])

**A table of N players racing at once** — a PettingZoo Parallel environment,
``parallel_env(players=N)`` (class :class:`SpyParallelEnv`). At each step every agent
still in the episode sends one action; the step's moves count as simultaneous:
first every move that is not a call, then the calls in a seeded random order (S17:
equal times are broken by a coin, never by seat), the first call winning the round.
A round's end pays each agent the negated round score (S14-S15: by default +20 to
the first caller, −20 to everyone else, 0 to all when nobody could call); the episode
is a match of ``rounds`` rounds (S16), and is truncated after ``max_cycles`` steps.

>>> table = parallel_env(players=3)
>>> observations, infos = table.reset(seed=5)
>>> sorted(observations), observations["player_1"]["observation"].shape
(['player_0', 'player_1', 'player_2'], (356,))

Observations: ``{"observation": float32[...], "action_mask": int8[...]}``. The race
observes its own seat (117 floats); a table agent observes every seat, itself first,
with the round and the totals (``N·117 + 2 + N`` floats). Index tables:
:mod:`cardtable.games.spy.encoding`.

Actions: a player's *local* move ids (the engine's id is ``player·17 + local``,
:mod:`cardtable.games.spy.actions`):

=======  =====================  ==========================================
local    move                   rule
=======  =====================  ==========================================
0        turn                   S9: racing deck's top onto the waste
1–6      place points N         S6-S7: points-pile top onto pile N
7–12     place waste N          S6-S7: waste top onto pile N
13       open points            S8: points-pile top starts a new pile
14       open waste             S8
15       call                   S10: the points pile is empty
16       resign                 S13
17       wait (table only)      make no move this step (always legal)
=======  =====================  ==========================================

The race's action space is ``Discrete(17)`` (a :class:`LegalDiscrete`, whose
``sample()`` draws a legal move of the running race); the table's ``Discrete(18)``.
The action mask marks the legal ids (legality depends only on public cards).

Illegal actions raise :class:`ValueError` (an :class:`~cardtable.errors.IllegalMove`
saying why, for a move) and change nothing: in a table step, every action is checked
before any is made.

Version history: v0 (observation encoding 1, action encoding 1) — first release.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from cardtable.errors import IllegalMove
from cardtable.games.spy import GAME, SeatWindow, SpyOptions, SpyState
from cardtable.games.spy.actions import ACTIONS_PER_PLAYER, CALL, action_to_text
from cardtable.games.spy.encoding import (
    SEAT_SIZE,
    encode_seat,
    seat_high,
    table_high,
    table_low,
    table_of,
    table_size,
)
from cardtable.games.spy.race import DEFAULT_MOVE_LIMIT

__all__ = ["WAIT", "LegalDiscrete", "SpyParallelEnv", "SpyRaceEnv", "parallel_env"]

#: The table's extra local action: no move this step.
WAIT = ACTIONS_PER_PLAYER
_SEED_BOUND = 2**63

Observation = dict[str, np.ndarray[Any, Any]]


def _mask(legal: list[int], size: int, base: int) -> np.ndarray[Any, Any]:
    mask = np.zeros(size, dtype=np.int8)
    mask[[a - base for a in legal]] = 1
    return mask


def _local(action: Any, player: int, size: int) -> int:
    """``action`` as a local move id (ValueError if it is no id of the space)."""
    try:
        local = int(action)
    except (TypeError, ValueError):
        raise ValueError(f"player {player}: {action!r} is not an action id") from None
    if local != action or not 0 <= local < size:
        raise ValueError(f"player {player}: {action!r} is not an action id (0 to {size - 1})")
    return local


def _deal_seed(rng: np.random.Generator, options: Mapping[str, Any] | None) -> int:
    seed = (options or {}).get("deal_seed")
    return int(rng.integers(_SEED_BOUND)) if seed is None else int(seed)


class SpyRaceEnv(gymnasium.Env[dict[str, Any], Any]):
    """One player's race against the clock (see the module docstring).

    ``players`` (2-8) and ``full_decks`` decide the deal as at a real table (two
    players share a deck: 26 cards each, S2); only seat 0 moves.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        full_decks: bool = False,
        max_moves: int = DEFAULT_MOVE_LIMIT,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, got {max_moves}")
        self.players = players
        self.spy_options = SpyOptions(full_decks=full_decks, rounds=1)
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, np.array(seat_high(max_moves), np.float32), (SEAT_SIZE,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (ACTIONS_PER_PLAYER,), np.int8),
            }
        )
        self.action_space: LegalDiscrete = LegalDiscrete(ACTIONS_PER_PLAYER)
        self._state: SpyState | None = None
        GAME.new_state(players, seed=0, options=self.spy_options)  # checks `players` (S1)

    @property
    def state_now(self) -> SpyState:
        """The engine state of the running episode (for tests and tools, not agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new deal: ``options["deal_seed"]`` if given, else drawn from ``seed``."""
        super().reset(seed=seed)
        deal_seed = _deal_seed(self.np_random, options)
        self._state = GAME.new_state(self.players, seed=deal_seed, options=self.spy_options)
        return self._observe(), {"deal_seed": deal_seed}

    def _observe(self) -> Observation:
        state = self.state_now
        seat = SeatWindow(state.position(0)).view(state.names[0])
        mask = _mask(state.legal_actions(0), ACTIONS_PER_PLAYER, 0)
        self.action_space.legal_mask = mask.copy()
        return {"observation": np.array(encode_seat(seat), dtype=np.float32), "action_mask": mask}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Make seat 0's move ``action`` (a local id); ValueError if it is illegal."""
        state = self.state_now
        seat = state.position(0)
        if seat.called or seat.blocked or seat.resigned or seat.moves >= self.max_moves:
            raise ValueError("the race is over: call reset()")
        local = _local(action, 0, ACTIONS_PER_PLAYER)
        state.apply(local)  # IllegalMove (a ValueError) says why; nothing changes then
        seat = state.position(0)
        reward = -1.0
        terminated = seat.called or seat.blocked or seat.resigned
        if terminated and not seat.called:
            reward -= float(self.max_moves - seat.moves)  # giving up costs the clock
        truncated = not terminated and seat.moves >= self.max_moves
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, {"move": action_to_text(local)}

    def render(self) -> str | None:
        """``ansi``: seat 0's public position as text; ``human``: the same, printed."""
        if self.render_mode is None:
            return None
        seat = SeatWindow(self.state_now.position(0)).view()
        text = str(seat.to_dict())
        if self.render_mode == "human":
            print(text)
            return None
        return text


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose :meth:`sample` without a mask draws a *legal* move.

    The race keeps :attr:`legal_mask` up to date, so generic tools that sample the
    action space (random exploration, Gymnasium's ``check_env``) play legal moves,
    while an illegal id given to ``step`` still raises :class:`ValueError`.
    """

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        #: The running race's legal moves (None: any id may be drawn).
        self.legal_mask: np.ndarray[Any, Any] | None = None

    def sample(
        self,
        mask: np.ndarray[Any, Any] | None = None,
        probability: np.ndarray[Any, Any] | None = None,
    ) -> np.int64:
        """A uniform legal move (or as ``mask``/``probability`` say, when given)."""
        legal = self.legal_mask
        if mask is None and probability is None and legal is not None and legal.any():
            mask = legal
        return super().sample(mask=mask, probability=probability)


def parallel_env(**kwargs: Any) -> SpyParallelEnv:
    """A table of N players racing at once (arguments: :class:`SpyParallelEnv`)."""
    return SpyParallelEnv(**kwargs)


class SpyParallelEnv(ParallelEnv[str, Observation, int]):  # type: ignore[misc]
    """N players racing at once, as a PettingZoo Parallel environment (see the module
    docstring). Options are the engine's rule options (:class:`SpyOptions`);
    ``move_limit`` caps each player's moves in a round (then only resigning is left);
    ``max_cycles`` caps the episode's steps."""

    metadata = {"name": "spy_v0", "render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        rounds: int = 1,
        bonus: int = 20,
        count_points_pile: bool = False,
        full_decks: bool = False,
        move_limit: int = DEFAULT_MOVE_LIMIT,
        max_cycles: int = 20_000,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.spy_options = SpyOptions(
            full_decks=full_decks, bonus=bonus, count_points_pile=count_points_pile, rounds=rounds
        )
        GAME.new_state(players, seed=0, options=self.spy_options)  # checks `players` (S1)
        self.players = players
        self.move_limit = move_limit
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents: list[str] = []
        low, high = GAME.utility_bounds(self.spy_options)
        most = max(abs(low), abs(high))
        size = table_size(players)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    np.array(table_low(players, most), np.float32),
                    np.array(table_high(players, move_limit, rounds, most), np.float32),
                    (size,),
                    np.float32,
                ),
                "action_mask": spaces.Box(0, 1, (WAIT + 1,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(WAIT + 1)
        self._np_random, _ = seeding.np_random(None)
        self._state: SpyState | None = None
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Dict` for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(18)``: local moves 0-16 and 17 = wait."""
        return self._action_space

    @property
    def state_now(self) -> SpyState:
        """The engine state of the running episode (for tests and tools, not agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """A new match: dealt from ``options["deal_seed"]`` if given, else from the
        environment's generator (reseeded by ``seed``)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        deal_seed = _deal_seed(self._np_random, options)
        self._state = GAME.new_state(
            self.players, seed=deal_seed, options=self.spy_options, move_limit=self.move_limit
        )
        self._steps = 0
        self.agents = list(self.possible_agents)
        infos: dict[str, dict[str, Any]] = {a: {"deal_seed": deal_seed} for a in self.agents}
        return self._observe_all(), infos

    def _observe(self, player: int) -> Observation:
        state = self.state_now
        base = player * ACTIONS_PER_PLAYER
        mask = _mask(state.legal_actions(player), WAIT + 1, base)
        mask[WAIT] = 1
        return {
            "observation": np.array(table_of(state, player), dtype=np.float32),
            "action_mask": mask,
        }

    def _observe_all(self) -> dict[str, Observation]:
        return {agent: self._observe(int(agent[7:])) for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Make every agent's move of this step at once (see the module docstring).

        Raises :class:`ValueError` — and changes nothing — when an agent in the
        episode sends no action, or an illegal one.
        """
        state = self.state_now
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"every agent must act each step; no action from {missing}")
        moves: list[int] = []
        calls: list[int] = []
        for agent in self.agents:
            player = int(agent[7:])
            local = _local(actions[agent], player, WAIT + 1)
            if local == WAIT:
                continue
            action = player * ACTIONS_PER_PLAYER + local
            reason = state.illegal_reason(action)
            if reason is not None:
                raise IllegalMove(f"{agent}: {reason}", action_to_text(action))
            (calls if local == CALL else moves).append(action)
        if len(calls) > 1:  # S17: simultaneous calls, ordered by a seeded coin
            calls = [calls[i] for i in self._np_random.permutation(len(calls))]
        finished = len(state.results)
        round_number = state.round_number
        for action in moves + calls:
            if state.round_number != round_number or state.is_terminal():
                break  # the round ended this step: the rest came too late
            state.apply_action(action)
        self._steps += 1
        rewards = dict.fromkeys(self.agents, 0.0)
        for result in state.results[finished:]:
            for agent in self.agents:
                rewards[agent] -= float(result.scores[int(agent[7:])])
        over = state.is_terminal()
        cut = not over and self._steps >= self.max_cycles
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        observations = self._observe_all()
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """``ansi``: the table's public view as text; ``human``: the same, printed."""
        if self.render_mode is None:
            return None
        text = str(self.state_now.view(None).to_dict())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
