"""Deep Monte-Carlo (meio.rl.dmc): it learns, its network plays as a bot, bad settings
are refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meio.bots import make_bot
from meio.bots.learned import load_policy
from meio.rl.dmc import train_dmc
from meio.rl.qnet import LearnerError, forward, greedy_score


def test_dmc_beats_a_random_agent_after_a_few_thousand_steps(tmp_path: Path) -> None:
    random_score = greedy_score(None, players=2, opponents="random", matches=128)
    # 125 vector steps of 32 matches (about 90 matches end); seeded, so repeatable
    curve = train_dmc(tmp_path / "dmc.npz", steps=4_000, players=2, opponents="random",
                      envs=32, hidden=64, lr=1e-3, batch=256, eval_every=4_000,
                      eval_matches=128, log=lambda _: None)
    assert [p.steps for p in curve] == [0, 4_000]
    # lower is better: the trained greedy network takes fewer points than random play
    assert curve[-1].score < random_score - 0.2, (curve, random_score)
    assert curve[-1].score < curve[0].score


def test_the_saved_network_is_the_greedy_policy_a_learned_bot_plays(tmp_path: Path) -> None:
    out = tmp_path / "dmc.npz"
    train_dmc(out, steps=512, players=2, envs=16, eval_every=512, eval_matches=4,
              log=lambda _: None)
    policy = load_policy(out)
    obs = np.random.default_rng(0).random((5, policy.weights[0].shape[0]), dtype=np.float32)
    names = ("w1", "b1", "w2", "b2", "w3", "b3")
    np.testing.assert_allclose(policy.logits(obs),
                               forward(dict(zip(names, policy.weights, strict=True)), obs),
                               rtol=1e-5)
    assert make_bot(f"learned:{out}").name == f"learned:{out}"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"steps": None}, "give a budget"),
    ({"steps": 0}, "positive number of agent steps"),
    ({"epsilon": 1.5}, "epsilon is a probability"),
    ({"buffer": 10, "batch": 64}, "must hold at least one batch"),
    ({"eval_every": 0}, "eval_every"),
])
def test_settings_it_cannot_use_are_refused(tmp_path: Path, kwargs: dict[str, object],
                                            message: str) -> None:
    with pytest.raises(LearnerError, match=message):
        train_dmc(tmp_path / "x.npz", **kwargs)  # type: ignore[arg-type]
    assert not (tmp_path / "x.npz").exists()
