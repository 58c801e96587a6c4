"""Load test of `meio serve`: T tables at once, each with two scripted humans over
WebSockets and two bots; the humans act as soon as it is their turn.

    .venv/bin/python bench/load.py --config sqlite --tables 100
    .venv/bin/python bench/load.py --config pg2 --tables 100 --waves 2

Configurations (the script starts the servers, and for ``pg``/``pg2`` a throwaway
PostgreSQL, itself):

* ``sqlite``: one process on an SQLite file;
* ``pg``: one process on PostgreSQL;
* ``pg2``: two processes on one PostgreSQL; the two humans of each table are
  connected to different processes (what round-robin behind the proxy gave), so
  every move crosses the bus;
* ``pg2h``: two processes on one PostgreSQL, each table made on either and then
  joined and played on the one a rendezvous hash of its id picks (what
  ``deploy/Caddyfile`` does: a table's page, API and sockets go to one replica).

``--versus`` (with ``pg2``/``pg2h``) runs one process on a database of its own in
the same PostgreSQL beside the two, at the same time: the CPU an action costs on two
processes against one, measured in the same run (``server_cpu_ms_per_action`` of
each side, and their ratio), with the bus's deliveries per action (``bus``) and
PostgreSQL's transactions and rows written per action (``pg``). In waves each side
plays ``--tables`` tables; with ``--think`` each has half of them.

Measured: action→broadcast latency (one human's send to the other human's receipt
of the event) p50/p95/p99, accepted actions per second (all seats), errors, lost
moves (an acknowledged action that the other human never received), and the
servers' resident memory after each wave (finished tables are evicted between
waves: ``MEIO_EVICT_AFTER=2``).

With ``--think``, people take their time instead (an open-loop load):

    .venv/bin/python bench/load.py --config sqlite --tables 300 --think card=1-4,split=5-20
    .venv/bin/python bench/load.py --tables 300 --think card=1-4,split=5-20 --mix 2h2b \
        --bot search

Each human waits a time drawn uniformly from the range of ``card`` (a card) or
``split`` (a split) seconds before acting; bots play at their own speed after the
server's ``MEIO_BOT_DELAY`` (``--bot-delay``, 0.7 s as served). ``--tables`` slots start
one after another over ``--ramp`` seconds, each playing matches back to back, so that
``--tables`` matches are under way once the ramp is over; the figures are those of the
``--window`` seconds that follow (``--window-at S`` opens it S seconds after the start
instead: inside the ramp, it measures play beside tables still being made and
joined): act→ack (the sender's own answer) and act→broadcast (each other human's
receipt of the event) p50/p95/p99/max, actions per second, errors,
the CPU of the servers and of this generator (in % of one core) and the servers'
memory per table. ``--mix 4h`` seats four humans, ``2h2b`` two humans and two bots of
kind ``--bot``. The generator parses frames with orjson and runs on uvloop where
installed; ``--generators N`` spreads the tables over N generator processes, so
that no generator's own event loop is busy enough to delay what it measures (one
took 60% of a core at 1,000 tables). ``--probe FILE`` has each server record its long
garbage collections, commits and event-loop lags (``bench/stallprobe.py``); ``--ab
SQL`` runs two SQLite servers side by side, each with half the tables, the second
running ``SQL`` on its connections: a comparison in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import itertools
import json
import math
import os
import random
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
import orjson
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

    def new_database(self) -> str:
        """Another empty database in the same cluster (its own bus: ``NOTIFY`` stays
        inside a database)."""
        import psycopg

        name = "meio_" + uuid.uuid4().hex[:8]
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres",
                             autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def counters(self) -> dict[str, dict[str, float]]:
        """Per database: commits and rows written so far; ``wal``: the cluster's WAL
        position in bytes (shared by all databases)."""
        import psycopg

        out: dict[str, dict[str, float]] = {}
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres",
                             autocommit=True) as c:
            for name, commits, ins, upd, dele in c.execute(
                    "SELECT datname, xact_commit, tup_inserted, tup_updated, tup_deleted "
                    "FROM pg_stat_database WHERE datname LIKE 'meio_%'"):
                out[name] = {"commits": commits, "rows": ins + upd + dele}
            row = c.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()
            out["wal"] = {"bytes": float(row[0]) if row else 0.0}
        return out

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

    def __init__(self, db: str, log: Path, src: Path, bot_delay: float = 0.0,
                 probe: Path | None = None, sql: str | None = None,
                 warm: bool = False) -> None:
        self.db = db
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # the load comes from one address: lift the per-address limits on joins and
        # messages, which exist against abuse, not against a load test
        # warm: load the compiled core at start-up, as `meio serve` does when served (the
        # search bots need it; loading it at the first move would stall the server)
        env = {**os.environ, "MEIO_BOT_DELAY": str(bot_delay),
               "MEIO_WARM_CORE": "1" if warm else "0",
               "MEIO_EVICT_AFTER": "2", "MEIO_JOIN_RATE": "100000",
               "MEIO_MESSAGE_RATE": "1000", "PYTHONPATH": str(src),
               # every client of the bench comes from one address: lift the per-address caps
               "MEIO_MAX_SOCKETS_PER_ADDRESS": "100000", "MEIO_MAX_TABLES_PER_ADDRESS": "100000",
               "MEIO_MAX_TCP_PER_ADDRESS": "100000", "MEIO_MAX_SOCKETS": "100000",
               "MEIO_MAX_TCP_CONNECTIONS": "100000"}
        env.pop("DATABASE_URL", None)
        boot = "from meio.cli import main; main()"
        if probe is not None:
            # bench/stallprobe.py times the collector, the commits and the loop's lag
            env["PYTHONPATH"] += os.pathsep + str(Path(__file__).parent)
            env["MEIO_STALLPROBE_OUT"] = str(probe)
            if sql:
                env["MEIO_STALLPROBE_SQL"] = sql
            boot = "import stallprobe; " + boot
        self.proc = subprocess.Popen(
            [sys.executable, "-c", boot, "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--db", db],
            env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
        )
        for _ in range(2400):
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

    def counters(self) -> dict[str, float]:
        """The server's bus and table counters so far (from /metrics)."""
        try:
            text = httpx.get(f"{self.base}/metrics", timeout=5).text
        except httpx.HTTPError:
            return {}
        keys = {'meio_bus_messages_total{direction="in"}': "bus_in",
                'meio_bus_messages_total{direction="out"}': "bus_out",
                'meio_bus_events_total{direction="in"}': "events_in",
                'meio_bus_events_total{direction="out"}': "events_out",
                "meio_tables_loaded": "tables_loaded"}
        out = {}
        for line in text.splitlines():
            name, _, value = line.rpartition(" ")
            if name in keys:
                out[keys[name]] = float(value)
        return out

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def by_table(bases: list[str], table_id: str) -> str:
    """The server a table's page, API and sockets go to: rendezvous hashing of the
    table id over the servers, as Caddy's header policy does (FNV-1a of the id and the
    address, the highest wins; which one it picks differs between Caddy versions,
    that one picks one per table does not)."""
    def fnv1a(text: str) -> int:
        h = 0x811C9DC5
        for byte in text.encode():
            h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
        return h

    return max(bases, key=lambda b: fnv1a(table_id + b.rsplit("/", 1)[-1]))


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


async def one_table(http: httpx.AsyncClient, bases: list[str], stats: Stats,
                    hashed: bool = False, slot: int = 0) -> int:
    """One table played to its end by two humans: on the first and last server (pg2:
    every move crosses the bus), or, ``hashed``, made on any server and played on
    the one its id hashes to (pg2h)."""
    t = await post(http, f"{bases[slot % len(bases)]}/api/tables", TABLE)
    tid = t["table_id"]
    seats = [by_table(bases, tid)] * 2 if hashed else [bases[0], bases[-1]]
    bo = await post(http, f"{seats[1]}/api/tables/{tid}/join",
                    {"invite": t["invite"], "name": "Bo"})
    ws = [b.replace("http", "ws", 1) + f"/ws/tables/{tid}" for b in seats]
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


async def wave(bases: list[str], tables: int, stats: Stats, timeout: float,
               hashed: bool = False) -> float:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        start = time.perf_counter()
        jobs = [asyncio.ensure_future(one_table(http, bases, stats, hashed, i))
                for i in range(tables)]
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


# -- people who think (--think): an open-loop load -------------------------------------------
@dataclass
class Think:
    """How long a person takes: uniform in ``card`` seconds for a card, ``split`` for a
    split."""

    card: tuple[float, float]
    split: tuple[float, float]

    @staticmethod
    def parse(text: str) -> Think:
        """``card=1-4,split=5-20``."""
        ranges: dict[str, tuple[float, float]] = {}
        for part in text.split(","):
            key, _, span = part.partition("=")
            low, _, high = span.partition("-")
            try:
                ranges[key.strip()] = (float(low), float(high or low))
            except ValueError:
                raise SystemExit(f"--think: {part!r} is not NAME=LOW-HIGH (seconds)") from None
        if set(ranges) != {"card", "split"} or any(a < 0 or b < a for a, b in ranges.values()):
            raise SystemExit("--think: give card=LOW-HIGH,split=LOW-HIGH with 0 <= LOW <= HIGH")
        return Think(ranges["card"], ranges["split"])

    def draw(self, phase: str) -> float:
        return random.uniform(*(self.split if phase == "split" else self.card))


@dataclass
class Window:
    """The measured part of a run, and what was seen in it."""

    start: float
    end: float
    ack: list[float] = field(default_factory=list)
    broadcast: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    matches: int = 0
    #: (table, seq, seat) -> send time of each human action in flight
    sent: dict[tuple[str, int, int], float] = field(default_factory=dict)

    def inside(self, at: float) -> bool:
        return self.start <= at < self.end


async def thinker(url: str, token: str, table: str, think: Think, win: Window) -> None:
    """One person at a table until the match ends, thinking before each move."""
    async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        seq, view, acted_at = 0, None, -1
        pending: asyncio.Task[None] | None = None
        asked: dict[str, float] = {}

        async def act_after(delay: float) -> None:
            nonlocal acted_at, pending
            await asyncio.sleep(delay)
            pending = None
            action = None if view is None else choose(view)
            if view is None or action is None or acted_at == seq:
                return
            acted_at = seq
            mid = f"a{next(_ids)}"
            now = time.perf_counter()
            asked[mid] = now
            win.sent[(table, seq + 1, int(view["seat"]))] = now
            await ws.send(orjson.dumps({"type": "act", "id": mid, "seq": seq,
                                        "action": action}).decode())

        again = False
        try:
            async for raw in ws:
                now = time.perf_counter()
                f = orjson.loads(raw)
                kind = f["type"]
                if kind == "event":
                    sent = win.sent.get((table, f["seq"], f["actor"]))
                    if sent is not None and f["actor"] != view_seat(view) and win.inside(sent):
                        win.broadcast.append(now - sent)
                if kind in ("snapshot", "event"):
                    seq, view = f["seq"], f["view"]
                elif kind == "ack":
                    began = asked.pop(f["id"], None)
                    if began is not None and win.inside(began):
                        win.ack.append(now - began)
                        win.actions += 1
                elif kind == "reject":
                    asked.pop(f["id"], None)
                    if f["code"] != "stale" and win.inside(now):
                        win.errors.append(f"reject {f['code']}: {f['reason']}")
                    snap = f["snapshot"]
                    if snap["seq"] >= seq:
                        seq, view = snap["seq"], snap["view"]
                    acted_at, again = -1, True  # another split came first: send it again now
                elif kind == "error" and win.inside(now):
                    win.errors.append(f"error {f['code']}: {f['reason']}")
                if view is None:
                    continue
                if view["is_over"]:
                    return
                if pending is None and acted_at != seq and choose(view) is not None:
                    delay = 0.0 if again else think.draw(view["phase"])
                    again = False
                    pending = asyncio.ensure_future(act_after(delay))
            raise RuntimeError(f"the server closed the socket (code {ws.close_code}) "
                               "before the match ended")
        finally:
            if pending is not None:
                pending.cancel()


def think_table(mix: str, bot: str) -> dict[str, Any]:
    humans = 4 if mix == "4h" else 2
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": bot}] * (4 - humans)
    return {"players": 4, "name": "Ana", "listed": False, "seats": seats}


async def think_match(http: httpx.AsyncClient, bases: list[str], body: dict[str, Any],
                      think: Think, win: Window, slot: int, hashed: bool = False) -> None:
    """One table: made, joined by the other humans, played to its end. ``hashed``:
    made on any server, then joined and played on the one its id hashes to (else
    each person on the next server, round robin)."""
    humans = sum(s["kind"] == "human" for s in body["seats"])
    t = await post(http, f"{bases[slot % len(bases)]}/api/tables", body)
    tid = t["table_id"]
    tokens = [t["token"]]
    seat_bases = ([by_table(bases, tid)] * humans if hashed
                  else [bases[(slot + k) % len(bases)] for k in range(humans)])
    if hashed and seat_bases[0] != bases[slot % len(bases)]:
        # the creator's own seat: its page reads the table where it is played
        await http.get(f"{seat_bases[0]}/api/tables/{tid}", params={"key": t["invite"]})
    for k in range(1, humans):
        joined = await post(http, f"{seat_bases[k]}/api/tables/{tid}/join",
                            {"invite": t["invite"], "name": f"P{k}"})
        tokens.append(joined["token"])
    urls = [b.replace("http", "ws", 1) + f"/ws/tables/{tid}" for b in seat_bases]
    try:
        await asyncio.gather(*(thinker(u, tok, tid, think, win)
                               for u, tok in zip(urls, tokens, strict=True)))
        win.matches += 1
    finally:
        for key in [k for k in win.sent if k[0] == tid]:
            del win.sent[key]


async def think_run(groups: list[list[str]], tables: int, body: dict[str, Any],
                    think: Think, ramp: float, window: float, on_window: Any,
                    slots: list[int] | None = None, begun: float | None = None,
                    opens: float | None = None, hashed: bool = False) -> list[Window]:
    """``tables`` slots started over ``ramp`` seconds from ``begun`` (a
    ``time.perf_counter()``, the same in every process; default now), measured for
    ``window`` seconds; slot ``i`` plays on the servers of ``groups[i % len(groups)]``,
    and is measured in that group's window. ``slots``: the ones this process plays
    (default all). ``on_window(True)`` / ``on_window(False)`` are called at the
    window's two ends. ``opens``: seconds from ``begun`` to the window (default the
    ramp's end; earlier, the window sees tables still being made and joined).
    ``hashed``: each table played on one server of its group (see ``think_match``)."""
    begun = time.perf_counter() if begun is None else begun
    opens = ramp if opens is None else opens
    wins = [Window(begun + opens, begun + opens + window) for _ in groups]
    end = wins[0].end

    async def slot(i: int, http: httpx.AsyncClient) -> None:
        await asyncio.sleep(max(0.0, begun + i * ramp / tables - time.perf_counter()))
        win = wins[i % len(groups)]
        while time.perf_counter() < end:
            try:
                await think_match(http, groups[i % len(groups)], body, think, win, i, hashed)
            except Exception as exc:  # counted; the slot goes on
                if win.inside(time.perf_counter()):
                    win.errors.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(1)

    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        jobs = [asyncio.ensure_future(slot(i, http))
                for i in (range(tables) if slots is None else slots)]
        await asyncio.sleep(max(0.0, wins[0].start - time.perf_counter()))
        on_window(True)
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        on_window(False)
        for job in jobs:
            job.cancel()
        # bounded: a slot stuck in a socket's teardown must not hold the run (the
        # figures are already taken)
        await asyncio.wait(jobs, timeout=15)
    return wins


def loop_runner() -> Any:
    """uvloop's run where installed, else asyncio's."""
    try:
        import uvloop

        return uvloop.run
    except ImportError:
        return asyncio.run


def think_worker(groups: list[list[str]], tables: int, body: dict[str, Any], think: Think,
                 ramp: float, window: float, slots: list[int], begun: float,
                 opens: float | None = None,
                 hashed: bool = False) -> tuple[list[Window], float]:
    """One generator process of ``--generators``: its slots, measured; returns its
    windows and the CPU seconds it spent in the window."""
    marks: dict[bool, float] = {}

    def on_window(opening: bool) -> None:
        marks[opening] = time.process_time()

    wins = loop_runner()(think_run(groups, tables, body, think, ramp, window, on_window,
                                   slots, begun, opens, hashed))
    for w in wins:
        w.sent.clear()
    return wins, marks[False] - marks[True]


def merged(parts: list[Window]) -> Window:
    """The windows of one group measured by several generator processes, as one."""
    out = Window(parts[0].start, parts[0].end)
    for w in parts:
        out.ack += w.ack
        out.broadcast += w.broadcast
        out.errors += w.errors
        out.actions += w.actions
        out.matches += w.matches
    return out


def bot_seconds(server: Server) -> float:
    """The seconds the server's bots spent choosing so far (meio_bot_think_seconds)."""
    try:
        text = httpx.get(f"{server.base}/metrics", timeout=5).text
    except httpx.HTTPError:
        return float("nan")
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("meio_bot_think_seconds_sum"))


def run_think(args: argparse.Namespace, servers: list[Server], result: dict[str, Any],
              pg: Postgres | None = None) -> None:
    think = Think.parse(args.think)
    body = think_table(args.mix, args.bot)
    # --ab: two servers on files of their own, each with half the tables; --versus: the
    # one server on its own database, and the two; otherwise one group (pg2: each
    # table's humans spread over both processes; pg2h: on the one of its id)
    groups = ([[s] for s in servers] if args.ab
              else [servers[:1], servers[1:]] if args.versus else [servers])
    hashed = args.config == "pg2h"
    marks: dict[bool, tuple[float, list[float], float, list[float]]] = {}
    counts: dict[bool, list[dict[str, float]]] = {}
    pg_counts: dict[bool, dict[str, dict[str, float]]] = {}
    rss0 = [s.rss_mb() for s in servers]

    def on_window(opening: bool) -> None:
        marks[opening] = (time.perf_counter(), [s.cpu_s() for s in servers],
                          time.process_time(), [bot_seconds(s) for s in servers])
        counts[opening] = [s.counters() for s in servers]
        if pg is not None:
            pg_counts[opening] = pg.counters()

    bases = [[s.base for s in g] for g in groups]
    generators_cpu = 0.0
    opens = args.ramp if args.window_at is None else args.window_at
    if args.generators <= 1:
        wins = loop_runner()(think_run(bases, args.tables, body, think, args.ramp,
                                       args.window, on_window, opens=opens, hashed=hashed))
    else:
        import concurrent.futures
        import multiprocessing

        n = args.generators
        begun = time.perf_counter() + 3.0  # the workers' start-up
        with concurrent.futures.ProcessPoolExecutor(
                n, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(think_worker, bases, args.tables, body, think, args.ramp,
                                   args.window, list(range(k, args.tables, n)), begun, opens,
                                   hashed)
                       for k in range(n)]
            time.sleep(max(0.0, begun + opens - time.perf_counter()))
            on_window(True)
            time.sleep(max(0.0, begun + opens + args.window - time.perf_counter()))
            on_window(False)
            done = [f.result() for f in futures]
        wins = [merged([d[0][g] for d in done]) for g in range(len(groups))]
        generators_cpu = sum(d[1] for d in done)
    (t0, cpu0, gen0, bot0), (t1, cpu1, gen1, bot1) = marks[True], marks[False]
    wall = t1 - t0
    rss = [round(s.rss_mb(), 1) for s in servers]
    result.update({
        "think": args.think, "mix": args.mix, "bot": args.bot if args.mix == "2h2b" else None,
        "ramp_s": args.ramp, "window_s": args.window, "window_at_s": args.window_at,
        "ab": args.ab, "versus": args.versus,
        "generators": args.generators,
        "generator_cpu_pct": round(100 * (gen1 - gen0 if args.generators <= 1
                                          else generators_cpu) / wall, 1),
        "load_after": os.getloadavg()[0], "groups": [],
    })
    for gi, (g, win) in enumerate(zip(groups, wins, strict=True)):
        ids = [servers.index(s) for s in g]
        cpu = sum(cpu1[i] - cpu0[i] for i in ids)
        bots = sum(bot1[i] - bot0[i] for i in ids)
        grown = sum(rss[i] - rss0[i] for i in ids)
        result["groups"].append({
            "servers": ids, "tables": len(range(gi, args.tables, len(groups))),
            "actions_per_s": round(win.actions / wall, 1), "matches_done": win.matches,
            "ack_ms": {q: round(pct(win.ack, v), 1) for q, v in
                       (("p50", .5), ("p95", .95), ("p99", .99), ("max", 1.0))},
            "broadcast_ms": {q: round(pct(win.broadcast, v), 1) for q, v in
                             (("p50", .5), ("p95", .95), ("p99", .99), ("max", 1.0))},
            "samples": len(win.ack), "errors": len(win.errors),
            "first_errors": win.errors[:3],
            "server_cpu_pct": round(100 * cpu / wall, 1),
            "bots_share_of_server_cpu": round(bots / max(1e-9, cpu), 2),
            "rss_mb": [rss[i] for i in ids],
            "rss_kb_per_table": round(1024 * grown / len(range(gi, args.tables, len(groups))),
                                      1),
            "server_means": [servers[i].means() for i in ids],
            "server_cpu_ms_per_action": round(1000 * cpu / max(1, win.actions), 3),
            "bus": _per_action(counts, ids, win.actions),
            "tables_loaded": [counts[False][i].get("tables_loaded") for i in ids],
        })
        if pg_counts:
            dbs = {servers[i].db.rsplit("/", 1)[-1] for i in ids}
            before, after = pg_counts[True], pg_counts[False]
            result["groups"][-1]["pg"] = {
                key: round(sum(after[d][key] - before[d][key] for d in dbs)
                           / max(1, win.actions), 3)
                for key in ("commits", "rows")}
    if pg_counts:
        # the WAL is the cluster's, shared by the groups: per action of all of them
        wal = pg_counts[False]["wal"]["bytes"] - pg_counts[True]["wal"]["bytes"]
        actions = sum(w.actions for w in wins)
        result["pg_wal_bytes_per_action"] = round(wal / max(1, actions), 1)
        result["pg_wal_bytes_per_s"] = round(wal / wall, 1)


def _per_action(counts: dict[bool, list[dict[str, float]]], ids: list[int],
                actions: int) -> dict[str, float]:
    """The group's bus traffic in the window, per action served."""
    out = {}
    for key in ("bus_in", "bus_out", "events_in", "events_out"):
        grown = sum(counts[False][i].get(key, 0.0) - counts[True][i].get(key, 0.0)
                    for i in ids)
        out[key] = round(grown / max(1, actions), 3)
    return out

def versus_wave(args: argparse.Namespace, servers: list[Server], pg: Postgres | None,
                w: int) -> dict[str, Any]:
    """One wave of ``--versus``: the lone process (``servers[0]``, a database of its own)
    and the two (``servers[1:]``) each play ``--tables`` tables at the same time; each
    side's CPU is read when its own tables are done."""
    groups = [servers[:1], servers[1:]]
    hashed = [False, args.config == "pg2h"]
    stats = [Stats(), Stats()]
    cpu0 = [sum(s.cpu_s() for s in g) for g in groups]
    counts0 = [s.counters() for s in servers]
    pg0 = pg.counters() if pg is not None else {}
    ends: list[tuple[float, float, list[dict[str, float]], dict[str, dict[str, float]]]] = [
        (0.0, 0.0, [], {}), (0.0, 0.0, [], {})]

    async def side(k: int) -> None:
        elapsed = await wave([s.base for s in groups[k]], args.tables, stats[k],
                             args.timeout, hashed[k])
        # read at once, while the other side may still be playing
        ends[k] = (elapsed, sum(s.cpu_s() for s in groups[k]),
                   [s.counters() for s in groups[k]],
                   pg.counters() if pg is not None else {})

    async def both() -> None:
        await asyncio.gather(side(0), side(1))

    asyncio.run(both())
    time.sleep(4)  # finished tables are evicted after 2 s idle
    out: dict[str, Any] = {"wave": w + 1, "load_after": os.getloadavg()[0], "sides": []}
    for k, g in enumerate(groups):
        elapsed, cpu1, counts1, pg1 = ends[k]
        st = stats[k]
        ids = [servers.index(s) for s in g]
        bus = {}
        for key in ("bus_in", "bus_out", "events_in", "events_out"):
            grown = sum(counts1[j].get(key, 0.0) - counts0[i].get(key, 0.0)
                        for j, i in enumerate(ids))
            bus[key] = round(grown / max(1, st.actions), 3)
        row: dict[str, Any] = {
            "servers": ids, "seconds": round(elapsed, 2), "actions": st.actions,
            "actions_per_s": round(st.actions / elapsed, 1),
            "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0[k]) / max(1, st.actions), 3),
            "p50_ms": round(pct(st.latencies, 0.50), 1),
            "p99_ms": round(pct(st.latencies, 0.99), 1),
            "errors": len(st.errors), "lost": st.lost, "first_errors": st.errors[:3],
            "bus": bus, "rss_mb": [round(s.rss_mb(), 1) for s in g],
        }
        if pg1:
            dbs = {s.db.rsplit("/", 1)[-1] for s in g}
            row["pg"] = {key: round(sum(pg1[d][key] - pg0[d][key] for d in dbs)
                                    / max(1, st.actions), 3) for key in ("commits", "rows")}
        out["sides"].append(row)
    a, b = out["sides"]
    out["cpu_ratio_two_to_one"] = round(b["server_cpu_ms_per_action"]
                                        / max(1e-9, a["server_cpu_ms_per_action"]), 3)
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def meets(result: dict[str, Any], goal_ms: float) -> tuple[bool, str]:
    """Whether a --think run met the goal: every group's p99 act→ack and act→broadcast
    under ``goal_ms`` and no error; else what missed it."""
    for g in result["groups"]:
        if g["errors"]:
            return False, f"{g['errors']} errors: {g['first_errors'][:1]}"
        for what in ("ack_ms", "broadcast_ms"):
            p99 = g[what]["p99"]
            if not p99 < goal_ms:  # nan (nothing measured) misses too
                return False, f"{what[:-3]} p99 {p99} ms"
    return True, "met"


def steps(args: argparse.Namespace) -> None:
    """The ramp: this script once for each ``--steps`` table count, on fresh servers,
    until a run misses the goal; prints each run and then the largest that met it."""
    try:
        counts = sorted(int(t) for t in args.steps.split(","))
    except ValueError:
        raise SystemExit(f"--steps: {args.steps!r} is not table counts like 400,800") from None
    drop = {"--steps", "--goal-ms", "--tables"}
    rest = []
    skip = False
    for a in sys.argv[1:]:
        if skip:
            skip = False
            continue
        if a in drop:
            skip = True
            continue
        if a.split("=", 1)[0] in drop:
            continue
        rest.append(a)
    best, rows = 0, []
    for t in counts:
        with tempfile.NamedTemporaryFile(suffix=".jsonl") as out:
            subprocess.run([sys.executable, __file__, *rest, "--tables", str(t),
                            "--json", out.name], check=True, stdout=subprocess.DEVNULL,
                           timeout=args.ramp + args.window + 600)
            result = json.loads(Path(out.name).read_text().splitlines()[-1])
        ok, why = meets(result, args.goal_ms)
        g = result["groups"]
        rows.append({"tables": t, "met": ok, "why": why, "load": [result["load_before"],
                     result["load_after"]], "generator_cpu_pct": result["generator_cpu_pct"],
                     "server_cpu_pct": sum(x["server_cpu_pct"] for x in g),
                     "actions_per_s": sum(x["actions_per_s"] for x in g),
                     "ack_ms": g[0]["ack_ms"], "broadcast_ms": g[0]["broadcast_ms"]})
        print(json.dumps(rows[-1]), flush=True)
        if args.json:
            with args.json.open("a") as fh:
                fh.write(json.dumps(result) + "\n")
        if not ok:
            break
        best = t
    print(json.dumps({"config": args.config, "mix": args.mix, "goal_ms": args.goal_ms,
                      "largest_meeting_goal": best, "steps": rows}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", choices=["sqlite", "pg", "pg2", "pg2h"], default="sqlite")
    ap.add_argument("--versus", action="store_true",
                    help="with pg2 or pg2h: one process on a database of its own beside "
                         "the two, in the same run (waves: --tables each side at once; "
                         "--think: half the tables each side)")
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--idle", type=float, default=0.0, metavar="S",
                    help="first measure each server's CPU for S seconds with no table")
    ap.add_argument("--waves", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds a wave may take; tables still playing then count as errors")
    ap.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                    help="the meio sources the servers run (to compare with an older tree)")
    ap.add_argument("--json", type=Path, help="append the result as one JSON line here")
    ap.add_argument("--profile", type=Path,
                    help="sample the first server with py-spy; folded stacks go here")
    ap.add_argument("--probe", type=Path,
                    help="record the servers' long collections, commits and loop lags "
                         "(bench/stallprobe.py) in PROBE.N.json")
    ap.add_argument("--ab", metavar="SQL",
                    help="with --think and --config sqlite: two servers, each on its own "
                         "file and half the tables, the second running SQL on each "
                         "connection (e.g. 'PRAGMA synchronous=NORMAL'): a comparison in "
                         "one run (needs --probe)")
    ap.add_argument("--think", metavar="DIST",
                    help="people who think: card=LOW-HIGH,split=LOW-HIGH seconds (uniform); "
                         "an open-loop run of --tables slots (see above)")
    ap.add_argument("--mix", choices=["2h2b", "4h"], default="2h2b",
                    help="with --think: four humans, or two humans and two bots")
    ap.add_argument("--bot", default="random", help="with --think: the bots' kind")
    ap.add_argument("--bot-delay", type=float, default=0.7,
                    help="with --think: the server's pause before each bot move")
    ap.add_argument("--ramp", type=float, default=30, help="with --think: seconds of ramp")
    ap.add_argument("--window-at", type=float, default=None,
                    help="with --think: seconds from the start to the window (default "
                         "the ramp's end; inside the ramp, the window measures play "
                         "while new tables are still made and joined)")
    ap.add_argument("--window", type=float, default=60,
                    help="with --think: seconds measured after the ramp")
    ap.add_argument("--generators", type=int, default=1,
                    help="with --think: generator processes sharing the tables")
    ap.add_argument("--steps", metavar="T,T,...",
                    help="with --think: one run for each number of tables, smallest first, "
                         "each on fresh servers, until one misses the goal (--goal-ms)")
    ap.add_argument("--goal-ms", type=float, default=50.0,
                    help="with --steps: the p99 of act→ack and of act→broadcast to stay under")
    args = ap.parse_args()
    if args.generators < 1:
        raise SystemExit(f"--generators must be 1 or more, not {args.generators}")
    if args.window_at is not None and not 0 <= args.window_at < math.inf:
        raise SystemExit(f"--window-at must be 0 s or more, not {args.window_at:g}")
    if args.steps:
        if not args.think:
            raise SystemExit("--steps needs --think")
        steps(args)
        return
    work = Path(tempfile.mkdtemp(prefix="meio-load-"))
    pg = Postgres() if args.config != "sqlite" else None
    db = pg.url if pg else str(work / "meio.db")
    count = 2 if args.config in ("pg2", "pg2h") else 1
    delay = args.bot_delay if args.think else 0.0
    if args.ab and (args.config != "sqlite" or not args.think or args.probe is None):
        raise SystemExit("--ab needs --config sqlite, --think and --probe")
    if args.versus and args.config not in ("pg2", "pg2h"):
        raise SystemExit("--versus needs --config pg2 or pg2h")
    count = 2 if args.ab else count
    dbs = [db if not args.ab else str(work / f"meio{i}.db") for i in range(count)]
    if args.versus and pg is not None:
        # the lone process first, on a database of its own
        dbs = [pg.new_database(), *dbs]
    servers = [Server(d, work / f"server{i}.log", args.src, delay,
                      None if args.probe is None else args.probe.with_suffix(f".{i}.json"),
                      args.ab if i == 1 else None, warm=bool(args.think))
               for i, d in enumerate(dbs)]
    bases = [s.base for s in servers]
    result: dict[str, Any] = {"config": args.config, "tables": args.tables, "src": str(args.src),
                              "load_before": os.getloadavg()[0]}
    if args.idle:
        # what each server spends with nothing to do (its lease loop, heartbeat and
        # collector), before any table
        time.sleep(5)
        c0, t0 = [sv.cpu_s() for sv in servers], time.perf_counter()
        time.sleep(args.idle)
        wall = time.perf_counter() - t0
        result["idle_cpu_ms_per_s"] = [round(1000 * (sv.cpu_s() - c) / wall, 2)
                                       for sv, c in zip(servers, c0, strict=True)]
        print(json.dumps({"idle_cpu_ms_per_s": result["idle_cpu_ms_per_s"]}), flush=True)
    spy = None
    if args.profile:
        py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        spy = subprocess.Popen([py_spy, "record", "-p", str(servers[0].proc.pid), "-f", "raw",
                                "-o", str(args.profile), "-r", "200", "--nonblocking", "--gil",
                                "--threads"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        rss, walls, rows = [], [], []
        if args.think:
            run_think(args, servers, result, pg)
        for w in range(0 if args.think else args.waves):
            if args.versus:
                rows.append(versus_wave(args, servers, pg, w))
                print(json.dumps(rows[-1]), flush=True)
                continue
            stats = Stats()
            cpu0 = sum(s.cpu_s() for s in servers)
            client0 = time.process_time()
            elapsed = asyncio.run(wave(bases, args.tables, stats, args.timeout,
                                       args.config == "pg2h"))
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
        if not args.think:
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
