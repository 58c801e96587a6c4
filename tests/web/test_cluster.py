"""Two `meio serve` processes on one PostgreSQL: live fan-out between them, a
takeover of a table's bots when the process running them is killed, and that
process's seats shown offline once it stops being heard from."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.web.conftest import _new_pg_database, free_port
from tests.web.helpers import Player, game_of, next_id
from tests.web.servers import caddy_or_skip
from tests.web.test_restart import TABLE, SyncWS, drive
from tests.web.test_restart import calm_record as calm

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]


class Server:
    """One `meio serve` process of the group."""

    def __init__(self, url: str, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        env = {**os.environ, "MEIO_ALLOW_SEEDS": "1", "MEIO_BOT_DELAY": "0.02",
               "MEIO_LEASE_TTL": "1.5", "MEIO_WARM_CORE": "0", "MEIO_LOG_FORMAT": "json"}
        env.pop("DATABASE_URL", None)
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from meio.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--db", url],
            env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
        )

    def wait_ready(self) -> None:
        for _ in range(600):
            if self.proc.poll() is not None:
                break
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def two_servers(postgres_server: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two processes started at the same moment on one fresh database: they must not
    collide on the migrations."""
    url = _new_pg_database(postgres_server)
    servers = (Server(url, tmp_path / "a.log"), Server(url, tmp_path / "b.log"))
    try:
        for s in servers:
            s.wait_ready()
        yield servers
    finally:
        for s in servers:
            s.stop()


@pytest.fixture(scope="module")
def calm_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of TABLE's match on one server that never stopped (SQLite)."""
    return calm(TABLE, tmp_path_factory.mktemp("calm") / "calm.db")


def _seated(a: Server, b: Server) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ana creates TABLE on ``a``; Bo joins it through ``b``."""
    table = httpx.post(f"{a.base}/api/tables", json=TABLE).json()
    bo = httpx.post(f"{b.base}/api/tables/{table['table_id']}/join",
                    json={"invite": table["invite"], "name": "Bo"}).json()
    assert "token" in bo, bo
    return table, bo


@contextlib.contextmanager
def _playing(a: Server, b: Server) -> Iterator[tuple[Player, Player]]:
    """Ana (on ``a``) and Bo (on ``b``) seated at a new table and connected."""
    table, bo = _seated(a, b)
    path = f"/ws/tables/{table['table_id']}"
    with connect(a.ws + path, open_timeout=10) as wa, connect(b.ws + path, open_timeout=10) as wb:
        yield Player(SyncWS(wa), token=table["token"]), Player(SyncWS(wb), token=bo["token"])


def test_players_on_two_processes_play_a_whole_match_live(
    two_servers: tuple[Server, Server], calm_record: dict[str, Any]
) -> None:
    a, b = two_servers
    with _playing(a, b) as (ana, bob):
        # each process shows the seat connected to the other one as online
        ana.until(lambda f: f["type"] == "table"
                  and [s["online"] for s in f["table"]["seats"]] == [True] * 4)
        drive([ana, bob], stop_at=None)
        for p in (ana, bob):
            # every action reached both, live and in order: one event per sequence number
            seqs = [f["seq"] for f in p.frames if f["type"] == "event"]
            assert seqs == list(range(seqs[0], p.seq + 1)), seqs
            # and none had to be resent as a snapshot once play began (before the first
            # event a process may still learn of the match's start from the bus and
            # send its clients the new match: that is not a resync)
            first = next(i for i, f in enumerate(p.frames) if f["type"] == "event")
            assert [f for f in p.frames[first:] if f["type"] == "snapshot"] == []
        assert ana.seq == bob.seq and ana.seen["is_over"]
        # a rematch needs both people, each asking on its own process
        finished = ana.match
        ana.ws.send_json({"type": "rematch", "id": "r1"})
        assert ana.until(lambda f: f.get("id") == "r1")["waiting"] == [1]
        asked = bob.until(lambda f: f["type"] == "rematch")  # heard over the bus
        assert asked["asked"] == [0] and asked["match"] == finished
        bob.ws.send_json({"type": "rematch", "id": "r2"})
        started = bob.until(lambda f: f.get("id") == "r2")
        assert started["type"] == "ack" and started["match"] != finished
        ana.until(lambda f: f["type"] == "snapshot" and f["match"] == started["match"])
    for s in (a, b):
        record = httpx.get(f"{s.base}/api/matches/{finished}/record").json()
        assert game_of(record) == game_of(calm_record)
    text = httpx.get(f"{a.base}/metrics").text
    assert 'meio_actions_total{result="accepted",source="human"}' in text
    assert 'meio_bus_messages_total{direction="in"}' in text


def test_chat_reaches_the_pages_of_the_other_process_live(
    two_servers: tuple[Server, Server]
) -> None:
    a, b = two_servers
    with _playing(a, b) as (ana, bob):
        for p in (ana, bob):
            # the chat opens with the match: wait until each process knows it has begun
            # (Bo's seat started it on b; a may hear of it over the bus a little later)
            p.until(lambda f: f["type"] in ("snapshot", "event") and f["view"] is not None)
        for sender, reader, kind, text in ((ana, bob, "chat", "good luck from process a"),
                                           (bob, ana, "react", "gg")):
            mid = next_id()
            sender.ws.send_json({"type": kind, "id": mid, "text": text})
            assert sender.until(lambda f, m=mid: f.get("id") == m)["type"] == "ack"
            # the page on the other process is told at once, not on its next reconnect
            got = reader.until(lambda f: f["type"] == "chat")
            assert (got["text"], got["seat"]) == (text, 0 if sender is ana else 1)
            assert got["name"] == ("Ana" if sender is ana else "Bo")
            assert got["kind"] == ("text" if kind == "chat" else "react")
    # each message reached the other page once
    assert sum(f["type"] == "chat" for f in ana.frames) == 2
    assert sum(f["type"] == "chat" for f in bob.frames) == 2


def _holder_pid(url: str, table_id: str) -> int:
    import psycopg

    with psycopg.connect(url.replace("+psycopg", "")) as conn:
        row = conn.execute("SELECT holder FROM meio_leases WHERE table_id = %s",
                           (table_id,)).fetchone()
    assert row is not None, "nobody holds the table's lease"
    return int(str(row[0]).split(":")[1])


def test_killing_the_bot_process_mid_round_hands_the_bots_over(
    two_servers: tuple[Server, Server], calm_record: dict[str, Any], postgres_server: str
) -> None:
    a, b = two_servers
    table, bo = _seated(a, b)
    path = f"/ws/tables/{table['table_id']}"
    sockets = contextlib.ExitStack()

    def opened(server: Server) -> SyncWS:
        return SyncWS(sockets.enter_context(connect(server.ws + path, open_timeout=10,
                                                    close_timeout=1)))

    try:
        ana = Player(opened(a), token=table["token"])
        bob = Player(opened(b), token=bo["token"])
        drive([ana, bob], stop_at=16)  # the split and a few tricks of round 1
        url = _db_url_of(a)
        pid = _holder_pid(url, table["table_id"])
        doomed, survivor = (a, b) if pid == a.proc.pid else (b, a)
        assert pid == doomed.proc.pid
        doomed.proc.send_signal(signal.SIGKILL)
        doomed.proc.wait(10)
        # the player who was on the dead process reconnects to the survivor with `since`
        lost, kept = (ana, bob) if doomed is a else (bob, ana)
        token = table["token"] if lost is ana else bo["token"]
        back = Player(opened(survivor), token=token,
                      since={"match": lost.match, "seq": lost.seq})
        back.match, back.seq, back.view = lost.match, lost.seq, lost.view
        back.until(lambda f: f["type"] == "table")
        drive([back, kept], stop_at=None)
        record = httpx.get(f"{survivor.base}/api/matches/{kept.match}/record").json()
    finally:
        sockets.close()
    assert game_of(record) == game_of(calm_record)
    assert "took the table's lease" in survivor.log.read_text()


def _db_url_of(server: Server) -> str:
    args = server.proc.args
    assert isinstance(args, list)
    return str(args[args.index("--db") + 1])


def _peers_heard(server: Server) -> float:
    found = re.search(r"^meio_bus_peers ([0-9.]+)$", httpx.get(f"{server.base}/metrics").text,
                      re.M)
    assert found is not None, "no meio_bus_peers metric"
    return float(found.group(1))


def _until_within(player: Player, pred: Callable[[dict[str, Any]], bool],
                  seconds: float) -> dict[str, Any]:
    """The first frame ``player`` receives that passes ``pred``, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = player.recv()
        if pred(frame):
            return frame
    raise AssertionError(f"the expected frame did not come within {seconds} s")


def test_seats_are_shown_across_processes_and_offline_once_their_process_is_killed(
    two_servers: tuple[Server, Server]
) -> None:
    a, b = two_servers
    table = httpx.post(f"{a.base}/api/tables", json=TABLE).json()
    path = f"/ws/tables/{table['table_id']}"
    sockets = contextlib.ExitStack()

    def opened(server: Server) -> SyncWS:
        return SyncWS(sockets.enter_context(connect(server.ws + path, open_timeout=10,
                                                    close_timeout=1)))

    def ana_online(frame: dict[str, Any]) -> bool:
        return bool(frame["table"]["seats"][0]["online"])

    def bo_online(frame: dict[str, Any]) -> bool:
        return bool(frame["table"]["seats"][1]["online"])

    try:
        ana = Player(opened(a), token=table["token"])
        # Ana sits at a before b has ever loaded the table: b, loading it when Bo
        # joins, asks who sits there elsewhere and shows Ana online
        bo = httpx.post(f"{b.base}/api/tables/{table['table_id']}/join",
                        json={"invite": table["invite"], "name": "Bo"}).json()
        bob = Player(opened(b), token=bo["token"])
        if not ana_online(bob.welcome):
            _until_within(bob, lambda f: f["type"] == "table" and ana_online(f), 30)
        # Bo's seat, connected to b, is shown online to Ana on a
        _until_within(ana, lambda f: f["type"] == "table" and bo_online(f), 30)
        deadline = time.monotonic() + 30
        while _peers_heard(a) != 1.0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _peers_heard(a) == 1.0
        # b dies without a word; a stops hearing its heartbeats and shows Bo offline
        b.proc.send_signal(signal.SIGKILL)
        b.proc.wait(10)
        _until_within(ana, lambda f: f["type"] == "table" and not bo_online(f), 30)
        deadline = time.monotonic() + 30
        while _peers_heard(a) != 0.0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _peers_heard(a) == 0.0
        # and stays so: a page that opens now sees Bo offline too
        again = Player(opened(a), token=table["token"])
        assert not bo_online(again.welcome)
    finally:
        sockets.close()
    assert "its seats are shown offline" in a.log.read_text()


def _metric(server: Server, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+]+)$",
                      httpx.get(f"{server.base}/metrics").text, re.M)
    return 0.0 if found is None else float(found.group(1))


def _events_out(server: Server) -> float:
    return _metric(server, 'meio_bus_events_total{direction="out"}')


def _events_in(server: Server) -> float:
    return _metric(server, 'meio_bus_events_total{direction="in"}')


def _within(pred: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.1)


def test_a_table_whose_people_move_to_another_process_moves_there_bots_and_all(
    two_servers: tuple[Server, Server], calm_record: dict[str, Any]
) -> None:
    """As after a change of replicas: both people are on ``a``, then reconnect to
    ``b``. ``a`` hands the table's lease (its bots) to ``b`` and drops its copy, and
    from then on the table's moves stay in ``b``, off the bus; nothing is lost or
    played twice."""
    a, b = two_servers
    table = httpx.post(f"{a.base}/api/tables", json=TABLE).json()
    tid = table["table_id"]
    bo = httpx.post(f"{a.base}/api/tables/{tid}/join",
                    json={"invite": table["invite"], "name": "Bo"}).json()
    path = f"/ws/tables/{tid}"
    first, second = contextlib.ExitStack(), contextlib.ExitStack()

    def opened(server: Server, stack: contextlib.ExitStack) -> SyncWS:
        return SyncWS(stack.enter_context(connect(server.ws + path, open_timeout=10,
                                                  close_timeout=1)))

    try:
        ana = Player(opened(a, first), token=table["token"])
        bob = Player(opened(a, first), token=bo["token"])
        drive([ana, bob], stop_at=16)
        assert _holder_pid(_db_url_of(a), tid) == a.proc.pid
        first.close()
        moved = []
        for p, token in ((ana, table["token"]), (bob, bo["token"])):
            back = Player(opened(b, second), token=token, since={"match": p.match, "seq": p.seq})
            back.match, back.seq, back.view = p.match, p.seq, p.view
            moved.append(back)
        _within(lambda: "handed the table's lease" in a.log.read_text(), 30,
                "a did not hand the lease over")
        _within(lambda: _metric(a, "meio_tables_loaded") == 0.0, 30,
                "a kept its copy of the table")
        before = _events_out(b)
        drive(moved, stop_at=None)
        record = httpx.get(f"{b.base}/api/matches/{moved[0].match}/record").json()
        # every move after the table settled in b stayed in b
        assert _events_out(b) == before
        assert moved[0].seen["is_over"] and moved[0].seq == moved[1].seq
    finally:
        first.close()
        second.close()
    assert game_of(record) == game_of(calm_record)
    assert "took the table's lease" in b.log.read_text()


CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"


@contextlib.contextmanager
def _proxy(tmp: Path, servers: tuple[Server, ...]) -> Iterator[str]:
    """Caddy on loopback with deploy/Caddyfile's routing, the servers as its replicas
    (fixed addresses in place of the compose service's DNS name); yields its base URL."""
    binary = caddy_or_skip()
    port = free_port()
    upstreams = " ".join(f"127.0.0.1:{s.port}" for s in servers)
    text = re.sub(r"\tdynamic a \{.*?\n\t\}\n", f"\tto {upstreams}\n", CADDYFILE.read_text(),
                  flags=re.S)
    assert f"to {upstreams}" in text and "lb_policy header X-Meio-Table" in text
    conf = tmp / "Caddyfile"
    conf.write_text("{\n\tadmin off\n\tauto_https off\n"
                    f"\tstorage file_system {{\n\t\troot {tmp / 'caddy-data'}\n\t}}\n}}\n"
                    + text)
    env = {**os.environ, "MEIO_SITE": f":{port}", "HOME": str(tmp),
           "XDG_CONFIG_HOME": str(tmp / "cfg"), "XDG_DATA_HOME": str(tmp / "data")}
    log = (tmp / "caddy.log").open("wb")
    proc = subprocess.Popen([binary, "run", "--config", str(conf), "--adapter", "caddyfile"],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _within(lambda: proc.poll() is not None or _answers(base), 60, "Caddy did not start")
        assert proc.poll() is None, (tmp / "caddy.log").read_text()
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_behind_the_proxy_a_tables_sockets_meet_in_one_process_and_move_when_it_dies(
    two_servers: tuple[Server, Server], calm_record: dict[str, Any], tmp_path: Path
) -> None:
    a, b = two_servers
    with _proxy(tmp_path, (a, b)) as base:
        table = httpx.post(f"{base}/api/tables", json=TABLE).json()
        tid = table["table_id"]
        bo = httpx.post(f"{base}/api/tables/{tid}/join",
                        json={"invite": table["invite"], "name": "Bo"}).json()
        assert "token" in bo, bo
        url = base.replace("http", "ws", 1) + f"/ws/tables/{tid}"
        sockets = contextlib.ExitStack()

        def opened() -> SyncWS:
            return SyncWS(sockets.enter_context(connect(url, open_timeout=30,
                                                        close_timeout=1)))

        try:
            ana = Player(opened(), token=table["token"])
            bob = Player(opened(), token=bo["token"])
            spectator = Player(opened(), spectate=table["spectate"])
            # every socket of the table landed on one process (the one Caddy's hash of
            # the table id picks: which one depends on Caddy's version)
            counts = {s: _metric(s, "meio_connections") for s in (a, b)}
            assert sorted(counts.values()) == [0.0, 3.0], counts
            owner = a if counts[a] == 3.0 else b
            other = b if owner is a else a
            drive([ana, bob], stop_at=4)
            # once the table has settled (a copy made where it was created is dropped,
            # its bots' lease handed to where its people are), the other process holds
            # nothing of it, and its page and API are served where its sockets are (the
            # API would load it into the process that served it)
            _within(lambda: _metric(other, "meio_tables_loaded") == 0.0, 30,
                    "the other process kept a copy of the table")
            assert httpx.get(f"{base}/t/{tid}").status_code == 200
            assert httpx.get(f"{base}/api/tables/{tid}",
                             params={"key": table["invite"]}).status_code == 200
            assert _metric(other, "meio_tables_loaded") == 0.0
            # and its moves never cross the bus
            heard = _events_in(other)
            drive([ana, bob], stop_at=24)
            assert _events_in(other) == heard
            assert spectator.recv()["type"] in ("event", "table", "snapshot", "chat")
            # the process dies mid-round: the people reconnect through the proxy with
            # `since`, land on the other process, and the match carries on there
            owner.proc.send_signal(signal.SIGKILL)
            owner.proc.wait(10)
            sockets.close()
            moved = []
            for p, token in ((ana, table["token"]), (bob, bo["token"])):
                back = Player(opened(), token=token, since={"match": p.match, "seq": p.seq})
                back.match, back.seq, back.view = p.match, p.seq, p.view
                moved.append(back)
            assert _metric(other, "meio_connections") == 2.0
            drive(moved, stop_at=None)
            record = httpx.get(f"{base}/api/matches/{moved[0].match}/record").json()
        finally:
            sockets.close()
    assert game_of(record) == game_of(calm_record)
    assert "took the table's lease" in other.log.read_text()
