"""Environments for learning agents: PettingZoo, Gymnasium and OpenSpiel faces of the games.

Install with the ``rl`` extra (``pip install cardtable[rl]``). Importing this package
registers the Gymnasium environment ``cardtable/Spy-v0``:

>>> import gymnasium
>>> import cardtable.rl
>>> env = gymnasium.make("cardtable/Spy-v0")
>>> observation, info = env.reset(seed=1)
>>> sorted(observation)
['action_mask', 'observation']

Modules (each module docstring is the environment's documentation):

* :mod:`.candidate_v0` — Candidate as a PettingZoo AEC environment (``env()``, ``raw_env``).
* :mod:`.spy_v0` — Spy vs Spy as a PettingZoo Parallel environment for N players
  (``parallel_env()``) and as a one-player Gymnasium race (:class:`~.spy_v0.SpyRaceEnv`).
* :mod:`.openspiel` — both games as OpenSpiel Python games, registered on import as
  ``python_cardtable_candidate`` and ``python_cardtable_spy`` (needs ``open_spiel``).
* :mod:`cardtable.games.candidate.encoding`, :mod:`cardtable.games.spy.encoding` — the
  observation vectors (in the engine, so the learned bots of :mod:`cardtable.bots` share them).
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

__all__ = ["SPY_GYM_ID"]

#: The Gymnasium id of the one-player Spy race.
SPY_GYM_ID = "cardtable/Spy-v0"

if SPY_GYM_ID not in registry:
    register(id=SPY_GYM_ID, entry_point="cardtable.rl.spy_v0:SpyRaceEnv")
