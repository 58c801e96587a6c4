"""The report card's statistics against cases with a known answer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meio.analysis.stats import Estimate, cluster_mean
from meio.analysis.verdicts import holm
from meio.design.stats import (
    Figure,
    LargestEdge,
    Ratio,
    first_unclear,
    p_value,
    rounds_to_win,
)


def test_a_ratio_has_the_labs_cluster_robust_interval() -> None:
    rng = np.random.default_rng(3)
    deals = rng.integers(0, 50, 400)
    y = rng.normal(1.0, 1.0, 400) + deals * 0.01
    mine = Ratio.of(deals, y, 50).estimate()
    lab = cluster_mean(y, deals)
    assert mine.value == pytest.approx(lab.value)
    assert (mine.low, mine.high) == pytest.approx((lab.low, lab.high))
    assert mine.n == 50


def test_a_paired_difference_on_the_same_deals_is_narrower_than_apart() -> None:
    rng = np.random.default_rng(4)
    deals = np.repeat(np.arange(300), 4)
    luck = rng.normal(0, 2, 300)[deals]  # the deal moves both rulesets alike
    a = Ratio.of(deals, luck + rng.normal(0, 0.3, deals.size), 300)
    b = Ratio.of(deals, luck + 0.2 + rng.normal(0, 0.3, deals.size), 300)
    diff = b.minus(a)
    assert diff.low > 0.1 and diff.high < 0.3  # the built-in +0.2 is found, tightly
    apart = b.estimate().width + a.estimate().width
    assert diff.width < apart / 4


def test_holm_controls_the_family_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]
    assert holm([0.001, 0.5]) == [0.002, 0.5]
    assert holm([0.2, 0.2, 0.2, 0.2]) == [0.8, 0.8, 0.8, 0.8]


def test_the_p_value_reads_the_interval() -> None:
    assert p_value(Estimate(1.96, 0.0, 3.92, 100)) == pytest.approx(0.05, abs=1e-3)
    assert p_value(Estimate(0.1, 0.5, 0.7, 100), null=0.6) < 1e-6


def test_rounds_to_win_three_in_four() -> None:
    # gap 0.5 a round, spread 1: k = (0.674 / 0.5)^2 rounds
    assert rounds_to_win(0.5, 1.25) == pytest.approx((0.6745 / 0.5) ** 2, rel=1e-3)
    assert rounds_to_win(-0.1, 1.0) == math.inf
    assert rounds_to_win(0.0, 1.0) == math.inf


def test_a_figure_resamples_deals_and_covers_the_truth() -> None:
    rng = np.random.default_rng(5)
    deals = np.repeat(np.arange(200), 3)
    covered = 0
    for _ in range(40):
        ratios = [Ratio.of(deals, rng.normal(m, 1, deals.size), 200) for m in (0.0, 0.3)]
        gap = Figure(ratios, lambda v: float(v[1] - v[0]))
        e = gap.estimate()
        assert e.low <= e.value <= e.high
        covered += e.low < 0.3 < e.high
    assert covered >= 34  # a 95% interval: about 38 of 40
    same = gap.minus(gap)
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)


def test_the_largest_edge_holds_whichever_seat_is_worst() -> None:
    rng = np.random.default_rng(6)
    deals = np.repeat(np.arange(200), 3)
    misses = 0
    for _ in range(40):  # a fair table: every mean is 0, the largest edge is 0
        ratios = [Ratio.of(deals, rng.normal(0, 1, deals.size), 200) for _ in range(4)]
        e = LargestEdge(ratios, lambda v: float(np.abs(v).max())).estimate()
        assert e.low <= e.value <= e.high
        misses += e.low > 0
    assert misses <= 2  # a plain interval of the worst seat would miss 0 every time
    edged = [Ratio.of(deals, rng.normal(m, 1, deals.size), 200) for m in (0, 0, 0.4, 0)]
    assert LargestEdge(edged, lambda v: float(np.abs(v).max())).estimate().low > 0.15


def test_a_ladder_flattens_at_its_first_unclear_step() -> None:
    clear = Estimate(0.3, 0.2, 0.4, 99)
    flat = Estimate(0.01, -0.05, 0.07, 99)
    assert first_unclear([clear, clear, flat, clear]) == 2
    assert first_unclear([flat, clear]) == 0
    assert first_unclear([clear]) == 1
