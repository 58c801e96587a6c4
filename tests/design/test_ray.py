"""``meio design report`` and ``meio design tune`` on a Ray cluster (a local head with 2
workers, started by the test): the same seed gives the same report and the same trials
as local workers, a tuning run resumes there, and the time limit cancels the tasks
still running."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meio.cli import app
from meio.design.report import Plan, cluster_cpus, run, summarise, write
from meio.design.rulesets import ruleset
from meio.design.space import parse_vary
from meio.design.tune import Study, front, parse_goal, tune

from .conftest import MINI

pytestmark = pytest.mark.slow



def test_a_report_on_ray_writes_the_summary_local_workers_write(ray_head: str,
                                                                tmp_path: Path) -> None:
    # the box edition at 3 players under the network, cut into chunks of 2 deals (the
    # timings say a match takes 1.5 s): 12 tasks
    plan = Plan((ruleset("meio"),), 3, "learned", ("random", "heuristic", "learned"), 8,
                (8, 8), 11, match_seconds=(("heuristic", 1.5), ("learned", 1.5),
                                           ("random", 1.5)))
    assert len(plan.works()) == 12
    write(summarise(run(plan, ray=ray_head)), tmp_path / "ray")
    write(summarise(run(plan, jobs=2)), tmp_path / "local")
    by_ray = (tmp_path / "ray" / "summary.json").read_bytes()
    assert by_ray == (tmp_path / "local" / "summary.json").read_bytes()
    assert b'"gap:heuristic>learned"' in by_ray  # the network played its step there
    assert cluster_cpus(ray_head) == 2


def test_the_report_command_takes_a_cluster(ray_head: str, tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["design", "report", "examples/variants/six-seven.toml", "--players", "3",
            "--deals", "4", "--player", "heuristic", "--ladder", "random,heuristic",
            "--seed", "5"]
    for where, extra in (("ray", ["--ray", ray_head]), ("local", ["--jobs", "2"])):
        result = runner.invoke(app, [*args, *extra, "--out", str(tmp_path / where)])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "ray" / "summary.json").read_bytes() == (
        tmp_path / "local" / "summary.json").read_bytes()


def test_the_time_limit_cancels_the_tasks_still_running(ray_head: str) -> None:
    import ray

    # self-play of 2 deals (a moment) and a ladder step of 10,000 deals of search:2 in
    # one task (hours): the limit is reached with the first task back
    plan = Plan((MINI,), 2, "heuristic", ("heuristic", "search:2"), 2, (10_000,), 3,
                match_seconds=(("heuristic", 1e-4), ("search:2", 1e-4)))
    assert len(plan.works()) == 2
    played = run(plan, ray=ray_head, deadline=0.0)
    assert played.plan.deals == 2 and played.plan.ladder == ("heuristic",)
    # the long task was cancelled: the cluster's 2 CPUs are free again (a hang guard,
    # not a timing: left to run, the task would hold its CPU for hours)
    guard = time.monotonic() + 60
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < guard:
        time.sleep(0.5)
    assert ray.available_resources().get("CPU", 0) == 2


def _study() -> Study:
    plan = Plan((MINI,), 2, "heuristic", ("random", "heuristic"), 12, (12,), 6)
    return Study(MINI, (parse_vary("special.Q+.value=10..14"),
                        parse_vary("special.-2H.value=-4..4")),
                 (parse_goal("max depth"), parse_goal("min seat_gap")), plan, seed=6)


def _trials(s: Any) -> list[tuple[str, dict[str, Any], Any]]:
    return [(t.state.name, t.params, t.values) for t in s.get_trials()]


def test_a_tuning_run_on_ray_gives_the_trials_of_local_workers_and_resumes(
        ray_head: str, tmp_path: Path) -> None:
    local = tune(_study(), tmp_path / "local", 3, jobs=2)
    # two trials on the cluster, then resumed there to three: the batches (of --jobs
    # trials) are the same, so the trials are
    tune(_study(), tmp_path / "ray", 2, jobs=2, ray=ray_head)
    resumed = tune(_study(), tmp_path / "ray", 3, jobs=2, ray=ray_head)
    assert _trials(resumed) == _trials(local)
    assert len({str(p) for _, p, _ in _trials(local)}) == 3
    assert [t.number for t in front(resumed, _study())] == \
        [t.number for t in front(local, _study())]
    assert sorted(p.name for p in (tmp_path / "ray" / "trials").iterdir()) == [
        "trial-0000.toml", "trial-0001.toml", "trial-0002.toml"]
