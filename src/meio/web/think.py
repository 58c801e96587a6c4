"""Where bots think and the split advisor works: a pool of its own, shared fairly.

A search bot's move or a piece of advice costs from tens of milliseconds to seconds
of CPU. Run in the event loop's default thread pool, twenty tables of search bots
took every thread, and the database writes of every other table (which use that
pool too) queued behind them for seconds. :class:`ThinkPool` keeps that work apart:

* it runs in worker **processes** (``think_processes``, ``meio serve`` starts one)
  at a lower CPU priority (``nice``), so thinking never holds the server's
  interpreter lock and the operating system serves the server's own thread first;
  or, with ``think_processes=0`` (the tests' default), in a few threads of its own;
* it admits at most as many jobs as it has workers; the others wait, and a free
  worker goes to the job of the **client** that has used the least thinking time
  (its bots' moves and its advice, measured; see :class:`Share`), and within a
  client to its **table** that has used the least: round robin over clients, then
  over their tables, weighted by what each job cost. Twenty tables of expert bots
  from one address are one client: they share one client's part of the workers,
  and a table of another client waits at most for the jobs already running
  (docs/web.md, "Security and limits", has the figures). Tables where only bots
  play come after those where people sit (:data:`PEOPLE`, :data:`BOTS_ONLY`);
* a client that stops asking is forgotten, and comes back level with the clients
  being served, so idle time banks no credit and what is kept stays bounded.

Turn timers do not queue here: their move is the heuristic bot's, chosen on the
event loop (:mod:`meio.web.autoplay`). Other parts of the server (review jobs, say)
submit work with :meth:`ThinkPool.run` and a :class:`Share` naming who asked.

>>> import asyncio
>>> async def demo() -> str:
...     pool = ThinkPool(processes=0, threads=1)
...     try:
...         return await pool.run(Share("client-a", "table-1"), str.upper, "pack")
...     finally:
...         pool.close()
>>> asyncio.run(demo())
'PACK'
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
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

#: what a job is expected to cost (seconds) before one of its kind has been timed
FIRST_GUESS_S = 0.05


def client_of(address: str) -> str:
    """The client a request's address is charged as: a short hash (what a table keeps
    of its creator's address, too).

    >>> client_of("127.0.0.1") == client_of("127.0.0.1") != client_of("127.0.0.2")
    True
    """
    return hashlib.sha256(address.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Share:
    """Whose thinking a job is: the ``client`` it is charged to (the address that
    created the table, or that asked for advice), the ``table`` among that client's,
    and its ``priority`` (:data:`PEOPLE` first, then :data:`BOTS_ONLY`)."""

    client: str
    table: str = ""
    priority: int = PEOPLE


@dataclass(eq=False, slots=True)
class _Waiter:
    share: Share
    order: int
    turn: asyncio.Future[None]


class _Books:
    """Each active client's and table's thinking time so far (virtual time: the
    seconds its jobs cost), the one who used least being served next."""

    def __init__(self) -> None:
        self.used: dict[str, float] = {}
        self.table_used: dict[tuple[str, str], float] = {}
        #: jobs waiting or running, by client and by table (0: forgotten)
        self.jobs: dict[str, int] = {}
        self.table_jobs: dict[tuple[str, str], int] = {}
        #: the used time of the client served last: a client coming back starts there
        self.clock = 0.0

    def enter(self, share: Share) -> None:
        c, t = share.client, (share.client, share.table)
        if c not in self.jobs:
            self.used[c] = self.clock
            self.jobs[c] = 0
        if t not in self.table_jobs:
            mine = [u for (cc, _), u in self.table_used.items() if cc == c]
            self.table_used[t] = min(mine) if mine else 0.0
            self.table_jobs[t] = 0
        self.jobs[c] += 1
        self.table_jobs[t] += 1

    def key(self, w: _Waiter) -> tuple[int, float, int, float, int]:
        c = w.share.client
        return (w.share.priority, self.used[c], self.jobs[c],
                self.table_used[(c, w.share.table)], w.order)

    def charge(self, share: Share, seconds: float) -> None:
        self.used[share.client] += seconds
        self.table_used[(share.client, share.table)] += seconds

    def leave(self, share: Share) -> None:
        c, t = share.client, (share.client, share.table)
        self.jobs[c] -= 1
        self.table_jobs[t] -= 1
        if not self.table_jobs[t]:
            del self.table_jobs[t], self.table_used[t]
        if not self.jobs[c]:
            del self.jobs[c], self.used[c]


class ThinkPool:
    """A bounded pool for bot moves and advice, fair between clients and their
    tables (see the module)."""

    def __init__(self, processes: int, threads: int = 2, nice: int = 10,
                 warm: bool = False) -> None:
        self.processes = processes
        self.workers = processes if processes > 0 else max(1, threads)
        self.nice = nice
        self.warm = warm
        self._executor: Executor | None = None
        self._busy = 0
        self._line: list[_Waiter] = []
        self._order = itertools.count()
        self._books = _Books()
        #: what a job of each kind cost last (seconds): charged when it starts, then
        #: corrected by what it took
        self._guess: dict[str, float] = {}

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
                    initargs=(self.nice, self.warm, os.getpid()))
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="meio-think")
        return self._executor

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(1 for w in self._line if not w.turn.done())

    @property
    def clients(self) -> int:
        """Clients with a job waiting or running (what the pool keeps books of)."""
        return len(self._books.jobs)

    async def run(self, share: Share | int, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a worker, once one is free and ``share``'s client and table
        are next (see the module); a bare priority is a job of no client in
        particular. In worker processes ``fn`` and its arguments must pickle: a
        module-level function and plain data."""
        if isinstance(share, int):
            share = Share("", "", share)
        kind = _kind_of(fn, args)
        self._books.enter(share)
        try:
            await self._admit(share)
            guess = self._guess.get(kind, FIRST_GUESS_S)
            self._books.clock = self._books.used[share.client]
            self._books.charge(share, guess)
            began = time.perf_counter()
            try:
                return await self._submit(fn, *args)
            finally:
                took = time.perf_counter() - began
                self._guess[kind] = took
                self._books.charge(share, took - guess)
                self._release()
        finally:
            self._books.leave(share)

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        pool = self._pool()
        try:
            return await asyncio.wrap_future(pool.submit(fn, *args))
        except BrokenProcessPool:
            # a worker died (killed, out of memory): the next job gets a fresh pool
            self._executor = None
            with contextlib.suppress(Exception):
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def _admit(self, share: Share) -> None:
        if self._busy < self.workers and not self._line:
            self._busy += 1
            return
        waiter = _Waiter(share, next(self._order),
                         asyncio.get_running_loop().create_future())
        self._line.append(waiter)
        try:
            await waiter.turn
        except asyncio.CancelledError:
            if waiter.turn.done() and not waiter.turn.cancelled():
                self._release()  # the slot was handed over as this caller went away
            else:
                with contextlib.suppress(ValueError):
                    self._line.remove(waiter)
            raise

    def _release(self) -> None:
        self._line = [w for w in self._line if not w.turn.done()]
        if self._line:
            # the client (then its table) that has used least goes next
            nxt = min(self._line, key=self._books.key)
            self._line.remove(nxt)
            nxt.turn.set_result(None)  # the slot passes to it
            return
        self._busy -= 1

    def close(self) -> None:
        """Stop the workers: the jobs running and those queued are dropped."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if isinstance(executor, ProcessPoolExecutor):
            end_workers(executor)
        executor.shutdown(wait=False, cancel_futures=True)


def _kind_of(fn: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """What kind of job this is, for its expected cost: the function, and the bot
    kind when the first argument names one."""
    name = getattr(fn, "__qualname__", repr(fn))
    return f"{name}:{args[0]}" if args and isinstance(args[0], str) else name


def end_workers(executor: ProcessPoolExecutor) -> None:
    """Kill an executor's worker processes now (their work is dropped): a stopping
    server does not wait for an expert's move that nobody will read."""
    # ProcessPoolExecutor has no public way to end its workers before Python 3.14's
    # terminate_workers(); its process table is the attribute that method reads, and
    # shutdown() empties it: so this runs first
    processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
    for proc in list(processes.values()):
        with contextlib.suppress(Exception):
            proc.kill()


def _start_worker(nice: int, warm: bool, server_pid: int) -> None:
    _follow(server_pid)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if warm:
        from meio.warm import warm_up

        warm_up()


def _follow(server_pid: int) -> None:
    """End this worker as soon as the server process ``server_pid`` is gone, however
    it went (SIGTERM, SIGINT, a crash, SIGKILL): a worker is the forkserver's child, so
    the server's end reaches it through no pipe it would read while waiting for
    work. Its forkserver ends once the server and every worker are gone."""
    def watch() -> None:
        try:
            fd = os.pidfd_open(server_pid)
        except (AttributeError, OSError):
            fd = None
        if fd is not None:
            import select

            select.select([fd], [], [])  # readable when the process has ended
        else:
            while _alive(server_pid):
                time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="meio-follow", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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
