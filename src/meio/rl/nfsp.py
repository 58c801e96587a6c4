"""Neural Fictitious Self-Play (Heinrich and Silver, 2016): a best response learned by
DQN and an average policy learned by imitating it.

The agent plays seat 0 of MEIO matches against compiled opponents (the
:class:`~meio.rl.VectorEnv`, compact actions: 96 outputs, the split as six picks).
It has two networks (:class:`~meio.rl.qnet.Net`):

* the **best response**, a DQN: one-step Q-learning on a replay buffer of every
  transition the agent made, with a target network copied every ``target_every``
  updates, acting epsilon-greedily;
* the **average policy**, a softmax policy trained by cross-entropy on a reservoir
  buffer (every decision it is offered has the same chance to be kept, so it is a
  uniform sample of all of them) of the best response's own actions.

At the start of each match, each environment picks its mode: the best response
with probability ``eta`` (the anticipatory parameter), else the average policy. Only
decisions made in best-response mode go to the reservoir. After each vector step,
each network takes one gradient step. The average policy is what NFSP learns (it
approaches a Nash equilibrium in self-play of two-player zero-sum games); here the
other seats are fixed compiled bots, so it averages the best responses to them.

The saved network is the average policy; ``learned:PATH`` plays its highest
logit among the legal actions. PyTorch is needed (the ``rl`` extra).

>>> from pathlib import Path; import tempfile
>>> out = Path(tempfile.mkdtemp()) / "nfsp.npz"
>>> curve = train_nfsp(out, steps=256, players=2, envs=16, eval_every=256, eval_matches=8,
...                    log=lambda line: None)
>>> [p.steps for p in curve], out.exists()
([0, 256], True)
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch

from meio.bots.learned import save_policy
from meio.bots.observation import OBS_SIZE
from meio.rl import VectorEnv
from meio.rl.qnet import (
    N_ACTIONS,
    CurvePoint,
    LearnerError,
    Net,
    check_budget,
    greedy_score,
    masked_argmax,
)
from meio.rl.train import check_out


class Reservoir:
    """A uniform sample of at most ``capacity`` of all the (observation, action)
    pairs ever offered (reservoir sampling: the ``k``-th offered replaces a kept one
    with probability ``capacity / k``).

    >>> r = Reservoir(2, np.random.default_rng(0))
    >>> for a in range(1000):
    ...     r.add(np.zeros(OBS_SIZE, np.float32), a % 96)
    >>> len(r), r.offered
    (2, 1000)
    """

    def __init__(self, capacity: int, rng: np.random.Generator) -> None:
        if capacity < 1:
            raise LearnerError(f"a reservoir holds at least one item, not {capacity}")
        self.capacity = capacity
        self.obs = np.zeros((capacity, OBS_SIZE), dtype=np.float32)
        self.act = np.zeros(capacity, dtype=np.int64)
        self.offered = 0
        self._rng = rng

    def __len__(self) -> int:
        return min(self.offered, self.capacity)

    def add(self, obs: npt.NDArray[np.float32], action: int) -> None:
        k = self.offered
        self.offered += 1
        slot = k if k < self.capacity else int(self._rng.integers(0, k + 1))
        if slot < self.capacity:
            self.obs[slot], self.act[slot] = obs, action

    def sample(self, size: int) -> tuple[torch.Tensor, torch.Tensor]:
        idx = self._rng.integers(0, len(self), size=size)
        return torch.from_numpy(self.obs[idx]), torch.from_numpy(self.act[idx])


def train_nfsp(
    out: Path,
    *,
    steps: int | None = 200_000,
    minutes: float | None = None,
    players: int = 4,
    opponents: str = "heuristic",
    envs: int = 64,
    hidden: int = 128,
    eta: float = 0.1,
    epsilon: float = 0.06,
    rl_lr: float = 1e-3,
    sl_lr: float = 5e-4,
    batch: int = 256,
    replay: int = 50_000,
    reservoir: int = 200_000,
    target_every: int = 300,
    seed: int = 0,
    eval_every: int = 20_000,
    eval_matches: int = 256,
    log: Callable[[str], None] = print,
) -> list[CurvePoint]:
    """Train until ``steps`` agent steps or ``minutes`` of this process's CPU time (the
    first to come; at least one: CPU time is the fair budget on a shared machine), save
    the average policy to ``out`` and return its learning curve:
    :func:`~meio.rl.qnet.greedy_score` at the start, every ``eval_every`` steps and at
    the end (the curve's seconds are CPU seconds of training, evaluation not
    counted)."""
    check_budget(steps, minutes)
    check_out(out)
    for name, p in (("eta", eta), ("epsilon", epsilon)):
        if not 0.0 <= p <= 1.0:
            raise LearnerError(f"{name} is a probability, not {p}")
    if batch < 1 or replay < batch:
        raise LearnerError(f"the replay buffer ({replay}) must hold a batch ({batch})")
    if eval_every < 1 or target_every < 1:
        raise LearnerError("eval_every and target_every are positive counts")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    q_net, policy = Net(hidden), Net(hidden)
    target = copy.deepcopy(q_net)
    q_opt = torch.optim.Adam(q_net.parameters(), lr=rl_lr)
    sl_opt = torch.optim.Adam(policy.parameters(), lr=sl_lr)
    venv = VectorEnv(num_envs=envs, players=players, opponents=opponents,
                     seed=seed * 1_000_003, actions="compact")
    r_obs = np.zeros((replay, OBS_SIZE), dtype=np.float32)
    r_next = np.zeros((replay, OBS_SIZE), dtype=np.float32)
    r_mask = np.zeros((replay, N_ACTIONS), dtype=np.bool_)
    r_act = np.zeros(replay, dtype=np.int64)
    r_rew = np.zeros(replay, dtype=np.float32)
    r_end = np.zeros(replay, dtype=np.float32)
    stored = 0
    kept = Reservoir(reservoir, rng)
    best_mode = rng.random(envs) < eta
    updates = 0

    def evaluate() -> float:
        return greedy_score(policy.weights(), players=players, opponents=opponents,
                            matches=eval_matches)

    curve = [CurvePoint(0, 0.0, evaluate())]
    obs, info = venv.reset(seed=seed * 1_000_003)
    done, spent, next_eval = 0, 0.0, eval_every
    start = time.process_time()
    deadline = None if minutes is None else 60.0 * minutes
    while (steps is None or done < steps) and (deadline is None or spent < deadline):
        mask = info["action_mask"].copy()
        o = torch.from_numpy(obs.copy())
        m = torch.from_numpy(mask)
        with torch.no_grad():
            greedy = masked_argmax(q_net(o), m).numpy()
            probs = torch.softmax(policy(o).masked_fill(~m, -torch.inf), dim=-1)
            sampled = torch.multinomial(probs, 1).squeeze(1).numpy()
        act = np.where(best_mode, greedy, sampled)
        for e in np.flatnonzero(best_mode & (rng.random(envs) < epsilon)):
            act[e] = rng.choice(np.flatnonzero(mask[e]))
        for e in np.flatnonzero(best_mode):
            kept.add(obs[e], int(act[e]))
        prev = obs.copy()
        obs, reward, term, _, info = venv.step(act)
        # a finished match's next state is the new match's first: cut by ``end``
        k = (stored + np.arange(envs)) % replay
        r_obs[k], r_act[k], r_rew[k] = prev, act, reward
        r_next[k], r_mask[k], r_end[k] = obs, info["action_mask"], term
        stored += envs
        restart = np.flatnonzero(term)
        best_mode[restart] = rng.random(len(restart)) < eta
        done += envs
        if stored >= batch:
            idx = torch.from_numpy(rng.integers(0, min(stored, replay), size=batch))
            with torch.no_grad():
                nxt = target(torch.from_numpy(r_next[idx])).masked_fill(
                    ~torch.from_numpy(r_mask[idx]), -torch.inf).max(dim=1).values
                goal = torch.from_numpy(r_rew[idx]) + (1 - torch.from_numpy(r_end[idx])) * nxt
            q = q_net(torch.from_numpy(r_obs[idx])).gather(
                1, torch.from_numpy(r_act[idx])[:, None]).squeeze(1)
            q_loss = torch.nn.functional.smooth_l1_loss(q, goal)
            q_opt.zero_grad()
            q_loss.backward()  # type: ignore[no-untyped-call]
            q_opt.step()
            updates += 1
            if updates % target_every == 0:
                target.load_state_dict(q_net.state_dict())
        if len(kept) >= batch:
            s_obs, s_act = kept.sample(batch)
            sl_loss = torch.nn.functional.cross_entropy(policy(s_obs), s_act)
            sl_opt.zero_grad()
            sl_loss.backward()  # type: ignore[no-untyped-call]
            sl_opt.step()
        spent = time.process_time() - start
        if done >= next_eval:
            curve.append(CurvePoint(done, spent, evaluate()))
            log(f"nfsp seed {seed}: {done:>9,} steps {spent:6.0f} s  "
                f"average policy's greedy score {curve[-1].score:.3f}")
            next_eval += eval_every
            start = time.process_time() - spent  # evaluation is not training time
    if curve[-1].steps != done:
        curve.append(CurvePoint(done, spent, evaluate()))
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(out, policy.weights(), players=players)
    return curve


__all__ = ["Reservoir", "train_nfsp"]
