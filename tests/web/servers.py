"""Real servers for the attack and proxy tests: ``meio serve`` in a subprocess, a
Caddy in front of it, and a pair of people measuring act→ack at their own table."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import IN_CI, free_port
from tests.web.helpers import choose

Frame = dict[str, Any]


class Serve:
    """``meio serve`` on loopback, its log in ``log``."""

    def __init__(self, tmp: Path, env: dict[str, str] | None = None,
                 db: Path | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db = db or tmp / "meio.db"
        self.log = tmp / f"serve-{self.port}.log"
        full = {**os.environ, "MEIO_BOT_DELAY": "0", "MEIO_WARM_CORE": "0",
                "MEIO_THINK_PROCESSES": "0", "PYTHONPATH": os.pathsep.join(sys.path),
                **(env or {})}
        full.pop("DATABASE_URL", None)
        self.started_in = 0.0
        began = time.perf_counter()
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from meio.cli import main; main()", "serve",
                 "--host", "127.0.0.1", "--port", str(self.port), "--db", str(self.db)],
                env=full, stdout=out, stderr=subprocess.STDOUT)
        for _ in range(1200):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    self.started_in = time.perf_counter() - began
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


def http(address: str = "127.0.0.1", **kw: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any 127.x.y.z)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address, **kw),
                        timeout=30, **kw)


def ws_connect(url: str, address: str = "127.0.0.1", **kw: Any) -> ClientConnection:
    """A WebSocket to ``url`` from ``address``."""
    return connect(url, open_timeout=30, max_size=2**22, compression=None,
                   source_address=(address, 0), **kw)


def caddy_or_skip() -> str:
    found = shutil.which("caddy")
    if found is None:
        if IN_CI:
            pytest.fail("Caddy is not installed: run scripts/system-deps.sh")
        pytest.skip("Caddy is not installed (scripts/system-deps.sh installs it)")
    return found


@contextlib.contextmanager
def caddy(tmp: Path, site: str, port: int, upstream: str) -> Iterator[None]:
    """Debian's Caddy on loopback: ``https://site:port`` (its own local CA) proxied to
    ``upstream``."""
    binary = caddy_or_skip()
    conf = tmp / "Caddyfile"
    conf.write_text(
        "{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n"
        f"\tdefault_sni {site}\n\thttp_port {free_port()}\n\thttps_port {port}\n"
        f"\tstorage file_system {{\n\t\troot {tmp / 'caddy-data'}\n\t}}\n}}\n"
        f"https://{site}:{port} {{\n\ttls internal\n\treverse_proxy {upstream}\n}}\n")
    env = {**os.environ, "HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / "cfg"),
           "XDG_DATA_HOME": str(tmp / "data")}
    log = (tmp / "caddy.log").open("wb")
    proc = subprocess.Popen([binary, "run", "--config", str(conf), "--adapter", "caddyfile"],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        # ready once a TLS handshake succeeds: Caddy listens before its local CA has
        # issued the site's certificate, and a handshake until then fails
        for _ in range(600):
            with contextlib.suppress(OSError), socket.create_connection(
                ("127.0.0.1", port), 1
            ) as raw, insecure().wrap_socket(raw, server_hostname=site):
                break
            if proc.poll() is not None:
                raise AssertionError((tmp / "caddy.log").read_text())
            time.sleep(0.05)
        else:
            raise AssertionError("Caddy never completed a TLS handshake:\n"
                                 + (tmp / "caddy.log").read_text())
        yield
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def insecure() -> ssl.SSLContext:
    """TLS without checking the certificate (Caddy's local CA is not installed)."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


class Duo:
    """Two people at a table of their own, acting in turn; each act→ack is timed."""

    def __init__(self, base: str, address: str = "127.0.0.1") -> None:
        self.client = http(address)
        r = self.client.post(f"{base}/api/tables", json={"players": 2, "name": "Ana"})
        assert r.status_code == 201, r.text
        table = r.json()
        r = self.client.post(f"{base}/api/tables/{table['table_id']}/join",
                             json={"invite": table["invite"], "name": "Bo"})
        assert r.status_code == 200, r.text
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table['table_id']}"
        self.stack = contextlib.ExitStack()
        self.socks = [self.stack.enter_context(ws_connect(url, address)) for _ in range(2)]
        self.views: list[Frame | None] = [None, None]
        self.seqs = [0, 0]
        for i, token in enumerate((table["token"], r.json()["token"])):
            self.socks[i].send(json.dumps({"type": "hello", "token": token}))
            self._until(i, lambda f: f["type"] == "snapshot")
        self.times: list[float] = []
        self.n = 0

    def _recv(self, i: int) -> Frame:
        frame: Frame = json.loads(self.socks[i].recv(timeout=30))
        if frame["type"] in ("snapshot", "event"):
            self.views[i], self.seqs[i] = frame["view"], frame["seq"]
        if frame["type"] == "reject":
            snap = frame["snapshot"]
            self.views[i], self.seqs[i] = snap["view"], snap["seq"]
        return frame

    def _until(self, i: int, pred: Any) -> Frame:
        while True:
            frame = self._recv(i)
            if pred(frame):
                return frame

    def step(self) -> bool:
        """One action by whoever is to act (False when the match is over)."""
        for i in (0, 1):
            view = self.views[i]
            action = None if view is None else choose(view)
            if action is None:
                continue
            self.n += 1
            mid = f"d{self.n}"
            began = time.perf_counter()
            self.socks[i].send(json.dumps({"type": "act", "id": mid, "seq": self.seqs[i],
                                           "action": action}))
            answer = self._until(i, lambda f, mid=mid: f.get("id") == mid)
            took = time.perf_counter() - began
            if answer["type"] == "ack":
                self.times.append(took)
            other = 1 - i
            while self.seqs[other] < self.seqs[i]:
                self._recv(other)
            return True
        return False

    def measure(self, count: int) -> list[float]:
        """Time ``count`` act→acks (fewer if the match ends first)."""
        start = len(self.times)
        while len(self.times) - start < count and self.step():
            pass
        return self.times[start:]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()
        self.client.close()


def summary(times: list[float]) -> str:
    return (f"act→ack over {len(times)}: median {statistics.median(times) * 1000:.1f} ms, "
            f"max {max(times) * 1000:.1f} ms (load {os.getloadavg()[0]:.1f})")


def assert_fair(times: list[float], median_s: float = 0.1, max_s: float = 0.5) -> None:
    """The targets of issue 23 for an unrelated table during an attack."""
    assert len(times) >= 20, f"too few actions measured: {len(times)}"
    med = statistics.median(times)
    assert med < median_s and max(times) < max_s, summary(times)


@contextlib.contextmanager
def thread_server(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread of this process on loopback (one hub, so
    its state is one for every client address); yields its base URL."""
    import threading

    import uvicorn

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(400):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(15)
