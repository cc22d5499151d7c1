"""What the two OpenSpiel games share: the game type built from a game's declared facts,
OpenSpiel's player ids, the sampler's generator and the observer's buffers.

:func:`game_type` reads :class:`~cardtable.games.base.GameInfo` (name, title, player
counts), so a fact is stated once, in the game's package. See :mod:`cardtable.rl.openspiel`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from cardtable.games.base import GameInfo

__all__ = [
    "CHANCE",
    "PRIVATE",
    "PUBLIC",
    "SEAT",
    "TERMINAL",
    "Observer",
    "RolloutEvaluator",
    "game_type",
    "rng_from",
]

#: OpenSpiel's ids for "the match is over" and "chance decides".
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
CHANCE = int(pyspiel.PlayerId.CHANCE)


def game_type(
    info: GameInfo, utility: pyspiel.GameType.Utility, parameters: Mapping[str, Any]
) -> pyspiel.GameType:
    """The OpenSpiel game type of a cardtable game: ``python_cardtable_<name>``.

    Both games are sequential with explicit chance (the deal card by card; in a race,
    who moves next) and imperfect information, paid at the end; each provides an
    information-state string and tensor and an observation string and tensor (the
    tensors: see :class:`Observer`). ``utility`` is the adapter's own modelling
    (zero-sum or general-sum), ``parameters`` its defaults.
    """
    return pyspiel.GameType(
        short_name=f"python_cardtable_{info.name}",
        long_name=f"cardtable {info.title('en')}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def rng_from(sampler: Callable[[], float]) -> random.Random:
    """A generator seeded from OpenSpiel's probability sampler (uniform in [0, 1))."""
    return random.Random(int(sampler() * 2**53))


#: The parts of a seat's observation an observer shows (see :class:`Observer`).
SEAT, PUBLIC, PRIVATE = "seat", "public", "private"


class Observer:
    """OpenSpiel's observer buffers: a float vector as ``tensor`` and as
    ``dict["observation"]``; :attr:`part` says which part of the seat's observation.

    The seat's whole observation (:data:`SEAT`: public information and the seat's own
    private information, OpenSpiel's default) is the game's encoding, ``size`` floats
    (:mod:`cardtable.games.candidate.encoding`, :mod:`cardtable.games.spy.encoding`). The
    information-state observer (``iig_obs_type.perfect_recall``, OpenSpiel's
    ``information_state_tensor``) and the observation observer (``observation_tensor``)
    write the same vector: the encoding summarises everything the seat has seen that
    still matters (its cards, the public record of the deal or round, the scores), so
    it is a function of the information state, and the PettingZoo and Gymnasium
    observations are this vector too. They differ in their strings: the perfect-recall
    string keeps every move in order, the observation string is the view now.

    OpenSpiel's factored observations (its playthrough tool asks for them) are there
    without perfect recall: :data:`PUBLIC` (``private_info=NONE``) is the same encoding
    of the spectator's view, :data:`PRIVATE` (``public_info=False``) the
    ``private_size`` floats only the seat sees. A game with no private information
    (``private_size`` 0) shows the same to every ``private_info``. Other types (another
    player's private information) raise :class:`ValueError`.
    """

    def __init__(
        self, iig_obs_type: Any, params: dict[str, Any] | None, size: int, private_size: int
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        public, private, recall = True, pyspiel.PrivateInfoType.SINGLE_PLAYER, False
        if iig_obs_type is not None:
            public = iig_obs_type.public_info
            private = iig_obs_type.private_info
            recall = iig_obs_type.perfect_recall
        if not private_size:
            private = pyspiel.PrivateInfoType.SINGLE_PLAYER  # nothing is private
        self.perfect_recall = bool(recall)
        if public and private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.part = SEAT
        elif public and private == pyspiel.PrivateInfoType.NONE and not recall:
            self.part = PUBLIC
        elif not public and private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.part = PRIVATE
            size = private_size
            if recall and private_size:
                raise ValueError("private observations with perfect recall are not supported")
        else:
            raise ValueError(
                f"observation type not supported: public_info={public}, "
                f"private_info={private}, perfect_recall={recall} (a seat sees its own "
                "private information only)"
            )
        self.tensor: np.ndarray[Any, Any] = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {"observation": self.tensor}


class RolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's random-rollout evaluator without numpy on the per-move path.

    The same evaluation as ``mcts.RandomRolloutEvaluator(1)``: one uniformly random
    playout to the end of the game (chance outcomes drawn by their probabilities),
    then the returns; but the choices come from Python's :class:`random.Random`
    instead of numpy's ``RandomState.choice`` (which converts every legal-action list
    to an array), and the playout state is trusted (no legality check per move).
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> list[float]:
        """The returns at the end of one random playout from ``state``."""
        working = state.clone()
        working.trusted = True
        rng = self.rng
        while not working.is_terminal():
            if working.is_chance_node():
                outcomes = working.chance_outcomes()
                actions = [a for a, _ in outcomes]
                weights = [p for _, p in outcomes]
                working.apply_action(rng.choices(actions, weights)[0])
            else:
                working.apply_action(rng.choice(working.legal_actions()))
        return list(working.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Equal probability for every legal action (chance: its outcomes)."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]
