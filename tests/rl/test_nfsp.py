"""NFSP (meio.rl.nfsp): the reservoir is a uniform sample, the average policy learns,
bad settings are refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import torch

from meio.bots.learned import load_policy
from meio.bots.observation import OBS_SIZE
from meio.rl.nfsp import Reservoir, train_nfsp
from meio.rl.qnet import LearnerError, greedy_score


def test_the_reservoir_keeps_a_uniform_sample_of_everything_offered() -> None:
    r = Reservoir(500, np.random.default_rng(1))
    for k in range(20_000):
        r.add(np.full(OBS_SIZE, k, dtype=np.float32), k % 96)
    assert len(r) == 500 and r.offered == 20_000
    kept = r.obs[:, 0]
    # a uniform sample of 0 .. 19,999: its mean near 10,000 (sd of the mean ~258), and
    # the first and the last quarter equally represented; a buffer that kept the latest
    # items (FIFO) would have a mean near 19,750
    assert abs(kept.mean() - 10_000) < 1_000
    assert abs((kept < 5_000).sum() - (kept >= 15_000).sum()) < 60
    assert len(set(kept.tolist())) == 500


@pytest.fixture
def one_thread() -> Iterator[None]:
    # the figures below were measured with one PyTorch thread, as bench/baselines.py trains
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.usefixtures("one_thread")
def test_the_average_policy_beats_a_random_agent_and_its_start(tmp_path: Path) -> None:
    # seed 1 of the published NFSP baseline, its first 8,192 steps (seeded: repeatable):
    # 4.17 at the start, 3.45 after, a random agent 4.21 on the same 128 matches
    random_score = greedy_score(None, players=4, opponents="heuristic", matches=128)
    out = tmp_path / "nfsp.npz"
    curve = train_nfsp(out, steps=8_192, players=4, opponents="heuristic", envs=64,
                       hidden=128, seed=1, eval_every=8_192, eval_matches=128,
                       log=lambda _: None)
    assert [p.steps for p in curve] == [0, 8_192]
    assert curve[-1].score < random_score - 0.3, (curve, random_score)
    assert curve[-1].score < curve[0].score - 0.3, curve
    assert load_policy(out).players == 4


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"minutes": None, "steps": None}, "give a budget"),
    ({"minutes": -1.0}, "minutes is a positive duration"),
    ({"eta": -0.1}, "eta is a probability"),
    ({"replay": 10, "batch": 64}, "must hold a batch"),
    ({"target_every": 0}, "positive counts"),
])
def test_settings_it_cannot_use_are_refused(tmp_path: Path, kwargs: dict[str, object],
                                            message: str) -> None:
    with pytest.raises(LearnerError, match=message):
        train_nfsp(tmp_path / "x.npz", **kwargs)  # type: ignore[arg-type]


def test_a_reservoir_of_nothing_is_refused() -> None:
    with pytest.raises(LearnerError, match="at least one item"):
        Reservoir(0, np.random.default_rng(0))
