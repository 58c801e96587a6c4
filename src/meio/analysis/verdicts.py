"""How ``meio analyze compare`` judges its figures: a correction for looking at many at
once, a smallest difference that matters for each measure, and which way is better.

A comparison looks at about thirty figures a table. Called one by one at 95%, two
identical rulesets would show one or two "differences" a table by chance. So:

* **Multiplicity: Holm's step-down** over every figure of the comparison (all its
  tables). It keeps the chance that *any* figure of a comparison between two
  identical rulesets is called different at or below :data:`ALPHA` (the family-wise
  error rate), whatever the dependence between the figures — and they are strongly
  dependent, all read off the same games. Benjamini–Hochberg would control the share
  of false calls among the calls instead, with more power, but it needs the figures'
  tests to be positively dependent, which a seat's score and its neighbour's are not
  (one seat's gain is another's loss); and a designer acting on a single "better"
  needs that one to be real.
* **A smallest difference that matters** (:data:`MEASURES`): a difference is called
  only when it is clear after the correction *and* at least that large, so 0.004
  minutes of playing time is never news however many games show it.
* **Better or worse** where a designer's aim is clear (a smaller seat spread is fairer,
  a larger skill gap rewards the better player, a match that stays open to its last
  round is more dramatic, fewer shared wins are more decisive); **higher or lower**
  for a figure with no better side (a mean round score, a special's holder effect,
  what the split keeps).

Each row's p-value is two-sided, from the normal approximation of its difference
(the interval's half-width is 1.96 standard errors).

>>> holm([0.01, 0.04, 0.03, 0.5])
[0.04, 0.09, 0.09, 0.5]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from meio.analysis.stats import MIN_GAMES, Z95

Json = dict[str, Any]
#: the family-wise error rate of a comparison: the most likely a placebo is to show
#: any difference at all
ALPHA = 0.05
#: how the verdicts are reached, in words (the report and summary.json say it)
METHOD = (f"Holm's step-down correction over every figure of the comparison (the "
          f"chance that a comparison of two identical rulesets calls any figure different "
          f"is at most {ALPHA:.0%}), and a difference is called only when it is also at "
          "least the measure's smallest difference that matters")


@dataclass(frozen=True, slots=True)
class Measure:
    """A kind of figure: the smallest difference that matters, and which way is
    better (``higher``, ``lower``; None where neither is)."""

    minimum: float
    better: str | None
    why: str = ""


#: by the start or the end of a figure's name (the first that fits wins)
MEASURES: tuple[tuple[str, Measure], ...] = (
    ("seats: seat spread", Measure(0.03, "lower", "a smaller spread between the best and "
                                   "the worst seat is fairer")),
    ("seats: mean round score", Measure(0.05, None)),
    ("seats: match-win rate", Measure(0.02, None)),
    ("specials:", Measure(0.03, None)),
    ("splits:", Measure(0.02, None)),
    ("skill:", Measure(0.03, "higher", "a larger gap on the same deals rewards the better "
                       "player more")),
    ("length: decided in the last round", Measure(0.02, "higher", "a match still open in "
                                                  "its last round keeps every player in it")),
    ("length: out of reach before the last round", Measure(0.02, "lower", "a match out of "
                                                           "reach early is dull to finish")),
    ("length: shared victory", Measure(0.02, "lower", "fewer shared wins: more decisive")),
    ("length: decisions", Measure(0.5, None)),
    ("length: playing time", Measure(1.0, None)),
    ("length:", Measure(0.05, None)),
)


def measure(name: str) -> Measure:
    """The :class:`Measure` of a figure named ``study: figure``.

    >>> measure("length: playing time per match (minutes)").minimum
    1.0
    >>> measure("skill: heuristic vs random: weaker − stronger").better
    'higher'
    """
    for start, m in MEASURES:
        if name.startswith(start):
            return m
    raise KeyError(f"no measure for the figure {name!r}")


def p_value(difference: Json) -> float | None:
    """The two-sided p-value of a difference's JSON form (None without an interval)."""
    value, (low, high) = difference.get("value"), difference.get("ci95", (None, None))
    if value is None or low is None or high is None:
        return None
    se = (high - low) / (2 * Z95)
    if se <= 0:
        return 1.0 if value == 0 else 0.0
    return 2 * (1 - NormalDist().cdf(abs(value) / se))


def holm(ps: list[float]) -> list[float]:
    """Holm's adjusted p-values of ``ps`` (in their order): the ``i``-th smallest times
    ``m - i``, never below an earlier one, at most 1; "adjusted p < 0.05" holds the
    chance of any false alarm in the family to 5%.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out = [1.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = round(running, 12)
    return out


def judge(rows: list[tuple[str, Json]]) -> None:
    """Set each row's verdict in place: ``p_value``, ``p_holm``, ``minimum``,
    ``better`` (the measure's direction), ``separates``, ``higher`` (``base`` or
    ``variant``), ``verdict`` (``variant better``, ``variant lower``, ``no clear
    difference``, ``below the smallest difference that matters``) and ``reason``
    where too few games stand behind it. ``rows`` is every figure of a comparison,
    each named ``study: figure``."""
    family: list[tuple[Json, float]] = []
    for name, row in rows:
        m = measure(name)
        row["minimum"], row["better"] = m.minimum, m.better
        row["separates"], row["higher"] = False, None
        d = row["difference"]
        p = p_value(d)
        n = min(row.get("base", {}).get("n", 0) or 0, row.get("variant", {}).get("n", 0) or 0)
        if p is None or n < MIN_GAMES or d.get("value") is None or math.isnan(d["value"]):
            row["p_value"] = None
            row["verdict"] = "–"
            row["reason"] = f"too few games (n={n}, at least {MIN_GAMES} needed)"
            continue
        row.pop("reason", None)
        row["p_value"] = round(p, 6)
        family.append((row, p))
    for (row, _), adjusted in zip(family, holm([p for _, p in family]), strict=True):
        row["p_holm"] = adjusted
        value = row["difference"]["value"]
        clear = adjusted < ALPHA
        big = abs(value) >= row["minimum"]
        if clear and big:
            row["separates"] = True
            row["higher"] = "variant" if value > 0 else "base"
            row["verdict"] = direction(value, row["better"])
        elif clear:
            row["verdict"] = f"below the smallest difference that matters ({row['minimum']:g})"
        else:
            row["verdict"] = "no clear difference"


def direction(value: float, better: str | None) -> str:
    """The variant's side of a called difference, in a designer's words.

    >>> direction(-0.1, "lower"), direction(0.2, None)
    ('variant better', 'variant higher')
    """
    if better is None:
        return "variant higher" if value > 0 else "variant lower"
    good = value > 0 if better == "higher" else value < 0
    return "variant better" if good else "variant worse"
