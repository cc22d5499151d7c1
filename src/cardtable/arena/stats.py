"""Statistics for match results: proportions with Wilson intervals, exact binomial
tests and means with normal-approximation intervals.

Only the standard library is used, so workers and tests need nothing extra.

>>> low, high = wilson_interval(70, 100)
>>> round(low, 3), round(high, 3)
(0.604, 0.781)
>>> round(binomial_p_value(60, 100), 4)    # two-sided sign test against 1/2
0.0569
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Z95",
    "MeanCI",
    "binomial_p_value",
    "binomial_tail",
    "mean_interval",
    "wilson_interval",
]

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default).

    Unlike the normal ("Wald") interval it stays inside [0, 1] and is honest for small
    samples and extreme rates; with no trials it is the whole of [0, 1].

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> low, high = wilson_interval(10, 10)
    >>> round(low, 3), round(high, 3)
    (0.722, 1.0)
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    if successes == trials:  # exact ends, free of rounding
        return (_wilson_low(successes, trials, z), 1.0)
    if successes == 0:
        return (0.0, 1.0 - _wilson_low(trials, trials, z))
    return (_wilson_low(successes, trials, z), _wilson_high(successes, trials, z))


def _wilson_low(successes: int, trials: int, z: float) -> float:
    centre, half = _wilson_parts(successes, trials, z)
    return max(0.0, centre - half)


def _wilson_high(successes: int, trials: int, z: float) -> float:
    centre, half = _wilson_parts(successes, trials, z)
    return min(1.0, centre + half)


def _wilson_parts(successes: int, trials: int, z: float) -> tuple[float, float]:
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return centre, half


def binomial_tail(successes: int, trials: int, p: float = 0.5) -> float:
    """P(X >= successes) for X ~ Binomial(trials, p), computed exactly in log space."""
    if successes <= 0:
        return 1.0
    if successes > trials:
        return 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [
        math.lgamma(trials + 1)
        - math.lgamma(k + 1)
        - math.lgamma(trials - k + 1)
        + k * log_p
        + (trials - k) * log_q
        for k in range(successes, trials + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def binomial_p_value(successes: int, trials: int) -> float:
    """Two-sided exact binomial (sign) test of "the rate is 1/2".

    Used for "does A beat B?" over decided games: a small value means the observed
    split is unlikely if the two are equally strong.

    >>> binomial_p_value(5, 10)
    1.0
    """
    if trials == 0:
        return 1.0
    extreme = max(successes, trials - successes)
    return min(1.0, 2 * binomial_tail(extreme, trials))


@dataclass(frozen=True)
class MeanCI:
    """A sample mean with its 95 % interval (normal approximation) and sample size."""

    mean: float
    low: float
    high: float
    n: int

    def to_list(self) -> list[float]:
        """``[low, high]``, for JSON."""
        return [self.low, self.high]


def mean_interval(values: Sequence[float], z: float = Z95) -> MeanCI:
    """The mean of ``values`` and its 95 % interval (mean ± z·s/√n).

    >>> m = mean_interval([1.0, 2.0, 3.0, 4.0])
    >>> m.mean, round(m.low, 3), round(m.high, 3)
    (2.5, 1.235, 3.765)
    """
    n = len(values)
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return MeanCI(mean, mean, mean, 1)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return MeanCI(mean, mean - half, mean + half, n)
