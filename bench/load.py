"""Load test of `meio serve`: T tables at once, each with two scripted humans over
WebSockets and two bots; the humans act as soon as it is their turn.

    .venv/bin/python bench/load.py --config sqlite --tables 100
    .venv/bin/python bench/load.py --config pg2 --tables 100 --waves 2

Configurations (the script starts the servers, and for ``pg``/``pg2`` a throwaway
PostgreSQL, itself):

* ``sqlite``: one process on an SQLite file;
* ``pg``: one process on PostgreSQL;
* ``pg2``: two processes on one PostgreSQL; the two humans of each table are
  connected to different processes (what round-robin behind the proxy gives), so
  every move crosses the bus.

Measured: action→broadcast latency (one human's send to the other human's receipt
of the event) p50/p95/p99, accepted actions per second (all seats), errors, lost
moves (an acknowledged action that the other human never received), and the
servers' resident memory after each wave (finished tables are evicted between
waves: ``MEIO_EVICT_AFTER=2``).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

TABLE = {"players": 4, "name": "Ana", "listed": False,
         "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}
_ids = itertools.count()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- servers ---------------------------------------------------------------------------------
class Postgres:
    """A throwaway PostgreSQL cluster on loopback (Debian's binaries)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("PostgreSQL is not installed (scripts/system-deps.sh)")
        self.bindir = Path(found[-1]).parent
        self.base = Path(tempfile.mkdtemp(prefix="meio-load-pg-"))
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres", "postgres")
        self._run("initdb", "-D", str(self.base / "data"), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        self._run("pg_ctl", "-D", str(self.base / "data"), "-l", str(self.base / "log"), "-w",
                  "-o", f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 "
                        "-c max_connections=300", "start")
        name = "meio_" + uuid.uuid4().hex[:8]
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres",
                             autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bindir / tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.base / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.base, ignore_errors=True)


class Server:
    """One `meio serve` process."""

    def __init__(self, db: str, log: Path, src: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # the load comes from one address: lift the per-address limits on joins and
        # messages, which exist against abuse, not against a load test
        env = {**os.environ, "MEIO_BOT_DELAY": "0", "MEIO_WARM_CORE": "0",
               "MEIO_EVICT_AFTER": "2", "MEIO_JOIN_RATE": "100000",
               "MEIO_MESSAGE_RATE": "1000", "PYTHONPATH": str(src),
               # every client of the bench comes from one address: lift the per-address caps
               "MEIO_MAX_SOCKETS_PER_ADDRESS": "100000", "MEIO_MAX_TABLES_PER_ADDRESS": "100000",
               "MEIO_MAX_TCP_PER_ADDRESS": "100000"}
        env.pop("DATABASE_URL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from meio.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--db", db],
            env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
        )
        for _ in range(600):
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def means(self) -> dict[str, float]:
        """Means of the server's own histograms so far (from /metrics): actions per
        commit, and the wait of an action for its commit, in ms."""
        try:
            text = httpx.get(f"{self.base}/metrics", timeout=5).text
        except httpx.HTTPError:
            return {}
        found = {}
        for line in text.splitlines():
            if line.startswith("meio_") and " " in line and "{" not in line:
                name, value = line.split(" ", 1)
                found[name] = float(value)
        out = {}
        for key, name, scale in (("actions_per_commit", "meio_db_commit_batch_actions", 1),
                                 ("commit_wait_ms", "meio_db_commit_seconds", 1000)):
            count = found.get(f"{name}_count")
            if count:
                out[key] = round(scale * found[f"{name}_sum"] / count, 2)
        return out

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# -- the scripted humans ---------------------------------------------------------------------
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    lost: int = 0
    #: (table, seq) -> (send time, seat) of each human action in flight
    sent: dict[tuple[str, int], tuple[float, int]] = field(default_factory=dict)


def choose(view: dict[str, Any]) -> str | None:
    seat = view["seat"]
    if view["is_over"] or seat is None:
        return None
    if view["phase"] == "split":
        return None if view["split_done"][seat] else "pack:" + ",".join(view["hand"][:6])
    legal = view["legal"]
    return legal[0] if legal else None


async def human(url: str, token: str, table: str, stats: Stats,
                seen: dict[int, tuple[int, str]], acked: list[tuple[int, int]]) -> None:
    """Play one seat to the end of the match; ``seen`` gets every event's actor."""
    async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seq, view, acted_at = 0, None, -1
        async for raw in ws:
            now = time.perf_counter()
            f = json.loads(raw)
            kind = f["type"]
            if kind == "event":
                seen[f["seq"]] = (f["actor"], f["action"])
                sent = stats.sent.get((table, f["seq"]))
                if sent is not None and sent[1] == f["actor"] != view_seat(view):
                    del stats.sent[(table, f["seq"])]
                    stats.latencies.append(now - sent[0])
            if kind == "snapshot":
                # a snapshot tells everything up to its sequence number at once (the
                # first one, or after a match began on another process)
                for k in range(seq + 1, f["seq"] + 1):
                    seen.setdefault(k, (-2, "told by a snapshot"))
            if kind in ("snapshot", "event"):
                seq, view = f["seq"], f["view"]
                seen.setdefault(0, (-1, str(seq)))  # where this human's view began
            elif kind == "reject":
                if f["code"] != "stale":
                    stats.errors.append(f"reject {f['code']}: {f['reason']}")
                snap = f["snapshot"]
                if snap["seq"] >= seq:
                    for k in range(seq + 1, snap["seq"] + 1):
                        seen.setdefault(k, (-2, "told by a snapshot"))
                    seq, view = snap["seq"], snap["view"]
                acted_at = -1
            elif kind == "ack":
                acked.append((f["seq"], view_seat(view)))
            elif kind == "error":
                stats.errors.append(f"error {f['code']}: {f['reason']}")
            if view is None:
                continue
            if view["is_over"]:
                return
            action = choose(view)
            if action is not None and acted_at != seq:
                acted_at = seq
                mid = f"a{next(_ids)}"
                stats.sent[(table, seq + 1)] = (time.perf_counter(), view["seat"])
                await ws.send(json.dumps({"type": "act", "id": mid, "seq": seq,
                                          "action": action}))
        raise RuntimeError(f"the server closed the socket (code {ws.close_code}) before the "
                           "match ended")


def view_seat(view: dict[str, Any] | None) -> int:
    return -1 if view is None else int(view["seat"])


async def post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> Any:
    """POST, waiting and trying again while the server's per-address limit on table
    creations and joins (a burst of 20) says 429: every load-test client shares one
    address."""
    for _ in range(200):
        r = await http.post(url, json=body)
        if r.status_code != 429:
            break
        await asyncio.sleep(0.05)
    r.raise_for_status()
    return r.json()


async def one_table(http: httpx.AsyncClient, bases: list[str], stats: Stats) -> int:
    t = await post(http, f"{bases[0]}/api/tables", TABLE)
    bo = await post(http, f"{bases[-1]}/api/tables/{t['table_id']}/join",
                    {"invite": t["invite"], "name": "Bo"})
    tid = t["table_id"]
    ws = [b.replace("http", "ws", 1) + f"/ws/tables/{tid}" for b in bases]
    seen: list[dict[int, tuple[int, str]]] = [{}, {}]
    acked: list[tuple[int, int]] = []
    await asyncio.gather(human(ws[0], t["token"], tid, stats, seen[0], acked),
                         human(ws[-1], bo["token"], tid, stats, seen[1], acked))
    begun = [int(x.pop(0)[1]) for x in seen]
    last = max(max(x) for x in seen)
    # a lost move: acknowledged to its maker but never shown to the other human (who
    # was told of everything after the snapshot it began with)
    for seq, seat in acked:
        other = seen[1] if seat == 0 else seen[0]
        if seq > begun[1 if seat == 0 else 0] and other.get(seq, (None,))[0] not in (seat, -2):
            stats.lost += 1
            stats.errors.append(f"table {tid}: seat {seat}'s action {seq} was acknowledged "
                                f"but the other human saw {other.get(seq)}")
    # after the first snapshot (bots may have split before a human connected) every
    # action reaches each human as an event, in order
    for x, first in zip(seen, begun, strict=True):
        if not set(range(first + 1, last + 1)) <= set(x):
            stats.errors.append(f"table {tid}: a gap in the events")
    return last


async def wave(bases: list[str], tables: int, stats: Stats, timeout: float) -> float:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        start = time.perf_counter()
        jobs = [asyncio.ensure_future(one_table(http, bases, stats)) for _ in range(tables)]
        done, pending = await asyncio.wait(jobs, timeout=timeout)
        elapsed = time.perf_counter() - start
        for job in pending:
            job.cancel()
        stats.errors += [f"a table did not finish within {timeout:g} s"] * len(pending)
    for d in done:
        if d.exception() is not None:
            stats.errors.append(f"{type(d.exception()).__name__}: {d.exception()}")
        else:
            stats.actions += d.result()
    return elapsed


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", choices=["sqlite", "pg", "pg2"], default="sqlite")
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--waves", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds a wave may take; tables still playing then count as errors")
    ap.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                    help="the meio sources the servers run (to compare with an older tree)")
    ap.add_argument("--json", type=Path, help="append the result as one JSON line here")
    ap.add_argument("--profile", type=Path,
                    help="sample the first server with py-spy; folded stacks go here")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="meio-load-"))
    pg = Postgres() if args.config != "sqlite" else None
    db = pg.url if pg else str(work / "meio.db")
    count = 2 if args.config == "pg2" else 1
    servers = [Server(db, work / f"server{i}.log", args.src) for i in range(count)]
    bases = [s.base for s in servers]
    result: dict[str, Any] = {"config": args.config, "tables": args.tables, "src": str(args.src),
                              "load_before": os.getloadavg()[0]}
    spy = None
    if args.profile:
        py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        spy = subprocess.Popen([py_spy, "record", "-p", str(servers[0].proc.pid), "-f", "raw",
                                "-o", str(args.profile), "-r", "200", "--nonblocking", "--gil",
                                "--threads"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        rss, walls, rows = [], [], []
        for w in range(args.waves):
            stats = Stats()
            cpu0 = sum(s.cpu_s() for s in servers)
            client0 = time.process_time()
            elapsed = asyncio.run(wave(bases, args.tables, stats, args.timeout))
            client_cpu = time.process_time() - client0
            cpu = sum(s.cpu_s() for s in servers) - cpu0
            time.sleep(4)  # finished tables are evicted after 2 s idle
            rss.append([round(s.rss_mb(), 1) for s in servers])
            means = [s.means() for s in servers]
            walls.append(elapsed)
            rows.append({
                "wave": w + 1, "seconds": round(elapsed, 2), "actions": stats.actions,
                "actions_per_s": round(stats.actions / elapsed, 1),
                "server_cpu_ms_per_action": round(1000 * cpu / max(1, stats.actions), 3),
                "p50_ms": round(pct(stats.latencies, 0.50), 1),
                "p95_ms": round(pct(stats.latencies, 0.95), 1),
                "p99_ms": round(pct(stats.latencies, 0.99), 1),
                "samples": len(stats.latencies), "errors": len(stats.errors),
                "lost": stats.lost, "rss_mb": rss[-1],
                "client_cpu_s": round(client_cpu, 1),
                "server_means": means,
                "first_errors": stats.errors[:3],
            })
            print(json.dumps(rows[-1]), flush=True)
        result["waves"] = rows
        result["load_after"] = os.getloadavg()[0]
    finally:
        if spy is not None:
            spy.send_signal(2)
            spy.wait(30)
        for s in servers:
            s.stop()
        if pg:
            pg.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result))
    if args.json:
        with args.json.open("a") as fh:
            fh.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
