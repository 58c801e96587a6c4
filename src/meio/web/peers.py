"""Which other server processes are alive, as far as the bus tells.

Every process with a live bus posts a heartbeat, ``{"type": "beat", "period":
period}`` (:func:`meio.web.replica.beat`), every ``period`` seconds (a third of the
lease TTL); any message of a process counts as word of it. A process not heard from
for :data:`MISSED_BEATS` of its periods is forgotten: the others show its seats
offline. The silence must also span as many of the listener's own heartbeat ticks,
so that a listener that was stalled itself (its event loop blocked, the messages
waiting unread) does not take its own deafness for the others' death: between two
ticks it reads what came.

A forgotten process stays on a list of the dead. A word from it later (a late
message, or a process that was only stalled) makes it known again but *in doubt*:
none of its seats count until it answers a question only a live process can, the
listener's ``who`` with a fresh token (see :mod:`meio.web.cluster`). Messages from
one process arrive in the order it sent them, so what follows its answer is news.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum

#: heartbeat periods without a word after which a process is taken for dead
MISSED_BEATS = 3
#: how many forgotten processes are remembered as such (one per crash or restart)
_GONE_KEPT = 1000


class Word(Enum):
    """What a message says of its sender, compared with what the listener knew."""

    KNOWN = "known"  #: heard from lately
    NEW = "new"  #: never heard of before
    BACK = "back"  #: forgotten (silent too long, or said goodbye), heard again


class Peers:
    """When this process last heard each of the others.

    ``period`` is this process's heartbeat period; ``clock`` gives the time in
    seconds (monotonic; a fake one in tests).
    """

    def __init__(self, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.period = period
        #: the time in seconds
        self.clock = clock
        self._ticks = 0
        #: origin -> (when last heard, this process's tick count then, its period)
        self._heard: dict[str, tuple[float, int, float]] = {}
        self._gone: OrderedDict[str, None] = OrderedDict()
        #: processes heard again after they were forgotten: the token they must echo
        self._doubted: dict[str, str] = {}
        self._tokens = itertools.count(1)

    def __len__(self) -> int:
        return len(self._heard)

    def origins(self) -> list[str]:
        """The processes heard from lately, by name."""
        return list(self._heard)

    def __contains__(self, origin: object) -> bool:
        return origin in self._heard

    def heard(self, origin: str, period: float | None = None) -> Word:
        """A message of ``origin`` came (a heartbeat gives the sender's ``period``)."""
        before = self._heard.get(origin)
        if before is not None:
            word, known = Word.KNOWN, before[2]
        elif origin in self._gone:
            del self._gone[origin]
            self._doubted[origin] = str(next(self._tokens))
            word, known = Word.BACK, self.period
        else:
            word, known = Word.NEW, self.period
        self._heard[origin] = (self.clock(), self._ticks, known if period is None else period)
        return word

    def doubt(self, origin: str) -> str | None:
        """The token ``origin`` must echo before its seats count again (None: trusted)."""
        return self._doubted.get(origin)

    def confirm(self, origin: str, token: object) -> bool:
        """``origin`` echoed ``token``: trusted again if it is the one asked for."""
        if token is None or self._doubted.get(origin) != token:
            return False
        del self._doubted[origin]
        return True

    def silence_allowed(self, origin: str) -> float:
        """Seconds without a word of ``origin`` before it is forgotten."""
        entry = self._heard.get(origin)
        theirs = self.period if entry is None else entry[2]
        return MISSED_BEATS * max(self.period, theirs)

    def tick(self) -> list[str]:
        """One of this process's heartbeat periods has passed: forget, and return,
        the processes silent for :data:`MISSED_BEATS` periods and ticks."""
        self._ticks += 1
        now = self.clock()
        lost = [
            origin for origin, (at, tick, theirs) in self._heard.items()
            if now - at >= MISSED_BEATS * max(self.period, theirs)
            and self._ticks - tick >= MISSED_BEATS
        ]
        for origin in lost:
            self.forget(origin)
        return lost

    def forget(self, origin: str) -> bool:
        """Take ``origin`` for gone (silent, or it said goodbye); True if it was known."""
        known = self._heard.pop(origin, None) is not None
        self._doubted.pop(origin, None)
        self._gone[origin] = None
        self._gone.move_to_end(origin)
        while len(self._gone) > _GONE_KEPT:
            self._gone.popitem(last=False)
        return known
