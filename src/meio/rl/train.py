"""Train a small MEIO policy with PPO on the compiled VectorEnv (CPU, PyTorch).

The agent plays seat 0 of MEIO matches against compiled opponents and learns to
keep its |H - V| low (reward: minus its round score). It splits with six
sequential picks (``split_mode="sequential"``), so the policy has 96 outputs: the
83 play, declare and pile actions and the 13 picks; illegal ones are masked.

The policy is saved as a small ``.npz`` that ``make_bot("learned:PATH")`` plays
with NumPy alone (no PyTorch needed to play). A checkpoint to resume from
(``.ckpt.pt``) and a CSV of the learning curve go next to it, and ``plot``
draws the curve. The budget is a number of agent steps (repeatable on any
machine), minutes of wall time, or both; no run writes into the installed
package. ``meio train`` and ``examples/train_ppo.py``
both run :func:`train`. PyTorch comes with the ``rl`` extra (``pip install
'meio[rl]'``); importing this module without it raises ``ModuleNotFoundError``.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

import meio
from meio.bots.learned import LOCAL_ACTIONS, save_policy
from meio.bots.observation import OBS_SIZE
from meio.engine import MatchConfig
from meio.engine.errors import MeioError
from meio.rl import VectorEnv
from meio.sim.batch import simulate

N_LOCAL = len(LOCAL_ACTIONS)


class Policy(nn.Module):
    """A two-layer MLP trunk with a policy head (96 logits) and a value head."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(OBS_SIZE, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.pi = nn.Linear(hidden, N_LOCAL)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        return self.pi(h), self.v(h).squeeze(-1)

    def weights(self) -> dict[str, npt.NDArray[np.float32]]:
        """The policy's layers as the ``.npz`` of :func:`meio.bots.learned.save_policy`."""
        return {
            name: p.detach().numpy().astype(np.float32)
            for name, p in (
                ("w1", self.l1.weight.T), ("b1", self.l1.bias), ("w2", self.l2.weight.T),
                ("b2", self.l2.bias), ("w3", self.pi.weight.T), ("b3", self.pi.bias),
            )
        }


def masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of the legal actions (illegal ones get about -1e9)."""
    return torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=-1)


def reference_scores(players: int, matches: int) -> dict[str, float]:
    """Mean total score of a seat per match: the compiled heuristic at a table of
    compiled heuristics, and a random agent against compiled heuristics."""
    out = {}
    res = simulate(MatchConfig(players=players), matches, seed=99, policy="heuristic")
    out["heuristic"] = float(res.totals[:, 0].mean())
    venv = VectorEnv(num_envs=64, players=players, opponents="heuristic", seed=12345)
    venv.reset()
    returns: list[float] = []
    acc = np.zeros(64)
    while len(returns) < matches:
        _, r, term, _, _ = venv.step(venv.sample_actions(seed=5))
        acc += r
        for i in np.flatnonzero(term):
            returns.append(-acc[i])
            acc[i] = 0.0
    out["random"] = float(np.mean(returns))
    return out


class TrainingError(MeioError, ValueError):
    """Training settings that cannot be used (a clear one-line message)."""


def check_out(out: Path) -> None:
    """Refuse an output path inside the installed meio package: a training run must
    never overwrite the shipped policy (copy a policy there by hand to ship it)."""
    package = Path(meio.__file__).resolve().parent
    target = out.resolve()
    if target == package or package in target.parents:
        raise TrainingError(
            f"{out} is inside the installed meio package ({package}); "
            "save the policy elsewhere and copy it there to ship it"
        )


def checkpoint_path(out: Path) -> Path:
    """Where :func:`train` keeps the checkpoint of the policy saved to ``out``."""
    return out.with_suffix(".ckpt.pt")


#: settings a resumed run must share with the run it continues
_FIXED = ("players", "opponents", "hidden", "envs", "horizon")


def train(
    out: Path,
    *,
    steps: int | None = 5_000_000,
    minutes: float | None = None,
    envs: int = 128,
    horizon: int = 32,
    players: int = 4,
    opponents: str = "heuristic",
    hidden: int = 128,
    lr: float = 5e-4,
    epochs: int = 3,
    minibatch: int = 2048,
    seed: int = 0,
    threads: int = 1,
    reference_matches: int = 2000,
    resume: Path | None = None,
    plot: Path | None = None,
    log: Callable[[str], None] = print,
) -> Path:
    """Train until ``steps`` agent steps (counted in whole updates of ``envs`` x
    ``horizon`` steps) or ``minutes`` of wall time, whichever comes first (at least
    one of them), save the policy to ``out``, a checkpoint to
    :func:`checkpoint_path` and the learning curve (with the random and heuristic
    reference lines) to ``out.with_suffix(".csv")``, which is returned; draw it to
    ``plot`` if given.

    A step budget alone makes a run repeatable: the same settings and seed give
    the same policy, whatever the machine's speed. ``resume`` continues from a
    checkpoint (network, optimiser, step count, curve and random state); its
    matches start anew, so a resumed run is not step for step the run it
    continues, and ``steps`` counts from the start of the first run.
    """
    if steps is None and minutes is None:
        raise TrainingError("give a budget: steps, minutes or both")
    if steps is not None and steps < 1:
        raise TrainingError(f"steps is a positive number of agent steps, not {steps}")
    check_out(out)
    settings = {"players": players, "opponents": opponents, "hidden": hidden,
                "envs": envs, "horizon": horizon}
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    n = envs
    net = Policy(hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    done_steps = 0
    curve: list[tuple[int, float, float]] = []
    finished: list[float] = []
    spent = 0.0  # wall seconds of the runs resumed
    if resume is not None:
        ckpt = _load_checkpoint(resume)
        for key in _FIXED:
            if ckpt["settings"][key] != settings[key]:
                raise TrainingError(
                    f"{resume} was trained with {key}={ckpt['settings'][key]}, "
                    f"not {settings[key]}: resume with the same {key}"
                )
        net.load_state_dict(ckpt["net"])
        opt.load_state_dict(ckpt["opt"])
        torch.set_rng_state(ckpt["rng"])
        done_steps, curve = int(ckpt["steps"]), [tuple(r) for r in ckpt["curve"]]
        finished, spent = list(ckpt["finished"]), float(ckpt["seconds"])
        log(f"resuming {resume} at {done_steps:,} steps")
    # a resumed run plays other matches than the first part did
    venv = VectorEnv(num_envs=n, players=players, opponents=opponents,
                     seed=seed * 1_000_003 + done_steps, split_mode="sequential")
    local = np.array(LOCAL_ACTIONS)
    gamma, lam, clip = 0.997, 0.95, 0.2

    obs_buf = torch.zeros(horizon, n, OBS_SIZE)
    mask_buf = torch.zeros(horizon, n, N_LOCAL, dtype=torch.bool)
    act_buf = torch.zeros(horizon, n, dtype=torch.long)
    logp_buf = torch.zeros(horizon, n)
    val_buf = torch.zeros(horizon, n)
    rew_buf = torch.zeros(horizon, n)
    done_buf = torch.zeros(horizon, n)

    obs, info = venv.reset()
    episode_return = np.zeros(n)
    start = time.perf_counter()
    deadline = None if minutes is None else start + 60.0 * minutes
    out.parent.mkdir(parents=True, exist_ok=True)
    log_path = out.with_suffix(".csv")

    def save() -> None:
        save_policy(out, net.weights(), players=players)
        torch.save({"settings": settings, "net": net.state_dict(), "opt": opt.state_dict(),
                    "rng": torch.get_rng_state(), "steps": done_steps, "curve": curve,
                    "finished": finished[-200:],
                    "seconds": spent + time.perf_counter() - start},
                   checkpoint_path(out))

    while (steps is None or done_steps < steps) and (
            deadline is None or time.perf_counter() < deadline):
        for t in range(horizon):
            o = torch.from_numpy(obs.copy())
            m = torch.from_numpy(info["action_mask"][:, local].copy())
            with torch.no_grad():
                logits, value = net(o)
                logp_all = masked_log_probs(logits, m)
                a = torch.multinomial(logp_all.exp(), 1).squeeze(-1)
            obs_buf[t], mask_buf[t], act_buf[t] = o, m, a
            logp_buf[t] = logp_all.gather(1, a[:, None]).squeeze(1)
            val_buf[t] = value
            obs, reward, term, _, info = venv.step(local[a.numpy()])
            rew_buf[t] = torch.from_numpy(reward.copy())
            done_buf[t] = torch.from_numpy(term.astype(np.float32))
            episode_return += reward
            for i in np.flatnonzero(term):
                finished.append(float(-episode_return[i]))
                episode_return[i] = 0.0
        done_steps += n * horizon
        with torch.no_grad():
            _, next_value = net(torch.from_numpy(obs.copy()))
        adv = torch.zeros(horizon, n)
        last = torch.zeros(n)
        for t in reversed(range(horizon)):
            nv = next_value if t == horizon - 1 else val_buf[t + 1]
            nonterminal = 1.0 - done_buf[t]
            delta = rew_buf[t] + gamma * nv * nonterminal - val_buf[t]
            last = delta + gamma * lam * nonterminal * last
            adv[t] = last
        ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, OBS_SIZE), mask_buf.reshape(-1, N_LOCAL)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        for _ in range(epochs):
            perm = torch.randperm(b_obs.shape[0])
            for k in range(0, b_obs.shape[0], minibatch):
                idx = perm[k : k + minibatch]
                logits, value = net(b_obs[idx])
                logp_all = masked_log_probs(logits, b_mask[idx])
                logp = logp_all.gather(1, b_act[idx][:, None]).squeeze(1)
                ratio = torch.exp(logp - b_logp[idx])
                pg = -torch.min(ratio * b_adv[idx],
                                torch.clamp(ratio, 1 - clip, 1 + clip) * b_adv[idx]).mean()
                vloss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
                loss = pg + 0.5 * vloss - 0.01 * entropy
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        if finished:
            recent = float(np.mean(finished[-200:]))
            elapsed = spent + time.perf_counter() - start
            curve.append((done_steps, elapsed, recent))
            log(f"{elapsed:7.0f}s {done_steps:>10,} steps  mean match score (last 200) "
                f"{recent:.3f}")
            if len(curve) % 20 == 0:
                save()
    save()
    refs = reference_scores(players, reference_matches)
    with log_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["steps", "seconds", "mean_match_score"])
        w.writerows(curve)
        w.writerow([])
        w.writerow(["reference", "random_agent", refs["random"]])
        w.writerow(["reference", "heuristic_agent", refs["heuristic"]])
    log(f"saved {out}, {checkpoint_path(out)} and {log_path}; references {refs}")
    if plot is not None:
        plot_curve(log_path, plot)
    return log_path


def _load_checkpoint(path: Path) -> dict[str, Any]:
    try:
        ckpt = torch.load(path, weights_only=True)
    except FileNotFoundError:
        raise TrainingError(f"there is no checkpoint {path}") from None
    except Exception as exc:  # a torch unpickling error, a truncated file ...
        raise TrainingError(f"{path} is not a meio training checkpoint ({exc})") from None
    if not isinstance(ckpt, dict) or "settings" not in ckpt or "net" not in ckpt:
        raise TrainingError(f"{path} is not a meio training checkpoint")
    return ckpt


def plot_curve(log_path: Path, png: Path) -> None:
    """Draw the learning curve of a training CSV, with the reference lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps, scores, refs = [], [], {}
    with log_path.open() as f:
        for row in csv.reader(f):
            if not row or row[0] == "steps":
                continue
            if row[0] == "reference":
                refs[row[1]] = float(row[2])
            else:
                steps.append(int(row[0]))
                scores.append(float(row[2]))
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.array(steps) / 1e6, scores, label="PPO agent (mean of last 200 matches)")
    styles = {"random_agent": ("random agent", "tab:red"),
              "heuristic_agent": ("compiled heuristic", "tab:green")}
    for key, (label, color) in styles.items():
        if key in refs:
            ax.axhline(refs[key], linestyle="--", color=color, label=label)
    ax.set_xlabel("agent steps (millions)")
    ax.set_ylabel("total score per match (lower is better)")
    ax.set_title("PPO on VectorEnv, MEIO vs compiled opponents")
    ax.legend()
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
