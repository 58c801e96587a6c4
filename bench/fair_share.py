"""The thinking attacks of issue 44, at their sizes, against a real ``meio serve``.

Beside each attack one person plays a table of their own against a bot from an
address of their own; the bench times the bot's answer to each of their moves (from
the ack of the move to the bot's event) and how late their turn timer fires (from
the deadline the server sent to the timer's event). The server runs as it ships:
one think **process** (``MEIO_THINK_PROCESSES=1``), real expert bots, real advice.

Attacks (``--attack``, several allowed):

* ``experts:N:A``: N tables of one seat and four expert bots, spread over A client
  addresses; a 5 s turn timer plays the seat, so their bots never stop thinking;
* ``advice:N:A``: N seats (two a table) on A addresses, each asking for split advice
  again as soon as it is answered;
* ``none``: no attack (the baseline).

    .venv/bin/python bench/fair_share.py --attack none --attack experts:20:1 \\
        --attack experts:40:2 --attack advice:40:2 --src src

Prints one JSON object a line: the attack, the bot's answers (median, max, count),
the timer's lateness (median, max) and the load average. The figures go in
docs/web.md, "Security and limits".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

LONE = "127.0.0.99"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=120)


def choose(view: dict[str, Any]) -> str | None:
    seat = view["seat"]
    if view["is_over"] or seat is None:
        return None
    if view["phase"] == "split":
        return None if view["split_done"][seat] else "pack:" + ",".join(view["hand"][:6])
    legal = view["legal"]
    return legal[0] if legal else None


class Server:
    def __init__(self, src: str, tmp: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": src, "MEIO_THINK_PROCESSES": "1",
               "MEIO_WARM_CORE": "0",
               "MEIO_BOT_DELAY": "0", "MEIO_MIN_TURN_TIMER": "1",
               "MEIO_JOIN_RATE": "1000", "MEIO_MAX_TABLES_PER_ADDRESS": "1000",
               "MEIO_MAX_SOCKETS_PER_ADDRESS": "1000"}
        env.pop("DATABASE_URL", None)
        self.log = (tmp / f"serve-{self.port}.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from meio.cli import main; main()", "serve", "--port",
             str(self.port), "--db", str(tmp / f"{self.port}.db")],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(1200):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise SystemExit("the server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def experts(base: str, tables: int, addresses: int) -> None:
    for i in range(tables):
        with http(f"127.0.0.{10 + i % addresses}") as c:
            r = c.post(f"{base}/api/tables", json={
                "players": 5, "name": "Eve", "turn_timer_s": 5, "listed": False,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "expert"}] * 4})
            r.raise_for_status()


def advice(base: str, seats: int, addresses: int, stop: threading.Event) -> list[threading.Thread]:
    threads = []
    for i in range(seats // 2):
        address = f"127.0.0.{10 + i % addresses}"
        with http(address) as c:
            r = c.post(f"{base}/api/tables", json={"players": 2, "name": "Eve",
                                                   "listed": False})
            r.raise_for_status()
            table = r.json()
            r2 = c.post(f"{base}/api/tables/{table['table_id']}/join",
                        json={"invite": table["invite"], "name": "Eva"})
            r2.raise_for_status()
        for token in (table["token"], r2.json()["token"]):
            t = threading.Thread(target=asker, daemon=True,
                                 args=(base, address, table["table_id"], token, stop))
            t.start()
            threads.append(t)
    return threads


def asker(base: str, address: str, table_id: str, token: str, stop: threading.Event) -> None:
    with contextlib.suppress(ConnectionClosed, OSError):  # the server stops at the end
        ask(base, address, table_id, token, stop)


def ask(base: str, address: str, table_id: str, token: str, stop: threading.Event) -> None:
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    with connect(url, source_address=(address, 0), open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        n = 0
        while not stop.is_set():
            n += 1
            ws.send(json.dumps({"type": "advise", "id": f"a{n}"}))
            while True:
                frame = json.loads(ws.recv(timeout=600))
                if frame.get("id") == f"a{n}":
                    break
                if frame.get("type") == "event" and frame["view"]["phase"] != "split":
                    return  # no more advice to ask for


def lone(base: str, moves: int, timeouts: int, bot: str) -> tuple[list[float], list[float]]:
    """One person against a ``bot``: the bot's answer times, the timer's lateness."""
    with http(LONE) as c:
        r = c.post(f"{base}/api/tables", json={
            "players": 2, "name": "Ana", "turn_timer_s": 5, "listed": False,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]})
        r.raise_for_status()
    table = r.json()
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"
    answers: list[float] = []
    late: list[float] = []
    with connect(url, source_address=(LONE, 0), open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        state: dict[str, Any] = {}

        def recv() -> dict[str, Any]:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=900))
            if frame["type"] in ("snapshot", "event"):
                state.update(view=frame["view"], seq=frame["seq"], deadline=frame["deadline"])
            if frame["type"] == "reject":
                state.update(view=frame["snapshot"]["view"], seq=frame["snapshot"]["seq"])
            return frame

        while recv()["type"] != "snapshot":
            pass
        n = 0
        while len(answers) < moves or len(late) < timeouts:
            view = state["view"]
            if view["is_over"]:
                break
            action = choose(view)
            if action is None:
                recv()
                continue
            if len(answers) >= moves:
                deadline = state["deadline"]
                while True:
                    f = recv()
                    if f["type"] == "event" and f["actor"] == 0:
                        late.append(time.time() - deadline)
                        break
                continue
            n += 1
            ws.send(json.dumps({"type": "act", "id": f"l{n}", "seq": state["seq"],
                                "action": action}))
            while recv().get("id") != f"l{n}":
                pass
            acked = time.perf_counter()
            if choose(state["view"]) is None and not state["view"]["is_over"]:
                while True:
                    f = recv()
                    if f["type"] == "event" and f["actor"] == 1:
                        answers.append(time.perf_counter() - acked)
                        break
    return answers, late


def run(attack: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    srv = Server(args.src, tmp)
    stop = threading.Event()
    try:
        kind, *rest = attack.split(":")
        if kind == "experts":
            experts(srv.base, int(rest[0]), int(rest[1]))
        elif kind == "advice":
            advice(srv.base, int(rest[0]), int(rest[1]), stop)
        elif kind != "none":
            raise SystemExit(f"unknown attack {attack!r}")
        time.sleep(args.settle)
        answers, late = lone(srv.base, args.moves, args.timeouts, args.bot)
    finally:
        stop.set()
        srv.stop()
    return {"attack": attack, "bot": args.bot,
            "answer_median_s": round(statistics.median(answers), 3),
            "answer_max_s": round(max(answers), 3), "answers": len(answers),
            "timer_late_median_s": round(statistics.median(late), 3) if late else None,
            "timer_late_max_s": round(max(late), 3) if late else None,
            "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--attack", action="append", default=[])
    ap.add_argument("--src", default="src", help="the tree's sources (PYTHONPATH)")
    ap.add_argument("--bot", default="heuristic", help="the lone table's bot")
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--timeouts", type=int, default=2)
    ap.add_argument("--settle", type=float, default=15.0,
                    help="seconds the attack runs before the measure")
    args = ap.parse_args()
    args.src = str(Path(args.src).resolve())
    with tempfile.TemporaryDirectory(prefix="meio-fair-") as tmp:
        for attack in args.attack or ["none"]:
            print(json.dumps(run(attack, args, Path(tmp))), flush=True)


if __name__ == "__main__":
    main()
