"""The attacks of issue 23, replayed against a real ``meio serve`` process on
loopback, each bounded in count and time. During each, two people at a table of
their own (:class:`tests.web.servers.Duo`) must keep act→ack under 100 ms at the
median and 500 ms at most; the figures are printed (``-s``) for docs/web.md.

Visitors come from different loopback addresses (127.0.0.x) where the attack, as
filed, came from many; the measuring pair always has an address of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from meio.web.db import MatchRow, SeatRow, TableRow, migrate, open_engine
from tests.web.servers import Duo, Serve, assert_fair, http, summary, ws_connect

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

DUO = "127.0.0.200"
EXPERT = {"kind": "bot", "bot": "expert"}


def _wait_for_event(url: str, spectate: str, timeout: float = 120) -> None:
    with ws_connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "spectate": spectate}))
        end = time.time() + timeout
        while time.time() < end:
            frame = json.loads(ws.recv(timeout=timeout))
            if frame["type"] == "event":
                return
    raise AssertionError("no bot moved")


def test_tables_of_search_bots_leave_a_table_of_people_alone(tmp_path: Path) -> None:
    server = Serve(tmp_path, {"MEIO_THINK_PROCESSES": "1", "MEIO_WARM_CORE": "1"})
    try:
        # as filed: 20 tables of five expert bots from one address
        with http("127.0.0.2") as c:
            codes = [c.post(f"{server.base}/api/tables",
                            json={"players": 5, "seats": [EXPERT] * 5}).status_code
                     for _ in range(20)]
        assert codes.count(201) == 2 and set(codes[2:]) == {429}, codes
        # what no cap stops: tables with one seat taken and four expert bots, their
        # turn timer playing for the seat, from 18 more addresses
        tables = []
        for n in range(18):
            with http(f"127.0.0.{n + 3}") as c:
                r = c.post(f"{server.base}/api/tables", json={
                    "players": 5, "name": "Eve", "turn_timer_s": 5,
                    "seats": [{"kind": "human"}, *[EXPERT] * 4]})
                assert r.status_code == 201, r.text
                tables.append(r.json())
        ws_base = server.base.replace("http", "ws", 1)
        _wait_for_event(f"{ws_base}/ws/tables/{tables[0]['table_id']}", tables[0]["spectate"])
        duo = Duo(server.base, DUO)
        times = duo.measure(40)
        duo.close()
        print("search bots:", summary(times))
        assert_fair(times)
    finally:
        server.stop()


def test_advice_asked_from_many_pages_of_one_seat_leaves_others_alone(tmp_path: Path) -> None:
    server = Serve(tmp_path, {"MEIO_THINK_PROCESSES": "1", "MEIO_WARM_CORE": "1"})
    stop = threading.Event()
    answers: list[str] = []
    try:
        with http("127.0.0.2") as c:
            table = c.post(f"{server.base}/api/tables",
                           json={"players": 2, "name": "Eve"}).json()
            c.post(f"{server.base}/api/tables/{table['table_id']}/join",
                   json={"invite": table["invite"], "name": "Eve2"})
        url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"

        def loop(n: int) -> None:
            with ws_connect(url, "127.0.0.2") as ws:
                ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                i = 0
                while not stop.is_set():
                    i += 1
                    ws.send(json.dumps({"type": "advise", "id": f"e{n}-{i}"}))
                    while True:
                        frame = json.loads(ws.recv(timeout=30))
                        if frame.get("id") == f"e{n}-{i}":
                            answers.append(frame.get("code") or frame["type"])
                            break
                        if frame["type"] == "error":  # rate limited: the id is not echoed
                            time.sleep(0.05)
                            break

        threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(12)]
        for t in threads:
            t.start()
        time.sleep(2)
        duo = Duo(server.base, DUO)
        times = duo.measure(40)
        duo.close()
        stop.set()
        for t in threads:
            t.join(30)
        print("advice from 12 pages:", summary(times), f"answers {len(answers)}")
        assert answers.count("advice") <= 6  # one in flight, a budget of 4 then 12 a minute
        assert "busy" in answers
        assert_fair(times)
    finally:
        stop.set()
        server.stop()


def _fill(db: Path, finished: int, waiting: int) -> None:
    """A database with ``finished`` tables whose match is over (10 minutes ago) and
    ``waiting`` listed tables with a free seat, written in one transaction."""
    engine = open_engine(f"sqlite:///{db}")
    migrate(engine)
    now = time.time()
    tables, seats, matches = [], [], []
    for i in range(finished + waiting):
        tid = f"t{i:06d}"
        done = i < finished
        tables.append({"id": tid, "created_at": now - 3600 + i * 0.01,
                       "options": {"edition": "meio", "players": 2, "partnership": False,
                                   "specials": None, "turn_timer_s": None, "seed": None},
                       "invite_code": f"i{i}", "spectate_code": f"s{i}", "listed": True,
                       "current_match": f"m{i:06d}" if done else None})
        for seat in (0, 1):
            taken = done or seat == 0
            seats.append({"table_id": tid, "seat": seat, "kind": "human", "bot": None,
                          "name": "P" if taken else None,
                          "token_hash": f"h{i}-{seat}" if taken else None, "joined_at": None})
        if done:
            matches.append({"id": f"m{i:06d}", "table_id": tid, "number": 1,
                            "config": {"edition": "meio", "players": 2}, "created_at": now - 900,
                            "finished_at": now - 600, "result": {"winners": [0]}})
    with engine.begin() as conn:
        conn.execute(insert(TableRow), tables)
        conn.execute(insert(SeatRow), seats)
        conn.execute(insert(MatchRow), matches)
    engine.dispose()


def _started_ms(log: str) -> tuple[float, float]:
    """The start-up's time and the part of it that checked the schema (imports
    Alembic: constant, and seconds on a loaded machine), in milliseconds."""
    found = re.search(r'"message":"started in (\d+) ms \(the schema checked in (\d+) ms', log)
    assert found, log[-2000:]
    return float(found.group(1)), float(found.group(2))


def test_ten_thousand_tables_cost_neither_the_lobby_nor_the_start_up(tmp_path: Path) -> None:
    db = tmp_path / "big.db"
    _fill(db, finished=9000, waiting=1000)
    server = Serve(tmp_path, {"MEIO_LOG_FORMAT": "json"}, db=db)
    stop = threading.Event()
    try:
        started, schema = _started_ms(server.text())
        lobby = []
        with http("127.0.0.2") as c:
            for _ in range(20):
                began = time.perf_counter()
                page = c.get(f"{server.base}/api/lobby").json()
                lobby.append(time.perf_counter() - began)
            assert len(page["tables"]) == 50 and page["next"] is not None

        def loop(n: int) -> None:
            with http(f"127.0.0.{n + 3}") as c:
                while not stop.is_set():
                    c.get(f"{server.base}/api/lobby")

        threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(6)]
        for t in threads:
            t.start()
        duo = Duo(server.base, DUO)
        times = duo.measure(40)
        duo.close()
        stop.set()
        for t in threads:
            t.join(30)
        med = statistics.median(lobby)
        print(f"10,000 tables: start-up {started:.0f} ms (schema check {schema:.0f} ms; the "
              f"process in all {server.started_in:.1f} s), "
              f"lobby median {med * 1000:.1f} ms max {max(lobby) * 1000:.1f} ms; "
              f"six lobby loops: {summary(times)}")
        # the target is 3 s; what grows with the tables gets one of them here
        assert started < 3000 or started - schema < 1000
        assert med < 0.1
        assert_fair(times)
    finally:
        stop.set()
        server.stop()


def test_many_spectators_cost_one_frame_each(tmp_path: Path) -> None:
    server = Serve(tmp_path)
    try:
        with http("127.0.0.2") as c:
            table = c.post(f"{server.base}/api/tables", json={"players": 2, "name": "Eve"}).json()
        url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"
        counts: dict[str, int] = {}
        refused = 0

        async def crowd() -> None:
            nonlocal refused
            from websockets.asyncio.client import connect

            socks = []
            for n in range(260):  # 5 addresses: 52 each, under the 64 per address
                ws = await connect(url, local_addr=(f"127.0.0.{10 + n % 5}", 0),
                                   compression=None, open_timeout=30)
                await ws.send(json.dumps({"type": "hello", "spectate": table["spectate"]}))
                first = json.loads(await ws.recv())
                if first["type"] == "error":
                    refused += 1
                    await ws.close()
                    continue
                socks.append(ws)
            await asyncio.sleep(0.5)
            for ws in socks:
                with contextlib.suppress(Exception):
                    while True:
                        frame = json.loads(await asyncio.wait_for(ws.recv(), 0.01))
                        counts[frame["type"]] = counts.get(frame["type"], 0) + 1
            for ws in socks:
                await ws.close()

        result: list[list[float]] = []

        def measure() -> None:
            duo = Duo(server.base, DUO)
            result.append(duo.measure(40))
            duo.close()

        t = threading.Thread(target=measure)
        t.start()
        asyncio.run(crowd())
        t.join(120)
        print("260 spectators:", summary(result[0]), f"refused {refused}, later frames {counts}")
        assert refused == 60  # 200 spectators a table
        assert counts.get("table", 0) == 0  # nobody heard of the others coming
        assert_fair(result[0])
    finally:
        server.stop()
    assert "Traceback" not in server.text()


def test_half_sent_requests_are_dropped_and_capped(tmp_path: Path) -> None:
    server = Serve(tmp_path, {"MEIO_HEADER_TIMEOUT": "2", "MEIO_MAX_TCP_PER_ADDRESS": "200"})
    socks: list[socket.socket] = []
    try:
        for _ in range(300):
            s = socket.socket()
            s.bind(("127.0.0.5", 0))
            s.connect(("127.0.0.1", server.port))
            s.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")  # never finished
            socks.append(s)
        began = time.monotonic()
        duo = Duo(server.base, DUO)
        times = duo.measure(30)
        duo.close()
        closed = 0
        for s in socks:
            s.settimeout(max(0.1, 6 - (time.monotonic() - began)))
            try:
                while s.recv(4096):  # a 408, then the end
                    pass
            except TimeoutError:
                continue  # still held
            except ConnectionResetError:
                pass  # refused over the cap
            closed += 1
        waited = time.monotonic() - began
        print("300 half-sent requests:", summary(times), f"all closed after {waited:.1f} s")
        assert closed == 300 and waited < 6
        assert httpx.get(f"{server.base}/api/lobby", timeout=5).status_code == 200
        assert_fair(times)
    finally:
        for s in socks:
            s.close()
        server.stop()


def test_invalid_text_frames_close_without_a_traceback(tmp_path: Path) -> None:
    from websockets.frames import Frame, Opcode

    server = Serve(tmp_path)
    try:
        with http() as c:
            table = c.post(f"{server.base}/api/tables", json={"players": 2, "name": "Eve"}).json()
        url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"
        codes: list[Any] = []
        for _ in range(50):
            with ws_connect(url) as ws:
                ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                ws.recv(timeout=10)
                with ws.protocol_mutex:
                    ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe"))
                    ws.send_data()
                with contextlib.suppress(Exception):
                    while True:
                        ws.recv(timeout=10)
                codes.append(ws.protocol.close_rcvd and ws.protocol.close_rcvd.code)
        assert codes == [1007] * 50
        metrics = httpx.get(f"{server.base}/metrics").text
        assert re.search(r"^meio_invalid_frames_total 50\.0$", metrics, re.M), metrics
    finally:
        server.stop()
    assert "Traceback" not in server.text()
