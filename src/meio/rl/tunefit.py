"""The training step of ``meio train --variant`` (:mod:`meio.rl.tune`): the general
network fitted to a ruleset's examples in a time budget.

From the network at ``init`` (the shipped one), two heads share the trunk: an
*imitation* head learns the heuristic's card actions and the split teacher's picks
(cross-entropy), a *value* head regresses each legal card action's result (centred over
the legal actions, round points), and the value head of the file the played action's
result / 10. The saved card logits are ``weight x imitation - values`` (the weight
chosen on held-out games, :data:`WEIGHTS`), the picks the imitation's: both heads are
linear, so their sum is one layer and the file has the usual shape. Inputs that never
vary on the ruleset's tables fold into the first layer's bias while training (exactly:
the saved network computes the same function), which halves the first layer's cost.
One game in ten is held out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from meio.bots.attributes import ANY_SIZE
from meio.bots.general import (
    GENERAL_POLICY,
    OUTPUTS,
    PICK_BASE,
    VALUE_SCALE,
    load_general,
    save_general,
)
from meio.engine.errors import MeioError
from meio.rl.rows import Rows

F16 = npt.NDArray[np.float16]
F32 = npt.NDArray[np.float32]


#: the kinds of example
CARD, PICK = 0, 1


class TuneError(MeioError, ValueError):
    """Tuning settings that cannot work."""


@dataclass(frozen=True, slots=True, eq=False)
class Examples(Rows):
    """Decisions for training: the deciding seat's observation (float16), the legal
    outputs, the target (a card decision: each legal action's result, round points,
    lower is better; a pick: the target probabilities), the kind (:data:`CARD`,
    :data:`PICK`), the value target (round points), the game it comes from, the
    heuristic's action (a card decision; -1 for a pick) and the table's size."""

    x: F16
    mask: npt.NDArray[np.bool_]
    target: F32
    kind: npt.NDArray[np.int8]
    value: F32
    game: npt.NDArray[np.int64]
    chosen: npt.NDArray[np.int16]
    players: npt.NDArray[np.int8]

    Empty: ClassVar[type[Exception]] = TuneError


@dataclass(frozen=True, slots=True)
class Report:
    """What :func:`fit` did: examples, passes over them, seconds, the weight of the
    heuristic's imitation in the saved card logits (:data:`WEIGHTS`), and on the
    held-out games the saved card policy's mean regret (round points against the best
    action's result in the true deal) beside the heuristic's own, and the picks'
    agreement with the split teacher."""

    examples: int
    epochs: float
    seconds: float
    weight: float
    regret: float
    heuristic_regret: float
    pick_agreement: float


#: the weights tried for the imitation head in the saved card logits (``weight x
#: imitation logits - values``), the one with the least held-out regret kept
WEIGHTS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)


def fit(data: Examples, out: Path, *, init: Path = GENERAL_POLICY, minutes: float = 5.0,
        batch: int = 512, lr: float = 5e-4, seed: int = 0,
        log: Callable[[str], None] = lambda _: None) -> Report:
    """Train the network at ``init`` on ``data`` for about ``minutes`` and save it at
    ``out``.

    Two heads share the trunk: the *imitation* head learns the heuristic's card
    actions and the split teacher's picks (cross-entropy), the *value* head regresses
    each legal card action's result (centred over the legal actions). The saved
    network's card logits are ``weight x imitation - values``: the heuristic's action
    holds unless an other's expected result is better by more than the imitation's
    margin, the ``weight`` (of :data:`WEIGHTS`) chosen for the least regret on the
    held-out games (at 4 players when there are any); its picks are the imitation's.
    One head of each is linear, so their sum is one layer: the file has the usual
    shape."""
    import torch

    if minutes <= 0 or batch < 1:
        raise TuneError("minutes must be positive and batch at least 1")
    begin = time.monotonic()
    threads = torch.get_num_threads()
    # one thread: on a shared machine two threads wait on each other (12x slower, measured)
    torch.set_num_threads(1)
    try:
        return _fit(data, out, init, minutes, batch, lr, seed, log, begin)
    finally:
        torch.set_num_threads(threads)


def _fit(data: Examples, out: Path, init: Path, minutes: float, batch: int, lr: float,
         seed: int, log: Callable[[str], None], begin: float) -> Report:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    start = load_general(init)
    w = start.weights
    x_all = data.x
    varying = np.flatnonzero((x_all != x_all[:1]).any(axis=0))
    fixed = np.setdiff1d(np.arange(ANY_SIZE), varying)
    constant = x_all[0, fixed].astype(np.float32)
    fold = constant @ w[0][fixed]  # the fixed inputs' share of the first layer

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.l1 = nn.Linear(len(varying), start.hidden)
            self.l2 = nn.Linear(start.hidden, start.hidden)
            self.pi = nn.Linear(start.hidden, OUTPUTS)
            self.q = nn.Linear(start.hidden, OUTPUTS)
            self.v = nn.Linear(start.hidden, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            h = torch.relu(self.l2(torch.relu(self.l1(x))))
            return self.pi(h), self.q(h), self.v(h).squeeze(-1)

    net = Net()

    def put(layer: nn.Linear, weight: F32, bias: F32) -> None:
        layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(weight.T)))
        layer.bias.copy_(torch.from_numpy(bias))

    with torch.no_grad():
        put(net.l1, w[0][varying], w[1] + fold)
        put(net.l2, w[2], w[3])
        put(net.pi, w[4], w[5])
        net.q.weight.zero_()
        net.q.bias.zero_()
        if start.value_head is not None:
            put(net.v, *start.value_head)
    x = torch.from_numpy(np.ascontiguousarray(x_all[:, varying]))
    mask = torch.from_numpy(data.mask)
    target = torch.from_numpy(data.target)
    card = torch.from_numpy(data.kind == CARD)
    chosen = torch.from_numpy(np.maximum(data.chosen, 0).astype(np.int64))
    value = torch.from_numpy(data.value / VALUE_SCALE)
    test = data.game % 10 == 9
    if not test.any() or test.all():
        test = np.zeros(len(data), dtype=bool)
    rows = torch.from_numpy(np.flatnonzero(~test))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-5)
    gen = torch.Generator().manual_seed(seed)
    budget = 60 * minutes - (time.monotonic() - begin)

    def loss_of(idx: torch.Tensor) -> Any:
        logits, q, v = net(x[idx].float())
        m = mask[idx]
        is_card = card[idx]
        t = target[idx]
        mf = m.float()
        n = mf.sum(-1).clamp(min=1.0)
        # the value head: centred outputs regress minus the centred results
        qbar = (q * mf).sum(-1) / n
        tbar = (t * mf).sum(-1) / n
        d = ((q - qbar[:, None]) + (t - tbar[:, None])) * mf
        q_loss = ((d * d).sum(-1) / n)[is_card]
        # the imitation head: the heuristic's card actions, the teacher's picks
        logp = torch.log_softmax(logits.masked_fill(~m, -1e9), dim=-1)
        card_ce = -logp.gather(1, chosen[idx][:, None])[:, 0][is_card]
        pick_ce = -(t * logp).sum(-1)[~is_card]
        total = (q_loss.sum() + card_ce.sum() + pick_ce.sum()
                 + 0.5 * ((v - value[idx]) ** 2).sum())
        return total / len(idx)

    steps = seen = 0
    done = len(rows) == 0
    while not done:
        order = rows[torch.randperm(len(rows), generator=gen)]
        for i in range(0, len(order), batch):
            elapsed = time.monotonic() - begin
            if elapsed > budget:
                done = True
                break
            for group in opt.param_groups:  # cosine decay over the budget
                group["lr"] = lr * 0.5 * (1 + np.cos(np.pi * min(elapsed / budget, 1.0)))
            loss = loss_of(order[i:i + batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
            seen += len(order[i:i + batch])
            if steps % 500 == 0:
                log(f"{seen / len(rows):.2f} passes, loss {float(loss.detach()):.4f}")
    net.eval()
    held = np.flatnonzero(test)
    with torch.no_grad():
        pi_h, q_h = [], []
        for i in range(0, len(held), 4096):
            p, q, _ = net(x[torch.from_numpy(held[i:i + 4096])].float())
            pi_h.append(p.numpy())
            q_h.append(q.numpy())
    weight, regret, base, agree = _choose_weight(
        data, held, np.concatenate(pi_h) if pi_h else np.zeros((0, OUTPUTS), np.float32),
        np.concatenate(q_h) if q_h else np.zeros((0, OUTPUTS), np.float32))
    log(f"held out: card regret {regret:.3f} at weight {weight} (heuristic {base:.3f}), "
        f"pick agreement {agree:.3f}")
    plays = np.arange(OUTPUTS) < PICK_BASE
    wp, bp = net.pi.weight.detach().numpy().T, net.pi.bias.detach().numpy()
    wq, bq = net.q.weight.detach().numpy().T, net.q.bias.detach().numpy()
    w3 = np.where(plays[None, :], weight * wp + wq, wp)
    b3 = np.where(plays, weight * bp + bq, bp)
    w1 = w[0].copy()
    w1[varying] = net.l1.weight.detach().numpy().T
    b1 = net.l1.bias.detach().numpy() - fold
    save_general(out, {"w1": w1, "b1": b1, "w2": net.l2.weight.detach().numpy().T,
                       "b2": net.l2.bias.detach().numpy(), "w3": w3, "b3": b3,
                       "wv": net.v.weight.detach().numpy().T,
                       "bv": net.v.bias.detach().numpy()})
    return Report(len(data), seen / max(len(rows), 1), time.monotonic() - begin, weight,
                  regret, base, agree)


def _choose_weight(data: Examples, held: npt.NDArray[np.intp], pi: F32, q: F32
                   ) -> tuple[float, float, float, float]:
    """The imitation weight (of :data:`WEIGHTS`) whose card choices lose least to the
    best action on the held-out examples ``held`` (those at 4 players when there are
    any; ``pi`` and ``q`` their two heads' outputs), that least regret, the heuristic's
    own there, and the picks' agreement with the teacher."""
    kind = data.kind[held]
    cards = kind == CARD
    if (data.players[held][cards] == 4).any():
        cards &= data.players[held] == 4
    agree = float("nan")
    picks = kind == PICK
    if picks.any():
        logits = np.where(data.mask[held][picks], pi[picks], -np.inf)
        t = data.target[held][picks]
        got = t[np.arange(len(t)), logits.argmax(axis=1)]
        agree = float((got >= t.max(axis=1) - 1e-6).mean())
    if not cards.any():
        return 1.0, float("nan"), float("nan"), agree
    m = data.mask[held][cards]
    t = data.target[held][cards]
    best = np.where(m, t, np.inf).min(axis=1)
    base = float((data.value[held][cards] - best).mean())
    found: tuple[float, float] | None = None
    for weight in WEIGHTS:
        logits = np.where(m, weight * pi[cards] + q[cards], -np.inf)
        regret = float((t[np.arange(len(t)), logits.argmax(axis=1)] - best).mean())
        if found is None or regret < found[1]:
            found = (weight, regret)
    assert found is not None
    return found[0], found[1], base, agree


__all__ = ["CARD", "PICK", "WEIGHTS", "Examples", "Report", "TuneError", "fit"]
