"""Training the network for any ruleset (:mod:`meio.bots.general`): generated rulesets,
search as the teacher, distillation into the general network, and ``meio train
--variant FILE`` (:func:`improve`), which tunes it for one ruleset in a time budget
from games in the compiled core (its recipe: :mod:`meio.rl.tune`).

**Rulesets.** :func:`random_ruleset` starts from an edition's preset (the box edition
four times in five) and changes two to four of its rules, each drawn from: the hand
split (4 to 9 cards in the first half), the trump suit (or none), one special card
redefined (its value in each half or "above", a suit or wild, whether it follows, its
pile effect), the scoring form (and bonus), the leader rule, the wild-lead and
reveal-specials options. The rulesets of ``bench/rulesets/`` and
``examples/variants/six-seven.toml`` (:data:`HELD_OUT`) are never drawn, nor an
edition (``learned-v7`` plays those): the generator redraws them, so the benchmarks
measure rulesets the network never trained on. A table is drawn at 4 players two times in three,
else 2, 3 or 5, or a partnership.

**Teacher.** Every seat is a search bot (:class:`~meio.bots.search.SearchBot` at
:data:`TEACHER`: 48 worlds of 2 playouts a card, the split among the ruleset
heuristic's 10 best packs over 60 worlds), whose playouts run the ruleset's heuristic
in the compiled core. For a card, declare or pile decision the target is the softmax
of its searched values at :data:`TEMPERATURE`; for the split, the teacher's pack is
taken as ``pack`` sequential picks in a random order, the target spread evenly over
the pack's cards not yet picked (as :mod:`meio.rl.selfplay` does). The value target is
the round's result for the seat, as search judges it, / 10. Inputs are built from
the deciding seat's view only (:func:`~meio.bots.attributes.observe_any`).

**Training.** The MLP of :mod:`meio.bots.general`; cross-entropy of the masked policy
plus half the squared value error, AdamW; one round in ten held out to report the
agreement with the teacher. PyTorch comes with the ``rl`` extra.
"""

from __future__ import annotations

import copy
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import numpy.typing as npt

from meio.bots.attributes import ANY_SIZE, observe_any
from meio.bots.general import (
    GENERAL_POLICY,
    OUTPUTS,
    PICK_BASE,
    VALUE_SCALE,
    load_general,
    save_general,
)
from meio.bots.search import Level, SearchBot
from meio.engine import MatchConfig, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.presets import is_standard, preset
from meio.engine.ruleset import LEADER_RULES, PILE_EFFECTS, WILD_CODES, Variant
from meio.engine.ruleset_file import parse_variant, variant_from_json, variant_json
from meio.rl.rows import Rows

if TYPE_CHECKING:
    from meio.rl.tunefit import Report as TuneReport

F16 = npt.NDArray[np.float16]
#: the teacher's budget a decision
TEACHER = Level(card_worlds=48, card_playouts=2, split_candidates=10, split_worlds=60,
                split_playouts=1)
#: the temperature (round points) that turns searched values into target probabilities
TEMPERATURE = 0.3

_HERE = Path(__file__).resolve().parents[3]
#: the rulesets the generator never draws (the benchmarks' held-out rulesets), as TOML
HELD_OUT_TOML: tuple[str, ...] = (
    'preset = "meio"\n[hand]\nfirst_half = 6\npack = 7\n',
    'preset = "meio"\ntrump = "none"\n',
    'preset = "meio"\n[[special]]\ncode = "-2H"\nname = "the traveller"\nvalue = 13.5\n'
    'suit = "D"\nfollows = false\npile = "other_half"\n[[special]]\npreset = "-1"\n'
    '[[special]]\npreset = "A+"\n[[special]]\npreset = "+.5"\n[[special]]\npreset = "Q+"\n',
)


class GeneralTrainingError(MeioError, ValueError):
    """Training settings that cannot work."""


def _key(variant: Variant) -> str:
    doc = variant_json(variant)
    doc.pop("name")
    for special in doc["special"]:
        special.pop("name", None)
    return repr(doc)


HELD_OUT: frozenset[str] = frozenset(_key(parse_variant(t)) for t in HELD_OUT_TOML)


def is_held_out(variant: Variant) -> bool:
    """Whether ``variant`` is one of the rulesets training never sees (names aside)."""
    return _key(variant) in HELD_OUT


def _value(rng: random.Random) -> object:
    if rng.random() < 0.15:
        return "above"
    return rng.randint(-4, 30) / 2


def _mutate(doc: dict[str, Any], rng: random.Random, kind: str) -> None:
    if kind == "split":
        first = rng.randint(4, 9)
        doc["hand"] = {"size": doc["hand"]["size"], "first_half": first,
                       "pack": doc["hand"]["size"] - first}
    elif kind == "trump":
        doc["trump"] = rng.choice(["S", "D", "C", "none"])
    elif kind == "special" and doc["special"]:
        i = rng.randrange(len(doc["special"]))
        code = doc["special"][i]["code"]
        wild = code in WILD_CODES and rng.random() < 0.5
        one = _value(rng)
        entry: dict[str, Any] = {
            "code": code, "name": "drawn",
            "value": one if rng.random() < 0.5 else [one, _value(rng)],
            "suit": "wild" if wild else rng.choice("SHDC"),
            "pile": rng.choice(PILE_EFFECTS),
        }
        if not wild:
            entry["follows"] = rng.random() < 0.5
        doc["special"][i] = entry
    elif kind == "scoring":
        form = rng.choice(["balance_bonus", "squared"])
        doc["scoring"] = {"form": form} | ({"bonus": rng.randint(1, 3)}
                                           if form == "balance_bonus" else {})
    elif kind == "leader":
        doc["leader"] = rng.choice([r for r in LEADER_RULES if r != doc["leader"]])
    elif kind == "options":
        doc["options"] = {"wild_lead": rng.choice(["declare", "next"]),
                          "reveal_specials": rng.random() < 0.7}


MUTATIONS = ("split", "trump", "special", "special", "scoring", "leader", "options")


def random_ruleset(rng: random.Random) -> Variant:
    """A ruleset drawn as the module docstring says (never one of :data:`HELD_OUT`, nor
    an edition)."""
    while True:
        base = "meio" if rng.random() < 0.8 else "classic"
        doc = copy.deepcopy(variant_json(preset(base)))
        doc["name"] = "drawn"
        for kind in rng.sample(MUTATIONS, rng.randint(2, 4)):
            _mutate(doc, rng, kind)
        variant = variant_from_json(doc, "drawn")
        if not is_held_out(variant) and not is_standard(variant):
            return variant


def random_table(variant: Variant, rng: random.Random) -> MatchConfig:
    """A table of ``variant``: 4 players two times in three where it has that deck."""
    sizes = variant.players
    players = 4 if 4 in sizes and rng.random() < 2 / 3 else rng.choice(sizes)
    partnership = players == 4 and variant.partnership and rng.random() < 0.15
    return MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                       variant=variant, options=variant.options, seed=rng.getrandbits(62))


@dataclass(frozen=True, slots=True, eq=False)
class Batch(Rows):
    """Training examples: inputs (float16), legal outputs, targets, value targets and
    the round each comes from."""

    x: F16
    mask: npt.NDArray[np.bool_]
    target: F16
    value: npt.NDArray[np.float32]
    game: npt.NDArray[np.int32]

    Empty: ClassVar[type[Exception]] = GeneralTrainingError


def objective(scores: tuple[int, ...], seat: int, config: MatchConfig) -> float:
    """The round result as search judges it for ``seat`` (lower is better)."""
    own = scores[seat]
    if config.players == 2 or config.partnership:
        return float(own - scores[(seat + 1) % config.players])
    return float(own)


def play_round(config: MatchConfig, game: int, seed: int) -> Batch:
    """One round of ``config`` with the teacher in every seat, as examples."""
    bots = [SearchBot(seed * 8 + p, 1, budget=TEACHER) for p in range(config.players)]
    pick_rng = random.Random(seed)
    state = State.new(config)
    rows: list[tuple[int, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                     npt.NDArray[np.float32]]] = []
    while not state.rounds:
        seat = state.current_seat()
        view = state.view(seat)
        legal = view.legal_actions()
        if view.phase is Phase.SPLIT:
            action = bots[seat].choose(view, legal)
            pack = C.cards_of(A.pack_of(action))
            order = list(pack)
            pick_rng.shuffle(order)
            picked = 0
            for card in order:
                mask = np.zeros(OUTPUTS, dtype=bool)
                for c in C.iter_cards(view.hand & ~picked):
                    mask[PICK_BASE + c] = True
                target = np.zeros(OUTPUTS, dtype=np.float32)
                left = [c for c in pack if not picked >> c & 1]
                target[[PICK_BASE + c for c in left]] = 1.0 / len(left)
                rows.append((seat, observe_any(view, picked=picked), mask, target))
                picked |= 1 << card
        elif len(legal) > 1:
            options, scores = bots[seat].card_values(view, legal)
            action = options[int(np.argmin(scores))]
            p = np.exp(-(scores - scores.min()) / TEMPERATURE)
            mask = np.zeros(OUTPUTS, dtype=bool)
            mask[options] = True
            target = np.zeros(OUTPUTS, dtype=np.float32)
            target[options] = p / p.sum()
            rows.append((seat, observe_any(view), mask, target))
        else:
            action = legal[0]
        state.apply(action, seat)
    result = state.rounds[0].scores
    return Batch(np.stack([r[1] for r in rows]).astype(np.float16), np.stack([r[2] for r in rows]),
                 np.stack([r[3] for r in rows]).astype(np.float16),
                 np.array([objective(result, r[0], config) / VALUE_SCALE for r in rows],
                          dtype=np.float32),
                 np.full(len(rows), game, dtype=np.int32))


def _job(args: tuple[Variant | None, int, int]) -> Batch:
    variant, seed, game = args
    rng = random.Random(seed * 1_000_003 + game)
    config = random_table(variant if variant is not None else random_ruleset(rng), rng)
    return play_round(config, game, rng.getrandbits(40))


def generate(minutes: float, *, variant: Variant | None = None, seed: int = 0, jobs: int = 1,
             games: int | None = None, first: int = 0,
             log: Callable[[str], None] = lambda _: None) -> Batch:
    """Rounds of teacher play for ``minutes`` of wall time (or ``games`` rounds, whichever
    ends first): on ``variant``'s tables, else on a random ruleset each round. Round ``g``
    is fixed by ``(seed, g)``, whatever ``jobs`` is."""
    if minutes <= 0 or jobs < 1:
        raise GeneralTrainingError("minutes must be positive and jobs at least 1")
    deadline = time.monotonic() + 60 * minutes
    parts: list[Batch] = []
    for part in _rounds(variant, seed, first, games, jobs, deadline):
        parts.append(part)
        if len(parts) % 25 == 0:
            log(f"{len(parts)} rounds, {sum(len(p) for p in parts)} examples")
    return Batch.join(parts)


def _rounds(variant: Variant | None, seed: int, first: int, games: int | None, jobs: int,
            deadline: float) -> Iterator[Batch]:
    numbers = iter(range(first, first + games) if games is not None else _count(first))
    if jobs == 1:
        for g in numbers:
            if time.monotonic() > deadline:
                return
            yield _job((variant, seed, g))
        return
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        running: set[Future[Batch]] = set()
        for _ in range(jobs):
            start = next(numbers, None)
            if start is not None:
                running.add(pool.submit(_job, (variant, seed, start)))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                more = next(numbers, None)
                if more is not None and time.monotonic() < deadline:
                    running.add(pool.submit(_job, (variant, seed, more)))


def _count(start: int) -> Iterator[int]:
    n = start
    while True:
        yield n
        n += 1


@dataclass(frozen=True, slots=True)
class Report:
    """What a training run did: examples, epochs, seconds, held-out agreement with the
    teacher's best action and the value's root mean squared error in round points."""

    examples: int
    epochs: int
    seconds: float
    agreement: float
    value_error: float


def train(data: Batch, out: Path, *, init: Path | None = None, hidden: int = 256,
          epochs: int = 30, minutes: float | None = None, batch: int = 256, lr: float = 1e-3,
          seed: int = 0, log: Callable[[str], None] = lambda _: None) -> Report:
    """Distil ``data`` into a general network saved at ``out``, from ``init``'s weights
    (a general network file) or from random ones."""
    import torch
    from torch import nn

    if epochs < 1 or hidden < 1 or batch < 1:
        raise GeneralTrainingError("epochs, hidden and batch must be at least 1")
    torch.manual_seed(seed)
    start_from = load_general(init) if init is not None else None
    width = start_from.hidden if start_from is not None else hidden

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.l1 = nn.Linear(ANY_SIZE, width)
            self.l2 = nn.Linear(width, width)
            self.pi = nn.Linear(width, OUTPUTS)
            self.v = nn.Linear(width, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = torch.relu(self.l2(torch.relu(self.l1(x))))
            return self.pi(h), self.v(h).squeeze(-1)

    net = Net()
    if start_from is not None:
        with torch.no_grad():
            w = start_from.weights
            for layer, (wt, b) in zip((net.l1, net.l2, net.pi),
                                      ((w[0], w[1]), (w[2], w[3]), (w[4], w[5])), strict=True):
                layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(wt.T)))
                layer.bias.copy_(torch.from_numpy(b))
            if start_from.value_head is not None:
                net.v.weight.copy_(torch.from_numpy(np.ascontiguousarray(
                    start_from.value_head[0].T)))
                net.v.bias.copy_(torch.from_numpy(start_from.value_head[1]))
    begin = time.monotonic()
    test = data.game % 10 == 9
    if not test.any() or test.all():
        test = np.zeros(len(data), dtype=bool)
    x = torch.from_numpy(data.x)
    mask = torch.from_numpy(data.mask)
    target = torch.from_numpy(data.target)
    value = torch.from_numpy(data.value)
    rows = torch.from_numpy(np.flatnonzero(~test))
    held = torch.from_numpy(np.flatnonzero(test))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-5)
    gen = torch.Generator().manual_seed(seed)

    def measure() -> tuple[float, float]:
        if not len(held):
            return float("nan"), float("nan")
        net.eval()
        with torch.no_grad():
            logits, v = net(x[held].float())
            choice = logits.masked_fill(~mask[held], -1e9).argmax(-1)
            t = target[held].float()
            chosen = t.gather(1, choice[:, None])[:, 0]
            agree = float((chosen >= t.max(-1).values - 1e-3).float().mean())
            error = float(((v - value[held]) ** 2).mean().sqrt()) * VALUE_SCALE
        net.train()
        return agree, error

    done = 0
    for epoch in range(epochs):
        order = rows[torch.randperm(len(rows), generator=gen)]
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            logits, v = net(x[idx].float())
            logp = torch.log_softmax(logits.masked_fill(~mask[idx], -1e9), dim=-1)
            loss = -(target[idx].float() * logp).sum(-1).mean() \
                + 0.5 * ((v - value[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        done = epoch + 1
        agree, error = measure()
        log(f"epoch {done}: loss {total / max(len(order), 1):.4f}, held-out agreement "
            f"{agree:.3f}, value error {error:.3f}")
        if minutes is not None and time.monotonic() - begin > 60 * minutes:
            break
    agree, error = measure()
    weights = {"w1": net.l1.weight.T, "b1": net.l1.bias, "w2": net.l2.weight.T,
               "b2": net.l2.bias, "w3": net.pi.weight.T, "b3": net.pi.bias,
               "wv": net.v.weight.T, "bv": net.v.bias}
    save_general(out, {k: t.detach().numpy().astype(np.float32) for k, t in weights.items()})
    return Report(len(data), done, time.monotonic() - begin, agree, error)


def improve(variant: Variant, out: Path, *, minutes: float = 15.0, jobs: int = 2,
            init: Path = GENERAL_POLICY, seed: int = 0,
            log: Callable[[str], None] = lambda _: None) -> TuneReport:
    """``meio train --variant``: tune the general network at ``init`` for ``variant`` in
    about ``minutes`` of wall time on ``jobs`` processes, saved at ``out``: games of the
    ruleset's heuristic in the compiled core, each decision's actions valued by playing
    them out, then training from ``init`` (:func:`meio.rl.tune.improve`)."""
    from meio.rl.tune import improve as tune_improve

    return tune_improve(variant, out, minutes=minutes, jobs=jobs, init=init, seed=seed,
                        log=log)


__all__ = ["HELD_OUT", "TEACHER", "TEMPERATURE", "Batch", "GeneralTrainingError", "Report",
           "generate", "improve", "is_held_out", "play_round", "random_ruleset", "random_table",
           "train"]
