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


#: fewer games (clusters) than this and a figure is not shown: its interval would
#: rest on too few draws to mean anything (a 2-deal row can have zero width)
MIN_GAMES = 30


def enough(estimate: dict[str, Any] | Estimate | None) -> bool:
    """Whether an estimate (or its JSON form) rests on at least :data:`MIN_GAMES` games."""
    if estimate is None:
        return False
    n = estimate.n if isinstance(estimate, Estimate) else estimate.get("n", 0)
    return bool(n and n >= MIN_GAMES)


def shown(estimate: dict[str, Any] | None, digits: int = 3) -> str:
    """An estimate's JSON form as text, ``value [low, high]``; one that rests on too few
    games says so instead, and a missing one is a dash.

    >>> shown({"value": 0.1234, "ci95": [0.1, 0.15], "n": 100})
    '0.123 [0.100, 0.150]'
    >>> shown({"value": 0.1, "ci95": [0.0, 0.2], "n": 2})
    'too few games (n=2)'
    """
    if not estimate or estimate.get("value") is None:
        return "–"
    if not enough(estimate):
        return f"too few games (n={estimate.get('n', 0)})"
    lo, hi = estimate["ci95"]
    return f"{estimate['value']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def shown_p(p: float | None) -> str:
    """A p-value as text: three decimals, ``< 0.001`` below that, a dash if none."""
    return "–" if p is None else ("< 0.001" if p < 0.001 else f"{p:.3f}")


def by_round(values: npt.NDArray[Any], keys: npt.NDArray[Any], slot: npt.NDArray[Any],
             width: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
    """``values`` laid out one row per distinct ``keys`` and one column per ``slot``
    (``0 .. width - 1``), and the key of each row; rows missing a slot are dropped."""
    uniq, row = np.unique(keys, return_inverse=True)
    out = np.full((uniq.size, width), np.nan)
    keep = slot < width
    out[row[keep], slot[keep].astype(np.int64)] = values[keep]
    full = ~np.isnan(out).any(1)
    return np.asarray(out[full], dtype=np.float64), uniq[full]


#: above this many random draws (rows × columns × shuffles) a permutation test uses the
#: normal approximation of its permutation distribution instead of shuffling
EXACT_LIMIT = 20_000_000


def permutation_test(matrix: npt.NDArray[np.float64], stat: Any, reps: int = 999,
                     seed: int = 0) -> float:
    """p-value of ``stat(column means)`` under the null that the columns of each row are
    exchangeable: each permutation shuffles every row on its own (a randomisation test,
    valid however the columns were picked afterwards, which a plain interval of the
    max − min is not).

    Small tables are shuffled ``reps`` times. Large ones (more than :data:`EXACT_LIMIT`
    draws) use the permutation distribution's normal limit, which is known exactly from
    the data: shuffling a row of ``k`` values of variance ``s²`` gives each column that
    variance and each pair the covariance ``−s²/(k − 1)``; summed over thousands of
    rounds the column means are normal with that covariance (central limit theorem),
    and 20 × ``reps`` draws of it replace the shuffles.

    >>> m = np.array([[0.0, 1.0]] * 40)           # column 1 always higher
    >>> permutation_test(m, lambda c: c.max() - c.min(), reps=199) < 0.01
    True
    >>> flat = np.random.default_rng(1).integers(0, 3, (40, 2)).astype(float)
    >>> permutation_test(flat, lambda c: c.max() - c.min(), reps=199) > 0.05
    True
    """
    if matrix.shape[0] < 2:
        return math.nan
    observed = float(stat(matrix.mean(0)))
    rng = np.random.default_rng(seed)
    rows, cols = matrix.shape
    if rows * cols * reps > EXACT_LIMIT:
        return _normal_permutation(matrix, stat, observed, 20 * reps, rng)
    hits = 0
    batch = max(1, 2_000_000 // max(rows * cols, 1))
    done = 0
    while done < reps:
        k = min(batch, reps - done)
        order = np.argsort(rng.random((k, rows, cols)), axis=-1)
        means = np.take_along_axis(np.broadcast_to(matrix, (k, rows, cols)), order,
                                   -1).mean(1)
        hits += int(sum(float(stat(m)) >= observed - 1e-12 for m in means))
        done += k
    return (1 + hits) / (1 + reps)


def _normal_permutation(matrix: npt.NDArray[np.float64], stat: Any, observed: float,
                        reps: int, rng: np.random.Generator) -> float:
    rows, cols = matrix.shape
    s2 = float(matrix.var(axis=1).sum())  # Σ over rows of each row's variance
    centre = float(matrix.mean())
    g = rng.standard_normal((reps, cols))
    g -= g.mean(1, keepdims=True)  # covariance s2·k/(k−1)·(I − J/k) after scaling
    means = centre + g * math.sqrt(s2 * cols / (cols - 1)) / rows
    hits = sum(float(stat(m)) >= observed - 1e-12 for m in means)
    return (1 + hits) / (1 + reps)


def range_interval(matrix: npt.NDArray[np.float64], clusters: npt.NDArray[Any]) -> Estimate:
    """The spread max − min of the column means with a 95% interval that holds for
    whichever columns turn out highest and lowest: simultaneous (Bonferroni) intervals
    of every paired difference of columns, each a cluster-robust mean over rows, bound
    the largest absolute difference. The interval always contains the estimate and
    reaches 0 when no difference is clear.

    >>> m = np.array([[1.0, 1.0], [2.0, 2.0], [0.0, 0.0]] * 10)
    >>> e = range_interval(m, np.arange(30))
    >>> (e.value, e.low) == (0.0, 0.0)
    True
    """
    from statistics import NormalDist

    rows, cols = matrix.shape
    means = matrix.mean(0) if rows else np.full(cols, np.nan)
    if rows == 0 or cols < 2:
        return NAN
    value = float(np.nanmax(means) - np.nanmin(means))
    pairs = [(a, b) for a in range(cols) for b in range(a + 1, cols)]
    z = NormalDist().inv_cdf(1 - 0.025 / len(pairs))
    low = high = 0.0
    n = int(np.unique(clusters).size)
    for a, b in pairs:
        d = cluster_mean(matrix[:, a] - matrix[:, b], clusters)
        half = (d.high - d.value) / Z95 * z
        lo, hi = d.value - half, d.value + half
        low = max(low, lo, -hi)
        high = max(high, abs(lo), abs(hi))
    return Estimate(value, min(low, value), max(high, value), n, rows)
