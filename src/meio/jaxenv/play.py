"""Whole matches in JAX: random legal play, and a checked step for one match.

:func:`random_matches` is what ``bench/jax_env.py`` measures; tests/jax plays it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from meio.engine.errors import IllegalActionError
from meio.jaxenv.game import NUM_ACTIONS, JaxGame
from meio.jaxenv.state import GameState


def random_action(game: JaxGame, state: GameState, key: jax.Array) -> jax.Array:
    """A legal action of ``state`` drawn uniformly (action 0 once the match is over)."""
    return pick(game.legal_mask(state), jax.random.uniform(key))


def pick(mask: jax.Array, draw: jax.Array) -> jax.Array:
    """The legal action of ``mask`` that a uniform ``draw`` in [0, 1) selects, each
    legal action as likely (one number a match: far cheaper under vmap than a
    categorical draw over the 96 actions)."""
    count = mask.sum()
    index = jnp.minimum(jnp.floor(draw * count), count - 1).astype(jnp.int32)
    return jnp.argmax(mask & (jnp.cumsum(mask) - 1 == index)).astype(jnp.int32)


def random_matches(game: JaxGame, key: jax.Array, batch: int) -> GameState:
    """``batch`` matches played to their end by uniformly random legal actions, as one
    ``jax.lax.while_loop`` over the vmapped step (jit it; ``batch`` is static)."""
    k_init, k_play = jax.random.split(key)
    states = jax.vmap(game.init)(jax.random.split(k_init, batch))
    step = jax.vmap(game.step)
    masks = jax.vmap(game.legal_mask)
    choose = jax.vmap(pick)

    def more(carry: tuple[GameState, jax.Array]) -> jax.Array:
        return ~jnp.all(carry[0].terminal)

    def one(carry: tuple[GameState, jax.Array]) -> tuple[GameState, jax.Array]:
        s, k = carry
        k, sub = jax.random.split(k)
        actions = choose(masks(s), jax.random.uniform(sub, (batch,)))
        moved = step(s, actions)
        # a finished match stays as it ended (its step would only flag an illegal action)
        kept = jax.tree.map(
            lambda new, old: jnp.where(
                s.terminal.reshape((batch,) + (1,) * (new.ndim - 1)), old, new),
            moved, s)
        return kept, k

    final, _ = jax.lax.while_loop(more, one, (states, k_play))
    return final


def checked_step(game: JaxGame, state: GameState, action: int) -> GameState:
    """:meth:`JaxGame.step` for one match (no batch axis), raising
    :class:`~meio.engine.IllegalActionError` for an action the rules do not allow
    there; the state given is never changed (it is an immutable value)."""
    if np.ndim(state.phase) != 0:
        raise ValueError("checked_step takes one match; a batch has a leading axis")
    seat = int(state.current)
    if bool(state.terminal):
        raise IllegalActionError(None, action, "the match is over: no action is allowed")
    if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < NUM_ACTIONS:
        raise IllegalActionError(
            seat, action, f"{action!r} is not an action of the JAX environment "
            f"(0 to {NUM_ACTIONS - 1})")
    if not bool(game.legal_mask(state)[int(action)]):
        legal = np.flatnonzero(np.asarray(game.legal_mask(state))).tolist()
        raise IllegalActionError(
            seat, action, f"seat {seat} may not take action {action} now (its legal actions: "
            f"{legal})")
    return game.step(state, int(action))
