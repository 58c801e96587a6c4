"""The learned bot: a policy trained with reinforcement learning, played greedily.

``make_bot("learned")`` plays the policy shipped with meio
(``meio/rl/policies/ppo-4p.npz``, trained by ``examples/train_ppo.py`` at the
4-seat table); ``make_bot("learned:PATH")`` plays the policy file at ``PATH``.
It sees only its seat's view, like every bot, and needs NumPy alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from meio.engine import View
from meio.engine import actions as A
from meio.rl.learned import LearnedPolicy, PolicyFileError, load_policy

#: the policy file that ``make_bot("learned")`` plays
DEFAULT_POLICY = Path(__file__).resolve().parent.parent / "rl" / "policies" / "ppo-4p.npz"


@lru_cache(maxsize=8)
def _policy(path: str) -> LearnedPolicy:
    return load_policy(path)


class LearnedBot:
    """Plays the highest-scoring legal action of a trained policy (deterministic)."""

    def __init__(self, path: str | Path = DEFAULT_POLICY, seed: int = 0) -> None:
        self.path = str(path)
        self.seed = seed
        self.policy = _policy(self.path)
        self.name = "learned" if Path(path) == DEFAULT_POLICY else f"learned:{path}"

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
    """The bot of ``"learned"``: the policy shipped with meio."""
    return LearnedBot(DEFAULT_POLICY, seed)
