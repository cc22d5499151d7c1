"""Candidate («Кандидат») as a PettingZoo AEC environment: ``candidate_v0``.

>>> from cardtable.rl import candidate_v0
>>> env = candidate_v0.env(deals=1)
>>> env.reset(seed=7)
>>> env.agent_selection in env.possible_agents
True
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((342,), 4)

Two agents, ``player_0`` and ``player_1`` (the engine's players 0 and 1), take turns as
the rules say (C1–C17 in ``docs/rules/candidate.en.md``): whoever decides next is
``agent_selection``. An episode is one match of ``deals`` deals (constructor argument,
default 1; ``decks`` 1–3, default 1). ``reset(seed=S)`` makes the episode's deal(s)
reproducible: the same seed gives the same cards and, with the same actions, the same
trajectory; ``reset(options={"deal_seed": X})`` plays the engine's seeded match ``X``
exactly (as ``GAME.new_initial_state(seed=X)``). Other option keys are ignored.

Observation: a dict ``{"observation": float32[342], "action_mask": int8[35425]}``.
``observation`` is built only from the agent's own view (the engine's
``CandidateState.view(player)``), never from the true state; its index table is in
:mod:`cardtable.games.candidate.encoding` (encoding version 1). ``action_mask`` marks the
agent's legal actions (all zero when it is not the agent's decision).

Actions: ``Discrete(35425)``, the engine's dense action ids
(:mod:`cardtable.games.candidate.actions`, encoding version 1):

======================  =========================================================
id                      move
======================  =========================================================
0–3                     ``deal X`` (X = S, H, D, C): the dealer deals from pile X
4–7                     ``lobby X``: turn pile X's top card onto the lobby
8–11                    ``draw X``: draw pile X's top card
12                      ``pass``
13 + 681·f + o          ``play …``: cards from hand onto the lobby; ``f`` is the first
                        card's kind, ``o`` numbers the run or set that follows
======================  =========================================================

The space is large but sparse: only 13,517 ids can ever be legal with one deck (24,177
with two, 29,533 with three; the other ids are runs past the ace or repeat a card), and
a position offers few: 2.1 on average and at most 65 in 150 random one-deck deals. The
mask makes the space workable.

Rewards: 0 on every move; when the match ends, +1 to the winner and −1 to the loser,
0 each on a draw (C17), as :meth:`CandidateState.returns`.

Illegal actions: :func:`env` wraps the environment in PettingZoo's
``TerminateIllegalWrapper`` (the offender gets −1 and the episode ends) and
``OrderEnforcingWrapper``; :class:`raw_env` raises :class:`ValueError` (an
:class:`~cardtable.errors.IllegalMove` saying why) and leaves the match unchanged.

Render modes: ``ansi`` (``render()`` returns the spectator's view as text) and ``human``
(prints it).

Version history: v0 (observation encoding 1, action encoding 1) — first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardtable.games.candidate import NUM_ACTIONS, CandidateOptions, CandidateState
from cardtable.games.candidate.encoding import OBSERVATION_SIZE, encode_view, observation_high

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
_SEED_BOUND = 2**63

Observation = dict[str, np.ndarray[Any, Any]]


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's standard wrappers: an illegal action ends the
    episode with −1 for the offender (``TerminateIllegalWrapper``), and the API is used
    in order (``OrderEnforcingWrapper``). Arguments go to :class:`raw_env`."""
    wrapped: AECEnv[str, Observation, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name
    """Candidate as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {  # noqa: RUF012 - the ecosystem declares it so
        "name": "candidate_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, decks: int = 1, deals: int = 1, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.options = CandidateOptions(decks=decks, deals=deals)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        high = np.array(observation_high(self.options), dtype=np.float32)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._np_random, _ = seeding.np_random(None)
        self._state: CandidateState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Dict` for both agents."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(35425)``: the engine's action ids."""
        return self._action_space

    @property
    def state_now(self) -> CandidateState:
        """The engine state of the running episode (for tests and tools, not agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match: dealt from ``options["deal_seed"]`` if given, else from
        the environment's generator (reseeded by ``seed``)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        deal_seed = (options or {}).get("deal_seed")
        if deal_seed is None:
            deal_seed = int(self._np_random.integers(_SEED_BOUND))
        self._state = CandidateState.new(deal_seed, self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self._state.current_player]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now, encoded (from its own view only)."""
        player = AGENTS.index(agent)
        view = self.state_now.view(player)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[list(view.legal_actions)] = 1
        return {
            "observation": np.array(encode_view(view, player), dtype=np.float32),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """Make the selected agent's move ``action`` (an action id).

        Raises :class:`ValueError` for an illegal action, leaving the match unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        state = self.state_now
        state.apply(int(action))  # IllegalMove (a ValueError) says why; no change then
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal():
            returns = state.returns()
            self.rewards = {a: returns[i] for i, a in enumerate(AGENTS)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = AGENTS[state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the table as a spectator sees it; ``human``: the same, printed."""
        if self.render_mode is None:
            return None
        text = str(self.state_now)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
