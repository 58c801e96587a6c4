"""The pieces that let several servers share a database: leases, migrations under
a lock, idle-table eviction, metrics, readiness and JSON logs."""

from __future__ import annotations

import io
import json
import logging
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from meio.web import create_app
from meio.web.db import migrate, open_engine
from meio.web.lease import Leases, LeaseStore
from meio.web.logs import JsonFormatter, configure, context
from tests.web.conftest import _new_pg_database, create, make_settings
from tests.web.helpers import Player, play_out

pytestmark = pytest.mark.timeout(60)


def test_a_lease_has_one_holder_until_it_runs_out(sqlite_url: str) -> None:
    engine = open_engine(sqlite_url)
    migrate(engine)
    a, b = LeaseStore(engine, "a", 5.0), LeaseStore(engine, "b", 5.0)
    assert a.acquire("t1", now=100.0).holder == "a"
    taken = b.acquire("t1", now=101.0)
    assert taken.holder == "a" and taken.expires_at == 105.0  # b learns when to ask again
    assert a.acquire("t1", now=102.0).holder == "a"  # the holder keeps it (renewed)
    # a dies: after the expiry b takes over, and a's renewal says it lost the table
    assert b.acquire("t1", now=107.5).holder == "b"
    assert a.renew(["t1"], now=108.0)[0] == set()
    assert b.renew(["t1"], now=108.0) == ({"t1"}, 113.0)
    assert a.expired(now=112.0) == [] and a.expired(now=114.0) == ["t1"]
    a.release(["t1"])  # only the holder's release counts
    assert a.read("t1") is not None and a.read("t1").holder == "b"  # type: ignore[union-attr]
    b.release(["t1"])
    assert a.read("t1") is None and a.acquire("t1", now=120.0).holder == "a"
    engine.dispose()


def test_a_holder_stops_trusting_its_lease_before_it_expires() -> None:
    leases = Leases(LeaseStore(None, "me", 5.0))  # type: ignore[arg-type]
    from meio.web.lease import LeaseState

    assert leases.record(LeaseState("t", "me", 100.0))
    assert leases.holds("t", now=99.0) and not leases.holds("t", now=99.6)
    assert not leases.record(LeaseState("u", "other", 100.0))
    assert not leases.worth_trying("u", now=99.0) and leases.worth_trying("u", now=100.0)
    assert leases.renewed(["t"], set(), 110.0) == ["t"] and not leases.holds("t", now=50.0)


@pytest.mark.postgres
def test_replicas_migrating_at_once_do_not_collide(postgres_server: str) -> None:
    url = _new_pg_database(postgres_server)
    engines = [open_engine(url) for _ in range(4)]
    errors: list[BaseException] = []
    start = threading.Barrier(len(engines))

    def run(engine: object) -> None:
        try:
            start.wait()
            migrate(engine)  # type: ignore[arg-type]
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert "meio_leases" in inspect(engines[0]).get_table_names()
    for e in engines:
        e.dispose()


def test_idle_finished_tables_are_evicted_and_come_back(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'e.db'}", evict_after_s=0.2,
                             lease_ttl_s=0.6)
    with TestClient(create_app(settings)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        table = create(c, players=2, name="Ana", seed=5,
                       seats=[{"kind": "human"}, {"kind": "bot"}])
        tid = table["table_id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ana = Player(ws, token=table["token"])
            play_out([ana])
        deadline = time.time() + 10
        while tid in hub.tables and time.time() < deadline:
            time.sleep(0.05)
        assert tid not in hub.tables, "a finished table nobody watches stayed in memory"
        assert hub.group.leases.held == {}
        # asked for again, it is read back from the database as it was
        r = c.get(f"/api/tables/{tid}")
        assert r.status_code == 200 and tid in hub.tables
        assert c.get(f"/api/matches/{ana.match}/record").status_code == 200
        metrics = c.get("/metrics").text
        evicted = re.search(r"^meio_tables_evicted_total ([0-9.]+)$", metrics, re.M)
        assert evicted is not None and float(evicted.group(1)) >= 1.0, metrics


def test_readiness_and_metrics(client: TestClient) -> None:
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["status"] == "ok"
    assert client.get("/healthz").json() == {"status": "ok"}
    table = create(client, players=2, name="Ana", seats=[{"kind": "human"}, {"kind": "bot"}])
    before = _metric(client, 'meio_actions_total{result="accepted",source="human"}')
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ana = Player(ws, token=table["token"])
        ana.until(lambda f: f["type"] == "snapshot")
        assert ana.seen["phase"] == "split" and ana.my_turn()
        assert ana.split("pack:" + ",".join(ana.seen["hand"][:6]))["type"] == "ack"
        assert ana.act("pack:" + ",".join(ana.seen["hand"][:6]))["type"] == "reject"
    text = client.get("/metrics").text
    assert _metric(client, 'meio_actions_total{result="accepted",source="human"}') == before + 1
    for name in ("meio_connections", "meio_action_broadcast_seconds_bucket",
                 "meio_db_commit_seconds_count", "meio_bot_think_seconds_count",
                 "meio_leases_held"):
        assert name in text, name
    client.app.state.hub.group.draining = True  # type: ignore[attr-defined]
    assert client.get("/readyz").status_code == 503
    client.app.state.hub.group.draining = False  # type: ignore[attr-defined]


def _metric(client: TestClient, name: str) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def test_json_logs_carry_the_table_and_match() -> None:
    record = logging.LogRecord("meio.web", logging.WARNING, __file__, 1, "lost %s", ("it",),
                               None)
    with context("T1", "M1"):
        line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "lost it" and line["table"] == "T1" and line["match"] == "M1"
    assert line["level"] == "warning" and line["time"].endswith("Z")
    stream = io.StringIO()
    configure("json")
    logger = logging.getLogger("meio.web.test")
    handler = logging.getLogger("meio").handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(stream)
    logger.info("took", extra={"table": "T2", "seat": 1})
    out = json.loads(stream.getvalue())
    assert out["table"] == "T2" and out["seat"] == 1
    with pytest.raises(ValueError, match="log format"):
        configure("yaml")
    configure("text", "WARNING")


def test_a_closed_socket_leaves_no_cycle_that_keeps_its_table(server: tuple[str, Any]) -> None:
    """A client that goes away (the server's last frames, or its close, fail) leaves
    no reference cycle through the socket's handler: before, the writer's exception
    took the handler's frame into its traceback, and that frame held the table, so
    a finished and evicted table (~150 KB) lived on until a full collection."""
    import gc

    import httpx
    from websockets.sync.client import connect

    base, app = server
    table = httpx.post(f"{base}/api/tables", json={
        "players": 2, "name": "Ana", "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }).json()
    hub = app.state.hub
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            with connect(f"{base.replace('http', 'ws', 1)}/ws/tables/{table['table_id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            rt = hub.tables[table["table_id"]].table
            deadline = time.monotonic() + 30
            while rt.connected() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not rt.connected()
        # every handler has returned (after its writer's close): a finished coroutine
        # has no frame
        def handlers_running() -> int:
            return sum(1 for o in gc.get_objects() if type(o).__name__ == "coroutine"
                       and o.__name__ == "table_socket" and o.cr_frame is not None)

        deadline = time.monotonic() + 30
        while handlers_running() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert handlers_running() == 0
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        handlers = [o for o in gc.garbage if type(o).__name__ == "frame"
                    and o.f_code.co_name == "table_socket"]
        assert handlers == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_meio_serve_tunes_the_collector_once_started(tmp_path: Path) -> None:
    """``meio serve``'s server freezes what start-up loaded and raises the young
    generation's threshold (docs/benchmarks.md: the collector's full passes made
    the slowest moves under load)."""
    import gc

    import uvicorn

    from meio.cli.serve import draining_server
    from tests.web.conftest import free_port

    before = gc.get_threshold()
    app = create_app(make_settings(f"sqlite:///{tmp_path / 's.db'}"))
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    srv = draining_server(config, app, 0.0)
    thread = threading.Thread(target=srv.run, daemon=True)
    try:
        assert gc.get_threshold()[0] != 50_000
        thread.start()
        deadline = time.monotonic() + 30
        # tuned right after uvicorn's start-up, which sets ``started`` itself
        while gc.get_threshold()[0] != 50_000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert srv.started
        assert gc.get_threshold() == (50_000, 20, 20)
        assert gc.get_freeze_count() > 10_000  # the modules and the bot table, at least
    finally:
        srv.should_exit = True
        thread.join(15)
        gc.unfreeze()
        gc.set_threshold(*before)
