"""How exploitable is a bot? An approximate best response, trained and measured.

No exact exploitability exists for the full game (OpenSpiel's NashConv does not
scale to it), so this module measures a lower bound on it: a learner is trained
against a **frozen** bot sitting in every other seat, with a fixed budget of
learner decisions, and then plays the versioned deal set in each seat in turn
against three copies of the bot. Its *gain* is how many points a round fewer it
scores than the bot itself scores in that seat on the same cards (the bot at a
table of itself). A bigger gain at the same budget is a more exploitable bot; a
gain near 0 says only that this learner at this budget found nothing.

The learner is meio's PPO (:class:`meio.rl.train.Policy`, 96 outputs over the compact
actions) on :class:`~meio.rl.VectorEnv`, the learner in seat 0:

* against ``heuristic`` (``heuristic-v1``) the other seats are the compiled
  heuristic of the core;
* against a network (``learned-v7``, ``ppo-v1``) every seat is an agent seat of
  the env and seats 1-3 are played by the frozen network, greedily over the legal
  compact actions, from their own seat's observation only — as
  :class:`~meio.bots.learned.LearnedBot` plays it.

A learner sees only seat 0's observation. It starts from a policy file
(``init``; by default the bot's own network where it has one, else
``ppo-v1``'s, so that the budget goes into exploiting rather than into learning
the rules) and a fresh critic. Rewards come at the end of each round
(minus the round score); a match is one episode and advantages are GAE over the
learner's own decisions (γ 1, λ 0.95). The learner samples its moves at
``temperature`` 0.3 (its logits divided by it; the policy saved and measured plays
greedily, as the bots do), so that what it learns is what its greedy play does; no
entropy bonus (it starts from a good policy); the values come from a critic of its
own (an MLP 716-128-128-1), and the first ``warmup`` updates fit it alone. The
budget is a number of learner decisions, so a run repeats on any machine (one
PyTorch thread).
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from meio.bots import Bot
from meio.bots.learned import LOCAL_ACTIONS, LearnedBot, load_policy, save_policy
from meio.bots.observation import OBS_SIZE
from meio.bots.versions import resolve
from meio.engine.errors import MeioError
from meio.rl.train import Policy, masked_log_probs
from meio.rl.vector import VectorEnv
from meio.tournament.dealset import load_deal_set
from meio.tournament.runner import deal_seed, make_player, play_deal

N_LOCAL = len(LOCAL_ACTIONS)
#: the bots the compiled core plays itself as opponents
COMPILED = {"heuristic-v1": "heuristic"}


class BestResponseError(MeioError, ValueError):
    """A bot that cannot be the frozen opponent, or settings that cannot be used."""


def frozen_kind(bot: str) -> str:
    """The versioned name of ``bot`` if it can be the frozen opponent (the compiled
    heuristic or a shipped network), else :class:`BestResponseError`."""
    version = resolve(bot)
    if version.name not in COMPILED and version.weights_path is None:
        raise BestResponseError(
            f"{bot} ({version.name}) cannot be the frozen opponent: the approximate best "
            "response plays against heuristic or a shipped network (learned-vN, ppo-vN)")
    return version.name


def default_init(bot: str) -> Path:
    """The policy a best response to ``bot`` starts from: the bot's own network, or
    ``ppo-v1``'s for the heuristic."""
    version = resolve(frozen_kind(bot))
    path = version.weights_path or resolve("ppo-v1").weights_path
    assert path is not None
    return path


def _load_into(net: Policy, path: Path) -> None:
    w1, b1, w2, b2, w3, b3 = load_policy(path).weights
    with torch.no_grad():
        for layer, w, b in ((net.l1, w1, b1), (net.l2, w2, b2), (net.pi, w3, b3)):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))
            layer.bias.copy_(torch.from_numpy(b))


@dataclass(frozen=True, slots=True)
class Episode:
    """The learner's decisions in one match, with the reward that followed each."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    act: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    value: npt.NDArray[np.float32]
    reward: npt.NDArray[np.float32]


class _Collector:
    """Steps a VectorEnv with the learner in seat 0 and the frozen bot elsewhere, and
    hands out the learner's finished matches as :class:`Episode`."""

    def __init__(self, bot: str, envs: int, seed: int) -> None:
        name = frozen_kind(bot)
        self.frozen = None
        if name in COMPILED:
            self.venv = VectorEnv(envs, players=4, opponents=COMPILED[name], seed=seed,
                                  actions="compact")
        else:
            weights = resolve(name).weights_path
            assert weights is not None
            self.frozen = load_policy(weights)
            self.venv = VectorEnv(envs, players=4, seed=seed, seats="all", actions="compact")
        self.obs, self.info = self.venv.reset()
        self.rows: list[list[tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], int, float,
                                   float]]] = [[] for _ in range(envs)]
        self.rewards: list[list[float]] = [[] for _ in range(envs)]

    def step(self, net: Policy, critic: nn.Module, temperature: float) -> list[Episode]:
        """One step of every environment; the matches of the learner that ended."""
        n = self.venv.num_envs
        seat = self.info.get("seat", np.zeros(n, dtype=np.int64))
        mask = self.info["action_mask"]
        mine = np.flatnonzero(seat == 0)
        theirs = np.flatnonzero(seat != 0)
        actions = np.zeros(n, dtype=np.int64)
        if len(mine):
            o = torch.from_numpy(self.obs[mine].copy())
            m = torch.from_numpy(mask[mine].copy())
            with torch.no_grad():
                logits, _ = net(o)
                value = critic(o).squeeze(-1)
                logp_all = masked_log_probs(logits / temperature, m)
                a = torch.multinomial(logp_all.exp(), 1).squeeze(-1)
            logp = logp_all.gather(1, a[:, None]).squeeze(1)
            actions[mine] = a.numpy()
            for j, i in enumerate(mine):
                self.rows[i].append((o[j].numpy(), m[j].numpy(), int(a[j]), float(logp[j]),
                                     float(value[j])))
                self.rewards[i].append(0.0)
        if len(theirs):
            assert self.frozen is not None
            logits_f = self.frozen.logits(self.obs[theirs])
            actions[theirs] = np.argmax(np.where(mask[theirs], logits_f, -np.inf), axis=1)
        self.obs, reward, term, _, self.info = self.venv.step(actions)
        mine_reward = (self.info["seat_rewards"][:, 0] if self.frozen is not None
                       else reward)
        done = []
        for i in np.flatnonzero(mine_reward != 0):
            if self.rewards[i]:  # a round always has a decision of the learner's before it
                self.rewards[i][-1] += float(mine_reward[i])
        for i in np.flatnonzero(term):
            rows = self.rows[i]
            done.append(Episode(
                obs=np.stack([r[0] for r in rows]), mask=np.stack([r[1] for r in rows]),
                act=np.array([r[2] for r in rows], dtype=np.int64),
                logp=np.array([r[3] for r in rows], dtype=np.float32),
                value=np.array([r[4] for r in rows], dtype=np.float32),
                reward=np.array(self.rewards[i], dtype=np.float32)))
            self.rows[i], self.rewards[i] = [], []
        return done


def _advantages(ep: Episode, lam: float) -> npt.NDArray[np.float32]:
    adv = np.zeros(len(ep.reward), dtype=np.float32)
    last = 0.0
    for t in reversed(range(len(ep.reward))):
        nv = 0.0 if t == len(ep.reward) - 1 else float(ep.value[t + 1])
        last = float(ep.reward[t]) + nv - float(ep.value[t]) + lam * last
        adv[t] = last
    return adv


def train_best_response(
    bot: str,
    out: Path,
    *,
    steps: int,
    seed: int = 0,
    envs: int = 64,
    init: Path | None = None,
    lr: float = 1e-4,
    temperature: float = 0.3,
    warmup: int = 2,
    batch: int = 4096,
    epochs: int = 3,
    minibatch: int = 1024,
    log: Callable[[str], None] = print,
) -> Path:
    """Train a best response to ``bot`` for ``steps`` learner decisions (counted in
    whole matches), starting from the policy file ``init`` (its size too); save it as
    a policy file ``out`` (played by ``learned:PATH``) and its curve to
    ``out.with_suffix(".csv")``, which is returned."""
    if steps < 1:
        raise BestResponseError(f"steps is a positive number of learner decisions, not {steps}")
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    init = default_init(bot) if init is None else init
    net = Policy(load_policy(init).hidden)
    _load_into(net, init)
    # a critic of its own: the value loss of a fresh head, sent through the policy's
    # trunk, undid the start (-0.2 points a round against learned-v7 in 30,000 decisions)
    critic = nn.Sequential(nn.Linear(OBS_SIZE, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                           nn.Linear(128, 1))
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3, eps=1e-5)
    coll = _Collector(bot, envs, seed * 1_000_003 + 17)
    done_steps, start = 0, time.process_time()
    pending: list[Episode] = []
    updates = 0
    scores: list[float] = []
    curve: list[tuple[int, float, float]] = []
    clip = 0.2
    while done_steps < steps:
        for ep in coll.step(net, critic, temperature):
            pending.append(ep)
            scores.append(-float(ep.reward.sum()) / 3.0)
            done_steps += len(ep.act)
        if sum(len(e.act) for e in pending) < batch and done_steps < steps:
            continue
        if not pending:
            continue
        b_obs = torch.from_numpy(np.concatenate([e.obs for e in pending]))
        b_mask = torch.from_numpy(np.concatenate([e.mask for e in pending]))
        b_act = torch.from_numpy(np.concatenate([e.act for e in pending]))
        b_logp = torch.from_numpy(np.concatenate([e.logp for e in pending]))
        adv_np = np.concatenate([_advantages(e, 0.95) for e in pending])
        b_ret = torch.from_numpy(adv_np + np.concatenate([e.value for e in pending]))
        b_adv = torch.from_numpy(adv_np)
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        pending = []
        for _ in range(epochs):
            perm = torch.randperm(b_obs.shape[0])
            for k in range(0, b_obs.shape[0], minibatch):
                idx = perm[k : k + minibatch]
                logits, _ = net(b_obs[idx])
                value = critic(b_obs[idx]).squeeze(-1)
                logp_all = masked_log_probs(logits / temperature, b_mask[idx])
                logp = logp_all.gather(1, b_act[idx][:, None]).squeeze(1)
                ratio = torch.exp(logp - b_logp[idx])
                pg = torch.min(ratio * b_adv[idx],
                               torch.clamp(ratio, 1 - clip, 1 + clip) * b_adv[idx]).mean().neg()
                vloss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                critic_opt.zero_grad()
                vloss.backward()
                critic_opt.step()
                # the first updates fit the fresh critic only: a policy step on the
                # advantages of an untrained critic would undo the start it was given
                if updates < warmup:
                    continue
                opt.zero_grad()
                torch.autograd.backward(pg)
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        updates += 1
        recent = float(np.mean(scores[-500:]))
        curve.append((done_steps, time.process_time() - start, recent))
        log(f"{done_steps:>9,} decisions  {curve[-1][1]:6.0f} CPU s  mean round score "
            f"(last 500 matches, sampling) {recent:.3f}")
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(out, net.weights(), players=4)
    path = out.with_suffix(".csv")
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["steps", "cpu_seconds", "mean_round_score"])
        w.writerows(curve)
    return path


@dataclass(frozen=True, slots=True)
class Exploitation:
    """What a best response gained against a bot on the deal set (points a round)."""

    bot: str
    gain: float  #: the bot's mean round score in a seat minus the best response's
    gain_ci95: tuple[float, float]
    bot_score: float  #: the bot at a table of itself, mean round score a seat
    response_score: float  #: the best response in one seat, against the bot
    deals: int
    matches: int


def measure(bot: str, response: Path, *, deals: int = 100, seed: int = 0,
            bootstrap: int = 1000, set_name: str = "meio-bench-v1") -> Exploitation:
    """Play the first ``deals`` 4-player deals of ``set_name``: once with ``bot`` in every
    seat, and once for each seat with the policy file ``response`` there instead. The
    bot in seat s of deal d has the seed ``meio bench`` gives it, in every lineup. The
    interval is a percentile bootstrap over deals (paired: both tables of a deal)."""
    name = frozen_kind(bot)
    table = load_deal_set(set_name).table("meio", 4, False)
    per_deal_gain, bot_scores, br_scores = [], [], []
    for d in range(deals):
        deal = table.deals[d]
        cfg = table.config(deal)

        def seated(br_seat: int | None, d: int = d) -> list[Bot]:
            return [LearnedBot(response, name="best-response") if s == br_seat
                    else make_player(name, deal_seed(seed, d) * 8 + s) for s in range(4)]

        base = play_deal(cfg, deal, seated(None))
        gains = []
        for s in range(4):
            state = play_deal(cfg, deal, seated(s))
            mine = float(np.mean([r.scores[s] for r in state.rounds]))
            theirs = float(np.mean([r.scores[s] for r in base.rounds]))
            br_scores.append(mine)
            bot_scores.append(theirs)
            gains.append(theirs - mine)
        per_deal_gain.append(float(np.mean(gains)))
    g = np.array(per_deal_gain)
    rng = np.random.default_rng(seed)
    boots = g[rng.integers(0, len(g), size=(bootstrap, len(g)))].mean(axis=1)
    low, high = np.percentile(boots, [2.5, 97.5])
    return Exploitation(name, float(g.mean()), (float(low), float(high)),
                        float(np.mean(bot_scores)), float(np.mean(br_scores)), deals,
                        deals * 5)


def report(result: Exploitation, *, command: str, steps: int, seeds: Sequence[int],
           cpu_seconds: float) -> dict[str, object]:
    """The JSON document of one measured best response (``meio-best-response/1``)."""
    doc: dict[str, object] = {"format": "meio-best-response/1", "command": command,
                              "steps": steps, "seeds": list(seeds),
                              "train_cpu_s": round(cpu_seconds, 1)}
    for key, value in asdict(result).items():
        doc[key] = [round(v, 4) for v in value] if isinstance(value, tuple) else (
            round(value, 4) if isinstance(value, float) else value)
    doc["bot_versions"] = {result.bot: resolve(result.bot).to_json()}
    return doc


def dump(doc: dict[str, object], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")


__all__ = ["BestResponseError", "Exploitation", "default_init", "frozen_kind", "measure",
           "report", "train_best_response"]
