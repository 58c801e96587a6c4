"""Load the compiled kernels before anyone waits on them.

numba compiles a kernel on its first call and caches the machine code on disk, so
only a machine's very first use pays for compiling (about 10 s). :func:`warm_up`
makes that first use happen at set-up time (``make`` runs it after installing)
or in the background when a server or the terminal app starts, never on a
player's first click.
"""

from __future__ import annotations

import time


def warm_up() -> float:
    """Call every kernel once (compiling or loading it from the disk cache).

    Returns the seconds it took.
    """
    start = time.perf_counter()
    from meio.engine import MatchConfig, State
    from meio.sim.batch import simulate
    from meio.sim.convert import arrays_to_state, state_to_arrays
    from meio.sim.rollout import evaluate_actions

    config = MatchConfig(players=4, seed=0)
    simulate(config, 1, seed=0, policy="random", record=True)
    simulate(config, 1, seed=0, policy="heuristic", rounds=True)
    state = State.new(config)
    evaluate_actions([state], [state.legal_actions(0)[0]], 1, 0)
    for seat in range(config.players):
        state.apply(state.legal_actions(seat)[0], seat)
    evaluate_actions([state], list(state.legal_actions())[:2], 1, 0)
    arrays_to_state(state_to_arrays(state))
    # search:4's own kernels (the opponent model's likelihoods, meio.bots._likelihood)
    from meio.bots.search import Level, SearchBot

    tiny = Level(card_worlds=2, card_playouts=1, split_candidates=2, split_worlds=2,
                 split_playouts=1, pool=4, screen_worlds=1)
    bot = SearchBot(0, 4, budget=tiny)
    bot.choose(state.view(state.current_seat()), state.legal_actions())
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"meio.sim kernels ready in {warm_up():.1f} s")
