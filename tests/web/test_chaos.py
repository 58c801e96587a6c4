"""Chaos: kill -9 the server at 20 points of a match played by two bots and two scripted
people (during the split, mid-trick, right after a ``+.5`` win, between rounds, right
after the last card, and at random), restarting it each time. The finished record
must be the one an uninterrupted server plays, and no client may see an event twice
or miss one."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meio.engine import State
from meio.engine import actions as A
from meio.engine.wire import config_from_json
from meio.web.db import open_engine
from meio.web.store import Store
from tests.web.conftest import free_port
from tests.web.helpers import choose, game_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

TABLE = {"players": 4, "name": "Ana", "seed": 31,
         "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"},
                   {"kind": "bot", "bot": "heuristic"}]}
KILLS = 20
Frame = dict[str, Any]


class Servers:
    """Starts servers through the fork factory (tests/web/chaos_server.py)."""

    def __init__(self, log: Path) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        self.log = log.open("wb")
        self.factory = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("chaos_server.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, env=env,
        )
        self.pid: int | None = None
        self.http = httpx.Client(timeout=1)

    def start(self, db: Path, port: int) -> None:
        assert self.factory.stdin is not None and self.factory.stdout is not None
        self.factory.stdin.write(f"{db} {port}\n".encode())
        self.factory.stdin.flush()
        self.pid = int(self.factory.stdout.readline())
        for _ in range(400):
            try:
                if self.http.get(f"http://127.0.0.1:{port}/api/health").is_success:
                    return
            except httpx.HTTPError:
                time.sleep(0.02)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
            for _ in range(200):  # gone once its pid can no longer be signalled
                try:
                    os.kill(self.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.01)
            self.pid = None

    def close(self) -> None:
        self.kill()
        self.factory.kill()
        self.factory.wait(10)
        self.log.close()
        self.http.close()


class Client:
    """A scripted person: keeps every event it is sent and resumes after a drop."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.ws: ClientConnection | None = None
        self.stack = contextlib.ExitStack()
        self.match: str | None = None
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.events: list[int] = []  # the sequence numbers of the events it was sent
        self.snapshots = 0
        self.first = 0  # the sequence number of the first (and only) snapshot
        self.n = 0

    def connect(self) -> None:
        self.stack.close()  # the socket to a killed server is dead already
        self.ws = self.stack.enter_context(connect(self.url, open_timeout=10,
                                                   close_timeout=0.2))
        since = None if self.match is None else {"match": self.match, "seq": self.seq}
        self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": since}))
        self.until(lambda f: f["type"] == "table")  # welcome, what was missed, table

    def recv(self) -> Frame:
        assert self.ws is not None
        frame: Frame = json.loads(self.ws.recv(timeout=20))
        if frame["type"] == "snapshot":
            assert self.match is None, "a resumed client was sent a snapshot, not events"
            self.snapshots += 1
            self.first = frame["seq"]
            self.match, self.seq, self.view = frame["match"], frame["seq"], frame["view"]
        elif frame["type"] == "event":
            assert frame["match"] == self.match
            assert frame["seq"] == self.seq + 1, f"event {frame['seq']} after {self.seq}"
            self.events.append(frame["seq"])
            self.seq, self.view = frame["seq"], frame["view"]
        return frame

    def until(self, pred: Any) -> Frame:
        while True:
            frame = self.recv()
            if pred(frame):
                return frame

    def action(self) -> str | None:
        return None if self.view is None else choose(self.view)

    def act(self) -> None:
        action = self.action()
        assert action is not None and self.ws is not None
        self.n += 1
        mid = f"{self.token[:6]}-{self.n}"
        self.ws.send(json.dumps({"type": "act", "id": mid, "seq": self.seq, "action": action}))
        answer = self.until(lambda f: f.get("id") == mid)
        assert answer["type"] == "ack" or answer["code"] == "stale", answer


def play(base: str, servers: Servers, db: Path, port: int, kill_at: list[int]
         ) -> tuple[dict[str, Any], list[Client], list[int]]:
    """Play the table's match; kill and restart the server once the table is at each of
    ``kill_at`` (sequence numbers). Returns the record, the clients and where it died."""
    table = httpx.post(f"{base}/api/tables", json=TABLE).json()
    bo = httpx.post(f"{base}/api/tables/{table['table_id']}/join",
                    json={"invite": table["invite"], "name": "Bo"}).json()
    url = base.replace("http", "ws") + f"/ws/tables/{table['table_id']}"
    people = [Client(url, table["token"]), Client(url, bo["token"])]
    for p in people:
        p.connect()
    targets = sorted(kill_at)
    died: list[int] = []
    while not all(p.view is not None and p.view["is_over"] for p in people):
        if targets and max(p.seq for p in people) >= targets[0]:
            died.append(max(p.seq for p in people))
            while targets and targets[0] <= died[-1]:
                targets.pop(0)
            servers.kill()
            for p in people:
                with pytest.raises(ConnectionClosed):
                    p.until(lambda f: False)  # the drop is noticed
            servers.start(db, port)
            for p in people:
                p.connect()
            continue
        mover = next((p for p in people if p.action() is not None), None)
        if mover is not None:
            mover.act()
        else:
            min(people, key=lambda p: p.seq).until(lambda f: f["type"] == "event")
    for p in people:
        p.stack.close()
    match = people[0].match
    record: dict[str, Any] = httpx.get(f"{base}/api/matches/{match}/record").json()
    return record, people, died


def kill_points(db: Path, match: str, rng: random.Random) -> dict[str, list[int]]:
    """The stored actions of a match, by the kind of moment each one ends on."""
    store = Store(open_engine(f"sqlite:///{db}"))
    m = store.match(match)
    assert m is not None
    st = State.new(config_from_json(m.config))
    kinds: dict[str, list[int]] = {"split": [], "mid-trick": [], "+.5 won": [],
                                   "round over": [], "last card": [], "other": []}
    events = store.events(match)
    for ev in events:
        out = st.apply(A.parse_action(ev.action), ev.seat)
        if ev.seq == len(events):
            kinds["last card"].append(ev.seq)
        elif out.round_over is not None:
            kinds["round over"].append(ev.seq)
        elif out.pile_pending:
            kinds["+.5 won"].append(ev.seq)
        elif A.is_pack(out.action):
            kinds["split"].append(ev.seq)
        elif st.current_trick:
            kinds["mid-trick"].append(ev.seq)
        else:
            kinds["other"].append(ev.seq)
    store.engine.dispose()
    return kinds


def test_kill_9_at_twenty_points_loses_and_doubles_nothing(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    servers = Servers(tmp_path / "server.log")
    try:
        calm_db = tmp_path / "calm.db"
        servers.start(calm_db, port)
        calm, calm_people, _ = play(base, servers, calm_db, port, [])
        servers.kill()
        n = calm_people[0].seq
        kinds = kill_points(calm_db, calm_people[0].match or "", random.Random(7))
        rng = random.Random(7)
        must = [rng.choice(kinds[k]) for k in ("split", "mid-trick", "+.5 won", "round over",
                                               "last card") if kinds[k]]
        assert len(must) == 5, {k: len(v) for k, v in kinds.items()}
        rest = sorted(set(range(1, n + 1)) - set(must))
        kill_at = sorted(must + rng.sample(rest, KILLS - len(must)))
        chaos_db = tmp_path / "chaos.db"
        servers.start(chaos_db, port)
        record, people, died = play(base, servers, chaos_db, port, kill_at)
    finally:
        servers.close()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert len(died) >= KILLS * 3 // 4, died  # near each other, two points can be one kill
    assert game_of(record) == game_of(calm) and record["format"] == "meio-record/1"
    for p in people:  # every event exactly once, resumed across every restart
        assert p.snapshots == 1 and p.events == list(range(p.first + 1, n + 1))
