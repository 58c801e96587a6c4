"""Estimates with 95% confidence intervals.

Rows of the raw table are not independent: the rounds of one match share its
players' fortunes, and the seats of one round share its deal. Every interval here
therefore treats a *game* (a match, or a duplicate deal) as the unit: a mean over
rows is a ratio of per-game sums, and its standard error is the cluster-robust
(linearised) one, which is the plain standard error of the mean when each game
gives one row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure, its 95% interval and the games it rests on."""

    value: float
    low: float
    high: float
    n: int  #: games (clusters)
    rows: int = 0  #: rows (game-round-seats) averaged

    @property
    def width(self) -> float:
        return self.high - self.low

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 0 (for differences)."""
        return self.low > 0 or self.high < 0

    def rate(self) -> Estimate:
        """This estimate of a rate, its interval kept within [0, 1] (the normal
        approximation can overshoot with few games or a rate near 0 or 1)."""
        return Estimate(self.value, max(self.low, 0.0), min(self.high, 1.0), self.n, self.rows)

    def to_json(self) -> dict[str, Any]:
        return {"value": _r(self.value), "ci95": [_r(self.low), _r(self.high)], "n": self.n,
                "rows": self.rows}

    def text(self, digits: int = 3) -> str:
        if math.isnan(self.value):
            return "–"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def _r(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 6)


NAN = Estimate(math.nan, math.nan, math.nan, 0)


def cluster_mean(values: npt.ArrayLike, clusters: npt.ArrayLike) -> Estimate:
    """Mean of ``values`` with a 95% interval that treats each cluster as one draw."""
    y = np.asarray(values, dtype=np.float64)
    if y.size == 0:
        return NAN
    _, idx = np.unique(np.asarray(clusters), return_inverse=True)
    sums = np.bincount(idx, weights=y)
    counts = np.bincount(idx).astype(np.float64)
    g = sums.size
    mean = float(sums.sum() / counts.sum())
    if g < 2:
        return Estimate(mean, mean, mean, g, int(y.size))
    z = sums - mean * counts
    var = g / (g - 1) * float((z * z).sum()) / float(counts.sum()) ** 2
    half = Z95 * math.sqrt(var)
    return Estimate(mean, mean - half, mean + half, g, int(y.size))


def mean_ci(values: npt.ArrayLike) -> Estimate:
    """Mean of independent draws with its normal-approximation 95% interval."""
    y = np.asarray(values, dtype=np.float64)
    return cluster_mean(y, np.arange(y.size))


def bootstrap(stat: Any, clusters: npt.NDArray[Any], reps: int = 200,
              seed: int = 0) -> tuple[float, float]:
    """Percentile 95% interval of ``stat(rows mask)`` resampling whole clusters.

    ``stat`` takes an integer array of row weights (how often each row is drawn)."""
    uniq, idx = np.unique(clusters, return_inverse=True)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(reps):
        draw = np.bincount(rng.integers(0, uniq.size, uniq.size), minlength=uniq.size)
        out.append(float(stat(draw[idx])))
    lo, hi = np.nanpercentile(out, [2.5, 97.5])
    return float(lo), float(hi)
