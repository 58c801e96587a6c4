"""Playing chunks as tasks on a Ray cluster (the optional extra ``meio[cluster]``).

Each chunk is one Ray task running the same :func:`~meio.analysis.play.play_chunk`
as a local worker, so a seed gives the same rows, and the same ``summary.json``,
wherever it ran. Every node of the cluster needs meio installed (the same version).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from meio.analysis.frame import Columns
from meio.analysis.plan import AnalysisError, Chunk
from meio.analysis.play import play_chunk

T = TypeVar("T")
R = TypeVar("R")


def connect(address: str) -> Any:
    """Join the Ray cluster at ``address`` (``HOST:PORT`` of its head, or ``auto``);
    a clear error when Ray is missing or the cluster cannot be reached."""
    try:
        import ray
    except ModuleNotFoundError:
        raise AnalysisError("--ray needs Ray: pip install 'meio[cluster]'") from None
    if not ray.is_initialized():
        _reachable(address)
        try:
            ray.init(address=address, logging_level=40, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise AnalysisError(f"cannot join the Ray cluster at {address}: {exc}") from None
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
        raise AnalysisError(f"cannot join the Ray cluster at {address}: {exc}") from None


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


class RayBackend:
    """Chunks as Ray tasks on the cluster at ``address``."""

    def __init__(self, address: str) -> None:
        self.address = address
        connect(address)

    def run(self, chunks: list[Chunk]) -> Iterator[tuple[Chunk, Columns]]:
        yield from ray_map(self.address, play_chunk, chunks)
