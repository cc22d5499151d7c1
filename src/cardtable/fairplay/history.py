"""Agreement over many games: a rate with its interval, and the recent games against
the player's own earlier ones.

Each deal or round gives a count: the decisions judged and how many agreed with the
reference (:class:`Counts`). Pooled, the agreement rate comes with a 95 % Wilson
interval (:func:`pooled_agreement`). Decisions of one deal are not independent — one
hand shapes all of them — so the interval is somewhat narrow; the levels a moderator's
page uses are measured on groups of whole deals or rounds instead (docs/fairplay.md).

:func:`compare_history` asks whether the recent games agree more than the player's
earlier ones: a two-proportion z-score whose variance is the binomial one stretched by
the *overdispersion* measured on the earlier games themselves (how much more their
per-game rates spread than coin flips would), never less than binomial. A person's
agreement varies with their form and their opponents; a player who switched to the
bot's moves jumps above their own spread. The z-score is what a moderator reads: a
figure to look into, never a verdict.

>>> round(compare_history([Counts(10, 20)] * 10, [Counts(18, 20)] * 5).z, 2)
6.53
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

__all__ = [
    "Z95",
    "AgreementSummary",
    "Counts",
    "HistoryComparison",
    "compare_history",
    "pooled_agreement",
    "wilson_interval",
]

#: The normal quantile of a two-sided 95 % interval.
Z95: Final = 1.959964


class Counts(NamedTuple):
    """One game's agreement: decisions in agreement, decisions judged."""

    agreements: int
    decisions: int


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) without trials.

    >>> tuple(round(x, 3) for x in wilson_interval(8, 10))
    (0.49, 0.943)
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class AgreementSummary:
    """Agreement pooled over ``games``: the rate and its 95 % interval (None/0-1 when no
    decision was judged)."""

    games: int
    decisions: int
    agreements: int
    rate: float | None
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "games": self.games,
            "decisions": self.decisions,
            "agreements": self.agreements,
            "rate": None if self.rate is None else round(self.rate, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
        }


def pooled_agreement(games: Sequence[Counts]) -> AgreementSummary:
    """Every game's decisions pooled, with the Wilson interval.

    >>> pooled_agreement([Counts(3, 4), Counts(5, 6)]).rate
    0.8
    """
    agreements = sum(g.agreements for g in games)
    decisions = sum(g.decisions for g in games)
    low, high = wilson_interval(agreements, decisions)
    rate = agreements / decisions if decisions else None
    return AgreementSummary(len(games), decisions, agreements, rate, low, high)


@dataclass(frozen=True, slots=True)
class HistoryComparison:
    """The recent games against the earlier ones (module docstring): each side's pooled
    rate, the overdispersion factor of the earlier games (≥ 1) and the z-score of the
    recent rate above the earlier one (positive: the recent games agree more)."""

    earlier: AgreementSummary
    recent: AgreementSummary
    dispersion: float
    z: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "earlier": self.earlier.to_dict(),
            "recent": self.recent.to_dict(),
            "dispersion": round(self.dispersion, 3),
            "z": round(self.z, 3),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HistoryComparison:
        """Read :meth:`to_dict`'s form back (the summaries from their counts)."""
        return cls(
            earlier=_summary_from(data["earlier"]),
            recent=_summary_from(data["recent"]),
            dispersion=float(data["dispersion"]),
            z=float(data["z"]),
        )


def _summary_from(data: Mapping[str, Any]) -> AgreementSummary:
    low, high = wilson_interval(int(data["agreements"]), int(data["decisions"]))
    decisions = int(data["decisions"])
    rate = int(data["agreements"]) / decisions if decisions else None
    return AgreementSummary(int(data["games"]), decisions, int(data["agreements"]), rate, low, high)


def compare_history(
    earlier: Sequence[Counts], recent: Sequence[Counts]
) -> HistoryComparison | None:
    """The recent games' agreement against the earlier ones' (module docstring); None
    when there are fewer than two earlier games or no decision on either side.

    With the earlier games' pooled rate ``p`` (shrunk as ``(A + 1) / (D + 2)`` so that
    a rate of 0 or 1 still has a spread), decisions ``D`` and ``D'`` on each side and
    the earlier games' overdispersion ``φ`` (their per-game residual spread over the
    binomial's, at least 1): ``z = (p' − p) / sqrt(φ · p(1 − p) · (1/D + 1/D'))``.

    >>> compare_history([Counts(5, 10)], [Counts(9, 10)]) is None
    True
    """
    before = pooled_agreement(earlier)
    after = pooled_agreement(recent)
    if len(earlier) < 2 or before.rate is None or after.rate is None:
        return None
    p = (before.agreements + 1) / (before.decisions + 2)
    binomial = p * (1 - p)
    # The cluster (per-game) variance of the pooled rate, scaled to one decision.
    residuals = sum((g.agreements - before.rate * g.decisions) ** 2 for g in earlier)
    n = len(earlier)
    per_decision = residuals * n / (n - 1) / before.decisions
    dispersion = max(1.0, per_decision / binomial)
    spread = math.sqrt(dispersion * binomial * (1 / before.decisions + 1 / after.decisions))
    return HistoryComparison(before, after, dispersion, (after.rate - before.rate) / spread)
