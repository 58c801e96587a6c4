"""A small analysis run shared by the analysis tests (played once per session)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meio.analysis import AnalysisSpec, LocalBackend, Run, run_analysis, write_run

#: every study on 2- and 4-player tables of both editions, small enough for seconds
SMALL = AnalysisSpec(
    questions=("seats", "specials", "skill", "splits", "rules", "length"),
    players=(2, 4),
    games=300,
    seed=11,
    skill_pairs=(("heuristic", "random"),),
    engine_share=50,
    pair_deals=(2, 2),  # each pair at its share of the games: 300 / 50 = 6 deals
)


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, Path]:
    out = tmp_path_factory.mktemp("analysis")
    run = run_analysis(SMALL, out, LocalBackend(1))
    write_run(run, out)
    return run, out


@pytest.fixture(scope="session")
def summary(small_run: tuple[Run, Path]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((small_run[1] / "summary.json").read_text())
    return data
