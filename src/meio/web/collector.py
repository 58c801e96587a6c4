"""The garbage collector of a long-running server, kept from pausing the tables.

CPython's collector scans a whole generation at once. Its full pass walks every
object the process holds, so its pause grows with the number of tables in memory:
about 70 ms at 600 four-player tables and more beyond, during which no table moves
(docs/benchmarks.md, issue 25). Almost everything a table allocates is freed by
reference counting the moment it is replaced; the collector is there only for the
few reference cycles, and those are short-lived (a task's exception and its frames).

So the server freezes the heap every second (:func:`gc.freeze`, which costs nothing:
it links the generations' lists onto the permanent one): what has lived a second
moves to the permanent generation, which no automatic pass scans, and the automatic
passes only ever see what was made since the last freeze (before, the probe of
``bench/load.py`` counted 5-8 passes a minute of 50-390 ms at 400 tables; after,
none). Objects frozen that later become garbage are still freed by reference
counting; only a
cycle that becomes garbage after it was frozen waits, until the *sweep*: every
``sweep_every_s`` the heap is unfrozen, collected whole once and frozen again. That
one long pass is the price of bounding what can pile up; :data:`SWEPT` tells the
operator how much each sweep found (near 0 means the sweeps could be rarer).

>>> c = Collector(freeze_every_s=1, sweep_every_s=600, clock=0.0)
>>> c.due(now=0.5), c.due(now=1.0), c.due(now=600.0)
(None, 'freeze', 'sweep')
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Literal

from prometheus_client import Counter, Histogram

from meio.web.background import Background

FREEZES = Counter("meio_gc_freezes_total", "Times the heap was frozen (meio.web.collector).")
SWEEP = Histogram(
    "meio_gc_sweep_seconds", "How long each periodic full collection of the heap took.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
SWEPT = Counter(
    "meio_gc_swept_objects_total",
    "Unreachable objects the periodic full collections found (cycles that became "
    "garbage after they were frozen).",
)

Due = Literal["freeze", "sweep"]


class Collector(Background):
    """Freezes the heap every ``freeze_every_s`` seconds and sweeps it whole every
    ``sweep_every_s`` (0: never) on the running event loop, between two of its passes."""

    def __init__(self, freeze_every_s: float, sweep_every_s: float,
                 clock: float | None = None) -> None:
        if not freeze_every_s > 0:
            raise ValueError(f"the freeze period must be above 0 s, not {freeze_every_s:g}")
        if sweep_every_s < 0:
            raise ValueError(f"the sweep period must be 0 (never) or more, not {sweep_every_s:g}")
        self.freeze_every_s = freeze_every_s
        self.sweep_every_s = sweep_every_s
        start = time.monotonic() if clock is None else clock
        self._next_freeze = start + freeze_every_s
        self._next_sweep = start + sweep_every_s if sweep_every_s else float("inf")

    def due(self, now: float) -> Due | None:
        """What is due at ``now`` (a sweep includes the freeze)."""
        if now >= self._next_sweep:
            return "sweep"
        if now >= self._next_freeze:
            return "freeze"
        return None

    def step(self, now: float | None = None) -> Due | None:
        """Do what is due now; returns what was done."""
        now = time.monotonic() if now is None else now
        done = self.due(now)
        if done == "sweep":
            began = time.perf_counter()
            gc.unfreeze()
            SWEPT.inc(gc.collect())
            SWEEP.observe(time.perf_counter() - began)
            self._next_sweep = now + self.sweep_every_s
        if done is not None:
            # no collection first: gc.freeze() itself only links lists (it takes no
            # time), while collecting a few seconds' young objects took 100-200 ms
            # at 400 tables; the cycles among them wait for the sweep
            gc.freeze()
            FREEZES.inc()
            self._next_freeze = now + self.freeze_every_s
        return done

    async def run(self) -> None:
        while True:
            wait = self._next_freeze - time.monotonic()
            await asyncio.sleep(max(0.0, wait))
            self.step()
