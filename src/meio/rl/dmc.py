"""Deep Monte-Carlo, as DouZero learns DouDizhu: Q(observation, action) regressed on
the returns of whole matches.

The agent plays seat 0 of MEIO matches against compiled opponents (the
:class:`~meio.rl.VectorEnv`, compact actions: 96 outputs, the split as six picks). It
acts epsilon-greedily on its Q-network (:class:`~meio.rl.qnet.Net`); when a match
ends, every decision of it gets its Monte-Carlo return (the rewards from that
decision to the match's end, undiscounted: minus the points the seat still took),
and the pairs (observation, action) → return go to a buffer of the latest decisions.
After each vector step the network takes one gradient step of mean squared error on
a minibatch of the buffer, on the chosen action's output only. No bootstrapping, no
target network: the return is the target, which is why DouZero chose it for long
games with sparse rewards and many legal actions.

The greedy policy (highest Q among the legal actions) is the bot:
``learned:PATH`` plays the saved network. PyTorch is needed (the ``rl`` extra).

>>> from pathlib import Path; import tempfile
>>> out = Path(tempfile.mkdtemp()) / "dmc.npz"
>>> curve = train_dmc(out, steps=256, players=2, envs=16, eval_every=256, eval_matches=8,
...                   log=lambda line: None)
>>> [p.steps for p in curve], out.exists()
([0, 256], True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from meio.bots.learned import save_policy
from meio.bots.observation import OBS_SIZE
from meio.rl import VectorEnv
from meio.rl.qnet import (
    CurvePoint,
    LearnerError,
    Net,
    check_budget,
    greedy_score,
    masked_argmax,
)
from meio.rl.train import check_out


def train_dmc(
    out: Path,
    *,
    steps: int | None = 200_000,
    minutes: float | None = None,
    players: int = 4,
    opponents: str = "heuristic",
    envs: int = 64,
    hidden: int = 128,
    lr: float = 5e-4,
    epsilon: float = 0.05,
    batch: int = 512,
    buffer: int = 50_000,
    seed: int = 0,
    eval_every: int = 20_000,
    eval_matches: int = 256,
    log: Callable[[str], None] = print,
) -> list[CurvePoint]:
    """Train until ``steps`` agent steps or ``minutes`` of this process's CPU time (the
    first to come; at least one: CPU time is the fair budget on a shared machine), save
    the greedy network to ``out`` and return the learning curve:
    :func:`~meio.rl.qnet.greedy_score` at the start, every ``eval_every`` steps and at
    the end (the curve's seconds are CPU seconds of training, evaluation not
    counted)."""
    check_budget(steps, minutes)
    check_out(out)
    if not 0.0 <= epsilon <= 1.0:
        raise LearnerError(f"epsilon is a probability, not {epsilon}")
    if batch < 1 or buffer < batch:
        raise LearnerError(f"the buffer ({buffer}) must hold at least one batch ({batch})")
    if eval_every < 1:
        raise LearnerError(f"eval_every is a positive number of steps, not {eval_every}")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Net(hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    venv = VectorEnv(num_envs=envs, players=players, opponents=opponents,
                     seed=seed * 1_000_003, actions="compact")
    buf_obs = np.zeros((buffer, OBS_SIZE), dtype=np.float32)
    buf_act = np.zeros(buffer, dtype=np.int64)
    buf_ret = np.zeros(buffer, dtype=np.float32)
    stored = 0  # decisions ever stored; the buffer keeps the latest ``buffer``
    # each match's decisions so far: observation, action, rewards before it
    episodes: list[list[tuple[np.ndarray, int, float]]] = [[] for _ in range(envs)]
    gained = np.zeros(envs)

    def evaluate() -> float:
        return greedy_score(net.weights(), players=players, opponents=opponents,
                            matches=eval_matches)

    curve = [CurvePoint(0, 0.0, evaluate())]
    obs, info = venv.reset(seed=seed * 1_000_003)
    done, spent, next_eval = 0, 0.0, eval_every
    start = time.process_time()
    deadline = None if minutes is None else 60.0 * minutes
    while (steps is None or done < steps) and (deadline is None or spent < deadline):
        o = torch.from_numpy(obs.copy())
        m = torch.from_numpy(info["action_mask"].copy())
        with torch.no_grad():
            act = masked_argmax(net(o), m).numpy()
        explore = np.flatnonzero(rng.random(envs) < epsilon)
        for e in explore:
            act[e] = rng.choice(np.flatnonzero(info["action_mask"][e]))
        for i in range(envs):
            episodes[i].append((obs[i].copy(), int(act[i]), float(gained[i])))
        obs, reward, term, _, info = venv.step(act)
        gained += reward
        done += envs
        for end in np.flatnonzero(term):
            for o_t, a_t, before in episodes[end]:
                k = stored % buffer
                buf_obs[k], buf_act[k], buf_ret[k] = o_t, a_t, gained[end] - before
                stored += 1
            episodes[end] = []
            gained[end] = 0.0
        if stored >= batch:
            idx = rng.integers(0, min(stored, buffer), size=batch)
            q = net(torch.from_numpy(buf_obs[idx]))
            chosen = q.gather(1, torch.from_numpy(buf_act[idx])[:, None]).squeeze(1)
            loss = ((chosen - torch.from_numpy(buf_ret[idx])) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        spent = time.process_time() - start
        if done >= next_eval:
            curve.append(CurvePoint(done, spent, evaluate()))
            log(f"dmc seed {seed}: {done:>9,} steps {spent:6.0f} s  "
                f"greedy score {curve[-1].score:.3f}")
            next_eval += eval_every
            start = time.process_time() - spent  # evaluation is not training time
    if curve[-1].steps != done:
        curve.append(CurvePoint(done, spent, evaluate()))
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(out, net.weights(), players=players)
    return curve


__all__ = ["train_dmc"]
