"""Ray and local workers give the same summary for one seed (a local Ray head with
2 workers, started by the test), and ``meio tournament --ray`` the same results."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from meio.analysis import AnalysisSpec, LocalBackend, run_analysis
from meio.tournament import TournamentSpec, run_tournament

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Ray head of 2 CPUs on loopback whose workers import this checkout's meio."""
    try:
        import ray
    except ModuleNotFoundError:
        if IN_CI:
            pytest.fail("Ray is not installed: pip install -e '.[cluster]'")
        pytest.skip("Ray is not installed (the cluster extra)")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "RAY_USAGE_STATS_ENABLED": "0"}
    ray_cli = Path(sys.executable).with_name("ray")
    log = (tmp_path_factory.mktemp("ray") / "head.log").open("w")
    proc = subprocess.Popen(
        [str(ray_cli), "start", "--head", f"--port={port}", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats", "--block"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the Ray head did not start (see {log.name})")
                time.sleep(0.5)
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=3)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the head's own group: gcs, raylet, workers
        proc.wait()
        log.close()


def test_ray_and_local_workers_give_the_same_summary(ray_head: str, tmp_path: Path) -> None:
    from meio.analysis.cluster import RayBackend

    spec = AnalysisSpec(questions=("seats", "skill", "length"), players=(3,),
                        editions=("meio",), games=400, seed=21, chunk=20,
                        skill_pairs=(("heuristic", "random"),))
    by_ray = run_analysis(spec, tmp_path / "ray", RayBackend(ray_head))
    local = run_analysis(spec, tmp_path / "local", LocalBackend(2))
    assert len(list((tmp_path / "ray" / "chunks").iterdir())) > 10  # many tasks
    assert by_ray.summary == local.summary
    from meio.analysis import write_run

    write_run(by_ray, tmp_path / "ray")
    write_run(local, tmp_path / "local")
    assert (tmp_path / "ray" / "summary.json").read_bytes() == (
        tmp_path / "local" / "summary.json").read_bytes()


def test_tournament_on_ray_matches_local(ray_head: str) -> None:
    spec = TournamentSpec(("heuristic", "random"), players=3, matches=3, seed=5)
    assert run_tournament(spec, ray_address=ray_head) == run_tournament(spec, jobs=1)
