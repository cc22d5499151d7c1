"""The policy-and-value network inside the ``alpha`` search, run with NumPy.

A search asks its network about one position at a time, thousands of times a move;
PyTorch's per-call overhead would dominate such small matrices, so the search runs the
same arithmetic as :class:`cardtable.bots.learned_net.PolicyValue` with NumPy arrays
taken from it (:func:`cardtable.bots.learned_net.evaluator_of`). The evaluator holds
only arrays, so it pickles into worker processes (self-play, the server's bots).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["NetEvaluator"]

Array = npt.NDArray[np.float32]


class NetEvaluator:
    """observation → (move-feature weights, value for the player to move).

    ``layers`` are the trunk's (weight, bias) pairs, each followed by a ReLU; ``head``
    gives the 135 weights of the move features and then ``context`` weights of the
    move-context numbers (a move's logit is their dot product with its features and
    context); ``value`` the value before its ``tanh``.
    """

    __slots__ = ("context", "head", "layers", "scale", "value")

    def __init__(
        self,
        scale: Array,
        layers: Sequence[tuple[Array, Array]],
        head: tuple[Array, Array],
        value: tuple[Array, Array],
        context: int = 0,
    ) -> None:
        self.scale = scale
        self.context = context
        self.layers = tuple(layers)
        self.head = head
        self.value = value

    def __call__(self, obs: Sequence[float]) -> tuple[list[float], float]:
        """The move-feature weights and the value (−1…1) of one observation."""
        x = np.asarray(obs, dtype=np.float32) * self.scale
        for weight, bias in self.layers:
            x = np.maximum(weight @ x + bias, 0.0)
        weights: list[float] = (self.head[0] @ x + self.head[1]).tolist()
        value = float(np.tanh(self.value[0] @ x + self.value[1])[0])
        return weights, value
