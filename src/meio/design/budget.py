"""How a report card shares its time between the named player and the ladder's steps.

The time is spent for precision, not in proportion to how cheap a part is:

1. **The seats first.** The named player's self-play gets the deals that read every
   seat's edge to :data:`SEAT_TARGET` (±0.02 a round) — or, when the time cannot, at
   least half of it (and all that the ladder's floors leave).
2. **The ladder toward one precision.** Every step aims at the same half-width, the
   smallest gain that matters (:data:`STEP_TARGET`, the lab's smallest skill gap): the
   precision at which a flat step can be told from a rising one. When the time cannot
   bring every step there, each step is owed an even share of it: a step of cheap
   players whose target costs less takes only that, and the rest goes where the
   intervals are widest: the steps still short of the target get one common half-width,
   the finest the time pays for (water filling). No step gets fewer than
   :data:`MIN_STEP_DEALS` (a cheap step's target gives way to the others' floors).
3. **Time to spare** (every part at its target) is shared by every part in proportion.

A half-width is predicted from a per-deal spread (``z · spread / √deals``); the
spreads are priors measured on the box edition at 4 players (docs/design.md), so the
precision reached on another ruleset differs and the report states each interval as
measured. :func:`share` is a pure function of the costs, for the planner and the tests.

>>> s = share(1000.0, 0.2, [0.1, 6.0])  # worker-seconds; seconds a deal
>>> s.deals, s.pair_deals  # the seats to ±0.02, the cheap step to ±0.03, the rest
(865, [683, 126])
>>> [round(h, 3) for h in s.step_half_widths]
[0.03, 0.07]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from meio.analysis.stats import Z95
from meio.analysis.verdicts import measure

#: the half-width a seat's edge is read to, in points a round
SEAT_TARGET = 0.02
#: the half-width a ladder step's gap aims at: the smallest skill gap that matters in
#: the lab, below which a step adds no strength worth the name
STEP_TARGET = measure("skill:").minimum
#: per-deal spreads (standard deviations of a deal's mean) behind the half-widths: a
#: seat's edge by position from the round's leader, and a ladder step's gap; measured on
#: the box edition at 4 players (the network's 140 deals give ±0.05 a seat; the steps'
#: gaps 0.28 to 0.45 a deal, random's the widest)
SEAT_SPREAD = 0.30
STEP_SPREAD = 0.40
#: the share of the time the self-play keeps when its target is out of reach
SELF_SHARE = 0.5
#: the fewest deals of a ladder step
MIN_STEP_DEALS = 30


def deals_for(spread: float, half_width: float) -> int:
    """Deals that bring a mean of this per-deal spread to ± ``half_width``.

    >>> deals_for(0.3, 0.02)
    865
    """
    return math.ceil((Z95 * spread / half_width) ** 2)


def half_width(spread: float, deals: int) -> float:
    """The 95% half-width of a mean of this per-deal spread over ``deals``."""
    return Z95 * spread / math.sqrt(deals) if deals > 0 else math.inf


@dataclass(frozen=True)
class Share:
    """The deals of each part, and the half-widths they are expected to reach."""

    deals: int
    pair_deals: list[int]
    seat_half_width: float
    step_half_widths: list[float]
    #: worker-seconds that would bring every part to its target
    seconds_for_targets: float


def share(budget: float, self_cost: float, step_costs: Sequence[float], *,
          seat_spread: float = SEAT_SPREAD, step_spreads: Sequence[float] | None = None,
          seat_target: float = SEAT_TARGET, step_target: float = STEP_TARGET,
          floor: int = MIN_STEP_DEALS) -> Share:
    """Share ``budget`` worker-seconds: ``self_cost`` seconds a deal of self-play, and
    ``step_costs[i]`` a deal of the ladder's step ``i``."""
    spreads = list(step_spreads) if step_spreads is not None else [STEP_SPREAD] * len(
        step_costs)
    if len(spreads) != len(step_costs):
        raise ValueError(f"{len(step_costs)} step costs but {len(spreads)} spreads")
    if not budget > 0 or not self_cost > 0 or not all(c > 0 for c in step_costs):
        raise ValueError(f"the budget and every cost must be above 0: {budget}, "
                         f"{self_cost}, {list(step_costs)}")
    need_self = deals_for(seat_spread, seat_target)
    need = [max(floor, deals_for(s, step_target)) for s in spreads]
    at_targets = need_self * self_cost + _cost(step_costs, need)
    if at_targets <= budget:
        f = budget / at_targets
        own, steps = int(need_self * f), [int(n * f) for n in need]
    else:
        floors = floor * sum(step_costs)
        most = max(SELF_SHARE * budget, budget - floors)  # the seats' time at most
        own = need_self if need_self * self_cost <= most else int(most / self_cost)
        left = budget - own * self_cost
        steps = _fill(left, step_costs, spreads, need, floor)
        spare = left - _cost(step_costs, steps)
        if spare > 0 and steps == need:  # the ladder is at its target: the seats get the rest
            own += int(spare / self_cost)
    own = max(2, own)
    return Share(own, steps, half_width(seat_spread, own),
                 [half_width(s, n) for s, n in zip(spreads, steps, strict=True)], at_targets)


def _cost(costs: Sequence[float], deals: Sequence[int]) -> float:
    return sum(c * n for c, n in zip(costs, deals, strict=True))


def _fill(budget: float, costs: Sequence[float], spreads: Sequence[float],
          need: Sequence[int], floor: int) -> list[int]:
    """The steps' deals within ``budget`` when not every step can reach its target.

    Each step is owed an even share of the time. A step whose target costs no more than
    its share (and leaves the others their floors) takes just that, and the time it
    leaves is shared again by the others (so cheap steps are read to the target for a
    small part of the time). The steps
    left get the smallest common half-width the rest pays for: the time goes where the
    intervals are widest, never below a step's floor."""
    out = list(need)
    waiting = list(range(len(costs)))
    left = budget
    while waiting:
        even = left / len(waiting)
        # the cheapest target first, and only while the others' floors stay paid
        i = min(waiting, key=lambda j: costs[j] * need[j])
        others = sum(costs[j] * floor for j in waiting if j != i)
        if costs[i] * need[i] > min(even, left - others):
            break
        left -= costs[i] * need[i]
        waiting.remove(i)
    if not waiting:
        return out
    c = [costs[i] for i in waiting]

    def at(h: float) -> list[int]:
        return [min(need[i], max(floor, int((Z95 * spreads[i] / h) ** 2))) for i in waiting]

    low = min(half_width(spreads[i], need[i]) for i in waiting)
    high = max(half_width(spreads[i], floor) for i in waiting) * 2
    if _cost(c, at(high)) <= left:
        for _ in range(80):  # bisection on the common half-width (on a log scale)
            mid = math.sqrt(low * high)
            if _cost(c, at(mid)) <= left:
                high = mid
            else:
                low = mid
    for i, n in zip(waiting, at(high), strict=True):
        out[i] = n
    return out
