"""Where bots think and the split advisor works: a pool of its own.

A search bot's move or a piece of advice costs from tens of milliseconds to seconds
of CPU. Run in the event loop's default thread pool, twenty tables of search bots
took every thread, and the database writes of every other table (which use that
pool too) queued behind them for seconds. :class:`ThinkPool` keeps that work apart:

* it runs in worker **processes** (``think_processes``, ``meio serve`` starts one)
  at a lower CPU priority (``nice``), so thinking never holds the server's
  interpreter lock and the operating system serves the server's own thread first;
  or, with ``think_processes=0`` (the tests' default), in a few threads of its own;
* it admits at most as many jobs as it has workers; the others wait in line by
  priority, then by arrival: the bots and advice of tables where people sit come
  before those of tables where only bots play (:data:`PEOPLE`, :data:`BOTS_ONLY`);
* a table has at most one bot move in flight (its bot task moves one seat at a
  time) and a seat at most one request for advice (see
  :class:`meio.web.runtime.TableRuntime`), so one table or one client holds at most
  one worker, whatever it sends.

>>> import asyncio
>>> async def demo() -> str:
...     pool = ThinkPool(processes=0, threads=1)
...     try:
...         return await pool.run(PEOPLE, str.upper, "pack")
...     finally:
...         pool.close()
>>> asyncio.run(demo())
'PACK'
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from meio.bots.advisor import advise_view
from meio.engine import MeioError
from meio.engine import actions as A
from meio.engine.view import View

T = TypeVar("T")

#: the priority of a job of a table where at least one person sits
PEOPLE = 0
#: the priority of a job of a table where only bots play
BOTS_ONLY = 1


class ThinkPool:
    """A bounded pool for bot moves and advice, fair between tables (see the module)."""

    def __init__(self, processes: int, threads: int = 2, nice: int = 10,
                 warm: bool = False) -> None:
        self.processes = processes
        self.workers = processes if processes > 0 else max(1, threads)
        self.nice = nice
        self.warm = warm
        self._executor: Executor | None = None
        self._busy = 0
        self._line: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes > 0:
                import multiprocessing

                # forkserver: the workers start from a clean process that imported the
                # bots once, not from a copy of this one with its threads and sockets
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["meio.web.think"])
                self._executor = ProcessPoolExecutor(
                    self.processes, mp_context=ctx, initializer=_start_worker,
                    initargs=(self.nice, self.warm))
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="meio-think")
        return self._executor

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(1 for *_, fut in self._line if not fut.done())

    async def run(self, priority: int, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a worker, once one is free for this ``priority``
        (a lower number comes first). In worker processes ``fn`` and its arguments
        must pickle: a module-level function and plain data."""
        await self._admit(priority)
        try:
            pool = self._pool()
            try:
                return await asyncio.wrap_future(pool.submit(fn, *args))
            except BrokenProcessPool:
                # a worker died (killed, out of memory): the next job gets a fresh pool
                self._executor = None
                with contextlib.suppress(Exception):
                    pool.shutdown(wait=False, cancel_futures=True)
                raise
        finally:
            self._release()

    async def _admit(self, priority: int) -> None:
        if self._busy < self.workers and not self._line:
            self._busy += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._line, (priority, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was handed over as this caller went away
            raise

    def _release(self) -> None:
        while self._line:
            _, _, turn = heapq.heappop(self._line)
            if not turn.done():
                turn.set_result(None)  # the slot passes to the next in line
                return
        self._busy -= 1

    def close(self) -> None:
        """Stop the workers (jobs in flight are dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _start_worker(nice: int, warm: bool) -> None:
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if warm:
        from meio.warm import warm_up

        warm_up()


def bot_choice(kind: str, seed: int, view: View) -> str:
    """The action a ``kind`` bot seeded with ``seed`` chooses from ``view``, as text
    ('' when the seat has nothing to do). Runs on a worker."""
    from meio.bots import make_bot

    legal = view.legal_actions()
    if not legal:
        return ""
    return A.action_text(make_bot(kind, seed).choose(view, legal))


def advice(view: View, chosen: int | None, budget_s: float) -> dict[str, Any]:
    """The split advisor's answer for ``view`` in its one JSON form
    (:meth:`~meio.bots.advisor.Advice.to_dict`), or ``{"error": reason}`` when it
    cannot advise. Runs on a worker."""
    try:
        adv = advise_view(view, chosen_pack=chosen, budget_s=budget_s, seed=0)
    except MeioError as exc:
        return {"error": str(exc)}

    return adv.to_dict()
