"""The small game solved: CFR, and every bot that plays it as a tabular policy.

On a game small enough to walk whole (the variant ``mini``, docs/rl.md) a bot's
play is a *tabular policy*: at every information state, the probabilities of its
actions. :func:`bot_probabilities` asks a bot at one state, showing it only what
the seat to act knows: the meio bots get ``state.view(seat)``; OpenSpiel's ISMCTS
searches from a world resampled from the information state (its seed drawn from
the information state's text), never the true state. So the answer depends on the
information state alone, which :func:`bot_policy` relies on when it asks once per
information state. OpenSpiel's C++ ``exploitability`` and ``nash_conv`` then
score the policy exactly; :func:`solve` runs OpenSpiel's C++ CFR on the game.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import pyspiel

from meio.bots import make_bot
from meio.bots import spaces as S
from meio.bots.advisor import advise_view
from meio.bots.variant_play import check_variant_bot
from meio.engine import ConfigError, Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.openspiel.ismcts import ISMCTSBot
from meio.openspiel.state import MeioState, _pack_positions

#: the meio bots a tabular policy is made of here (each asked once at every
#: information state): the random and heuristic bots, every search level (each with
#: its own fixed budget of worlds, so its answer depends on the view and the seed only),
#: ``learned-any`` (the network for any ruleset: its most likely action)
#: and ``advisor``: the split advisor's best pack (:func:`meio.bots.advisor.advise_view`,
#: :data:`ADVISOR_WORLDS` worlds) with the heuristic's play, so that beside the
#: ``heuristic`` row it measures the advisor's split alone
TABULAR_BOTS = ("random", "heuristic", "search:1", "search:2", "search:3", "search:4",
                "learned-any", "advisor")
#: the kinds that play exactly as another measured here (the row to read for them)
#: (``learned`` plays ``learned-any`` off the editions, so on every game solved here)
SAME_AS = {"search": "search:2", "expert": "search:4", "learned": "learned-any"}
#: the worlds the advisor's split is worked out from at each information state
ADVISOR_WORLDS = 64
#: the bots :func:`bot_probabilities` plays: :data:`TABULAR_BOTS` and OpenSpiel's ISMCTS
POLICY_BOTS = (*TABULAR_BOTS, "ismcts")

Probabilities = list[tuple[int, float]]


@dataclass(frozen=True, slots=True)
class GameSize:
    """The size of a game's tree: every node, the terminal ones, the decision nodes,
    and the information states of each player."""

    histories: int
    terminals: int
    decisions: int
    infostates: tuple[int, ...]


def decision_states(game: pyspiel.Game) -> tuple[dict[str, MeioState], GameSize]:
    """The first state met (depth first, actions in order) of every information
    state of the players to act, keyed by its information state string; and the
    tree's size."""
    first: dict[str, MeioState] = {}
    per_player: list[set[str]] = [set() for _ in range(game.num_players())]
    histories = terminals = decisions = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            terminals += 1
            continue
        if not state.is_chance_node():
            decisions += 1
            key = state.information_state_string()
            per_player[state.current_player()].add(key)
            first.setdefault(key, state)
        stack.extend(state.child(a) for a in reversed(state.legal_actions()))
    size = GameSize(histories, terminals, decisions, tuple(len(s) for s in per_player))
    return first, size


def _flat(state: MeioState, action: int) -> int:
    """The game's flat action of a bot's engine action (a pack becomes its number)."""
    if not A.is_pack(action):
        return action
    st = state.engine
    assert st is not None
    seat = state.current_player()
    cards = C.cards_of(st.hands[seat])
    bits = tuple(i for i, c in enumerate(cards) if A.pack_of(action) >> c & 1)
    params = state.get_game().params
    return S.PACK_BASE + _pack_positions(params.hand, params.pack).index(bits)


def _seed(seed: int, infostate: str) -> int:
    return zlib.crc32(infostate.encode()) ^ (seed * 0x9E3779B1 & 0xFFFFFFFF)


def bot_probabilities(kind: str, state: MeioState, *, seed: int = 0,
                      simulations: int = 20) -> Probabilities:
    """The action probabilities of bot ``kind`` at ``state`` (a decision node), from
    what its seat knows only: ``random`` (uniform over the legal actions), ``heuristic``
    (meio's, shown the seat's view), ``ismcts`` (OpenSpiel's ISMCTS of
    :class:`~meio.openspiel.ismcts.ISMCTSBot`, ``simulations`` a decision, seeded by
    ``seed`` and the information state, its final policy: the most visited
    actions, ties shared)."""
    legal = state.legal_actions()
    if kind == "random":
        return [(a, 1.0 / len(legal)) for a in legal]
    seat = state.current_player()
    infostate = state.information_state_string()
    if kind == "ismcts":
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        rng = random.Random(_seed(seed, infostate))
        world = state.resample_from_infostate(seat, rng.random)
        search = ISMCTSBot(state.get_game(), seed=_seed(seed, infostate),
                           max_simulations=simulations)
        return [(int(a), float(p)) for a, p in search.get_policy(world)]
    if kind not in TABULAR_BOTS:
        raise ConfigError(f"a tabular policy is made of {', '.join(POLICY_BOTS)}, "
                          f"not {kind!r}", field="bots")
    view = state.view(seat)
    assert view is not None
    if view.phase is Phase.SPLIT and state.get_game().params.sequential:
        raise ConfigError("a meio bot splits in one action: use split_mode 'pack'",
                          field="bots")
    if kind == "advisor":
        if view.phase is Phase.SPLIT:
            advice = advise_view(view, worlds=ADVISOR_WORLDS, seed=seed)
            return [(_flat(state, A.pack_action(advice.best.pack)), 1.0)]
        kind = "heuristic"
    player = make_bot(kind, seed)
    action = player.choose(view, view.legal_actions())
    return [(_flat(state, action), 1.0)]


def bot_policy(kind: str, states: dict[str, MeioState], *, seed: int = 0,
               simulations: int = 20) -> pyspiel.TabularPolicy:
    """Bot ``kind`` as a tabular policy: asked once at each information state of
    ``states`` (:func:`decision_states`)."""
    table: dict[str, Probabilities] = {}
    for key, state in states.items():
        chosen = dict(bot_probabilities(kind, state, seed=seed, simulations=simulations))
        # every legal action listed: OpenSpiel's best response asks for each one
        table[key] = [(a, chosen.get(a, 0.0)) for a in state.legal_actions()]
    return pyspiel.TabularPolicy(table)


def refused_bots(game: pyspiel.Game) -> dict[str, str]:
    """The other meio bots, each with the reason it is not measured here: it cannot
    play the game's variant, or it plays it but is not made a tabular policy here."""
    from meio.bots import bot_kinds

    config = game.new_initial_state().get_game().params.config(0, 0)
    out: dict[str, str] = {}
    for kind in bot_kinds():
        if kind in POLICY_BOTS:
            continue
        if kind in SAME_AS:
            out[kind] = f"plays as {SAME_AS[kind]} (that row)"
            continue
        base = kind.removesuffix("-any")
        if base != kind and SAME_AS.get(base, base) in POLICY_BOTS:
            # the general switch: on a variant a bot's general path is its only one
            out[kind] = f"plays as {SAME_AS.get(base, base)} (that row)"
            continue
        try:
            check_variant_bot(kind, config)
        except ConfigError as exc:
            out[kind] = str(exc)
        else:
            out[kind] = (f"the {kind} bot plays this variant but is not made a tabular "
                         f"policy here (its exploitability is not measured yet)")
    return out


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """CFR after ``iteration`` iterations: its average policy's exploitability
    (NashConv / 2) and the wall seconds so far."""

    iteration: int
    exploitability: float
    seconds: float


def solve(game: pyspiel.Game, iterations: int, checkpoints: tuple[int, ...], *,
          plus: bool = True) -> Iterator[tuple[Checkpoint, pyspiel.TabularPolicy]]:
    """Run OpenSpiel's C++ CFR+ (``plus``) or CFR on ``game`` for ``iterations``,
    yielding the average policy and its exact exploitability at each checkpoint
    (and at the end)."""
    solver = pyspiel.CFRPlusSolver(game) if plus else pyspiel.CFRSolver(game)
    marks = sorted({*(c for c in checkpoints if 0 < c < iterations), iterations})
    start = time.perf_counter()
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in marks:
            # a table of its own: ``average_policy()`` reads the solver, which goes
            avg = solver.tabular_average_policy()
            value = float(pyspiel.exploitability(game, avg))
            yield Checkpoint(i, value, time.perf_counter() - start), avg
