"""Distil search into a policy + value network (PyTorch, CPU), saved as NumPy arrays.

The examples come from a self-play data file (:func:`meio.rl.selfplay.examples`):
for every decision, the observation of the deciding seat's view, its legal local
actions, the teacher's probabilities over them (from its searched values) and the
round's result for that seat. The network is the MLP of :class:`meio.rl.train.Policy`
(the learned bot's file format) with its value head kept: the loss is the
cross-entropy of the masked policy against the teacher's probabilities plus the
squared error of the value. One round in ten (by number) is held out to report the
agreement with the teacher's choice and the value error.

The network ignores the match score (the running totals, victories and round
number of the observation): search judges every decision by the round alone, and
the self-play rounds are first rounds, where those inputs are always 0; their
first-layer weights are zeroed and stay so.

**Augmentation.** Spades, diamonds and clubs play alike (hearts are trumps; the
specials are no suit's), so each decision stands for six: every minibatch is seen
with the three plain suits renamed by one of their six orders
(:class:`SuitSwap`), in its cards, led suit, declared suits and picks.

**Learning from an ensemble too** (``ensemble``): networks trained apart (from
different random weights) err apart, and the mean of their logits plays better than
any of them; a single network learns much of that gain when its target mixes the
teacher's probabilities with the ensemble's (:func:`ensemble_targets`; Hinton, Vinyals
& Dean 2015). docs/bots.md has the measurements.

``meio train --from-selfplay FILE`` runs :func:`distil`. PyTorch comes with the
``rl`` extra; importing this module without it raises ``ModuleNotFoundError``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch

from meio.bots import observation as O
from meio.bots.learned import VALUE_SCALE, LearnedPolicy, load_policy, save_policy
from meio.engine.errors import MeioError
from meio.rl.selfplay import Examples, examples
from meio.rl.train import Policy, masked_log_probs

#: the observation's planes of one entry per card id
CARD_PLANES = (O.HAND, O.PACK, O.RECEIVED, *(O.PLAYED + 65 * r for r in range(O.MAX_SEATS)),
               O.SECOND_HALF, O.TRICK)
#: the plain suits (spades, diamonds, clubs: hearts are trumps)
PLAIN_SUITS = (0, 2, 3)
PICK_OUT = 83


@dataclass(frozen=True, slots=True, eq=False)
class SuitSwap:
    """One renaming of the plain suits, as index arrays over the network's inputs and
    outputs: ``new[:, j] = old[:, obs[j]]`` and ``new[:, j] = old[:, out[j]]``."""

    suits: tuple[int, int, int, int]  #: the new suit of each suit
    obs: npt.NDArray[np.int64]
    out: npt.NDArray[np.int64]
    cards: npt.NDArray[np.int64]  #: the new id of each card id

    @classmethod
    def of(cls, suits: tuple[int, int, int, int]) -> SuitSwap:
        cards = np.array([suits[c // 15] * 15 + c % 15 if c < 60 else c for c in range(65)])
        obs = np.arange(O.OBS_SIZE)
        for plane in CARD_PLANES:
            obs[plane + cards] = plane + np.arange(65)
        obs[O.LED + np.array(suits)] = O.LED + np.arange(4)
        out = np.arange(PICK_OUT + 13)
        out[cards] = np.arange(65)
        for a in range(65, 81):
            slot, suit = divmod(a - 65, 4)
            out[65 + 4 * slot + suits[suit]] = a
        return cls(suits, obs, out, cards)

    def picks(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
        """For split rows: ``new[:, 83 + j] = old[:, 83 + picks[:, j]]`` (a pick is a
        position in the 13 cards sorted by id, and renaming the suits reorders them)."""
        dealt = (obs[:, O.HAND:O.HAND + 65] + obs[:, O.PACK:O.PACK + 65]) > 0
        rows = np.nonzero(dealt)  # each row's 13 card ids, in id order
        old = rows[1].reshape(len(obs), 13)
        new_ids = self.cards[old]
        order = np.argsort(new_ids, axis=1, kind="stable")  # old positions in new order
        out: npt.NDArray[np.int64] = order
        return out


def suit_swaps() -> list[SuitSwap]:
    """The six renamings of the plain suits (the first keeps them)."""
    import itertools

    swaps = []
    for perm in itertools.permutations(PLAIN_SUITS):
        suits = [0, 1, 2, 3]
        for old, new in zip(PLAIN_SUITS, perm, strict=True):
            suits[old] = new
        swaps.append(SuitSwap.of((suits[0], suits[1], suits[2], suits[3])))
    return swaps


#: observation entries of the match score, which the network does not read
MATCH_INPUTS = np.r_[O.TOTALS:O.TOTALS + O.MAX_SEATS, O.VICTORIES:O.VICTORIES + O.MAX_SEATS,
                     O.ROUND:O.ROUND + 1]


class DistilError(MeioError, ValueError):
    """Training settings that cannot work."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a training run did and how well the network learned the teacher."""

    examples: int
    epochs: int
    seconds: float
    agreement: float  #: held-out decisions where the network's choice is the teacher's
    value_error: float  #: held-out root mean squared error of the value, in round points


def network_weights(net: Policy) -> dict[str, npt.NDArray[np.float32]]:
    """The network's layers as a policy file's arrays, value head included."""
    weights = net.weights()
    weights["wv"] = net.v.weight.detach().numpy().T.astype(np.float32)
    weights["bv"] = net.v.bias.detach().numpy().astype(np.float32)
    return weights


def network_from(weights: dict[str, npt.NDArray[np.float32]] | tuple[npt.NDArray[np.float32], ...],
                 value: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] | None = None,
                 ) -> Policy:
    """A PyTorch network holding ``weights`` (a policy file's arrays, in float32)."""
    w = weights if isinstance(weights, tuple) else tuple(weights[n] for n in
                                                         ("w1", "b1", "w2", "b2", "w3", "b3"))
    net = Policy(int(w[0].shape[1]))
    with torch.no_grad():
        for layer, (wt, b) in zip((net.l1, net.l2, net.pi), ((w[0], w[1]), (w[2], w[3]),
                                                             (w[4], w[5])), strict=True):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(wt.T)))
            layer.bias.copy_(torch.from_numpy(b))
        if value is not None:
            net.v.weight.copy_(torch.from_numpy(np.ascontiguousarray(value[0].T)))
            net.v.bias.copy_(torch.from_numpy(value[1]))
    return net


def _narrower(hidden: int, old: int) -> DistilError:
    return DistilError(f"a network can only be widened: {hidden} units is fewer than "
                       f"the starting network's {old}")


def widened(net: Policy, hidden: int, seed: int = 0) -> Policy:
    """``net`` grown to ``hidden`` units a layer, computing exactly what it computed.

    The new units of the first layer start at PyTorch's usual random weights, and so do
    the new second-layer units' inputs; what the new units feed forward (into the old
    second-layer units and into both heads) starts at zero, so the grown network's
    outputs are the old one's until training moves them (Chen, Goodfellow & Shlens 2016,
    Net2Net, with zeros in place of copies)."""
    old = int(net.l1.out_features)
    if hidden < old:
        raise _narrower(hidden, old)
    if hidden == old:
        return net
    with torch.random.fork_rng(devices=[]):  # the caller's random state is left as it was
        torch.manual_seed(seed)
        grown = Policy(hidden)
    with torch.no_grad():
        grown.l1.weight[:old] = net.l1.weight
        grown.l1.bias[:old] = net.l1.bias
        grown.l2.weight[:old, :old] = net.l2.weight
        grown.l2.weight[:old, old:] = 0.0
        grown.l2.bias[:old] = net.l2.bias
        for head, was in ((grown.pi, net.pi), (grown.v, net.v)):
            head.weight[:, :old] = was.weight
            head.weight[:, old:] = 0.0
            head.bias.copy_(was.bias)
    return grown


def swapped(swap: SuitSwap, obs: torch.Tensor, mask: torch.Tensor,
            target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """A batch of inputs, legal masks and targets with the plain suits renamed."""
    if swap.suits == (0, 1, 2, 3):
        return obs, mask, target
    out = torch.from_numpy(swap.out)
    x, m, t = obs[:, torch.from_numpy(swap.obs)], mask[:, out], target[:, out]
    split = torch.nonzero(x[:, O.PHASE] > 0.5)[:, 0]
    if len(split):
        picks = PICK_OUT + torch.from_numpy(swap.picks(obs[split].numpy()))
        m[split, PICK_OUT:] = mask[split].gather(1, picks)
        t[split, PICK_OUT:] = target[split].gather(1, picks)
    return x, m, t


def ensemble_targets(ex: Examples, members: Sequence[LearnedPolicy],
                     weight: float) -> Examples:
    """``ex`` with each target ``(1 - weight) * teacher + weight * ensemble``: the
    ensemble's probabilities are the softmax over the legal actions of the mean of the
    ``members``' logits (as the NumPy bot computes them)."""
    _check_ensemble(members, weight)
    mean = np.zeros(ex.target.shape, dtype=np.float64)
    for i in range(0, len(ex), 4096):  # in blocks: the logits of every example at once are large
        rows = slice(i, i + 4096)
        mean[rows] = sum(p.logits(ex.obs[rows]).astype(np.float64) for p in members)
    mean /= len(members)
    mean[~ex.mask] = -np.inf  # every example has a legal action: each row has a finite max
    probs = np.exp(mean - mean.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    target = ((1.0 - weight) * ex.target + weight * probs).astype(np.float32)
    return Examples(ex.obs, ex.mask, target, ex.value, ex.game)


def _check_ensemble(members: Sequence[object], weight: float) -> None:
    if not 0.0 <= weight <= 1.0:
        raise DistilError(f"the ensemble's weight is between 0 and 1, not {weight}")
    if not members:
        raise DistilError("an ensemble needs at least one network")


def held_out(ex: Examples) -> npt.NDArray[np.bool_]:
    """The examples of the rounds held out for measuring (one round in ten)."""
    return np.asarray(ex.game % 10 == 9)


def distil(data: Path | Sequence[Path] | Examples, out: Path, *, epochs: int = 20,
           hidden: int | None = None, seed: int = 0, minutes: float | None = None,
           batch: int = 512,
           lr: float = 1e-3, value_weight: float = 0.5, players: int = 4, augment: bool = True,
           weight_decay: float = 1e-5, init: Path | None = None,
           ensemble: Sequence[Path] = (), ensemble_weight: float = 0.5,
           log: Callable[[str], None] = lambda _: None) -> Report:
    """Train a network on the examples of ``data`` (a self-play data file, several, or
    their examples) and save it to ``out``; ``init`` starts from the network of a
    policy file (an earlier iteration, or one trained on a cheaper teacher's data)
    instead of random weights. ``hidden`` is the width of the hidden layers: 256 by
    default, or the starting network's, which a larger ``hidden`` widens (:func:`widened`).
    With ``ensemble`` (policy files) the targets mix in the ensemble's probabilities
    with weight ``ensemble_weight`` (:func:`ensemble_targets`); the held-out agreement
    is still with the teacher's best action."""
    if epochs < 1 or (hidden is not None and hidden < 1) or batch < 1:
        raise DistilError("epochs, hidden and batch must be at least 1")
    start_from = None if init is None else load_policy(init)
    if start_from is not None and hidden is not None and hidden < start_from.hidden:
        raise _narrower(hidden, start_from.hidden)  # before the examples: they take minutes
    # a bad ensemble is refused before the examples are read
    members = [load_policy(m) for m in ensemble]
    if members:
        _check_ensemble(members, ensemble_weight)
    ex = data if isinstance(data, Examples) else examples(data)
    teacher = torch.from_numpy(ex.target)  # what the held-out agreement is measured against
    if members:
        ex = ensemble_targets(ex, members, ensemble_weight)
    torch.manual_seed(seed)
    start = time.monotonic()
    test = held_out(ex)
    train = ~test if test.sum() and (~test).sum() else np.ones(len(ex), dtype=bool)
    obs = torch.from_numpy(ex.obs)
    obs[:, MATCH_INPUTS] = 0.0
    mask = torch.from_numpy(ex.mask)
    target = torch.from_numpy(ex.target)
    value = torch.from_numpy(ex.value)
    if start_from is not None:
        net = network_from(start_from.weights, start_from.value_head)
        if hidden is not None:
            net = widened(net, hidden, seed)
    else:
        net = Policy(256 if hidden is None else hidden)
    with torch.no_grad():
        net.l1.weight[:, MATCH_INPUTS] = 0.0
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    rows = torch.from_numpy(np.flatnonzero(train))
    gen = torch.Generator().manual_seed(seed)
    swaps = suit_swaps() if augment else suit_swaps()[:1]
    done = 0
    for epoch in range(epochs):
        net.train()
        order = rows[torch.randperm(len(rows), generator=gen)]
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            swap = swaps[int(torch.randint(len(swaps), (1,), generator=gen))]
            x, m, t = swapped(swap, obs[idx], mask[idx], target[idx])
            logits, v = net(x)
            logp = masked_log_probs(logits, m)
            policy_loss = -(t * logp).sum(-1).mean()
            value_loss = ((v - value[idx]) ** 2).mean()
            loss = policy_loss + value_weight * value_loss
            opt.zero_grad()
            loss.backward()
            with torch.no_grad():
                assert net.l1.weight.grad is not None
                net.l1.weight.grad[:, MATCH_INPUTS] = 0.0
            opt.step()
            total += float(loss.detach()) * len(idx)
        done = epoch + 1
        agreement, error = _measure(net, obs, mask, teacher, value, test)
        log(f"epoch {done}: loss {total / max(len(order), 1):.4f}, held-out agreement "
            f"{agreement:.3f}, value error {error:.3f}")
        if minutes is not None and time.monotonic() - start > 60 * minutes:
            break
    agreement, error = _measure(net, obs, mask, teacher, value, test)
    save_policy(out, network_weights(net), players=players)
    return Report(len(ex), done, time.monotonic() - start, agreement, error)


def _measure(net: Policy, obs: torch.Tensor, mask: torch.Tensor, target: torch.Tensor,
             value: torch.Tensor, test: npt.NDArray[np.bool_]) -> tuple[float, float]:
    rows = torch.from_numpy(np.flatnonzero(test))
    if not len(rows):
        return float("nan"), float("nan")
    net.eval()
    with torch.no_grad():
        logits, v = net(obs[rows])
        choice = logits.masked_fill(~mask[rows], -1e9).argmax(-1)
        # the teacher's best (a pick: any card of the teacher's pack not yet picked)
        chosen = target[rows].gather(1, choice[:, None])[:, 0]
        agree = chosen >= target[rows].max(-1).values - 1e-6
        error = float(((v - value[rows]) ** 2).mean().sqrt()) * VALUE_SCALE
    return float(agree.float().mean()), error
