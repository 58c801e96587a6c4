"""What a table is given: the services its process shares, and the pages connected.

The hub makes one :class:`Services` for all its tables; each open WebSocket is a
:class:`Connection` with its own outgoing queue.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from meio.web.group import Group
from meio.web.limits import KeyedLimiter
from meio.web.rated import RatingStore
from meio.web.settings import Settings
from meio.web.store import Store
from meio.web.think import ThinkPool
from meio.web.writer import Writer

Frame = dict[str, Any]


@dataclass(eq=False)
class Connection:
    """One open WebSocket: a seat (or None for a spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[Frame | str | int] = field(default_factory=asyncio.Queue)

    def send(self, frame: Frame | str) -> None:
        """Queue a frame for this client (a dict, or one already encoded as JSON text
        with :func:`meio.web.frames.encode`)."""
        self.queue.put_nowait(frame)

    def close(self, code: int = 1001) -> None:
        """Close the connection with ``code`` once the frames queued before are sent."""
        self.queue.put_nowait(code)


@dataclass(frozen=True, slots=True)
class Services:
    """What every table of a process shares (the hub makes one)."""

    settings: Settings
    store: Store
    #: stores the accepted actions of every table, several per transaction
    writer: Writer
    #: where bots think and the advisor works, apart from the database's threads
    think: ThinkPool
    #: the other server processes
    group: Group
    #: runs a background task, logging (never swallowing) its failure
    spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]]
    #: reconnections served as the events missed, per address (else a snapshot)
    resume_limiter: KeyedLimiter
    #: each seat's chat allowance, keyed ``"table:seat"``
    chat_limiter: KeyedLimiter
    #: the ratings, updated when a match of a rated table ends
    ratings: RatingStore
