"""Load the compiled kernels before anyone waits on them.

numba compiles a kernel on its first call and caches the machine code on disk
(keyed by the kernel's source file), so only a machine's very first use pays for
compiling (about 30 s for the core and search, as much again for the network).
:func:`warm_up` makes that first use happen at set-up time (``make`` and the Docker
image run ``python -m meio.warm``) or in the background when a server or the terminal
app starts, never on a player's first click.

This module sits above the packages whose kernels it calls: the simulation core
(:mod:`meio.sim.core`), the search bot's likelihoods (:mod:`meio.bots.likelihood`),
the network in the core (:mod:`meio.bots.netcore`, :func:`warm_up_network`) and the RL
environments' kernels (:mod:`meio.rl.envcore`, :func:`warm_up_rl`).
"""

from __future__ import annotations

import importlib.util
import time


def warm_up() -> float:
    """Call every kernel of the core and of the search bot once (compiling it or
    loading it from the disk cache). Returns the seconds it took."""
    start = time.perf_counter()
    from meio.bots.search import Level, SearchBot
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
    # search:4's own kernels (the opponent model's likelihoods)
    tiny = Level(card_worlds=2, card_playouts=1, split_candidates=2, split_worlds=2,
                 split_playouts=1, pool=4, screen_worlds=1)
    bot = SearchBot(0, 4, budget=tiny)
    bot.choose(state.view(state.current_seat()), state.legal_actions())
    return time.perf_counter() - start


def warm_up_network() -> float:
    """Call the kernels of the network in the compiled core once: its playouts for
    ``search:6`` (:func:`meio.bots.netcore.evaluate_net`, which holds its features and
    forward pass) and its whole games (:func:`meio.bots.netcore.simulate_net`, ``meio
    analyze --bots learned``). At set-up time only: a server's start does not load
    the network for kinds few tables ask for. Returns the seconds it took."""
    start = time.perf_counter()
    from meio.bots.learned import DEFAULT_POLICY, cached_policy
    from meio.bots.netcore import simulate
    from meio.bots.netsearch import NET_PLAYOUT_LEVEL, NetSearchBot
    from meio.engine import MatchConfig, State

    config = MatchConfig(players=4, seed=0)
    simulate(config, 0, 1, 0, cached_policy(DEFAULT_POLICY))
    state = State.new(config)
    for seat in range(config.players):
        state.apply(state.legal_actions(seat)[0], seat)
    tiny = NET_PLAYOUT_LEVEL._replace(card_worlds=2, split_worlds=2, pool=4)
    bot = NetSearchBot(0, playouts="network", budget=tiny, sure=1.1)
    bot.choose(state.view(state.current_seat()), state.legal_actions())
    return time.perf_counter() - start


def warm_up_rl() -> float:
    """Call every kernel of the RL environments once (they need Gymnasium, the
    ``gym`` extra). Returns the seconds it took."""
    start = time.perf_counter()
    from meio.rl import VectorEnv
    from meio.rl.env import MeioEnv

    venv = VectorEnv(num_envs=2, players=4, opponents="heuristic", seed=0)
    venv.reset()
    for _ in range(20):
        venv.step(venv.sample_actions())
    env = MeioEnv(players=4, opponents="heuristic", seed=0)
    _, info = env.reset()
    env.step(int(info["action_mask"].argmax()))
    return time.perf_counter() - start


def main() -> None:
    """``python -m meio.warm``: the core's and the search bot's kernels, the
    network's, then the RL kernels where Gymnasium is installed."""
    print(f"meio.sim and meio.bots kernels ready in {warm_up():.1f} s")
    print(f"the network's kernels ready in {warm_up_network():.1f} s")
    if importlib.util.find_spec("gymnasium") is not None:
        print(f"meio.rl kernels ready in {warm_up_rl():.1f} s")


if __name__ == "__main__":
    main()
