"""Fixtures of the web tests: servers on SQLite and on a real, throwaway PostgreSQL."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.web import Settings, create_app

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL cluster of our own on loopback; yields its base URL.

    Skipped where PostgreSQL is not installed, except in CI, where that fails.
    """
    bindir = _pg_bin()
    if bindir is None or (os.geteuid() == 0 and shutil.which("runuser") is None):
        if IN_CI:
            pytest.fail("PostgreSQL is not installed: run scripts/system-deps.sh")
        pytest.skip("PostgreSQL is not installed (scripts/system-deps.sh installs it)")
    base = Path(tempfile.mkdtemp(prefix="meio-pg-"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        base.chmod(0o700)
    port = free_port()
    subprocess.run(
        _as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                      "--auth=trust", "-E", "UTF8", "--no-sync"]),
        check=True, capture_output=True,
    )
    subprocess.run(
        _as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w",
                      "-o", f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off",
                      "start"]),
        check=True, capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


def _new_pg_database(server: str) -> str:
    import psycopg

    name = "meio_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server.replace("+psycopg", "") + "/postgres", autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'meio.db'}"
    server: str = request.getfixturevalue("postgres_server")
    return _new_pg_database(server)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'meio.db'}"


def make_settings(url: str, **kw: Any) -> Settings:
    base: dict[str, Any] = {"bot_delay_s": 0.0, "allow_seeds": True, "min_turn_timer_s": 0.1}
    base.update(kw)
    return Settings(database_url=url, **base)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        yield c


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    """Create a table; fails the test on an error."""
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(c: TestClient, table: dict[str, Any], name: str) -> dict[str, Any]:
    r = c.post(f"/api/tables/{table['table_id']}/join",
               json={"invite": table["invite"], "name": name})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_until(pred: Any, timeout: float = 10.0) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


# -- the browser tests ---------------------------------------------------------------------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """A real uvicorn server (SQLite, bots 0.02 s, quick play's turn timer 0.1 s) in a
    thread; yields ``(base URL, app)``."""
    import uvicorn

    # quick play's tables get a short turn timer: it plays for whoever is not clicking
    app = create_app(make_settings(f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay_s=0.02,
                                   quick_turn_timer_s=0.1))
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright (skipped where missing, except in CI)."""
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        if IN_CI:
            pytest.fail("Debian chromium is not installed: run scripts/system-deps.sh")
        pytest.skip("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
