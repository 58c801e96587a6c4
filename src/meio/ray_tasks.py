"""Tasks on a Ray cluster (the optional extra ``meio[cluster]``), for any package.

:func:`ray_map` runs a function on every item as one Ray task each; the
tournament runner plays its matches with it and the analysis its chunks
(:class:`meio.analysis.RayBackend`), so neither imports the other for it.
:func:`local_head` starts a head on loopback for tests and benchmarks. Every
node of a cluster needs meio installed (the same version).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from meio.engine.errors import MeioError

T = TypeVar("T")
R = TypeVar("R")


class RayError(MeioError, ValueError):
    """Ray is missing, or its cluster cannot be reached or started."""


def connect(address: str) -> Any:
    """Join the Ray cluster at ``address`` (``HOST:PORT`` of its head, or ``auto``);
    a clear error when Ray is missing or the cluster cannot be reached."""
    try:
        import ray
    except ModuleNotFoundError:
        raise RayError("--ray needs Ray: pip install 'meio[cluster]'") from None
    if not ray.is_initialized():
        _reachable(address)
        try:
            ray.init(address=address, logging_level=40, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise RayError(f"cannot join the Ray cluster at {address}: {exc}") from None
    return ray


def _reachable(address: str) -> None:
    """Fail fast on a head that does not answer (Ray itself retries for minutes)."""
    import socket

    host, sep, port = address.rpartition(":")
    if address == "auto" or not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as exc:
        raise RayError(f"cannot join the Ray cluster at {address}: {exc}") from None


def ray_map(address: str, fn: Callable[[T], R], items: list[T]) -> Iterator[tuple[T, R]]:
    """Run ``fn`` on every item as a Ray task; yield ``(item, result)`` as each ends."""
    ray = connect(address)
    remote = ray.remote(num_cpus=1, max_retries=2)(fn)
    pending = {remote.remote(item): item for item in items}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)


@contextlib.contextmanager
def local_head(cpus: int = 2, log: Path | None = None,
               pythonpath: str | None = None) -> Iterator[str]:
    """Start a Ray head on loopback with ``cpus`` workers for as long as the block
    runs (tests and benchmarks); yields its address. Only the processes this head
    started are stopped at the end (its own process group)."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    try:
        import ray
    except ModuleNotFoundError:
        raise RayError("a Ray head needs Ray: pip install 'meio[cluster]'") from None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    # a head on loopback needs no token: without one set for this process, the head
    # would turn token authentication on whenever ~/.ray/auth_token exists (Ray 2.60:
    # any earlier local ray.init() writes it) while this process connects without it
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.setdefault("RAY_AUTH_MODE", "disabled")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("ray")), "start", "--head", f"--port={port}",
         f"--num-cpus={cpus}", "--include-dashboard=false", "--disable-usage-stats",
         "--block"], env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RayError("the local Ray head did not start") from None
                time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        try:
            import ray

            if ray.is_initialized():
                ray.shutdown()
        except ModuleNotFoundError:
            pass
        os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=3)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if log:
            out.close()  # type: ignore[union-attr]
