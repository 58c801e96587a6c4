"""How a report shares its time (known costs, no timing): the seats' precision first,
each ladder step toward one precision, the time going where the intervals are widest."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meio.design.budget import (
    MIN_STEP_DEALS,
    SEAT_SPREAD,
    SEAT_TARGET,
    STEP_SPREAD,
    STEP_TARGET,
    deals_for,
    share,
)

SEATS = deals_for(SEAT_SPREAD, SEAT_TARGET)  # 865: the seats' edges to ±0.02
STEP = deals_for(STEP_SPREAD, STEP_TARGET)  # 683: a step's gap to ±0.03


def _spent(self_cost: float, costs: list[float], s: object) -> float:
    return self_cost * s.deals + sum(c * n for c, n in zip(costs, s.pair_deals,  # type: ignore[attr-defined]
                                                            strict=True))


def test_the_seats_get_their_precision_before_the_ladder() -> None:
    # the seats' target costs 173 s of 600; the ladder cannot reach its own in the rest
    s = share(600.0, 0.2, [0.1, 2.0, 8.0])
    assert s.deals == SEATS and s.seat_half_width <= SEAT_TARGET
    assert _spent(0.2, [0.1, 2.0, 8.0], s) <= 600.0
    assert all(h > STEP_TARGET for h in s.step_half_widths[1:])


def test_cheap_steps_stop_at_the_target_and_the_time_goes_to_the_widest() -> None:
    # the coordinator's 10-minute run gave 3000, 2917, 108, 30 deals: a share in
    # proportion to cheapness; here the cheap steps take their ±0.03 and no more
    costs = [0.04, 0.07, 1.1, 6.0]
    s = share(1020.0, 0.23, costs)
    assert s.pair_deals[:2] == [STEP, STEP]
    assert s.step_half_widths[0] == pytest.approx(STEP_TARGET, rel=0.01)
    # the two dear steps share the rest at one half-width, the dearest getting as many
    # deals as the other (not 5 times fewer, as a share of the time would give it)
    assert s.pair_deals[2] == s.pair_deals[3] > MIN_STEP_DEALS
    assert s.step_half_widths[2] == pytest.approx(s.step_half_widths[3])
    left = 1020.0 - 0.23 * s.deals - STEP * (0.04 + 0.07)
    assert 6.0 + 1.1 > left - (1.1 + 6.0) * s.pair_deals[2] >= 0  # all spent, to a deal


def test_a_wider_step_gets_more_deals_for_the_same_half_width() -> None:
    s = share(1020.0, 0.23, [3.0, 3.0], step_spreads=[0.2, 0.4])  # neither reaches ±0.03
    assert s.pair_deals[1] == pytest.approx(4 * s.pair_deals[0], rel=0.02)
    assert s.step_half_widths[0] == pytest.approx(s.step_half_widths[1], rel=0.01)


def test_time_to_spare_goes_to_every_part_in_proportion() -> None:
    at_targets = SEATS * 0.2 + STEP * (0.1 + 0.3)
    s = share(2 * at_targets, 0.2, [0.1, 0.3])
    assert s.seconds_for_targets == pytest.approx(at_targets)
    assert (s.deals, s.pair_deals) == (2 * SEATS, [2 * STEP, 2 * STEP])


def test_a_short_time_keeps_half_for_the_seats_and_the_ladders_floors() -> None:
    s = share(100.0, 1.0, [0.5, 1.0])
    # the seats' ±0.02 would take 865 s: they keep what the floors (45 s) leave
    assert s.deals == 55 and s.pair_deals == [MIN_STEP_DEALS, MIN_STEP_DEALS]
    s = share(100.0, 1.0, [5.0, 5.0])  # the floors alone take 300 s: the seats keep half
    assert s.deals == 50 and s.pair_deals == [MIN_STEP_DEALS, MIN_STEP_DEALS]


@settings(deadline=None)  # a loaded machine must not fail it: no timing in the verdict
@given(st.floats(10.0, 1e5), st.floats(0.01, 10.0),
       st.lists(st.floats(0.01, 20.0), min_size=1, max_size=5))
def test_the_plan_never_spends_past_the_time_its_floors_leave(
        budget: float, self_cost: float, costs: list[float]) -> None:
    s = share(budget, self_cost, costs)
    assert all(n >= MIN_STEP_DEALS for n in s.pair_deals) and s.deals >= 2
    floors = MIN_STEP_DEALS * sum(costs)
    if floors + 2 * self_cost <= budget / 2:
        assert _spent(self_cost, costs, s) <= budget * (1 + 1e-9)
        # and it leaves less than one deal of the dearest part unspent
        assert budget - _spent(self_cost, costs, s) <= max([self_cost, *costs]) * (
            len(costs) + 1) + 1e-6
    # the seats never get less than their target or half the time, whichever is less
    assert s.deals >= min(SEATS, int(budget / 2 / self_cost))


def test_a_cost_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="above 0"):
        share(100.0, 0.0, [1.0])
    with pytest.raises(ValueError, match="2 step costs but 1 spreads"):
        share(100.0, 1.0, [1.0, 2.0], step_spreads=[0.3])
