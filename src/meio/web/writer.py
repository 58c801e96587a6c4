"""Group commit: the accepted actions of many tables stored in one transaction.

Each accepted action must be in the database before anyone hears of it. Storing
each one in its own transaction costs a thread hop and a commit (an ``fsync`` on
SQLite, a round trip on PostgreSQL) per action, and on SQLite the commits of all
tables queue up behind one another. :class:`Writer` keeps one transaction in
flight: the actions that arrive while it runs are stored together in the next
one. A quiet server stores each action at once, alone; a busy one stores many
per commit, and the wait of each action stays about one commit long.

A table waits for its own action before broadcasting it, under its lock, so
"stored before broadcast" holds per action, and a table has at most one action
waiting here. When the database refuses a batch because one of its actions was
already stored by another process (a conflict), the actions of that batch are
stored again one at a time, so that only the one that lost its race is refused.
"""

from __future__ import annotations

import asyncio

from meio.web import metrics as M
from meio.web.store import NewEvent, Store, StoreError

#: the most actions stored in one transaction
MAX_BATCH = 256


class Writer:
    """Stores accepted actions for every table of a process, batching them."""

    def __init__(self, store: Store, max_batch: int = MAX_BATCH) -> None:
        self.store = store
        self.max_batch = max_batch
        self._pending: list[tuple[NewEvent, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        #: how many transactions and actions were stored (for tests and metrics)
        self.commits = 0
        self.stored = 0

    async def append(self, event: NewEvent) -> None:
        """Store ``event``; returns once it is committed, or raises what the database
        said (:class:`StoreError` ``conflict`` when its number is already taken)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((event, fut))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drain())
        await fut

    async def flush(self) -> None:
        """Wait until every action handed over so far is stored (or refused)."""
        while self._task is not None:
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
                await self._store(batch)
        finally:
            self._task = None

    async def _store(self, batch: list[tuple[NewEvent, asyncio.Future[None]]]) -> None:
        try:
            await asyncio.to_thread(self.store.append_events, [e for e, _ in batch])
        except StoreError as exc:
            if len(batch) == 1:
                _settle(batch[0][1], exc)
                return
            # one of them lost a race with another process: find which, alone
            for event, fut in batch:
                try:
                    await asyncio.to_thread(self.store.append_events, [event])
                except Exception as one:
                    _settle(fut, one)
                else:
                    self._count(1, 1)
                    _settle(fut, None)
            return
        except Exception as exc:  # the database is away...: every caller hears it
            for _, fut in batch:
                _settle(fut, exc)
            return
        self._count(1, len(batch))
        for _, fut in batch:
            _settle(fut, None)

    def _count(self, commits: int, actions: int) -> None:
        self.commits += commits
        self.stored += actions
        M.COMMIT_BATCH.observe(actions)


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():  # its caller went away (cancelled): nobody to tell
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
