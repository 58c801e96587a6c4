"""SQLite's write-ahead log is copied into the database aside (meio.web.db.Checkpointer),
never inside a commit: the writer's commits no longer wait for a checkpoint."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

from meio.web.db import Checkpointer, open_engine


def fill(engine: Engine, rows: int) -> None:
    with engine.begin() as c:
        c.execute(text("CREATE TABLE IF NOT EXISTS t (x TEXT)"))
    for i in range(rows):  # one commit each, as the writer makes them
        with engine.begin() as c:
            c.execute(text("INSERT INTO t VALUES (:x)"), {"x": "x" * 3000 + str(i)})


def test_no_commit_checkpoints_and_the_checkpointer_copies_the_log(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'meio.db'}"
    engine = open_engine(url)
    with engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    fill(engine, 1500)  # past SQLite's automatic checkpoint of 1,000 pages
    wal = tmp_path / "meio.db-wal"
    db = tmp_path / "meio.db"
    # the commits left everything in the log: the database file did not grow
    assert wal.stat().st_size > 1500 * 3000
    before = db.stat().st_size
    logged, copied = Checkpointer(engine).checkpoint()
    assert logged >= 1500 and copied == logged
    assert db.stat().st_size > before + 1500 * 3000
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM t")).scalar() == 1500
    engine.dispose()


def test_it_runs_aside_on_the_event_loop_until_stopped(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'meio.db'}")
    fill(engine, 50)

    async def run() -> tuple[int, int]:
        cp = Checkpointer(engine, every_s=0.01)
        cp.start()
        for _ in range(1000):  # until its first checkpoint has run (10 s at most)
            if cp.last != (0, 0):
                break
            await asyncio.sleep(0.01)
        await cp.stop()
        return cp.last

    logged, copied = asyncio.run(run())
    assert logged >= 50 and copied == logged
    engine.dispose()
