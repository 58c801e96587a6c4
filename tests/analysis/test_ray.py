"""Ray and local workers give the same summary for one seed (a local Ray head with
2 workers, started by the test), and ``meio tournament --ray`` the same results."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from meio.analysis import AnalysisSpec, LocalBackend, run_analysis
from meio.tournament import TournamentSpec, run_tournament

pytestmark = pytest.mark.slow

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Ray head of 2 CPUs on loopback whose workers import this checkout's meio."""
    try:
        import ray  # noqa: F401
    except ModuleNotFoundError:
        if IN_CI:
            pytest.fail("Ray is not installed: pip install -e '.[cluster]'")
        pytest.skip("Ray is not installed (the cluster extra)")
    from meio.ray_tasks import local_head

    log = tmp_path_factory.mktemp("ray") / "head.log"
    with local_head(2, log=log, pythonpath=str(ROOT / "src")) as address:
        yield address


def test_ray_and_local_workers_give_the_same_summary(ray_head: str, tmp_path: Path) -> None:
    from meio.analysis import RayBackend

    spec = AnalysisSpec(questions=("seats", "skill", "length"), players=(3,),
                        editions=("meio",), games=400, seed=21, chunk=20,
                        skill_pairs=(("heuristic", "random"),), engine_share=50)
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
