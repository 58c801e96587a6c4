"""The JAX environment against the engine, game for game.

Each match is drawn by the JAX environment (its specials, deals and leaders) and
played by random legal actions in lockstep through :class:`meio.engine.State`, which
is given the same specials, deals and leaders: at every step both must agree on the
seat to act, the phase and the legal actions, after every trick on its winner and
pile, and on the piles; at every round's end on the scores, totals, victories and
rewards, and that the JAX leader of the next round is one the engine allows; at the
end on the winners.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import jax
import numpy as np
import pytest

from meio.engine import MatchConfig, State, TableOptions, eligible_leaders
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.presets import preset
from meio.engine.ruleset_file import parse_variant
from meio.jaxenv import PICK_BASE, JaxGame
from meio.jaxenv.state import PILE, PLAY, SPLIT

#: a variant that changes what the data can change: no trump, a 6/7 split, squared
#: scores, the last trick's winner leads next, -2H free to play, Q+ worth 14
ODD = parse_variant(
    'preset = "meio"\ntrump = "none"\nleader = "last_trick"\n[hand]\nfirst_half = 6\n'
    'pack = 7\n[scoring]\nform = "squared"\n'
    '[[special]]\npreset = "-2H"\nfollows = false\n[[special]]\npreset = "Q+"\nvalue = 14\n'
    '[[special]]\npreset = "+.5"\n[[special]]\npreset = "-1"\n[[special]]\npreset = "A+"\n',
    "odd.toml",
)

TABLES: dict[str, MatchConfig] = {
    "meio-2": MatchConfig(players=2),
    "meio-3": MatchConfig(players=3),
    "meio-4": MatchConfig(players=4),
    "meio-5": MatchConfig(players=5),
    "meio-4-partnership": MatchConfig(players=4, partnership=True),
    "meio-4-next-hidden": MatchConfig(
        players=4, options=TableOptions(wild_lead="next", reveal_specials=False)),
    "classic-2": MatchConfig(edition="classic", players=2),
    "classic-3": MatchConfig(edition="classic", players=3),
    "classic-4-partnership": MatchConfig(edition="classic", players=4, partnership=True),
    "mini": MatchConfig(players=2, variant=preset("mini")),
    "odd-3": MatchConfig(players=3, variant=ODD),
}


@functools.cache
def compiled(name: str) -> tuple[JaxGame, Any, Any, Any]:
    game = JaxGame(TABLES[name])
    return game, jax.jit(game.init), jax.jit(game.step), jax.jit(game.legal_mask)


def engine_deal(state: Any, n: int) -> tuple[list[int], int, int]:
    dealt = np.asarray(state.dealt)
    hands = [C.mask_of(int(c) for c in dealt[s]) for s in range(n)]
    deck = C.mask_of(np.flatnonzero(np.asarray(state.deck)).tolist())
    aside = deck & ~sum(hands)
    return hands, aside, int(state.round_leader)


def play_lockstep(name: str, seed: int) -> dict[str, int]:
    """One match both ways; returns counts of what it went through."""
    _, init, step, mask_of = compiled(name)
    base = TABLES[name]
    n = base.players
    rng = random.Random(seed)
    js = init(jax.random.key(seed))
    deck = np.asarray(js.deck)
    specials = tuple(c for c in C.SPECIALS if deck[c])
    config = MatchConfig(
        edition=base.edition, players=n, partnership=base.partnership, specials=specials,
        first_leader=int(js.round_leader), options=base.options, variant=base.variant)
    assert config.deck == C.mask_of(np.flatnonzero(deck).tolist())
    st = State.new(config)
    st.redeal(*engine_deal(js, n))
    seen = {"steps": 0, "tricks": 0, "piles_chosen": 0, "rounds": 0, "declares": 0}
    picked: list[int] = []
    while not st.is_over:
        assert not bool(js.terminal)
        seat = int(js.current)
        assert seat == st.current_seat()
        assert int(js.phase) == int(st.phase)
        legal = np.flatnonzero(np.asarray(mask_of(js))).tolist()
        if int(js.phase) == SPLIT:
            dealt = np.asarray(js.dealt)[seat]
            held = C.mask_of(int(dealt[a - PICK_BASE]) for a in legal)
            assert held | C.mask_of(picked) == st.hands[seat]
            assert legal == [PICK_BASE + i for i, c in enumerate(dealt) if c not in picked]
            action = rng.choice(legal)
            picked.append(int(dealt[action - PICK_BASE]))
            js = step(js, action)
            if len(picked) == config.pack_size:
                st.apply(A.pack_action(C.mask_of(picked)), seat)
                picked = []
        else:
            assert legal == sorted(st.legal_actions())
            action = rng.choice(legal)
            seen["declares"] += A.is_declare(action)
            seen["piles_chosen"] += int(js.phase) == PILE
            out = st.apply(action)
            js = step(js, action)
            assert not bool(js.illegal)
            if out.trick is not None:
                seen["tricks"] += int(js.phase) == PLAY or out.round_over is not None
                assert int(js.last_winner) == out.trick.winner
                assert int(js.last_pile) == out.trick.pile
            result = out.round_over
            if result is not None:
                seen["rounds"] += 1
                assert np.asarray(js.round_scores).tolist() == list(result.scores)
                assert np.asarray(js.totals).tolist() == st.totals
                rewards = np.asarray(js.rewards).tolist()
                if config.partnership:
                    assert result.team_scores is not None
                    assert np.asarray(js.team_scores).tolist() == list(result.team_scores)
                    assert rewards == [-result.team_scores[s % 2] for s in range(n)]
                else:
                    assert rewards == [-v for v in result.scores]
                wins = st.victories
                if wins is not None:
                    assert np.asarray(js.wins)[: len(wins)].tolist() == wins
                if not st.is_over:
                    assert int(js.round_leader) in eligible_leaders(config, result)
                    st.redeal(*engine_deal(js, n))
            elif not st.is_over:
                assert np.asarray(js.piles).tolist() == st.piles
        seen["steps"] += 1
    assert bool(js.terminal)
    assert np.flatnonzero(np.asarray(js.winners)).tolist() == sorted(st.winners)
    assert int(js.rounds_done) == len(st.rounds)
    return seen


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_jax_environment_plays_every_match_as_the_engine_does(name: str) -> None:
    totals = {"steps": 0, "tricks": 0, "piles_chosen": 0, "rounds": 0, "declares": 0}
    for seed in range(3):
        for key, value in play_lockstep(name, 1000 * len(name) + seed).items():
            totals[key] += value
    assert totals["rounds"] >= 3 and totals["tricks"] >= 3 * TABLES[name].hand_size
