"""PPO with an action mask on the compiled vector env, in CleanRL's single-file style.

The environment is ``gym.make_vec("meio/Meio-v0", num_envs=N)``: the compiled
:class:`meio.rl.VectorEnv`, a Gymnasium vector env whose autoreset mode is
``SAME_STEP`` (a finished match's next one starts in the same step, so a done
flag cuts the bootstrap and nothing else needs care). Illegal actions are masked
out of the policy's logits, as in CleanRL's invalid-action-masking variant.

    .venv/bin/python examples/cleanrl_ppo.py --total-steps 200000 --envs 64
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import meio.rl


@dataclass
class Args:
    total_steps: int = 100_000
    envs: int = 32
    steps: int = 32  # per environment per rollout
    players: int = 4
    opponents: str = "heuristic"
    seed: int = 1
    lr: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    epochs: int = 2
    minibatches: int = 4
    clip: float = 0.2
    entropy: float = 0.01
    hidden: int = 64
    actions: str = "flat"  # or "compact": 96 actions (the split as six picks), not 1,812


class Agent(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, actions)
        self.critic = nn.Linear(hidden, 1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(obs)).squeeze(-1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.actor(h).masked_fill(~mask, -1e9)  # illegal actions get no mass
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)


def train(args: Args) -> dict[str, float]:
    """Run PPO for ``args.total_steps`` agent steps; returns what it saw."""
    torch.manual_seed(args.seed)
    envs = gym.make_vec(meio.rl.ENV_ID, num_envs=args.envs, players=args.players,
                        opponents=args.opponents, seed=args.seed, actions=args.actions)
    obs_size = envs.single_observation_space.shape[0]
    n_actions = int(envs.single_action_space.n)
    agent = Agent(obs_size, n_actions, args.hidden)
    optim = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t_len = args.envs, args.steps
    obs_buf = torch.zeros((t_len, n, obs_size))
    mask_buf = torch.zeros((t_len, n, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((t_len, n)) for _ in range(4))
    obs_np, info = envs.reset(seed=args.seed)
    obs, mask = torch.tensor(obs_np), torch.tensor(info["action_mask"])
    returns, episode_returns, steps, start = np.zeros(n), [], 0, time.perf_counter()
    cpu_start = time.process_time()
    while steps < args.total_steps:
        for t in range(t_len):
            obs_buf[t], mask_buf[t] = obs, mask
            with torch.no_grad():
                action, logp, _, value = agent.act(obs, mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs_np, reward, term, trunc, info = envs.step(action.numpy())
            done = term | trunc
            returns += reward
            episode_returns += [float(r) for r in returns[done]]
            returns[done] = 0.0
            rew_buf[t], done_buf[t] = torch.tensor(reward), torch.tensor(done, dtype=torch.float32)
            obs, mask = torch.tensor(obs_np), torch.tensor(info["action_mask"])
            steps += n
        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.value(obs)
            adv = torch.zeros((t_len, n))
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nv = next_value if t == t_len - 1 else val_buf[t + 1]
                live = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * live - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * live * last
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, obs_size), mask_buf.reshape(-1, n_actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        size = t_len * n
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for mb in order.split(size // args.minibatches):
                _, logp, entropy, value = agent.act(b_obs[mb], b_mask[mb], b_act[mb])
                ratio = (logp - b_logp[mb]).exp()
                a = b_adv[mb]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = 0.5 * (value - b_ret[mb]).pow(2).mean()
                loss = pg + 0.5 * v_loss - args.entropy * entropy.mean()
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optim.step()
    envs.close()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {"steps": float(steps), "episodes": float(len(episode_returns)),
            "mean_return": float(np.mean(episode_returns)) if episode_returns else 0.0,
            "steps_per_second": steps / seconds, "steps_per_cpu_second": steps / cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in vars(Args()).items():
        ap.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    stats = train(Args(**vars(ap.parse_args())))
    print(", ".join(f"{k} {v:,.1f}" for k, v in stats.items()))


if __name__ == "__main__":
    main()
