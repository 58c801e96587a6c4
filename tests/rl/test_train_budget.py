"""A step budget repeats a training run exactly; a resumed run continues from its
checkpoint, and one with other settings is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from meio.rl.train import TrainingError, checkpoint_path, train

TINY = {"envs": 8, "horizon": 32, "players": 3, "opponents": "random", "hidden": 8,
        "minibatch": 128, "epochs": 1, "reference_matches": 10, "seed": 3}


def _curve(out: Path) -> list[int]:
    rows = out.with_suffix(".csv").read_text().splitlines()[1:]
    return [int(r.split(",")[0]) for r in rows if r and not r.startswith("reference")]


def _quiet(line: str) -> None:
    return None


@pytest.mark.slow  # about 15 s: four tiny runs
def test_a_step_budget_repeats_the_run_and_resume_continues_it(tmp_path: Path) -> None:
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    train(a, steps=600, log=_quiet, **TINY)  # type: ignore[arg-type]
    train(b, steps=600, log=_quiet, **TINY)  # type: ignore[arg-type]
    with np.load(a) as pa, np.load(b) as pb:
        assert sorted(pa.files) == sorted(pb.files)
        assert all(np.array_equal(pa[k], pb[k]) for k in pa.files)  # the same policy
    assert _curve(a)[-1] == 768  # whole updates of 8 x 32 steps: 3 of them
    lines: list[str] = []
    c = tmp_path / "c.npz"
    train(c, steps=1280, resume=checkpoint_path(a), log=lines.append, **TINY)  # type: ignore[arg-type]
    assert lines[0] == f"resuming {checkpoint_path(a)} at 768 steps"
    assert _curve(c)[: len(_curve(a))] == _curve(a) and _curve(c)[-1] == 1280
    with np.load(a) as pa, np.load(c) as pc:
        assert not np.array_equal(pa["w1"], pc["w1"])  # it went on learning
    wider = {**TINY, "hidden": 16}
    with pytest.raises(TrainingError, match="trained with hidden=8, not 16"):
        train(tmp_path / "d.npz", steps=1280, resume=checkpoint_path(a), log=_quiet,
              **wider)  # type: ignore[arg-type]


def test_a_budget_is_needed() -> None:
    with pytest.raises(TrainingError, match="give a budget"):
        train(Path("x.npz"), steps=None, minutes=None)
    with pytest.raises(TrainingError, match="positive number"):
        train(Path("x.npz"), steps=0)
