"""The load benchmark's probe (bench/stallprobe.py) reaches the engine the server opens.

Its A/B experiments (``bench/load.py --ab``) ran their SQL on no connection for two
rounds of measurements, because the probe replaced ``open_engine`` in ``meio.web.db``
after ``meio.web.app`` had imported it: this runs the probe as the benchmark does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import stallprobe
from meio.web import app
engine = app.open_engine("sqlite:///" + sys.argv[1])
with engine.connect() as c:
    sync = c.exec_driver_sql("PRAGMA synchronous").scalar()
with engine.begin() as c:
    c.exec_driver_sql("CREATE TABLE t (a INTEGER)")
    c.exec_driver_sql("INSERT INTO t VALUES (1)")
print(json.dumps({"synchronous": sync, "writes": stallprobe.counts["writes"]}))
"""


def _probe(tmp_path: Path, sql: str | None) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "bench")]),
           "MEIO_STALLPROBE_OUT": str(tmp_path / "probe.json")}
    env.pop("MEIO_STALLPROBE_SQL", None)
    if sql is not None:
        env["MEIO_STALLPROBE_SQL"] = sql
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / f"{sql is None}.db")],
                         env=env, capture_output=True, text=True, timeout=120, check=True)
    result: dict[str, int] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_the_probes_sql_runs_on_the_servers_connections(tmp_path: Path) -> None:
    assert _probe(tmp_path, None)["synchronous"] == 2  # FULL, as served
    assert _probe(tmp_path, "PRAGMA synchronous=NORMAL")["synchronous"] == 1


def test_the_probe_counts_the_servers_write_transactions(tmp_path: Path) -> None:
    assert _probe(tmp_path, None)["writes"] == 1
