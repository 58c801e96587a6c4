"""The compiled simulation core: MEIO played on arrays by numba.

The pure-Python engine (:mod:`meio.engine`) is the readable reference; this
package plays the same game fast, for batch simulation and for the rollouts of
search bots, and is checked against the engine game for game (tests/sim).

* :func:`simulate` plays many seeded rounds or matches and can export each as a
  ``meio-record/1`` record;
* :func:`evaluate_actions` scores candidate actions by playouts of the round;
* :func:`state_to_arrays` / :func:`arrays_to_state` convert positions.

Importing this package loads numba; compiled kernels are cached on disk
(``cache=True``), so only the very first use on a machine pays for compiling.
"""

from meio.sim.batch import SimResult, as_config, simulate
from meio.sim.convert import CorePosition, arrays_to_state, position_of_round, state_to_arrays
from meio.sim.rollout import evaluate_actions
from meio.sim.tables import POLICIES, CoreTables, tables_for

__all__ = [
    "POLICIES",
    "CorePosition",
    "CoreTables",
    "SimResult",
    "arrays_to_state",
    "as_config",
    "evaluate_actions",
    "position_of_round",
    "simulate",
    "state_to_arrays",
    "tables_for",
]
