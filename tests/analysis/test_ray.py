"""Ray and local workers give the same summary for one seed (a local Ray head with
2 workers, started by the test), and ``meio tournament --ray`` the same results."""

from __future__ import annotations

from pathlib import Path

import pytest

from meio.analysis import AnalysisSpec, LocalBackend, run_analysis
from meio.tournament import TournamentSpec, run_tournament

pytestmark = pytest.mark.slow



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
