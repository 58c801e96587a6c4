"""An outside agent for ``meio bench --agent``: copy this file and put your policy in
``choose``.

    meio bench --bots heuristic,random --agent examples/bench_agent.py:make_agent --deals 20

``make_agent(seed)`` is called once per seat and deal with the seed of that seat, and
returns the bot: any object with a ``name`` and ``choose(view, legal) -> int``. The
view is the seat's own (:class:`meio.engine.View`: its hand, the trick, what was
played; never another seat's hidden cards) and ``legal`` the engine actions allowed
now. To use a network trained on the environments, turn the view into its
observation and mask (``meio.rl.observe(view)``, ``meio.bots.spaces.legal_mask(view)``)
and map the chosen flat action back with ``meio.bots.spaces.to_engine_action``.

This one plays a random legal action, in play through the flat mask (the road a
trained policy takes from view to action); it is as weak as ``random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from meio.bots.spaces import legal_mask, to_engine_action
from meio.engine import Phase, View


class ExampleAgent:
    """Splits at random; in play, a flat action drawn at random from the legal mask
    (a seeded generator, so a benchmark reproduces)."""

    name = "example-agent"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if view.phase is Phase.SPLIT:
            return self.rng.choice(list(legal))
        mask = legal_mask(view)
        flat = int(self.rng.choice(list(np.flatnonzero(mask))))
        action = to_engine_action(flat, view)
        return action if action in legal else self.rng.choice(list(legal))


def make_agent(seed: int) -> ExampleAgent:
    """The factory ``meio bench --agent examples/bench_agent.py:make_agent`` calls."""
    return ExampleAgent(seed)
