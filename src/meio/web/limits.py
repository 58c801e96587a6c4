"""Rate limits (token buckets per connection and per client address) and caps.

A bucket holds up to ``burst`` tokens and gains ``rate`` tokens a second; each
request takes one, and a request that finds the bucket empty is refused (the
server answers ``rate_limited``). Buckets of addresses that have been quiet long
enough to be full again are forgotten, so memory stays bounded.

>>> clock = [0.0]
>>> b = Bucket(rate=1.0, burst=2, now=lambda: clock[0])
>>> [b.take(), b.take(), b.take()]
[True, True, False]
>>> clock[0] = 1.0
>>> b.take()
True
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Bucket:
    """One token bucket: ``burst`` requests at once, then ``rate`` a second."""

    __slots__ = ("_now", "burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._now = now
        self.tokens = float(burst)
        self.stamp = now()

    def _refill(self) -> None:
        now = self._now()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Take a token; False when there is none (the request is refused)."""
        self._refill()
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def full(self) -> bool:
        """Whether the bucket has refilled completely (its owner has been quiet)."""
        self._refill()
        return self.tokens >= self.burst


class KeyedLimiter:
    """A bucket per key (a client address), each ``rate`` a second with ``burst``."""

    #: above this many keys, the full buckets are dropped
    PRUNE_AT = 10_000

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> bool:
        """Take a token from ``key``'s bucket; False when it is empty."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.PRUNE_AT:
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full()}
            bucket = self.buckets[key] = Bucket(self.rate, self.burst, self._now)
        return bucket.take()

    def peek(self, key: str) -> bool:
        """Whether ``key`` has a token left, without taking one."""
        bucket = self.buckets.get(key)
        if bucket is None:
            return True
        bucket._refill()
        return bucket.tokens >= 1.0


class Caps:
    """Counts of things open now (WebSockets), in all and per key (a client address),
    each under its cap.

    >>> caps = Caps(total=3, per_key=2)
    >>> [caps.open("a"), caps.open("a"), caps.open("a"), caps.open("b"), caps.open("c")]
    [True, True, False, True, False]
    >>> caps.close("a"); caps.open("c")
    True
    """

    def __init__(self, total: int, per_key: int) -> None:
        self.total = total
        self.per_key = per_key
        self.count = 0
        self.by_key: dict[str, int] = {}

    def open(self, key: str) -> bool:
        """Count one more for ``key``; False (and nothing counted) when over a cap."""
        held = self.by_key.get(key, 0)
        if self.count >= self.total or held >= self.per_key:
            return False
        self.by_key[key] = held + 1
        self.count += 1
        return True

    def close(self, key: str) -> None:
        """One of ``key``'s has closed."""
        held = self.by_key.get(key, 0)
        if held <= 1:
            self.by_key.pop(key, None)
        else:
            self.by_key[key] = held - 1
        if held:
            self.count -= 1
