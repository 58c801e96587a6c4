"""The think pool: at most one job per worker, the jobs of tables with people first,
a fair share per client and per table; and, at a real server under the attacks of
issue 44 (scaled down: 12 expert tables from one address, or two, and 16 seats asking
for advice), an unrelated table's bot answers and its turn timer fires on time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meio.web import create_app, think
from meio.web.think import BOTS_ONLY, PEOPLE, Share, ThinkPool
from tests.web.conftest import make_settings
from tests.web.helpers import choose
from tests.web.servers import http, thread_server, ws_connect


def test_jobs_of_tables_with_people_go_before_those_of_bots_alone() -> None:
    gate = threading.Event()
    order: list[str] = []

    def job(name: str) -> str:
        if name == "first":
            gate.wait(10)  # holds the only worker until all the others are in line
        order.append(name)
        return name

    async def scenario() -> list[str]:
        pool = ThinkPool(processes=0, threads=1)
        try:
            first = asyncio.ensure_future(pool.run(PEOPLE, job, "first"))
            await asyncio.sleep(0.05)
            later = [asyncio.ensure_future(pool.run(prio, job, name)) for prio, name in
                     ((BOTS_ONLY, "bots-1"), (PEOPLE, "people-1"), (BOTS_ONLY, "bots-2"),
                      (PEOPLE, "people-2"))]
            await asyncio.sleep(0.05)
            assert pool.waiting == 4 and order == []  # one worker: one job at a time
            gate.set()
            return list(await asyncio.gather(first, *later))
        finally:
            pool.close()

    assert asyncio.run(scenario()) == ["first", "bots-1", "people-1", "bots-2", "people-2"]
    assert order == ["first", "people-1", "people-2", "bots-1", "bots-2"]


def test_a_caller_that_goes_away_frees_its_place_in_line() -> None:
    gate = threading.Event()

    async def scenario() -> str:
        pool = ThinkPool(processes=0, threads=1)
        try:
            first = asyncio.ensure_future(pool.run(PEOPLE, gate.wait, 10))
            await asyncio.sleep(0.05)
            gone = asyncio.ensure_future(pool.run(PEOPLE, str, "never"))
            await asyncio.sleep(0.05)
            gone.cancel()
            gate.set()
            await first
            # the worker is free again: a new job runs at once
            return await asyncio.wait_for(pool.run(PEOPLE, str.upper, "next"), 5)
        finally:
            pool.close()

    assert asyncio.run(scenario()) == "NEXT"


def test_a_client_with_one_table_waits_for_the_job_running_not_for_a_flood() -> None:
    """Twenty tables of one client keep a job each in line; another client's job is
    next once the running one ends, and the flood's tables take turns."""
    started: list[str] = []

    def job(name: str) -> str:
        started.append(name)
        time.sleep(0.05)
        return name

    async def scenario() -> float:
        pool = ThinkPool(processes=0, threads=1)
        try:
            async def table(i: int) -> None:
                for _ in range(3):
                    await pool.run(Share("flood", f"t{i}"), job, f"flood-{i}")

            flood = [asyncio.ensure_future(table(i)) for i in range(20)]
            await asyncio.sleep(0.3)
            began = time.perf_counter()
            await pool.run(Share("other", "mine"), job, "other")
            waited = time.perf_counter() - began
            await asyncio.gather(*flood)
            return waited
        finally:
            pool.close()

    waited = asyncio.run(scenario())
    # one flood job running (0.05 s) and its own (0.05 s); a queue in arrival order
    # made it wait for the twenty jobs of the flood ahead of it (1 s)
    assert waited < 0.5, f"the other client waited {waited:.2f} s"
    # round robin over the flood's tables: each table's first job before any second
    firsts = [started.index(f"flood-{i}") for i in range(20)]
    assert max(firsts) < len(started) - 40
    assert pool_forgets_clients()


def pool_forgets_clients() -> bool:
    """A pool keeps no books of clients that have nothing waiting or running."""
    async def scenario() -> int:
        pool = ThinkPool(processes=0, threads=1)
        try:
            await asyncio.gather(*(pool.run(Share(f"c{i}", "t"), str, i) for i in range(50)))
            return pool.clients
        finally:
            pool.close()

    return asyncio.run(scenario()) == 0


def test_an_expensive_client_gets_no_more_than_its_share() -> None:
    """A client whose jobs cost ten times more gets about as much worker time as one
    of cheap jobs, not ten times as much."""
    busy = {"dear": 0.0, "cheap": 0.0}

    def job(client: str, cost: float) -> None:
        time.sleep(cost)
        busy[client] += cost

    async def scenario() -> None:
        pool = ThinkPool(processes=0, threads=1)
        stop = time.perf_counter() + 1.5

        async def loop(client: str, cost: float, table: str) -> None:
            while time.perf_counter() < stop:
                await pool.run(Share(client, table), job, client, cost)

        try:
            await asyncio.gather(*(loop("dear", 0.1, f"d{i}") for i in range(4)),
                                 *(loop("cheap", 0.01, f"c{i}") for i in range(4)))
        finally:
            pool.close()

    asyncio.run(scenario())
    # in arrival order the dear client had ~90% of the worker
    assert busy["cheap"] > 0.3 * busy["dear"], busy


# -- at a real server, under attack ----------------------------------------------------------
#: seconds a bot of each kind thinks in these tests (the worker is a thread that
#: sleeps, so a loaded machine slows nothing but the measure's margins)
COST = {"expert": 0.2, "search": 0.02}
REAL_CHOICE = think.bot_choice


def timed_choice(kind: str, seed: int, view: Any) -> str:
    time.sleep(COST.get(kind, 0.0))
    return REAL_CHOICE("heuristic", seed, view)


@pytest.fixture
def attacked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server in a thread with one think worker; bots think for :data:`COST`."""

    monkeypatch.setattr(think, "bot_choice", timed_choice)
    monkeypatch.setattr(think, "advice", lambda view, chosen, budget: (
        time.sleep(0.2), {"error": "busy advisor"})[1])
    app = create_app(make_settings(
        f"sqlite:///{tmp_path / 'meio.db'}", think_threads=1, join_burst=200,
        join_rate_per_min=600, max_open_tables_per_address=200, advice_burst=100,
        advice_rate_per_min=6000, max_sockets_per_address=500))
    with thread_server(app) as base:
        yield base


def expert_flood(base: str, addresses: list[str], tables: int) -> None:
    """``tables`` tables of one seat and four expert bots, spread over ``addresses``;
    a 0.1 s turn timer plays the seat, so the bots never stop thinking."""
    for i in range(tables):
        with http(addresses[i % len(addresses)]) as c:
            r = c.post(f"{base}/api/tables", json={
                "players": 5, "name": "Eve", "turn_timer_s": 0.1, "listed": False,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "expert"}] * 4})
            assert r.status_code == 201, r.text


class Lone:
    """One person and a ``search`` (strong) bot at a table of their own, from their address:
    times the bot's answers and the turn timer's punctuality."""

    def __init__(self, base: str, address: str = "127.0.0.9") -> None:
        with http(address) as c:
            r = c.post(f"{base}/api/tables", json={
                "players": 2, "name": "Ana", "turn_timer_s": 1.0, "listed": False,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "search"}]})
            assert r.status_code == 201, r.text
        table = r.json()
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(ws_connect(url, address))
        self.ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.deadline: float | None = None
        self.until(lambda f: f["type"] == "snapshot")
        self.answers: list[float] = []
        self.late: list[float] = []
        self.n = 0

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
        if frame["type"] in ("snapshot", "event"):
            self.view, self.seq, self.deadline = frame["view"], frame["seq"], frame["deadline"]
        if frame["type"] == "reject":
            snap = frame["snapshot"]
            self.view, self.seq = snap["view"], snap["seq"]
        return frame

    def until(self, pred: Any) -> dict[str, Any]:
        while True:
            frame = self.recv()
            if pred(frame):
                return frame

    def play(self, moves: int, timeouts: int) -> None:
        """Act ``moves`` times and time the bot's answer to each; then let the timer
        play ``timeouts`` times and time how late it fired."""
        while len(self.answers) < moves or len(self.late) < timeouts:
            assert self.view is not None and not self.view["is_over"], "the match ended"
            action = choose(self.view)
            if action is None:  # the bot is to act
                self.until(lambda f: f["type"] == "event")
                continue
            if len(self.answers) >= moves:  # let the timer move for us
                deadline = self.deadline
                assert deadline is not None
                frame = self.until(lambda f: f["type"] == "event" and f["actor"] == 0)
                assert frame["source"] == "timeout", frame
                self.late.append(time.time() - deadline)
                continue
            self.n += 1
            mid = f"l{self.n}"
            self.ws.send(json.dumps({"type": "act", "id": mid, "seq": self.seq,
                                     "action": action}))
            answer = self.until(lambda f, mid=mid: f.get("id") == mid)
            if answer["type"] != "ack":
                continue
            acked = time.perf_counter()
            if self.view is not None and choose(self.view) is None and not self.view["is_over"]:
                self.until(lambda f: f["type"] == "event" and f["actor"] == 1)
                self.answers.append(time.perf_counter() - acked)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


def assert_punctual(lone: Lone) -> None:
    """The bounds docs/web.md states, with a margin for a loaded machine: the bot
    waits for the one job running (an expert's move, 0.2 s here) and thinks (0.02 s);
    the timer fires on time whatever the pool holds."""
    worst_answer, worst_late = max(lone.answers), max(lone.late)
    assert statistics.median(lone.answers) < 0.6, lone.answers
    assert worst_answer < 1.5, lone.answers
    assert worst_late < 0.75, lone.late


@pytest.mark.parametrize("addresses", [["127.0.0.2"], ["127.0.0.2", "127.0.0.3"]],
                         ids=["one-address", "two-addresses"])
def test_expert_tables_slow_neither_another_tables_bot_nor_its_timer(
        attacked: str, addresses: list[str]) -> None:
    expert_flood(attacked, addresses, 12)
    time.sleep(1.0)  # the flood's bots are at work
    lone = Lone(attacked)
    try:
        lone.play(moves=6, timeouts=2)
    finally:
        lone.close()
    # before: every table's job in one line in arrival order, the lone bot waited for
    # a job of each of the 12 tables (2.4 s) and the timer's move too
    assert_punctual(lone)


def test_advice_from_many_seats_slows_neither_another_tables_bot_nor_its_timer(
        attacked: str) -> None:
    addresses = ["127.0.0.2", "127.0.0.3"]
    tables = []
    for i in range(8):
        with http(addresses[i % 2]) as c:
            r = c.post(f"{attacked}/api/tables", json={"players": 2, "name": "Eve",
                                                        "listed": False})
            assert r.status_code == 201, r.text
            table = r.json()
            r2 = c.post(f"{attacked}/api/tables/{table['table_id']}/join",
                        json={"invite": table["invite"], "name": "Eva"})
            assert r2.status_code == 200, r2.text
            tables.append((addresses[i % 2], table["table_id"], table["token"]))
            tables.append((addresses[i % 2], table["table_id"], r2.json()["token"]))
    stop = threading.Event()

    def asker(address: str, table_id: str, token: str) -> None:
        url = attacked.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        with ws_connect(url, address) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            n = 0
            while not stop.is_set():
                n += 1
                ws.send(json.dumps({"type": "advise", "id": f"a{n}"}))
                while True:
                    frame = json.loads(ws.recv(timeout=60))
                    if frame.get("id") == f"a{n}":
                        break

    threads = [threading.Thread(target=asker, args=t, daemon=True) for t in tables]
    for t in threads:
        t.start()
    time.sleep(1.0)
    lone = Lone(attacked)
    try:
        lone.play(moves=6, timeouts=2)
    finally:
        lone.close()
        stop.set()
        for t in threads:
            t.join(30)
    assert_punctual(lone)


# -- a server takes its processes with it ------------------------------------------------------
def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            kids.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return kids


def descendants(pid: int) -> set[tuple[int, str]]:
    """The processes under ``pid``, each with its start time (a reused pid is another)."""
    kids, found, todo = _children(), set(), [pid]
    while todo:
        for child in kids.get(todo.pop(), []):
            with contextlib.suppress(OSError, IndexError):
                start = (Path("/proc") / str(child) / "stat").read_text().rsplit(")", 1)[1]
                found.add((child, start.split()[19]))
                todo.append(child)
    return found


def alive(procs: set[tuple[int, str]]) -> set[int]:
    """Those of ``procs`` still running (a zombie waiting for its parent is not)."""
    left = set()
    for pid, start in procs:
        with contextlib.suppress(OSError, IndexError):
            fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
            if fields[19] == start and fields[0] != "Z":
                left.add(pid)
    return left


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_a_stopped_server_leaves_no_process_of_its_pool(tmp_path: Path, how: str) -> None:
    """``meio serve`` with one think process, thinking for expert tables, then stopped
    (SIGKILL stands for a crash): none of its processes is left."""
    import signal

    from tests.web.servers import Serve

    srv = Serve(tmp_path, {"MEIO_THINK_PROCESSES": "1", "MEIO_MIN_TURN_TIMER": "0.1"})
    procs: set[tuple[int, str]] = set()
    try:
        expert_flood(srv.base, ["127.0.0.1"], 3)
        for _ in range(600):  # the forkserver and its worker start with the first job
            procs = descendants(srv.proc.pid)
            if len(procs) >= 2:
                break
            time.sleep(0.1)
        assert len(procs) >= 2, f"no think processes appeared: {procs}"
        time.sleep(1.0)  # it thinks
        srv.proc.send_signal(getattr(signal, how))
        srv.proc.wait(30)
        end = time.time() + 15
        while alive(procs) and time.time() < end:
            time.sleep(0.1)
        assert not alive(procs), f"left running after {how}: {alive(procs)}"
    finally:
        srv.stop()
        for pid in alive(procs):  # what a failure left: not for the next test to meet
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
