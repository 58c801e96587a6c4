"""How long a commit in a thread waits for a busy event loop's interpreter lock.

The server's writer (:mod:`meio.web.writer`) stores actions in a thread while the
event loop runs Python. Each step of a commit (the connection pool, ``BEGIN``, the
insert, ``COMMIT``) lets the interpreter lock go and must win it back from the loop,
which keeps it for up to the switch interval (``sys.setswitchinterval``, Python's
default 5 ms). This measures that wait with no server around it: one thread spins in
Python (a loop that never sleeps), another makes SQLAlchemy commits of three rows into
an SQLite file in WAL mode with ``synchronous=FULL``, as the server's, under each
interval in turn. While the disk syncs, the spinning thread takes the lock; the commit
then waits for it to be given back before its next step::

    .venv/bin/python bench/gil_wait.py --commits 200

The figures are the commits' wall times in milliseconds, with the thread spinning and
without; the difference is the wait for the lock (the disk's own time, shared with
whatever else the machine does, is in both).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from sqlalchemy import create_engine, event, text


def commit_times(interval_ms: float, commits: int, busy: bool) -> list[float]:
    """Wall times (ms) of ``commits`` commits, with a spinning thread when ``busy``."""
    sys.setswitchinterval(interval_ms / 1000)
    with tempfile.TemporaryDirectory() as d:
        engine = create_engine(f"sqlite:///{Path(d) / 'wait.db'}")
        event.listen(engine, "connect",
                     lambda conn, _: conn.execute("PRAGMA synchronous=FULL"))
        with engine.begin() as conn:
            conn.execute(text("PRAGMA journal_mode=WAL"))
            conn.execute(text("CREATE TABLE events (match INTEGER, seq INTEGER, action TEXT)"))
        stop = threading.Event()

        def spin() -> None:
            while not stop.is_set():
                total = 0
                for i in range(100_000):
                    total += i

        spinner = threading.Thread(target=spin, daemon=True)
        if busy:
            spinner.start()
        times = []
        insert = text("INSERT INTO events VALUES (:match, :seq, :action)")
        for k in range(commits):
            start = time.perf_counter()
            with engine.begin() as conn:
                conn.execute(insert, [{"match": m, "seq": k, "action": "7H"} for m in range(3)])
            times.append((time.perf_counter() - start) * 1000)
        stop.set()
        if busy:
            spinner.join()
        engine.dispose()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--intervals", default="5,1,0.5", help="switch intervals, ms")
    args = parser.parse_args()
    default = sys.getswitchinterval()
    print("| switch interval | loop | commit p50 ms | p90 | p99 | max |")
    print("|---:|---|---:|---:|---:|---:|")
    try:
        for interval in (float(x) for x in args.intervals.split(",")):
            for busy in (False, True):
                t = sorted(commit_times(interval, args.commits, busy))
                q = statistics.quantiles(t, n=100)
                print(f"| {interval:g} ms | {'spinning' if busy else 'idle'} | "
                      f"{statistics.median(t):.2f} | {q[89]:.2f} | {q[98]:.2f} | {t[-1]:.2f} |")
    finally:
        sys.setswitchinterval(default)


if __name__ == "__main__":
    main()
