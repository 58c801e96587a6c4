"""Memory a table costs in a server process, and that idle tables give it back.

    .venv/bin/python bench/memory.py --tables 1000

Runs the app in this process on an SQLite file (no socket) and makes ``--tables``
tables of four people with every seat taken, so each is in memory with a match
dealt (the state, the views, the seats, the event log). ``tracemalloc`` counts
the Python heap before, with every table in memory, and after they were left idle
and evicted (``evict_after_s`` lowered to 0.2 s); the resident set (RSS) is printed
beside it (it also holds what the allocator keeps for reuse).
Prints one JSON line: KB per table in memory, and what remains per table once
they left.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from meio.web import create_app
from meio.web.settings import Settings

TABLE = {"players": 4, "name": "Ana", "listed": False,
         "seats": [{"kind": "human"}] * 4}


def rss_kb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return float(line.split()[1])
    return float("nan")


def traced_kb() -> float:
    gc.collect()
    return tracemalloc.get_traced_memory()[0] / 1024


def measure(tables: int) -> dict[str, Any]:
    """Make ``tables`` seated tables (each stays in memory); the memory with them in,
    and after they were left idle and evicted (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/m.db", bot_delay_s=0.0,
                            evict_after_s=3600.0, lease_ttl_s=0.6, warm_core=False,
                            think_processes=0, join_rate_per_min=10**9, join_burst=10**9,
                            max_open_tables_per_address=10**9, max_open_tables=10**9)
        with TestClient(create_app(settings)) as c:
            hub: Any = c.app.state.hub  # type: ignore[attr-defined]
            c.post("/api/tables", json=TABLE)  # the first table's one-off costs
            tracemalloc.start()
            empty, rss0 = traced_kb(), rss_kb()
            for _ in range(tables):
                t = c.post("/api/tables", json=TABLE).json()
                for k in range(1, 4):
                    r = c.post(f"/api/tables/{t['table_id']}/join",
                               json={"invite": t["invite"], "name": f"P{k}"})
                    assert r.status_code == 200, r.text
            loaded = len(hub.tables) - 1
            full, rss1 = traced_kb(), rss_kb()
            # now idle tables leave after 0.2 s (the eviction pass reads the setting)
            hub.settings = dataclasses.replace(hub.settings, evict_after_s=0.2)
            deadline = time.monotonic() + 120
            while hub.tables and time.monotonic() < deadline:
                time.sleep(0.2)
            left_in = len(hub.tables)
            after, rss2 = traced_kb(), rss_kb()
            tracemalloc.stop()
    return {"tables": tables, "loaded": loaded, "left_after_idle": left_in,
            "kb_per_table": round((full - empty) / max(1, loaded), 1),
            "kb_per_table_after_idle": round((after - empty) / max(1, loaded), 2),
            "rss_kb_per_table": round((rss1 - rss0) / max(1, loaded), 1),
            "rss_kb_per_table_after_idle": round((rss2 - rss0) / max(1, loaded), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=1000)
    args = ap.parse_args()
    print(json.dumps(measure(args.tables)))


if __name__ == "__main__":
    main()
