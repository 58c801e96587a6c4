"""The learned bots: a trained policy network, played greedily.

``make_bot("learned")`` plays the policy shipped with meio (:data:`DEFAULT_POLICY`:
``meio/bots/policies/distil-4p.npz``, a network distilled from search by ``meio
selfplay`` then ``meio train --from-selfplay``, :mod:`meio.rl.distil`; docs/bots.md
has its recipe and strength); ``make_bot("ppo")`` plays the policy trained by
reinforcement learning (``ppo-4p.npz``, by ``examples/train_ppo.py``);
``make_bot("learned:PATH")`` plays the policy file at ``PATH``. It sees only its
seat's view, like every bot, and needs NumPy alone: the policy is NumPy arrays,
saved, loaded and played without PyTorch (:mod:`meio.rl` trains and saves them).

A policy file is an ``.npz`` of float16 weights of a two-layer MLP
(``w1 b1 w2 b2 w3 b3``) mapping an observation (:mod:`meio.bots.observation`) to
one logit per *local* action: the 83 play, declare and pile actions and the 13
sequential split picks (:data:`LOCAL_ACTIONS`). The split is made as six picks.
A distilled network also has a value head (``wv bv``: the round's result for the
seat to act divided by 10, lower is better), for search to stand on. The same
weights are played in the compiled core by :mod:`meio.bots.netcore`.

>>> import numpy as np, tempfile, os
>>> rng = np.random.default_rng(0)
>>> shapes = {"w1": (716, 8), "b1": (8,), "w2": (8, 8), "b2": (8,), "w3": (8, 96), "b3": (96,)}
>>> weights = {k: rng.normal(size=s).astype(np.float32) for k, s in shapes.items()}
>>> path = os.path.join(tempfile.mkdtemp(), "p.npz")
>>> save_policy(path, weights, players=4)
>>> policy = load_policy(path)
>>> policy.hidden, policy.players
(8, 4)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.bots import spaces as S
from meio.bots.observation import OBS_SIZE, observe
from meio.engine import Phase, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError

#: flat actions the policy has an output for, in output order
LOCAL_ACTIONS: tuple[int, ...] = S.COMPACT_ACTIONS
_NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
_VALUE_NAMES = ("wv", "bv")
#: the sequential split picks' outputs among the local actions
_PICKS = slice(S.PACK_BASE, None)
#: the value head's output is the round's result divided by this
VALUE_SCALE = 10.0
F32 = npt.NDArray[np.float32]


class PolicyFileError(MeioError, ValueError):
    """A policy file that is missing or not a MEIO policy."""


@dataclass(frozen=True, slots=True, eq=False)
class LearnedPolicy:
    """The weights of a policy, in float32 for playing."""

    weights: tuple[F32, ...]
    players: int
    #: ``(wv, bv)`` of a network with a value head, else None
    value_head: tuple[F32, F32] | None = None

    @property
    def hidden(self) -> int:
        return int(self.weights[0].shape[1])

    def trunk(self, obs: F32) -> F32:
        """The second hidden layer of one observation (or a batch of them)."""
        w1, b1, w2, b2 = self.weights[:4]
        h = np.maximum(obs @ w1 + b1, 0.0)
        out: F32 = np.maximum(h @ w2 + b2, 0.0)
        return out

    def logits(self, obs: F32) -> F32:
        """The local-action logits of one observation (or a batch of them)."""
        out: F32 = self.trunk(obs) @ self.weights[4] + self.weights[5]
        return out

    def value(self, obs: F32) -> float:
        """The value head's estimate of the round's result for the seat to act (its
        objective, as search judges it, in points; lower is better)."""
        if self.value_head is None:
            raise PolicyFileError("this policy has no value head (a distilled one has)")
        wv, bv = self.value_head
        return float((self.trunk(obs) @ wv + bv)[0]) * VALUE_SCALE

    def best(self, obs: F32, mask: npt.NDArray[np.bool_]) -> int:
        """The flat action with the highest logit among those ``mask`` allows."""
        local_mask = mask[list(LOCAL_ACTIONS)]
        if not local_mask.any():
            raise PolicyFileError("the policy has no output for any legal action here")
        logits = np.where(local_mask, self.logits(obs), -np.inf)
        return LOCAL_ACTIONS[int(np.argmax(logits))]

    def choose(self, view: View) -> int:
        """The engine action this policy plays in ``view`` (greedy)."""
        if view.phase is Phase.SPLIT:
            picked = 0
            for _ in range(6):
                mask = S.legal_mask(view, split_mode="sequential", picked=picked)
                flat = self.best(observe(view, picked=picked), mask)
                picked |= 1 << S.pick_card(flat, view.hand)
            return A.pack_action(picked)
        return self.best(observe(view), S.legal_mask(view))

    def top_packs(self, view: View, count: int) -> list[int]:
        """The ``count`` packs (bitmasks) the network likes best at this split, best
        first: a beam search over its six picks, ``count`` partial packs wide, each
        scored by the sum of its picks' log-probabilities. The first is the pack
        :meth:`choose` plays."""
        # one observation at a time: a batch would make a matrix product big enough for
        # OpenBLAS to start its threads, whose spinning cost twenty times the work on a
        # busy machine (a split of search:5 at a quarter of its worlds: 220 ms of CPU
        # against 9 ms)
        beam = beam_packs(view, count, 6,
                          lambda picked: self.logits(observe(view, picked=picked))[_PICKS])
        greedy = A.pack_of(self.choose(view))
        packs = [greedy, *(pack for pack in beam if pack != greedy)]
        return packs[:count]


def beam_packs(view: View, count: int, size: int,
               card_logits: Callable[[int], npt.NDArray[Any]]) -> list[int]:
    """A network's ``count`` best packs of ``size`` cards at ``view``'s split (bitmasks,
    best first): a beam over its picks, ``count`` partial packs wide, each scored by the
    sum of its picks' log-probabilities. ``card_logits(picked)`` gives the network's pick
    logit of each card of the hand (in :func:`~meio.engine.cards.cards_of` order) with
    the cards of the mask ``picked`` already picked. Ties go to the lower mask."""
    if view.phase is not Phase.SPLIT:
        raise ValueError("packs are chosen at the split")
    if count < 1:
        raise ValueError(f"count must be 1 or more, not {count}")
    cards = C.cards_of(view.hand)
    beam: list[tuple[float, int]] = [(0.0, 0)]  # (log-probability, picked cards)
    for _ in range(size):
        scored: dict[int, float] = {}
        for logp, picked in beam:
            logits = np.asarray(card_logits(picked), dtype=np.float64)
            open_ = [i for i, card in enumerate(cards) if not picked >> card & 1]
            chosen = logits[open_]
            top = chosen.max()
            logq = chosen - top - math.log(float(np.exp(chosen - top).sum()))
            for i, lq in zip(open_, logq, strict=True):
                pack = picked | 1 << cards[i]
                scored[pack] = max(scored.get(pack, -math.inf), logp + float(lq))
        ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))
        beam = [(logp, pack) for pack, logp in ranked[:count]]
    return [pack for _, pack in beam]


def save_policy(path: str | os.PathLike[str], weights: dict[str, Any], *, players: int) -> None:
    """Write ``weights`` (arrays named ``w1 b1 w2 b2 w3 b3``, and ``wv bv`` for a value
    head) as float16."""
    names = _NAMES + (_VALUE_NAMES if "wv" in weights else ())
    arrays: dict[str, Any] = {name: np.asarray(weights[name], dtype=np.float16)
                              for name in names}
    arrays["players"] = np.array(players)
    arrays["format"] = np.array("meio-policy/1")
    np.savez_compressed(path, **arrays)


def load_policy(path: str | os.PathLike[str]) -> LearnedPolicy:
    """Read a policy file; raises :class:`PolicyFileError` with the reason."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) != "meio-policy/1":
                raise PolicyFileError(template="{path}: not a meio-policy/1 file", path=str(path))
            weights = tuple(np.asarray(data[name], dtype=np.float32) for name in _NAMES)
            players = int(data["players"])
            head = None
            if "wv" in data:
                head = (np.asarray(data["wv"], dtype=np.float32),
                        np.asarray(data["bv"], dtype=np.float32))
    except FileNotFoundError:
        raise PolicyFileError(template="no policy file at {path}", path=str(path)) from None
    except (KeyError, ValueError, OSError) as exc:
        if isinstance(exc, PolicyFileError):
            raise
        raise PolicyFileError(f"{path}: not a MEIO policy file ({exc})") from None
    if weights[0].shape[0] != OBS_SIZE or weights[4].shape[1] != len(LOCAL_ACTIONS):
        raise PolicyFileError(
            f"{path}: the policy reads {weights[0].shape[0]} inputs and has "
            f"{weights[4].shape[1]} outputs; this meio needs {OBS_SIZE} and {len(LOCAL_ACTIONS)}"
        )
    if head is not None and head[0].shape != (weights[2].shape[1], 1):
        raise PolicyFileError(f"{path}: the value head does not fit the hidden layers")
    return LearnedPolicy(weights, players, head)


def describe(policy: LearnedPolicy) -> str:
    """A one-line summary of a policy."""
    params = sum(w.size for w in policy.weights)
    return f"MLP {OBS_SIZE}-{policy.hidden}-{policy.hidden}-{len(LOCAL_ACTIONS)}, " \
        f"{params:,} weights, trained at a {policy.players}-seat table"


_POLICIES = Path(__file__).resolve().parent / "policies"
#: the policy file that ``make_bot("learned")`` plays
DEFAULT_POLICY = _POLICIES / "distil-4p.npz"
#: the policy file that ``make_bot("ppo")`` plays: trained by PPO (:mod:`meio.rl.train`)
PPO_POLICY = _POLICIES / "ppo-4p.npz"


@lru_cache(maxsize=8)
def _policy(path: str) -> LearnedPolicy:
    return load_policy(path)


def cached_policy(path: str | os.PathLike[str]) -> LearnedPolicy:
    """The policy file at ``path``, read once a process (a server builds a bot for every
    bot move; the weights are never changed in place)."""
    return _policy(str(path))


class LearnedBot:
    """Plays the highest-scoring legal action of a trained policy (deterministic)."""

    def __init__(self, path: str | Path = DEFAULT_POLICY, seed: int = 0,
                 name: str | None = None) -> None:
        self.path = str(path)
        self.seed = seed
        self.policy = _policy(self.path)
        shipped = "learned" if Path(path) == DEFAULT_POLICY else f"learned:{path}"
        self.name = name or shipped

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        action = self.policy.choose(view)
        if action not in legal:
            raise PolicyFileError(
                f"the policy chose {A.action_text(action)}, which the rules do not allow here"
            )
        return action


def learned_bot(kind: str, seed: int = 0) -> LearnedBot:
    """The bot of ``"learned"`` or ``"learned:PATH"``."""
    path = kind.removeprefix("learned").removeprefix(":") or str(DEFAULT_POLICY)
    return LearnedBot(path, seed)


def default_learned_bot(seed: int = 0) -> LearnedBot:
    """The bot of ``"learned"``: the network distilled from search, shipped with meio."""
    return LearnedBot(DEFAULT_POLICY, seed)


def ppo_bot(seed: int = 0) -> LearnedBot:
    """The bot of ``"ppo"``: the policy trained by PPO, shipped with meio."""
    return LearnedBot(PPO_POLICY, seed, name="ppo")


__all__ = ["DEFAULT_POLICY", "LOCAL_ACTIONS", "PPO_POLICY", "VALUE_SCALE", "LearnedBot",
           "LearnedPolicy", "PolicyFileError", "cached_policy", "default_learned_bot", "describe",
           "learned_bot", "load_policy", "ppo_bot", "save_policy"]
