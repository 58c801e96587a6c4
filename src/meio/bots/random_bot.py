"""The baseline: uniform over the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from meio.engine import View


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]

