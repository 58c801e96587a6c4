"""kill -9 in the middle of a match: no accepted action is lost, and the finished
match is the very one an uninterrupted server plays with the same seeds."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from meio.web import create_app
from tests.web.conftest import free_port, make_settings
from tests.web.helpers import Player, choose, game_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

TABLE = {"players": 4, "name": "Ana", "seed": 77,
         "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}


class SyncWS:
    """The websockets client, shaped like Starlette's test WebSocket."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn

    def send_json(self, data: Any) -> None:
        self.conn.send(json.dumps(data))

    def receive_json(self) -> Any:
        return json.loads(self.conn.recv(timeout=30))


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "MEIO_ALLOW_SEEDS": "1", "MEIO_BOT_DELAY": "0"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from meio.cli import main; main()", "serve",
         "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    said = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
    raise AssertionError(f"the server did not start: {said}")


def drive(players: list[Player], stop_at: int | None) -> None:
    """Scripted people act until the match ends (or ``stop_at`` actions are stored)."""
    while True:
        if all(p.view is not None and p.view["is_over"] for p in players):
            return
        if stop_at is not None and max(p.seq for p in players) >= stop_at:
            return
        mover = next((p for p in players if p.my_turn()), None)
        if mover is None:
            min(players, key=lambda p: p.seq).until(lambda f: f["type"] in ("event",
                                                                             "snapshot"))
            continue
        ans = mover.act(choose(mover.view))  # type: ignore[arg-type]
        assert ans["type"] == "ack" or ans["code"] == "stale", ans


def calm_record(table: dict[str, Any], db: Path) -> dict[str, Any]:
    """The record of ``table``'s match (Ana creates it, Bo joins) played on one server,
    on the SQLite file ``db``, that nothing disturbed: what a disturbed run must equal."""
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as c:
        t = c.post("/api/tables", json=table).json()
        bo = c.post(f"/api/tables/{t['table_id']}/join",
                    json={"invite": t["invite"], "name": "Bo"}).json()
        with c.websocket_connect(f"/ws/tables/{t['table_id']}") as w1, \
                c.websocket_connect(f"/ws/tables/{t['table_id']}") as w2:
            x, y = Player(w1, token=t["token"]), Player(w2, token=bo["token"])
            drive([x, y], stop_at=None)
        record: dict[str, Any] = c.get(f"/api/matches/{x.match}/record").json()
    return record


def test_kill_9_mid_match_loses_nothing(tmp_path: Path) -> None:
    db, port = tmp_path / "meio.db", free_port()
    base, wsbase = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    proc = start_server(db, port)
    sockets = contextlib.ExitStack()

    def opened(url: str) -> SyncWS:
        # closed with the stack; the ones to the killed server are already dead
        return SyncWS(sockets.enter_context(connect(url, open_timeout=10, close_timeout=1)))

    try:
        table = httpx.post(f"{base}/api/tables", json=TABLE).json()
        bo = httpx.post(f"{base}/api/tables/{table['table_id']}/join",
                        json={"invite": table["invite"], "name": "Bo"}).json()
        url = f"{wsbase}/ws/tables/{table['table_id']}"
        a, b = Player(opened(url), token=table["token"]), Player(opened(url), token=bo["token"])
        drive([a, b], stop_at=20)  # the split and about half of round 1's tricks
        seen = max(a.seq, b.seq)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = start_server(db, port)
        a2 = Player(opened(url), token=table["token"], since={"match": a.match, "seq": a.seq})
        b2 = Player(opened(url), token=bo["token"], since={"match": b.match, "seq": b.seq})
        for p, old in ((a2, a), (b2, b)):  # what was missed comes as events, then "table"
            p.match, p.seq, p.view = old.match, old.seq, old.view
            p.until(lambda f: f["type"] == "table")
            assert p.seq >= seen and p.view is not None
        drive([a2, b2], stop_at=None)
        killed = httpx.get(f"{base}/api/matches/{a2.match}/record").json()
    finally:
        sockets.close()
        proc.kill()
        proc.wait(10)
    # the same seeds on a server that never stopped
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'calm.db'}"))) as c:
        t = c.post("/api/tables", json=TABLE).json()
        bo2 = c.post(f"/api/tables/{t['table_id']}/join",
                     json={"invite": t["invite"], "name": "Bo"}).json()
        with c.websocket_connect(f"/ws/tables/{t['table_id']}") as w1, \
                c.websocket_connect(f"/ws/tables/{t['table_id']}") as w2:
            x, y = Player(w1, token=t["token"]), Player(w2, token=bo2["token"])
            drive([x, y], stop_at=None)
        calm = c.get(f"/api/matches/{x.match}/record").json()
    assert killed["format"] == "meio-record/1" and game_of(killed) == game_of(calm)
