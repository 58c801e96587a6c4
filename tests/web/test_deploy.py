"""The one-command deployment: Dockerfile, compose.yaml and the Caddyfile.

Where a Docker engine with the compose plugin runs, the image is built and the
whole stack started and played against. Where none does (as on the project's CI
machine), the compose file is checked against a schema of the parts it uses, and
the image's entry point is run as the image would run it, without Docker.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import yaml

from tests.web.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]

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
    # interpolation with a domain and more replicas
    scaled = compose({"MEIO_REPLICAS": "4", "MEIO_SITE": "play.example.org"})
    assert scaled["services"]["meio"]["deploy"]["replicas"] == 4
    assert scaled["services"]["proxy"]["environment"]["MEIO_SITE"] == "play.example.org"


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


@pytest.mark.timeout(1200)
def test_the_image_builds_and_the_stack_serves_a_game() -> None:
    cmd = _docker_compose()
    if cmd is None:
        pytest.skip("no Docker engine with the compose plugin here: the image build and "
                    "the stack are not tested (the compose schema and the entry point are)")
    port = free_port()
    env = {**os.environ, "MEIO_HTTP_PORT": str(port), "MEIO_HTTPS_PORT": str(free_port()),
           "MEIO_BOT_DELAY": "0"}
    project = [*cmd, "-p", f"meio-test-{os.getpid()}", "-f", str(ROOT / "compose.yaml")]
    subprocess.run([*project, "config", "--quiet"], env=env, check=True, cwd=ROOT)
    try:
        subprocess.run([*project, "up", "-d", "--build", "--wait"], env=env, check=True,
                       cwd=ROOT, timeout=1100)
        base = f"http://127.0.0.1:{port}"
        table = httpx.post(f"{base}/api/tables", json={"players": 2, "name": "Ana",
                                                        "seats": [{"kind": "human"},
                                                                  {"kind": "bot"}]}).json()
        from websockets.sync.client import connect

        from tests.web.helpers import Player, play_out
        from tests.web.test_restart import SyncWS

        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['table_id']}") as ws:
            ana = Player(SyncWS(ws), token=table["token"])
            play_out([ana])
            assert ana.seen["is_over"]
        assert httpx.get(f"{base}/metrics").status_code == 404  # not through the proxy
    finally:
        subprocess.run([*project, "down", "-v"], env=env, cwd=ROOT, timeout=300)
