"""Wrong passwords slow down whoever sends them, never the account's owner.

A lock per account (so many failures, then no sign-in for a while) is a lock any
stranger can hold: five wrong guesses from each of six addresses, and the owner's
right password was refused (issue 44). :class:`SignInThrottle` counts failures
per **address and account together** and per **address**, and answers each with a
delay that doubles with every failure past a few free ones: the guesser waits
longer and longer, and the owner, at another address, is not slowed at all. A
success forgets the pair's failures; an hour's quiet forgets the rest.

A **known device** (a browser that signed in to the account before, with the
``meio_device`` cookie the server gave it then) is not held back by its
address's failures: an owner behind the same address as a guesser (one network, one
proxy) still gets in. Passkey sign-ins cannot be guessed and are not counted here.

>>> clock = [0.0]
>>> t = SignInThrottle(free_pair=2, free_address=100, base_s=1.0, now=lambda: clock[0])
>>> for _ in range(4):
...     t.failed("10.0.0.1", "ana")
>>> t.wait_s("10.0.0.1", "ana"), t.wait_s("10.0.0.2", "ana")
(2.0, 0.0)
>>> clock[0] = 2.0
>>> t.wait_s("10.0.0.1", "ana")
0.0
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: failures are forgotten after this long without another
QUIET_S = 3600.0


class _Count:
    __slots__ = ("failures", "last")

    def __init__(self) -> None:
        self.failures = 0
        self.last = 0.0


class SignInThrottle:
    """Growing delays after failed sign-ins, per (address, account) and per address."""

    #: above this many keys, the ones quiet for :data:`QUIET_S` are dropped
    PRUNE_AT = 20_000

    def __init__(self, free_pair: int = 3, free_address: int = 20, base_s: float = 1.0,
                 max_s: float = 900.0, now: Callable[[], float] = time.monotonic) -> None:
        self.free_pair = free_pair
        self.free_address = free_address
        self.base_s = base_s
        self.max_s = max_s
        self._now = now
        self._counts: dict[tuple[str, str], _Count] = {}
        #: device tokens' hashes and the account each one signed in to
        self._devices: dict[str, str] = {}

    def _delay(self, count: _Count | None, free: int) -> float:
        if count is None or count.failures <= free:
            return 0.0
        delay = min(self.max_s, self.base_s * 2.0 ** (count.failures - free - 1))
        return max(0.0, count.last + delay - self._now())

    def known(self, device: str | None, account: str) -> bool:
        """Whether ``device`` (a token's hash) signed in to ``account`` before."""
        return device is not None and self._devices.get(device) == account

    def wait_s(self, address: str, account: str, device: str | None = None) -> float:
        """Seconds before ``address`` may try ``account``'s password again (0: now).
        A known ``device`` of the account is held back by its own failures only."""
        pair = self._delay(self._counts.get((address, account)), self.free_pair)
        if self.known(device, account):
            return pair
        return max(pair, self._delay(self._counts.get((address, "")), self.free_address))

    def failed(self, address: str, account: str) -> None:
        """A wrong password for ``account`` from ``address``."""
        if len(self._counts) >= self.PRUNE_AT:
            quiet = self._now() - QUIET_S
            self._counts = {k: c for k, c in self._counts.items() if c.last > quiet}
        now = self._now()
        for key in ((address, account), (address, "")):
            count = self._counts.get(key)
            if count is None or now - count.last > QUIET_S:
                count = self._counts[key] = _Count()
            count.failures += 1
            count.last = now

    def succeeded(self, address: str, account: str, device: str) -> None:
        """The right password: the pair's failures are forgotten and ``device`` (a
        token's hash) is known for ``account`` from now on."""
        self._counts.pop((address, account), None)
        if len(self._devices) >= self.PRUNE_AT:
            self._devices.clear()  # the oldest devices merely wait like strangers
        self._devices[device] = account
