"""A policy exported to ONNX, played as a bot (``meio bench --agent policy.onnx``).

The model maps a batch of observations (``meio-obs-v1``: :func:`meio.bots.observation.
observe`, 716 float32 entries) to one logit per action: the 1,812 flat actions
(``meio-action-v1``, :mod:`meio.bots.spaces`; the split is one pack) or the 96 compact
ones (``meio-compact-action-v1``; the split is six picks, as the shipped networks make
it). The bot plays the legal action with the highest logit, so it is deterministic.
Like every bot it sees only its seat's view. onnxruntime runs the model, on one
thread (``pip install onnxruntime``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from meio.bots import spaces as S
from meio.bots.observation import OBS_SIZE, observe
from meio.engine import Phase, View
from meio.engine import actions as A
from meio.tournament.agent_error import AgentError

_COMPACT = np.array(S.COMPACT_ACTIONS, dtype=np.int64)


@lru_cache(maxsize=8)
def _session(path: str) -> tuple[Any, str, int]:
    """The model's session, its input's name and its number of outputs (checked once)."""
    try:
        import onnxruntime as ort
    except ModuleNotFoundError:
        raise AgentError(f"agent {path}: playing an ONNX policy needs onnxruntime "
                         "(pip install onnxruntime)") from None
    if not Path(path).is_file():
        raise AgentError(f"agent {path}: no such file")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        out = session.run(None, {name: np.zeros((1, OBS_SIZE), dtype=np.float32)})[0]
    except Exception as exc:  # onnxruntime's own errors: a broken or foreign model
        raise AgentError(f"agent {path}: not a model of a {OBS_SIZE}-entry observation "
                         f"({exc})") from None
    width = int(np.asarray(out).reshape(-1).shape[0])
    if width not in (S.NUM_ACTIONS, len(_COMPACT)):
        raise AgentError(f"agent {path}: the model has {width} outputs; a MEIO policy has "
                         f"{S.NUM_ACTIONS} (flat actions) or {len(_COMPACT)} (compact)")
    return session, name, width


class OnnxBot:
    """The bot of an ONNX policy file (see the module docstring)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = path
        self.session, self.input, self.width = _session(path)

    def _logits(self, obs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        out = self.session.run(None, {self.input: obs[None, :].astype(np.float32)})[0]
        return np.asarray(out, dtype=np.float64).reshape(-1)

    def _best(self, obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        if self.width == len(_COMPACT):
            mask = mask[_COMPACT]
        logits = np.where(mask, self._logits(obs), -np.inf)
        best = int(np.argmax(logits))
        return int(_COMPACT[best]) if self.width == len(_COMPACT) else best

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if self.width == len(_COMPACT) and view.phase is Phase.SPLIT:
            picked = 0
            for _ in range(6):
                mask = S.legal_mask(view, split_mode="sequential", picked=picked)
                picked |= 1 << S.pick_card(self._best(observe(view, picked=picked), mask),
                                           view.hand)
            action = A.pack_action(picked)
        else:
            flat = self._best(observe(view), S.legal_mask(view))
            action = S.to_engine_action(flat, view)
        if action not in legal:
            raise AgentError(f"agent {self.path} chose {A.action_text(action)}, which the "
                             "rules do not allow here")
        return action


__all__ = ["OnnxBot"]
