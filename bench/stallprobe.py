"""What stops a `meio serve` process, measured inside it (bench/load.py --probe).

Imported before the server starts (``python -c "import stallprobe; ..."``), it records
every garbage collection, every commit of the writer (``Store.append_events``) and the
event loop's lag (how late a 10 ms timer fires) that take longer than ``THRESHOLD_S``,
with when they happened, and writes them as JSON to ``$MEIO_STALLPROBE_OUT`` when the
server stops. It also records every transaction that wrote (its start, length, whether
the writer ran it, and its first write statement), so that a long commit of the writer
can be laid beside the other writes it may have waited for (``WRITE_THRESHOLD_S``).
With ``$MEIO_STALLPROBE_SQL`` it also runs those statements on each new database
connection (an A/B experiment: ``bench/load.py --ab``). Both replace the server's
``open_engine`` where ``meio.web.app`` holds it too: until 2 December 2026 the probe
replaced only ``meio.web.db``'s, so the statements of every earlier ``--ab`` run never
ran (docs/benchmarks.md, the sixth round).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import threading
import time
from collections.abc import Callable
from typing import Any

THRESHOLD_S = 0.05
#: write transactions shorter than this are only counted
WRITE_THRESHOLD_S = 0.002
#: per kind: (when, seconds it took, CPU seconds its thread spent meanwhile); a stall with
#: little CPU is one where the thread waited (for the disk, the GIL, or a CPU the machine
#: gave to other processes)
seen: dict[str, list[tuple[float, float, float]]] = {"gc": [], "commit": [], "loop_lag": []}
counts: dict[str, int] = {"gc": 0, "gc_full": 0, "commit": 0, "loop_ticks": 0, "writes": 0}
#: (when it began, seconds it took, by the writer?, its first write statement)
writes: list[tuple[float, float, bool, str]] = []
_local = threading.local()
_gc_began: list[float] = [0.0, 0.0]


def _note(kind: str, began: float, took: float, cpu: float) -> None:
    if took >= THRESHOLD_S:
        seen[kind].append((round(time.time() - (time.perf_counter() - began), 3),
                           round(took, 4), round(cpu, 4)))


def _gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_began[:] = [time.perf_counter(), time.thread_time()]
    else:
        counts["gc"] += 1
        counts["gc_full"] += info.get("generation") == 2
        _note("gc", _gc_began[0], time.perf_counter() - _gc_began[0],
              time.thread_time() - _gc_began[1])


def _timed_commit(inner: Callable[..., None]) -> Callable[..., None]:
    def append_events(self: Any, events: Any) -> None:
        began, cpu = time.perf_counter(), time.thread_time()
        _local.writer = True
        try:
            inner(self, events)
        finally:
            _local.writer = False
            counts["commit"] += 1
            _note("commit", began, time.perf_counter() - began, time.thread_time() - cpu)

    return append_events


async def _lag() -> None:
    while True:
        began, cpu = time.perf_counter(), time.thread_time()
        await asyncio.sleep(0.01)
        counts["loop_ticks"] += 1
        _note("loop_lag", began, time.perf_counter() - began - 0.01, time.thread_time() - cpu)


def _install() -> None:
    import importlib

    from meio.web import db, store

    try:
        hub: Any = importlib.import_module("meio.web.hub")
    except ImportError:  # an older tree (bench/load.py --src), whose hub was in runtime.py
        hub = importlib.import_module("meio.web.runtime")

    sql = os.environ.get("MEIO_STALLPROBE_SQL")
    if sql:
        # an experiment: statements run on each new SQLite connection (bench/load.py --ab)
        from sqlalchemy import event

        open_engine = db.open_engine

        def open_engine_with(url: str) -> Any:
            engine = open_engine(url)

            @event.listens_for(engine, "connect")
            def _run(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                for statement in sql.split(";"):
                    if statement.strip():
                        cur.execute(statement)
                cur.close()

            return engine

        _replace_open_engine(open_engine_with)

    open_plain = db.open_engine

    def open_engine_watched(url: str) -> Any:
        engine = open_plain(url)
        _watch_writes(engine)
        return engine

    _replace_open_engine(open_engine_watched)
    store.Store.append_events = _timed_commit(store.Store.append_events)  # type: ignore[method-assign]
    start = hub.Hub.start

    async def hub_start(self: Any) -> None:
        await start(self)
        self._stallprobe = asyncio.get_running_loop().create_task(_lag())

    stop = hub.Hub.stop

    async def hub_stop(self: Any) -> None:
        _write()
        await stop(self)

    hub.Hub.start = hub_start  # type: ignore[method-assign]
    hub.Hub.stop = hub_stop  # type: ignore[method-assign]
    gc.callbacks.append(_gc)


def _replace_open_engine(new: Callable[[str], Any]) -> None:
    """Have the server open its database with ``new``: in ``meio.web.db`` and in the
    app module, which imported the name before this probe ran."""
    import importlib

    from meio.web import db

    db.open_engine = new  # type: ignore[assignment]
    app = importlib.import_module("meio.web.app")
    if hasattr(app, "open_engine"):
        app.open_engine = new


def _watch_writes(engine: Any) -> None:
    """Time each transaction from its first write statement to the start of its commit
    or rollback (SQLAlchemy's events come before the database's own)."""
    from sqlalchemy import event

    @event.listens_for(engine, "before_cursor_execute")
    def _statement(conn: Any, _c: Any, statement: str, *_a: Any) -> None:
        if "first_write" not in conn.info and statement.lstrip()[:6].upper() in (
                "INSERT", "UPDATE", "DELETE"):
            conn.info["first_write"] = (time.perf_counter(), statement.split("(")[0][:60])

    def _end(conn: Any) -> None:
        began = conn.info.pop("first_write", None)
        if began is None:
            return
        counts["writes"] += 1
        took = time.perf_counter() - began[0]
        if took >= WRITE_THRESHOLD_S:
            writes.append((round(time.time() - (time.perf_counter() - began[0]), 4),
                           round(took, 4), bool(getattr(_local, "writer", False)), began[1]))

    event.listen(engine, "commit", _end)
    event.listen(engine, "rollback", _end)


def _write() -> None:
    out = os.environ.get("MEIO_STALLPROBE_OUT")
    if out:
        with open(out, "w") as fh:
            json.dump({"threshold_s": THRESHOLD_S, "counts": counts, **seen,
                       "writes": writes}, fh)


_install()
