"""What the baseline learners share: the network, the greedy evaluation, the curve.

Every learner of :mod:`meio.rl.dmc` and :mod:`meio.rl.nfsp` learns on the compact
action space of :class:`~meio.rl.VectorEnv` (``actions="compact"``: 96 actions, the
split as six picks) with a :class:`Net`, the same MLP as the PPO policy of
:mod:`meio.rl.train` (716 → hidden → hidden → 96, ReLU). So each saves its network with
:func:`meio.bots.learned.save_policy`, and ``learned:PATH`` plays it anywhere a bot
plays (``meio bench --bots learned:PATH``): the legal action with the highest output.

:func:`greedy_score` plays such a network (or a uniform random agent) for a fixed
number of matches in the compiled core, always on the same deals for one seed: it is
the learning curve's measure (a seat's mean match score; lower is better).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from meio.bots.learned import LOCAL_ACTIONS
from meio.bots.observation import OBS_SIZE
from meio.engine.errors import MeioError
from meio.rl import VectorEnv

N_ACTIONS = len(LOCAL_ACTIONS)

F32 = npt.NDArray[np.float32]


class LearnerError(MeioError, ValueError):
    """Settings a baseline learner cannot use (a clear one-line message)."""


class Net(nn.Module):
    """An MLP from an observation to one output per compact action: Q-values for a
    value learner, logits for a policy."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        if hidden < 1:
            raise LearnerError(f"hidden is a positive layer width, not {hidden}")
        self.l1 = nn.Linear(OBS_SIZE, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, N_ACTIONS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.l2(torch.relu(self.l1(x)))))  # type: ignore[no-any-return]

    def weights(self) -> dict[str, F32]:
        """The layers as the ``.npz`` of :func:`meio.bots.learned.save_policy`."""
        return {name: p.detach().numpy().astype(np.float32) for name, p in (
            ("w1", self.l1.weight.T), ("b1", self.l1.bias), ("w2", self.l2.weight.T),
            ("b2", self.l2.bias), ("w3", self.out.weight.T), ("b3", self.out.bias))}


def forward(weights: Mapping[str, F32], obs: F32) -> F32:
    """The network of ``weights`` (:meth:`Net.weights`) on a batch of observations, in
    NumPy."""
    h = np.maximum(obs @ weights["w1"] + weights["b1"], 0.0)
    h = np.maximum(h @ weights["w2"] + weights["b2"], 0.0)
    out: F32 = h @ weights["w3"] + weights["b3"]
    return out


def masked_argmax(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The legal action with the highest value, per row."""
    return values.masked_fill(~mask, -torch.inf).argmax(dim=-1)


def check_budget(steps: int | None, minutes: float | None) -> None:
    """Refuse a run with no budget, or with one that is not positive."""
    if steps is None and minutes is None:
        raise LearnerError("give a budget: steps, minutes or both")
    if steps is not None and steps < 1:
        raise LearnerError(f"steps is a positive number of agent steps, not {steps}")
    if minutes is not None and minutes <= 0:
        raise LearnerError(f"minutes is a positive duration, not {minutes}")


def greedy_score(weights: Mapping[str, F32] | None, *, players: int = 4,
                 opponents: str = "heuristic", matches: int = 256, seed: int = 777,
                 envs: int = 64) -> float:
    """A seat's mean match score over ``matches`` matches (the first ``matches`` to
    finish; for one seed always the same deals) when the network of ``weights`` plays
    its highest-valued legal action in seat 0; ``None`` plays uniformly at random."""
    if matches < 1:
        raise LearnerError(f"matches is a positive count, not {matches}")
    venv = VectorEnv(num_envs=min(envs, matches), players=players, opponents=opponents,
                     seed=seed, actions="compact")
    obs, info = venv.reset()
    totals: list[float] = []
    acc = np.zeros(venv.num_envs)
    rng = np.random.default_rng(seed)
    while len(totals) < matches:
        mask = info["action_mask"]
        if weights is None:
            act = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        else:
            act = np.where(mask, forward(weights, obs), -np.inf).argmax(axis=1)
        obs, reward, term, _, info = venv.step(act)
        acc += reward
        for i in np.flatnonzero(term):
            totals.append(-float(acc[i]))
            acc[i] = 0.0
    return float(np.mean(totals[:matches]))


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One point of a learning curve: the agent steps so far, the CPU seconds of training
    so far (evaluation not counted), and :func:`greedy_score` of the network then."""

    steps: int
    seconds: float
    score: float


__all__ = ["N_ACTIONS", "CurvePoint", "LearnerError", "Net", "check_budget", "forward",
           "greedy_score", "masked_argmax"]
