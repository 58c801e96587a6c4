"""The approximate best response: it trains against a frozen bot in the compiled env,
and its measurement is paired seat by seat on the deal set."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from meio.bots.versions import resolve
from meio.rl.best_response import (
    BestResponseError,
    default_init,
    frozen_kind,
    measure,
    train_best_response,
)


def _quiet(line: str) -> None:
    return None


def test_the_frozen_bot_is_the_heuristic_or_a_shipped_network() -> None:
    assert frozen_kind("learned") == "learned-v7"
    assert frozen_kind("heuristic") == "heuristic-v1"
    assert default_init("ppo") == resolve("ppo-v1").weights_path
    assert default_init("heuristic") == resolve("ppo-v1").weights_path
    with pytest.raises(BestResponseError, match="cannot be the frozen opponent"):
        frozen_kind("random")


def test_the_bot_itself_as_its_response_gains_exactly_nothing() -> None:
    # every lineup of a deal plays the same cards with the same seeds, so the bot put
    # back in its own seat replays the bot's table and the paired gain is 0, not noise
    path = resolve("ppo-v1").weights_path
    assert path is not None
    result = measure("ppo-v1", path, deals=2, bootstrap=50)
    assert (result.gain, result.gain_ci95) == (0.0, (0.0, 0.0))
    assert result.bot_score == result.response_score > 0
    assert result.matches == 10


@pytest.mark.parametrize("bot", ["ppo-v1", "heuristic"])
def test_a_tiny_run_against_the_frozen_bot_changes_the_policy_it_started_from(
        tmp_path: Path, bot: str) -> None:
    out = tmp_path / "br.npz"
    curve = train_best_response(bot, out, steps=400, envs=8, batch=100, minibatch=100,
                                epochs=1, warmup=0, log=_quiet)
    rows = curve.read_text().splitlines()
    assert rows[0] == "steps,cpu_seconds,mean_round_score"
    steps = [int(r.split(",")[0]) for r in rows[1:]]
    assert steps == sorted(steps) and steps[-1] >= 400
    init = default_init(bot)
    with np.load(out) as new, np.load(init) as old:
        assert new["w1"].shape == old["w1"].shape
        assert not np.allclose(new["w3"].astype(np.float32), old["w3"].astype(np.float32))
    # the response plays the deal set
    assert measure(bot, out, deals=1, bootstrap=20).matches == 5


def test_the_warmup_updates_fit_the_critic_and_leave_the_policy_as_it_started(
        tmp_path: Path) -> None:
    out = tmp_path / "br.npz"
    # 8 matches of about 50 decisions end together: one update, a warmup one
    train_best_response("heuristic", out, steps=100, envs=8, batch=100, minibatch=100,
                        epochs=1, warmup=1, log=_quiet)
    with np.load(out) as new, np.load(default_init("heuristic")) as old:
        assert all(np.array_equal(new[k], old[k]) for k in ("w1", "b1", "w2", "b2", "w3", "b3"))
