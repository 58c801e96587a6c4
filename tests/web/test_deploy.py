"""The one-command deployment: Dockerfile, compose.yaml and the Caddyfile.

Where a Docker engine with the compose plugin runs, the image is built and the
whole stack started and played against. Where none does (as on the project's CI
machine), the compose file is checked against a schema of the parts it uses, and
the image's entry point is run as the image would run it, without Docker.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import yaml

from tests.web.conftest import free_port
from tests.web.helpers import Player, game_of

ROOT = Path(__file__).resolve().parents[2]


def quiet_port() -> int:
    """A free port below the kernel's ephemeral range: Docker binds the stack's ports a
    minute after they are chosen, and a port the kernel hands out (what ``free_port``
    gives) can meanwhile be taken as the local end of some other test's connection."""
    import random
    import socket

    low = 20_000
    with contextlib.suppress(OSError, ValueError):
        low = min(low, int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0]))
    for _ in range(200):
        port = random.randrange(low - 10_000, low)
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    return free_port()


_SERVICE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "image": {"type": "string"},
        "build": {"type": ["string", "object"]},
        "restart": {"enum": ["no", "always", "on-failure", "unless-stopped"]},
        "environment": {"type": "object",
                        "additionalProperties": {"type": ["string", "number", "boolean"]}},
        "volumes": {"type": "array", "items": {"type": "string"}},
        "ports": {"type": "array", "items": {"type": "string",
                                             "pattern": r"^[^:]+:\d+(/tcp|/udp)?$"}},
        "expose": {"type": "array", "items": {"type": "string", "pattern": r"^\d+$"}},
        "depends_on": {
            "type": "object",
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["condition"],
                "properties": {"condition": {"enum": ["service_started", "service_healthy",
                                                      "service_completed_successfully"]}},
            },
        },
        "healthcheck": {
            "type": "object", "additionalProperties": False, "required": ["test"],
            "properties": {
                "test": {"type": ["array", "string"]},
                "interval": {"type": "string", "pattern": r"^\d+(ms|s|m)$"},
                "timeout": {"type": "string", "pattern": r"^\d+(ms|s|m)$"},
                "retries": {"type": "integer", "minimum": 1},
                "start_period": {"type": "string"},
            },
        },
        "deploy": {"type": "object", "properties": {"replicas": {"type": ["integer", "string"]}}},
        "stop_grace_period": {"type": "string", "pattern": r"^\d+(s|m)$"},
        "networks": {"type": ["array", "object"]},
    },
    "anyOf": [{"required": ["image"]}, {"required": ["build"]}],
}

#: the part of the Compose specification that compose.yaml uses
COMPOSE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["services"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$"},
        "services": {"type": "object", "additionalProperties": _SERVICE, "minProperties": 1},
        "volumes": {"type": "object", "additionalProperties": {"type": ["object", "null"]}},
        "networks": {"type": "object", "additionalProperties": {"type": ["object", "null"]}},
    },
}


def _interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` substitution."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}",
                  lambda m: env.get(m.group(1)) or (m.group(2) or ""), text)


def compose(env: dict[str, str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(_interpolate((ROOT / "compose.yaml").read_text(),
                                                       env or {}))
    return data


def dockerfile() -> tuple[dict[str, str], list[str], str]:
    """The runtime stage's ENV, ENTRYPOINT and USER."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    stage = text.rsplit("\nFROM ", 1)[1]
    env: dict[str, str] = {}
    entry: list[str] = []
    user = "root"
    for line in stage.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                env[key] = value
        elif word == "ENTRYPOINT":
            entry = json.loads(rest)
        elif word == "USER":
            user = rest.strip()
    return env, entry, user


def test_compose_file_matches_the_schema_and_holds_together() -> None:
    data = compose()
    jsonschema.validate(data, COMPOSE_SCHEMA)
    services = data["services"]
    for name, svc in services.items():
        for dep in svc.get("depends_on", {}):
            assert dep in services, f"{name} depends on unknown service {dep}"
        for vol in svc.get("volumes", []):
            source = vol.split(":")[0]
            if source.startswith("."):
                assert (ROOT / source).exists(), f"{name} mounts missing {source}"
            else:
                assert source in data["volumes"], f"{name} uses undeclared volume {source}"
    assert {"db", "meio", "proxy"} <= set(services)
    assert int(services["meio"]["deploy"]["replicas"]) >= 2
    assert services["meio"]["depends_on"]["db"]["condition"] == "service_healthy"
    url = services["meio"]["environment"]["DATABASE_URL"]
    assert url.startswith("postgresql://") and "@db:5432/" in url
    assert {p.split(":")[-1] for p in services["proxy"]["ports"]} == {"80", "443"}
    # the proxy sends to every replica of the meio service on its port
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    port = services["meio"]["expose"][0]
    assert re.search(rf"name meio\s+port {port}", caddy)
    assert "{$MEIO_SITE}" in caddy
    # by a hash of the table id taken from the table's paths (tests/web/test_cluster.py
    # runs this routing in a real Caddy)
    assert "lb_policy header X-Meio-Table" in caddy
    found = re.search(r"@table path_regexp table (\S+)", caddy)
    assert found is not None
    for path in ("/ws/tables/Ab_3-x", "/api/tables/Ab_3-x/join", "/t/Ab_3-x"):
        hit = re.match(found.group(1), path)
        assert hit is not None and hit.group(1) == "Ab_3-x", path
    assert re.match(found.group(1), "/api/lobby") is None
    # interpolation with a domain and more replicas
    scaled = compose({"MEIO_REPLICAS": "4", "MEIO_SITE": "play.example.org"})
    assert scaled["services"]["meio"]["deploy"]["replicas"] == 4
    assert scaled["services"]["proxy"]["environment"]["MEIO_SITE"] == "play.example.org"


def test_the_replicas_compare_origin_with_the_sites_address(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 44: the deployed stack compared a page's Origin with the request's Host
    (a DNS-rebinding page passed); a domain name in MEIO_SITE is now the replicas'
    public origin, MEIO_PUBLIC_ORIGIN overrides it, and ``:80`` names none."""
    from fastapi.testclient import TestClient

    from meio.web import create_app
    from meio.web.settings import Settings

    def replica_settings(env: dict[str, str]) -> Settings:
        for key, value in compose(env)["services"]["meio"]["environment"].items():
            if key.startswith("MEIO_"):
                monkeypatch.setenv(key, "" if value is None else str(value))
        return Settings.from_env(f"sqlite:///{tmp_path / 'meio.db'}")

    assert replica_settings({"MEIO_SITE": "play.example.org"}
                            ).public_origin == "https://play.example.org"
    assert replica_settings({"MEIO_SITE": "play.example.org", "MEIO_PUBLIC_ORIGIN":
                             "https://meio.example.org"}
                            ).public_origin == "https://meio.example.org"
    assert replica_settings({}).public_origin is None
    settings = replica_settings({"MEIO_SITE": "play.example.org"})
    with TestClient(create_app(settings)) as client:
        rebound = {"Origin": "http://rebind.example", "Host": "rebind.example"}
        r = client.post("/api/tables", json={"players": 2}, headers=rebound)
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
        r = client.post("/api/tables", json={"players": 2},
                        headers={"Origin": "https://play.example.org"})
        assert r.status_code == 201, r.text


def test_the_public_images_are_the_defaults_and_local_ones_only_by_variable() -> None:
    """`docker compose up` on a server pulls the public images; `make test` names its
    local stand-ins through variables, and they never take an official image's name."""
    services = compose()["services"]
    assert services["db"]["image"] == "postgres:17"
    assert services["proxy"]["image"] == "caddy:2"
    args = services["meio"]["build"]["args"]
    assert args["BASE_IMAGE"] == "python:3.11-slim"
    # nothing of a build machine's pip set-up is a default (empty: YAML's null here)
    assert all(args[k] in ("", None) for k in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
                                               "PIP_DEFAULT_TIMEOUT", "EXTRA_CA_CERTS"))
    text = (ROOT / "Dockerfile").read_text()
    assert "ARG BASE_IMAGE=python:3.11-slim" in text
    assert re.findall(r"^ARG (PIP_\w+|EXTRA_CA_CERTS)=(.*)$", text, re.M) == [
        (name, '""') for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
                                  "PIP_DEFAULT_TIMEOUT", "EXTRA_CA_CERTS")]
    local = compose({"MEIO_DB_IMAGE": "meio-local/postgres", "MEIO_PROXY_IMAGE":
                     "meio-local/caddy", "MEIO_BASE_IMAGE": "meio-local/python"})["services"]
    assert local["db"]["image"] == "meio-local/postgres"
    assert local["proxy"]["image"] == "meio-local/caddy"
    assert local["meio"]["build"]["args"]["BASE_IMAGE"] == "meio-local/python"
    # the script that builds the stand-ins tags them meio-local/..., nothing else
    script = (ROOT / "scripts" / "docker-stack.sh").read_text()
    tags = (re.findall(r'-t "([^"]+)"', script) + re.findall(r'local image="([^"]+)"', script)
            + re.findall(r"export MEIO_\w+_IMAGE=(\S+)", script))
    assert len(tags) >= 5 and all(tag.startswith("meio-local/") for tag in tags), tags


def test_dockerfile_runs_as_a_user_warms_the_core_and_checks_readiness() -> None:
    env, entry, user = dockerfile()
    text = (ROOT / "Dockerfile").read_text()
    assert user not in ("root", "0") and user
    assert "meio.warm" in text and env.get("NUMBA_CACHE_DIR")
    assert "HEALTHCHECK" in text and "/readyz" in text
    assert entry[:2] == ["meio", "serve"] and "0.0.0.0" in entry
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".git" in ignored and ".venv" in ignored


def test_the_image_entry_point_serves_and_drains_without_docker(tmp_path: Path) -> None:
    """Run the ENTRYPOINT with the image's ENV (and the compose environment), on a
    free port and an SQLite file: it serves, reports ready, then on SIGTERM says
    'draining' before it stops, and shuts down cleanly."""
    env, entry, _ = dockerfile()
    port = free_port()
    args = entry[2:]
    args[args.index("--port") + 1] = str(port)
    args[args.index("--host") + 1] = "127.0.0.1"
    run_env = {**os.environ, **{k: v for k, v in env.items() if k.startswith("MEIO_")},
               "DATABASE_URL": f"sqlite:///{tmp_path / 'meio.db'}", "MEIO_WARM_CORE": "0",
               "MEIO_DRAIN_S": "1.5"}
    log = tmp_path / "server.log"
    proc = subprocess.Popen([sys.executable, "-c", "from meio.cli import main; main()",
                             "serve", *args], env=run_env, stdout=subprocess.DEVNULL,
                            stderr=log.open("wb"))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        else:
            raise AssertionError(log.read_text())
        assert httpx.get(f"{base}/healthz").json() == {"status": "ok"}
        # monitors ask with HEAD: the pages and the health checks answer it, without a body
        for path in ("/", "/healthz", "/readyz", "/learn"):
            head = httpx.head(f"{base}{path}")
            assert head.status_code == 200 and head.content == b"", path
        assert httpx.head(f"{base}/").headers["content-type"].startswith("text/html")
        made = httpx.post(f"{base}/api/tables", json={"players": 2, "name": "Ana"})
        assert made.status_code == 201
        assert "meio_tables_loaded" in httpx.get(f"{base}/metrics").text
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        ready = httpx.get(f"{base}/readyz", timeout=2)
        assert ready.status_code == 503 and ready.json()["status"] == "draining"
        # uvicorn re-raises the signal once it has shut down gracefully
        assert proc.wait(15) in (0, -signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    # the logs are JSON lines (the image sets MEIO_LOG_FORMAT=json)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert lines and all({"time", "level", "message"} <= set(x) for x in lines)
    assert "Application shutdown complete." in [x["message"] for x in lines]


# -- the stack itself: built and run on a Docker engine ----------------------------------
# `make test` starts an engine with local base images (scripts/docker-stack.sh) and sets
# MEIO_REQUIRE_DOCKER=1, so that there these tests run or fail, never skip.

STACK_TABLE = {"players": 4, "name": "Ana", "seed": 77,
               "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}
#: the most the image may weigh: about 975 MB on the local Debian base (130 MB more than
#: python:3.11-slim), most of it llvmlite, pyarrow, numpy and matplotlib
IMAGE_MB_LIMIT = 1100


def _docker_compose() -> list[str] | None:
    docker = shutil.which("docker")
    if docker is None:
        return None
    try:
        if subprocess.run([docker, "info"], capture_output=True, timeout=20).returncode:
            return None
        if subprocess.run([docker, "compose", "version"], capture_output=True,
                          timeout=20).returncode:
            return None
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [docker, "compose"]


class Stack:
    """One compose project of compose.yaml, reached through its proxy on a free port."""

    def __init__(self, compose: list[str], project: str, port: int, env: dict[str, str],
                 logs: Path) -> None:
        self.docker = compose[0]
        self.project = project
        self.cmd = [*compose, "-p", project, "-f", str(ROOT / "compose.yaml")]
        self.env = env
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        self.image = env["MEIO_IMAGE"]
        self.logs = logs

    def compose(self, *args: str, timeout: float = 300,
                env: dict[str, str] | None = None) -> str:
        done = subprocess.run([*self.cmd, *args], env={**self.env, **(env or {})}, cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, f"docker compose {' '.join(args)}: {done.stderr[-3000:]}"
        return done.stdout

    def run_docker(self, *args: str, timeout: float = 60) -> str:
        done = subprocess.run([self.docker, *args], env=self.env, capture_output=True,
                              text=True, timeout=timeout)
        assert done.returncode == 0, f"docker {' '.join(args)}: {done.stderr[-2000:]}"
        return done.stdout.strip()

    def inspect(self, cid: str, template: str) -> str:
        return self.run_docker("inspect", "--format", template, cid)

    def replicas(self) -> list[str]:
        """The ids of the meio containers that run now."""
        return self.compose("ps", "-q", "meio").split()

    def sql(self, query: str) -> str:
        return self.compose("exec", "-T", "db", "psql", "-U", "meio", "-d", "meio", "-Atc",
                            query).strip()

    def holder(self, table_id: str) -> str:
        """Who holds the table's lease: ``host:pid:nonce`` of one server process."""
        holder = self.sql(f"SELECT holder FROM meio_leases WHERE table_id = '{table_id}'")
        assert holder, "nobody holds the table's lease"
        return holder

    def lease_holder(self, table_id: str) -> str:
        """The replica that holds the table's lease (its host name is its short id)."""
        holder = self.holder(table_id)
        host = holder.split(":")[0]
        found = [c for c in self.replicas() if c.startswith(host)]
        assert len(found) == 1, (holder, self.replicas())
        return found[0]

    def connections(self, cid: str) -> int:
        """meio_connections of one replica, read inside its container."""
        text = self.run_docker("exec", cid, "python", "-c",
                               "import urllib.request; print(urllib.request.urlopen("
                               "'http://127.0.0.1:8000/metrics', timeout=5).read().decode())")
        found = re.search(r"^meio_connections ([0-9.]+)$", text, re.M)
        assert found is not None, "no meio_connections metric"
        return int(float(found.group(1)))

    def crash(self, cid: str) -> None:
        """SIGKILL the replica's server process from the host, as a crash would (Docker
        did not stop it, so its restart policy applies)."""
        os.kill(int(self.inspect(cid, "{{.State.Pid}}")), signal.SIGKILL)

    def wait_replicas(self, count: int, seconds: float = 120) -> list[str]:
        """Wait until ``count`` replicas run and report healthy."""
        deadline = time.monotonic() + seconds
        while True:
            ids = self.replicas()
            healthy = [c for c in ids if self.inspect(c, "{{.State.Health.Status}}") == "healthy"]
            if len(ids) == count and len(healthy) == count:
                return ids
            assert time.monotonic() < deadline, f"replicas: {ids}, healthy: {healthy}"
            time.sleep(1)

    def record(self, match: str) -> dict[str, Any]:
        got: dict[str, Any] = httpx.get(f"{self.base}/api/matches/{match}/record",
                                        timeout=10).json()
        return got


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    cmd = _docker_compose()
    if cmd is None:
        reason = ("no Docker engine with the compose plugin here: the image build and the "
                  "stack are not tested (the compose schema and the entry point are)")
        if os.environ.get("MEIO_REQUIRE_DOCKER") == "1":
            pytest.fail(f"MEIO_REQUIRE_DOCKER=1 but {reason}")
        pytest.skip(reason)
    port, https = quiet_port(), quiet_port()
    env = {**os.environ, "MEIO_HTTP_PORT": str(port), "MEIO_HTTPS_PORT": str(https),
           "MEIO_BOT_DELAY": "0.05", "MEIO_ALLOW_SEEDS": "1", "MEIO_LEASE_TTL": "2",
           "MEIO_IMAGE": os.environ.get("MEIO_TEST_IMAGE", "meio-local/meio:test"),
           "POSTGRES_PASSWORD": uuid.uuid4().hex}
    for name in ("MEIO_REVISION", "MEIO_SITE", "MEIO_REPLICAS"):
        env.pop(name, None)
    project = f"meio-test-{os.getpid()}"
    # the containers' logs, kept after the run (pytest's own folders are pruned)
    logs = Path(tempfile.gettempdir()) / f"{project}.log"
    s = Stack(cmd, project, port, env, logs)
    s.compose("config", "--quiet")
    try:
        began = time.monotonic()
        s.compose("up", "-d", "--build", "--wait", timeout=1500)
        print(f"stack built and up in {time.monotonic() - began:.0f} s")
        yield s
    finally:
        with contextlib.suppress(Exception):
            logs.write_text(s.compose("logs", "--no-color", "--timestamps", timeout=60))
            print(f"the stack's logs: {logs}")
        subprocess.run([*s.cmd, "down", "-v", "--remove-orphans", "-t", "5"], env=env,
                       cwd=ROOT, capture_output=True, timeout=300)


class Seat:
    """A person at a table through the proxy, who reconnects with ``since`` (to whichever
    replica the proxy picks) whenever the socket closes under them."""

    def __init__(self, stack: Stack, table_id: str, token: str,
                 sockets: contextlib.ExitStack) -> None:
        self.url = f"{stack.ws}/ws/tables/{table_id}"
        self.token = token
        self.sockets = sockets
        self.reconnects = 0
        self.player = self._open(None)

    def _open(self, old: Player | None) -> Player:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        from tests.web.test_restart import SyncWS

        since = None if old is None or old.match is None else {"match": old.match,
                                                                "seq": old.seq}
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = self.sockets.enter_context(connect(self.url, open_timeout=5,
                                                          close_timeout=1))
                player = Player(SyncWS(conn), token=self.token, since=since)
            except (OSError, TimeoutError, WebSocketException):
                assert time.monotonic() < deadline, "could not reconnect within 60 s"
                time.sleep(0.5)
                continue
            assert player.welcome["type"] != "error", player.welcome
            if old is not None and player.match is None:
                # nothing was missed: the first frame was the table's
                player.match, player.seq, player.view = old.match, old.seq, old.view
            return player

    def reconnect(self) -> None:
        self.reconnects += 1
        self.player = self._open(self.player)


def _seated(stack: Stack, sockets: contextlib.ExitStack) -> tuple[str, Seat, Seat]:
    """STACK_TABLE made and joined through the proxy; both people connected."""
    table = httpx.post(f"{stack.base}/api/tables", json=STACK_TABLE, timeout=10).json()
    bo = httpx.post(f"{stack.base}/api/tables/{table['table_id']}/join",
                    json={"invite": table["invite"], "name": "Bo"}, timeout=10).json()
    assert "token" in bo, bo
    return (table["table_id"], Seat(stack, table["table_id"], table["token"], sockets),
            Seat(stack, table["table_id"], bo["token"], sockets))


def _act(player: Player, action: str) -> dict[str, Any]:
    """Send an action; its answer (ack or reject), or the error frame of a server that
    could not handle it (its database away)."""
    from tests.web.helpers import next_id

    mid = next_id()
    player.ws.send_json({"type": "act", "id": mid, "seq": player.seq, "action": action})
    return player.until(lambda f: f["type"] == "error"
                        or (f["type"] in ("ack", "reject") and f.get("id") == mid))


def _play(seats: list[Seat], stop_at: int | None = None, seconds: float = 300,
          failed: list[dict[str, Any]] | None = None) -> None:
    """The people act until the match ends (or ``stop_at`` actions are stored); a seat
    whose socket closes reconnects and goes on. An action the server could not handle
    (an ``internal`` error: the database was away) is tried again when ``failed`` is
    given, and noted there; otherwise it fails the test."""
    from websockets.exceptions import ConnectionClosed

    from tests.web.helpers import choose

    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        players = [s.player for s in seats]
        if all(p.view is not None and p.view["is_over"] for p in players):
            return
        if stop_at is not None and max(p.seq for p in players) >= stop_at:
            return
        mover = next((s for s in seats if s.player.my_turn()), None)
        seat = mover or min(seats, key=lambda s: s.player.seq)
        try:
            if mover is None:
                seat.player.until(lambda f: f["type"] in ("event", "snapshot"))
                continue
            action = choose(seat.player.seen)
            assert action is not None
            answer = _act(seat.player, action)
        except ConnectionClosed:
            seat.reconnect()
            continue
        if answer["type"] == "error":
            assert failed is not None and answer["code"] == "internal", answer
            failed.append(answer)
            time.sleep(0.5)
            continue
        assert answer["type"] == "ack" or answer["code"] == "stale", answer


def _finish(stack: Stack, seats: list[Seat], calm: dict[str, Any],
            failed: list[dict[str, Any]] | None = None) -> None:
    """Play to the end; the record is the one of a match that nothing disturbed."""
    _play(seats, failed=failed)
    match = seats[0].player.match
    assert match is not None and all(s.player.match == match for s in seats)
    assert game_of(stack.record(match)) == game_of(calm)


@pytest.fixture(scope="module")
def calm(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of STACK_TABLE's match on one process that nothing disturbed."""
    from tests.web.test_restart import calm_record

    return calm_record(STACK_TABLE, tmp_path_factory.mktemp("calm") / "calm.db")


@pytest.mark.timeout(1800)
def test_the_stack_sends_a_tables_sockets_to_one_replica_and_serves_its_match(
    stack: Stack, calm: dict[str, Any]
) -> None:
    ids = stack.wait_replicas(2)
    with contextlib.ExitStack() as sockets:
        _, ana, bo = _seated(stack, sockets)
        # the proxy hashes the table id: both people meet in one replica, however
        # often they connect again
        assert sorted(stack.connections(c) for c in ids) == [0, 2]
        other = next(c for c in ids if stack.connections(c) == 0)
        for _ in range(3):
            bo.reconnect()  # a new socket (the old one stays open): to the same replica
            assert stack.connections(other) == 0
        _finish(stack, [ana, bo], calm)
        assert ana.reconnects == 0 and bo.reconnects == 3
    assert httpx.get(f"{stack.base}/readyz", timeout=5).json()["status"] == "ok"
    assert httpx.get(f"{stack.base}/metrics", timeout=5).status_code == 404


@pytest.mark.timeout(300)
def test_the_image_runs_as_an_unprivileged_user_and_its_size_is_bounded(
    stack: Stack,
) -> None:
    assert stack.inspect(stack.image, "{{.Config.User}}") == "meio"
    for cid in stack.replicas():
        assert stack.run_docker("exec", cid, "id", "-u") == "10001"
    size_mb = int(stack.inspect(stack.image, "{{.Size}}")) / 1e6
    print(f"the meio image is {size_mb:.0f} MB")
    assert size_mb < IMAGE_MB_LIMIT


@pytest.mark.timeout(600)
def test_a_crash_of_the_replica_holding_the_bots_lease_hands_them_over(
    stack: Stack, calm: dict[str, Any]
) -> None:
    stack.wait_replicas(2)
    with contextlib.ExitStack() as sockets:
        table_id, ana, bo = _seated(stack, sockets)
        _play([ana, bo], stop_at=16)
        doomed = stack.lease_holder(table_id)
        process = stack.holder(table_id)
        restarts = int(stack.inspect(doomed, "{{.RestartCount}}"))
        stack.crash(doomed)
        # the bots go on in another process: the other replica's, or the restarted one's
        _play([ana, bo], stop_at=24)
        assert stack.holder(table_id) != process
        _finish(stack, [ana, bo], calm)
    # a crash is not a stop: `restart: unless-stopped` brings the replica back
    assert int(stack.inspect(doomed, "{{.RestartCount}}")) == restarts + 1
    stack.wait_replicas(2)


@pytest.mark.timeout(600)
def test_a_crash_of_the_replica_a_table_lives_in_moves_the_table_to_another(
    stack: Stack, calm: dict[str, Any]
) -> None:
    ids = stack.wait_replicas(2)
    with contextlib.ExitStack() as sockets:
        table_id, ana, bo = _seated(stack, sockets)
        _play([ana, bo], stop_at=12)
        owner = next(c for c in ids if stack.connections(c) == 2)
        # its bots run where its people are (a copy made where it was created hands
        # the lease over)
        deadline = time.monotonic() + 30
        while stack.lease_holder(table_id) != owner:
            assert time.monotonic() < deadline, "the lease stayed away from the people"
            time.sleep(0.5)
        process = stack.holder(table_id)
        stack.crash(owner)
        # both people reconnect through the proxy, to the other replica (or to the
        # crashed one once Docker has started it again), and the match goes on there
        _play([ana, bo], stop_at=20)
        assert ana.reconnects >= 1 and bo.reconnects >= 1
        assert stack.holder(table_id) != process
        _finish(stack, [ana, bo], calm)
    stack.wait_replicas(2)


@pytest.mark.timeout(600)
def test_a_restart_of_postgresql_mid_match_loses_nothing(
    stack: Stack, calm: dict[str, Any]
) -> None:
    stack.wait_replicas(2)
    with contextlib.ExitStack() as sockets:
        _, ana, bo = _seated(stack, sockets)
        _play([ana, bo], stop_at=16)
        started = {c: stack.inspect(c, "{{.State.StartedAt}}") for c in stack.replicas()}
        stack.compose("restart", "--no-deps", "db")
        # a move sent while the database is away is answered "internal: try again"
        # (the page says so); sent again, it counts once
        failed: list[dict[str, Any]] = []
        _finish(stack, [ana, bo], calm, failed)
    # the replicas rode it out: the same processes, reconnected to the database
    assert {c: stack.inspect(c, "{{.State.StartedAt}}") for c in stack.wait_replicas(2)
            } == started


@pytest.mark.timeout(600)
def test_a_docker_killed_replica_stays_down_until_compose_up(
    stack: Stack, calm: dict[str, Any]
) -> None:
    """`docker kill` is a person's decision: Docker does not restart it (nor would it
    with `restart: always`); the other replica serves everyone meanwhile, and
    `docker compose up -d` brings the service back to its size."""
    ids = stack.wait_replicas(2)
    with contextlib.ExitStack() as sockets:
        table_id, ana, bo = _seated(stack, sockets)
        _play([ana, bo], stop_at=16)
        killed = stack.lease_holder(table_id)
        stack.run_docker("kill", killed)
        _finish(stack, [ana, bo], calm)
    time.sleep(3)
    assert stack.inspect(killed, "{{.State.Status}}") == "exited"
    assert stack.replicas() == [c for c in ids if c != killed]
    stack.compose("up", "-d", "--wait", timeout=300)
    again = stack.wait_replicas(2)
    # the replica that ran on was left as it was; the killed one runs again
    assert set(again) == set(ids)


@pytest.mark.timeout(1200)
def test_a_rolling_upgrade_replaces_each_replica_while_a_match_goes_on(
    stack: Stack, calm: dict[str, Any]
) -> None:
    old = stack.wait_replicas(2)
    old_image = stack.inspect(old[0], "{{.Image}}")
    with contextlib.ExitStack() as sockets:
        _, ana, bo = _seated(stack, sockets)
        _play([ana, bo], stop_at=10)
        upgrade = subprocess.Popen(
            ["bash", str(ROOT / "deploy" / "rolling-upgrade.sh"), "-p", stack.project,
             "-f", str(ROOT / "compose.yaml")],
            env={**stack.env, "MEIO_REVISION": f"upgrade-{uuid.uuid4().hex[:8]}"},
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # the match goes on while the replicas are replaced
        try:
            _finish(stack, [ana, bo], calm)
        finally:
            said, _ = upgrade.communicate(timeout=900)
        assert upgrade.returncode == 0, said[-3000:]
    new = stack.wait_replicas(2)
    assert not set(new) & set(old)
    images = {stack.inspect(c, "{{.Image}}") for c in new}
    assert len(images) == 1 and old_image not in images
    assert stack.inspect(new[0], '{{index .Config.Labels "org.opencontainers.image.revision"}}'
                         ).startswith("upgrade-")
