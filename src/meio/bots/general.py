"""The network for any ruleset: one MLP that reads the attribute encoding and plays
every variant a designer writes.

The editions' network (:mod:`meio.bots.learned`, ``learned-v7``) reads card ids, which
mean different cards once the rules move. This one reads
:func:`meio.bots.attributes.observe_any` (1,941 entries: the standard observation, what
each card is in this ruleset, the ruleset's numbers and each plane's pooled attributes)
and has one output per *general local action* (:data:`OUTPUTS`, 148): the 83 play,
declare and pile actions by their flat ids, then one "put this card in the pack" pick
per card id, so that a split of any hand and pack size is ``pack`` sequential picks.

Design (docs/bots.md, "The network for any ruleset"): a two-layer MLP of 256 units with
a value head, the shape of ``learned-v7``, on the attribute encoding. A per-card shared
encoder pooled over each plane is the other common design (Deep Sets); its linear form
is already in the input (the pooled block), which keeps one dense first layer, so the
compiled core can fold each ruleset's constant inputs into the first layer's bias and
play it at the editions' network's cost.

``make_bot("learned")`` at a table whose ruleset is not an edition plays the shipped
general network (:data:`GENERAL_POLICY`, ``learned-any-v1``); ``learned:PATH`` plays the
file at ``PATH``, of either kind (``meio train --variant FILE`` writes this kind).

A file is an ``.npz`` of float16 ``w1 b1 w2 b2 w3 b3`` (and ``wv bv``) with
``format = "meio-any-policy/1"``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.bots.attributes import ANY_SIZE, observe_any
from meio.engine import Phase, View
from meio.engine import actions as A
from meio.engine.errors import MeioError
from meio.engine.presets import is_standard

FORMAT = "meio-any-policy/1"
#: the play, declare and pile outputs (their flat ids), then the picks by card id
PICK_BASE = A.PILE_2 + 1  # 83
OUTPUTS = PICK_BASE + 65
#: the value head's output is the round's result divided by this
VALUE_SCALE = 10.0
_NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
F32 = npt.NDArray[np.float32]

_POLICIES = Path(__file__).resolve().parent / "policies"
#: the general network shipped with meio (``learned-any-v1``)
GENERAL_POLICY = _POLICIES / "any-v1.npz"


class GeneralPolicyError(MeioError, ValueError):
    """A general policy file that is missing or not one."""


@dataclass(frozen=True, slots=True, eq=False)
class GeneralPolicy:
    """The weights of a general network, in float32."""

    weights: tuple[F32, ...]
    value_head: tuple[F32, F32] | None = None

    @property
    def hidden(self) -> int:
        return int(self.weights[0].shape[1])

    def trunk(self, x: F32) -> F32:
        """The hidden layers' output. One input's first layer sums the rows of its
        non-zero entries only (about 300 of :data:`~meio.bots.attributes.ANY_SIZE`): the
        dense product is large enough for OpenBLAS to start its threads, whose spinning
        cost about 80 times the work on a busy machine (8 ms of CPU against 0.1 ms)."""
        w1, b1, w2, b2 = self.weights[:4]
        if x.ndim == 1:
            nonzero = np.flatnonzero(x)
            h = np.maximum(x[nonzero] @ w1[nonzero] + b1, 0.0)
        else:
            h = np.maximum(x @ w1 + b1, 0.0)
        out: F32 = np.maximum(h @ w2 + b2, 0.0)
        return out

    def logits(self, x: F32) -> F32:
        """The :data:`OUTPUTS` logits of one input (or a batch)."""
        out: F32 = self.trunk(x) @ self.weights[4] + self.weights[5]
        return out

    def value(self, x: F32) -> float:
        """The value head's estimate of the round's result for the seat (lower is better)."""
        if self.value_head is None:
            raise GeneralPolicyError("this network has no value head")
        wv, bv = self.value_head
        return float((self.trunk(x) @ wv + bv)[0]) * VALUE_SCALE

    def pack(self, view: View) -> int:
        """The pack (a bitmask) this network picks at ``view``'s split, card by card."""
        if view.phase is not Phase.SPLIT:
            raise ValueError("packs are chosen at the split")
        hand = view.hand
        picked = 0
        for _ in range(view.config.pack_size):
            logits = self.logits(observe_any(view, picked=picked))
            best, best_v = -1, -np.inf
            rest = hand & ~picked
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                rest ^= low
                if logits[PICK_BASE + card] > best_v:
                    best, best_v = card, float(logits[PICK_BASE + card])
            picked |= 1 << best
        return picked

    def choose(self, view: View, legal: Sequence[int] | None = None) -> int:
        """The engine action this network plays in ``view`` (greedy)."""
        if view.phase is Phase.SPLIT:
            return A.pack_action(self.pack(view))
        options = list(view.legal_actions() if legal is None else legal)
        if not options:
            raise ValueError("no legal action to choose from")
        if len(options) == 1:
            return options[0]
        logits = self.logits(observe_any(view))
        return max(options, key=lambda a: float(logits[a]))


def save_general(path: str | os.PathLike[str], weights: dict[str, Any]) -> None:
    """Write a general network (``w1 b1 w2 b2 w3 b3``, and ``wv bv``) as float16."""
    names = _NAMES + (("wv", "bv") if "wv" in weights else ())
    arrays: dict[str, Any] = {n: np.asarray(weights[n], dtype=np.float16) for n in names}
    arrays["format"] = np.array(FORMAT)
    np.savez_compressed(path, **arrays)


def is_general_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a general network (else, e.g., an editions' one)."""
    try:
        with np.load(path) as data:
            return "format" in data and str(data["format"]) == FORMAT
    except (OSError, ValueError):
        return False


def load_general(path: str | os.PathLike[str]) -> GeneralPolicy:
    """Read a general network file; :class:`GeneralPolicyError` with the reason."""
    try:
        with np.load(path) as data:
            if "format" not in data or str(data["format"]) != FORMAT:
                raise GeneralPolicyError(f"{path}: not a {FORMAT} file")
            weights = tuple(np.asarray(data[n], dtype=np.float32) for n in _NAMES)
            head = None
            if "wv" in data:
                head = (np.asarray(data["wv"], dtype=np.float32),
                        np.asarray(data["bv"], dtype=np.float32))
    except FileNotFoundError:
        raise GeneralPolicyError(f"no network file at {path}") from None
    except (KeyError, OSError, ValueError) as exc:
        if isinstance(exc, GeneralPolicyError):
            raise
        raise GeneralPolicyError(f"{path}: not a MEIO network file ({exc})") from None
    if weights[0].shape[0] != ANY_SIZE or weights[4].shape[1] != OUTPUTS:
        raise GeneralPolicyError(
            f"{path}: the network reads {weights[0].shape[0]} inputs and has "
            f"{weights[4].shape[1]} outputs; this meio needs {ANY_SIZE} and {OUTPUTS}")
    return GeneralPolicy(weights, head)


@lru_cache(maxsize=8)
def cached_general(path: str) -> GeneralPolicy:
    """The general network at ``path``, read once a process."""
    return load_general(path)


class GeneralBot:
    """Plays the general network's highest-scoring legal action (deterministic)."""

    def __init__(self, path: str | Path = GENERAL_POLICY, seed: int = 0,
                 name: str | None = None) -> None:
        self.path = str(path)
        self.seed = seed
        self.policy = cached_general(self.path)
        self.name = name or ("learned" if Path(path) == GENERAL_POLICY else f"learned:{path}")

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        action = self.policy.choose(view, legal)
        if action not in legal:
            raise GeneralPolicyError(
                f"the network chose {A.action_text(action)}, which the rules do not allow here")
        return action




class LearnedLevelBot:
    """``learned``: the editions' network (``learned-v7``) on an edition's table, the
    general network (``learned-any-v1``) on any other ruleset. The editions' play is
    exactly ``learned-v7``'s, so the standard game is not weaker."""

    def __init__(self, seed: int = 0, name: str = "learned") -> None:
        from meio.bots.learned import DEFAULT_POLICY, LearnedBot

        self.seed = seed
        self.name = name
        self.editions = LearnedBot(DEFAULT_POLICY, seed)
        self._general: GeneralBot | None = None

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if is_standard(view.config.ruleset):
            return self.editions.choose(view, legal)
        if self._general is None:
            self._general = GeneralBot(GENERAL_POLICY, self.seed)
        return self._general.choose(view, legal)


def general_bot(seed: int = 0) -> GeneralBot:
    """The bot of ``learned-any``: the shipped general network on every ruleset."""
    return GeneralBot(GENERAL_POLICY, seed, name="learned-any")


__all__ = ["FORMAT", "GENERAL_POLICY", "OUTPUTS", "PICK_BASE", "VALUE_SCALE", "GeneralBot",
           "GeneralPolicy", "GeneralPolicyError", "LearnedLevelBot", "cached_general",
           "general_bot", "is_general_file", "load_general", "save_general"]
