"""MEIO in JAX: a pure-functional environment that ``jit`` and ``vmap`` take whole.

The engine (:mod:`meio.engine`) stays the reference; this package plays the same
game on fixed-shape arrays, so thousands of matches step at once on a CPU or an
accelerator, and is checked against the engine game for game (tests/jax). It reads
the ruleset as data (:mod:`meio.jaxenv.rules`). docs/jax.md says what it supports.

Importing it needs the ``jax`` extra (``pip install meio[jax]``).
"""

from meio.jaxenv.game import NUM_ACTIONS, OBSERVATION_PARTS, OBSERVATION_SIZE, PICK_BASE, JaxGame
from meio.jaxenv.play import checked_step, random_action, random_matches
from meio.jaxenv.rules import TableRules, UnsupportedRules
from meio.jaxenv.state import OVER, PILE, PLAY, SPLIT, GameState

__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_PARTS",
    "OBSERVATION_SIZE",
    "OVER",
    "PICK_BASE",
    "PILE",
    "PLAY",
    "SPLIT",
    "GameState",
    "JaxGame",
    "TableRules",
    "UnsupportedRules",
    "checked_step",
    "random_action",
    "random_matches",
]
