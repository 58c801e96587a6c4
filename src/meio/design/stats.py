"""The statistics of a report card, all on duplicate deals: a figure is a function of
per-deal sums, and every interval treats a deal (with all its rotations, rounds and
seats) as one draw.

* :class:`Ratio`: a mean over rows as the ratio of two per-deal sums. Its 95%
  interval is the cluster-robust (linearised) one of :func:`meio.analysis.stats.
  cluster_mean`; the difference of the same ratio under two rulesets on the same
  deals gets the paired version.
* :class:`Figure`: any function of ratios (a spread of seats, a variance share, the
  rounds a player needs to win); its interval is the percentile bootstrap over deals,
  and two rulesets' figures are resampled with the same deals (a paired bootstrap).
* Holm's correction for looking at several seats at once is the lab's
  (:func:`meio.analysis.verdicts.holm`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.analysis.stats import NAN, Z95, Estimate

Floats = npt.NDArray[np.float64]
#: bootstrap draws of a nonlinear figure
REPS = 400


@dataclass(frozen=True)
class Ratio:
    """A mean over rows, kept as per-deal sums: ``num[d]`` of the values, ``den[d]`` of
    the weights (rows), for deals ``0 .. D − 1``."""

    num: npt.NDArray[Any]
    den: npt.NDArray[Any]

    @classmethod
    def of(cls, deals: npt.ArrayLike, values: npt.ArrayLike, size: int,
           weights: npt.ArrayLike | None = None) -> Ratio:
        """The mean of ``values`` (weighted by ``weights``), rows filed by ``deals``."""
        d = np.asarray(deals, dtype=np.int64)
        w = np.ones(d.size) if weights is None else np.asarray(weights, dtype=np.float64)
        y = np.asarray(values, dtype=np.float64)
        return cls(np.bincount(d, weights=y * w, minlength=size)[:size],
                   np.bincount(d, weights=w, minlength=size)[:size])

    @property
    def deals(self) -> int:
        return int((self.den > 0).sum())

    @property
    def value(self) -> float:
        total = float(self.den.sum())
        return float(self.num.sum()) / total if total else math.nan

    def weighed(self, w: Floats) -> Floats:
        """The ratio under each row of deal weights ``w`` ([draws, D])."""
        with np.errstate(invalid="ignore", divide="ignore"):
            out: Floats = np.asarray((w @ self.num) / (w @ self.den), dtype=np.float64)
        return out

    def _z(self) -> Floats:
        z: Floats = np.asarray((self.num - self.value * self.den) / self.den.mean(),
                               dtype=np.float64)
        return z

    def estimate(self) -> Estimate:
        """The mean with its cluster-robust 95% interval (a deal is one draw)."""
        return _normal(self.value, self._z(), self.deals)

    def minus(self, base: Ratio) -> Estimate:
        """This ratio minus ``base`` on the same deals, with the paired interval."""
        size = min(self.num.size, base.num.size)
        a, b = self.cut(size), base.cut(size)
        both = min(a.deals, b.deals)
        return _normal(a.value - b.value, a._z() - b._z(), both)

    def cut(self, size: int) -> Ratio:
        return Ratio(self.num[:size], self.den[:size])


def _normal(value: float, z: Floats, n: int) -> Estimate:
    g = z.size
    if g < 2 or math.isnan(value):
        return Estimate(value, value, value, n)
    half = Z95 * math.sqrt(float((z * z).sum()) * g / (g - 1)) / g
    return Estimate(value, value - half, value + half, n)


@dataclass(frozen=True)
class Figure:
    """``fn`` of the values of ``ratios`` (one float from an array of ratio values)."""

    ratios: Sequence[Ratio]
    fn: Callable[[Floats], float]
    seed: int = field(default=0)

    @property
    def value(self) -> float:
        return float(self.fn(np.array([r.value for r in self.ratios])))

    @property
    def size(self) -> int:
        return min(r.num.size for r in self.ratios)

    def draws(self, w: Floats) -> Floats:
        size = w.shape[1]
        values = np.stack([r.cut(size).weighed(w) for r in self.ratios], 1)
        return np.array([self.fn(v) for v in values])

    def estimate(self) -> Estimate:
        """The figure with its percentile bootstrap 95% interval over deals."""
        if not self.ratios:
            return NAN
        w = _weights(self.size, self.seed)
        n = min(r.deals for r in self.ratios)
        return _percentile(self.value, self.draws(w), n)

    def minus(self, base: Figure) -> Estimate:
        """This figure minus ``base``'s, both resampled with the same deals."""
        size = min(self.size, base.size)
        w = _weights(size, self.seed)
        mine = Figure([r.cut(size) for r in self.ratios], self.fn)
        theirs = Figure([r.cut(size) for r in base.ratios], base.fn)
        n = min(r.deals for r in [*mine.ratios, *theirs.ratios])
        return _percentile(mine.value - theirs.value, mine.draws(w) - theirs.draws(w), n)


@dataclass(frozen=True)
class LargestEdge(Figure):
    """The largest distance of several means from ``null`` (the worst seat's edge). The
    seat is picked after looking, so a bootstrap of the maximum is biased upward and
    its interval can miss; this one holds whichever seat turns out worst: simultaneous
    (Bonferroni) intervals of every mean, the largest distance each allows. It always
    contains the estimate and reaches 0 when no seat is clearly off."""

    null: float = 0.0

    def estimate(self) -> Estimate:
        k = len(self.ratios)
        z = NormalDist().inv_cdf(1 - 0.025 / k)
        low = high = 0.0
        for r in self.ratios:
            e = r.estimate()
            half = (e.high - e.value) / Z95 * z
            lo, hi = e.value - half - self.null, e.value + half - self.null
            low = max(low, lo, -hi)
            high = max(high, abs(lo), abs(hi))
        value = self.value
        return Estimate(value, min(low, value), max(high, value),
                        min(r.deals for r in self.ratios))


def _weights(size: int, seed: int) -> Floats:
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, size, (REPS, size))
    return np.stack([np.bincount(d, minlength=size) for d in draws]).astype(np.float64)


def _percentile(value: float, draws: Floats, n: int) -> Estimate:
    finite = draws[np.isfinite(draws)]
    if math.isnan(value) or finite.size < draws.size * 0.9:
        # a figure undefined in many resamples (no clear gap to divide by): no interval
        return Estimate(value, math.nan if math.isnan(value) else -math.inf, math.inf, n)
    lo, hi = np.percentile(finite, [2.5, 97.5])
    return Estimate(value, min(float(lo), value), max(float(hi), value), n)


def p_value(e: Estimate, null: float = 0.0) -> float:
    """Two-sided p-value of ``e`` against ``null`` from its (normal) 95% interval."""
    se = (e.high - e.low) / (2 * Z95)
    if not se or math.isnan(se):
        return math.nan
    return 2 * (1 - NormalDist().cdf(abs(e.value - null) / se))


#: the normal quantile of 0.75: a lead of z·σ/√k wins three matches in four
Z75 = NormalDist().inv_cdf(0.75)


def rounds_to_win(mean: float, square: float) -> float:
    """Rounds the better player needs to finish ahead 75% of the time, when one round's
    gap has this mean and mean square (a normal approximation of the sum of ``k``
    rounds: ``P(ahead) = Φ(√k·μ/σ)``); infinite when there is no gap in its favour.

    >>> round(rounds_to_win(0.5, 0.25 + 1.0), 2)  # gap 0.5, spread 1: (0.674 / 0.5)²
    1.82
    """
    var = square - mean * mean
    if not mean > 0:
        return math.inf
    return float((Z75 * math.sqrt(max(var, 0.0)) / mean) ** 2)


def first_unclear(gaps: Sequence[Estimate]) -> int:
    """How many steps of a ladder clearly add strength before the first that does not
    (its gap's 95% interval reaches 0): the curve flattens there, or the step is too
    wide to say (:func:`meio.design.measures.reading` tells which).

    >>> first_unclear([Estimate(0.3, 0.2, 0.4, 99), Estimate(0.0, -0.1, 0.1, 99)])
    1
    """
    for i, g in enumerate(gaps):
        if not g.low > 0:
            return i
    return len(gaps)
